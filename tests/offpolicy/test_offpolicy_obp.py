"""prm.offpolicy.estimate equals Open Bandit Pipeline's obp.ope estimators to 1e-10 on the same logged slates.

OBP 0.5.7 pins Python < 3.11 and old numpy, so it runs in its own environment: the
interpreter ``OBP_PYTHON`` (default /work/venv-obp/bin/python) runs ``obp_runner.py`` on
the arrays saved as .npz. Skipped when that interpreter is absent, unless
``PRM_REQUIRE_ORACLES`` is set (CI), where its absence fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics import offpolicy
from tests.offpolicy import slates

pytestmark = pytest.mark.oracles  # .ci/run's oracle step requires OBP's interpreter (OBP_PYTHON)

RUNNER = Path(__file__).with_name("obp_runner.py")
OBP_PYTHON = os.environ.get("OBP_PYTHON", "/work/venv-obp/bin/python")


def _obp(data: dict[str, np.ndarray], estimators: tuple[str, ...], tmp_path: Path) -> dict[str, float]:
    """OBP's values of `estimators` on `data`, computed in OBP's interpreter."""
    values: dict[str, float] = _run_obp(data, estimators, tmp_path)["values"]
    return values


def _run_obp(data: dict[str, np.ndarray], estimators: tuple[str, ...], tmp_path: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    """The runner's whole answer: values, and round terms when `data` asks for them."""
    if not Path(OBP_PYTHON).exists():
        if os.environ.get("PRM_REQUIRE_ORACLES"):
            pytest.fail(f"OBP's interpreter {OBP_PYTHON} is absent and PRM_REQUIRE_ORACLES is set")
        pytest.skip(f"OBP's interpreter {OBP_PYTHON} is absent (set OBP_PYTHON)")
    path = tmp_path / "slates.npz"
    np.savez(path, estimators=np.array(estimators), **data)
    done = subprocess.run(  # noqa: S603  (our own runner, on our own file)
        [OBP_PYTHON, str(RUNNER), str(path)], capture_output=True, text=True, check=False, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answer: dict[str, dict] = json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[type-arg]
    return answer


@pytest.mark.parametrize(
    ("seed", "n_slates", "len_list", "n_items"), [(0, 50, 3, 6), (1, 400, 5, 10), (2, 7, 2, 3), (3, 1, 4, 5)]
)
def test_every_estimator_equals_obp(
    tmp_path: Path, seed: int, n_slates: int, len_list: int, n_items: int
) -> None:
    data = slates.arrays(seed, n_slates, len_list, n_items)
    theirs = _obp(data, slates.ALL, tmp_path)
    logged, candidates = slates.frames(data, seed)
    ours = offpolicy.estimate(logged.lazy(), slates.ALL, candidates=candidates)
    got = dict(zip(ours["estimator"], ours["value"], strict=True))
    assert list(got) == list(slates.ALL)
    for name in slates.ALL:
        assert got[name] == pytest.approx(theirs[name], rel=1e-10, abs=1e-12), name


def test_renamed_columns_and_integer_ids(tmp_path: Path) -> None:
    data = slates.arrays(5, 60, 3, 4)
    theirs = _obp(data, ("ips", "dr", "rips"), tmp_path)
    logged, candidates = slates.frames(data, 5)
    session = pl.col("query").str.slice(1).cast(pl.Int64)
    logged = logged.with_columns(session=session, click=pl.col("reward")).drop("query", "reward")
    candidates = candidates.with_columns(session=session).drop("query")
    ours = offpolicy.estimate(
        logged, ["rips", "dr", "ips"], candidates=candidates, columns={"query": "session", "reward": "click"}
    )
    got = dict(zip(ours["estimator"], ours["value"], strict=True))
    assert list(got) == ["ips", "dr", "rips"]
    for name, value in got.items():
        assert value == pytest.approx(theirs[name], rel=1e-10, abs=1e-12), name


def test_intervals_resample_obps_round_terms(tmp_path: Path) -> None:
    """The interval is prm.summarize's bootstrap over OBP's own round terms (per row, or summed per slate)."""
    data = slates.arrays(7, 40, 3, 5)
    wanted = ("ips", "dr", "iips", "snrips")
    answer = _run_obp({**data, "want_rounds": np.array(1)}, wanted, tmp_path)
    row_unit = [f"s{s}\x1f{k + 1}" for s, k in zip(data["slate_id"], data["position"], strict=True)]
    slate_unit = [f"s{s}" for s in range(40)]
    theirs = pl.concat(
        pl.DataFrame(
            {"estimator": name, "unit": row_unit if name in ("ips", "dr") else slate_unit, "value": terms}
        )
        for name, terms in answer["rounds"].items()
    )
    expected = prm.summarize(
        theirs, by="estimator", query="unit", interval="bootstrap", n_resamples=500, seed=3
    )
    logged, candidates = slates.frames(data, 7)
    ours = offpolicy.estimate(logged, wanted, candidates=candidates, interval=True, n_resamples=500, seed=3)
    joined = ours.join(expected, on="estimator")
    assert joined.height == len(wanted)
    for row in joined.iter_rows(named=True):
        assert row["value"] == pytest.approx(answer["values"][row["estimator"]], rel=1e-10)
        assert row["ci_low"] == pytest.approx(row["ci_low_right"], rel=1e-10)
        assert row["ci_high"] == pytest.approx(row["ci_high_right"], rel=1e-10)
        assert row["ci_low"] < row["value"] < row["ci_high"]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
