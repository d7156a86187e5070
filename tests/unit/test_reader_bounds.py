"""The TREC readers refuse, at once and in bounded memory, what is not a text file of TREC lines.

A FIFO with no writer would block a read for ever; a file of NUL bytes made
Polars' CSV reader build a column per NUL (about 450 bytes of memory per
input byte). Both are refused before Polars reads a byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import polars_rankmetrics as prm

READERS = [prm.read_trec_run, prm.read_trec_qrels, prm.scan_trec_run, prm.scan_trec_qrels]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_a_fifo_is_refused_at_once(tmp_path: Path, reader: object) -> None:
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    raised: list[BaseException] = []

    def call() -> None:
        try:
            reader(fifo)  # type: ignore[operator]
        except BaseException as err:  # noqa: BLE001  (checked below)
            raised.append(err)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(timeout=20)
    if thread.is_alive():  # unblock the reader before failing: open the FIFO's other end
        with fifo.open("wb"):
            pass
        pytest.fail("the reader blocked on a FIFO with no writer")
    assert len(raised) == 1
    assert isinstance(raised[0], prm.TrecFormatError)
    assert "not a regular file" in str(raised[0])


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.__name__)
def test_nul_bytes_are_refused_naming_the_line(tmp_path: Path, reader: object) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"q 0 d 1\n" * 3 + b"q 0 e\x001\n")
    with pytest.raises(prm.TrecFormatError, match=r"line 4: holds a NUL byte: not a text file"):
        reader(path)  # type: ignore[operator]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_utf16_file_is_named_in_the_librarys_words(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "run"
    path.write_text("q1 Q0 d1 1 2.0 r\n", encoding=encoding)
    with pytest.raises(prm.TrecFormatError, match="UTF-16 or binary") as info:
        prm.read_trec_run(path)
    assert "extra_columns" not in str(info.value)  # not Polars' advice


@pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")  # its CR bytes
def test_a_binary_file_is_named_in_the_librarys_words(tmp_path: Path) -> None:
    path = tmp_path / "run"
    path.write_bytes(bytes(range(1, 256)) * 8)  # no NUL: bytes that are not UTF-8
    with pytest.raises(prm.TrecFormatError, match=r"line 1: malformed TREC line") as info:
        prm.read_trec_run(path)
    assert "extra_columns" not in str(info.value)


_PEAK = """
import resource, sys, polars_rankmetrics as prm
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    prm.{reader}(sys.argv[1])
except prm.TrecFormatError:
    pass
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB is Linux's")
@pytest.mark.parametrize("reader", ["read_trec_run", "scan_trec_qrels"])
def test_a_file_of_nul_bytes_is_refused_in_bounded_memory(tmp_path: Path, reader: str) -> None:
    """64 MiB of NUL: refused with a peak growth of at most twice the file (it was ~450 times)."""
    size = 64 << 20
    path = tmp_path / "nul"
    path.write_bytes(bytes(size))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", _PEAK.format(reader=reader), str(path)],
        capture_output=True, text=True, check=True, env=env, timeout=120,
    )  # fmt: skip
    assert int(done.stdout) <= 2 * size, done.stdout
