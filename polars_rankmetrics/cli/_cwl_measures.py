"""cwl_eval 1.0.12's measures: its metrics file, its class names, parameters and report names.

A metrics file line is ``ClassName(arg, arg, ...)``, read as ``cwl_eval``'s
ruler reads it: the text before the first ``(`` names the class, the last
character (the closing parenthesis) is dropped, the arguments are split on
``,``; an empty argument is skipped, one holding a ``.`` is a float, any
other an integer (Python's ``float`` and ``int``), given by position. The
report names the measure as its class does (``INST-T=1`` for ``INST(1)``,
``INST-T=1.0`` for ``INST(1.0)``, ``TBG-H@22 `` with its trailing space).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars_rankmetrics as prm

__all__ = ["CLASSES", "DEFAULT_MEASURES", "CwlClass", "CwlMeasure", "parse_line", "read_metrics"]

Number = int | float
_REQUIRED = None  # a parameter without a default


@dataclass(frozen=True)
class CwlClass:
    """One of ``cwl_eval``'s measure classes: its parameters (name, default) and its report name.

    ``gains_01`` says the class refuses a gain outside [0, 1] in a ranking
    (``cwl_eval``'s INST and NERR check every ranking's gains).
    """

    name: str
    params: tuple[tuple[str, Number | None], ...]
    report: str
    gains_01: bool = False


_CLASS_LIST = (
    CwlClass("PrecisionCWLMetric", (("k", 10),), "P@{k}"),
    CwlClass("RBPCWLMetric", (("theta", 0.9),), "RBP@{theta}"),
    CwlClass("RRCWLMetric", (), "RR"),
    CwlClass("APCWLMetric", (), "AP"),
    CwlClass("TrAPCWLMetric", (), "TrAP"),
    CwlClass("NDCGCWLMetric", (("k", _REQUIRED),), "NDCG-k@{k}"),
    CwlClass("INSTCWLMetric", (("T", 1.0),), "INST-T={T}", gains_01=True),
    CwlClass("INSQCWLMetric", (("T", 1.0),), "INSQ-T={T}"),
    CwlClass("TBGCWLMetric", (("halflife", 224),), "TBG-H@{halflife} "),
    CwlClass("BPMCWLMetric", (("T", 1.0), ("K", 10)), "BPM-Static-T={T}-K={K}"),
    CwlClass(
        "BPMDCWLMetric",
        (("T", 1), ("K", 10), ("hb", 1.0), ("hc", 1.0), ("gain_med", 0.5)),
        "BPM-Dynamic-T={T}-K={K}-hb={hb}-hc={hc}",
    ),
    CwlClass("UMeasureCWLMetric", (("L", 1000),), "U-L@{L} "),
    CwlClass(
        "IFTGoalCWLMetric",
        (("T", _REQUIRED), ("b1", _REQUIRED), ("R1", _REQUIRED)),
        "IFT-C1-T={T}-b1={b1}-R1={R1}",
    ),
    CwlClass(
        "IFTRateCWLMetric",
        (("A", _REQUIRED), ("b2", _REQUIRED), ("R2", _REQUIRED)),
        "IFT-C2-A={A}-b2={b2}-R2={R2}",
    ),
    CwlClass(
        "IFTGoalRateCWLMetric",
        tuple((n, _REQUIRED) for n in ("T", "b1", "R1", "A", "b2", "R2")),
        "IFT-C1-C2-T={T}-b1={b1}-R1={R1}-A={A}-b2={b2}-R2={R2}",
    ),
    CwlClass("NERReq8CWLMetric", (("k", _REQUIRED),), "NERR-EQ8@k={k}", gains_01=True),
    CwlClass("NERReq9CWLMetric", (("k", _REQUIRED),), "NERR-EQ9@k={k}", gains_01=True),
    CwlClass("NERReq10CWLMetric", (("phi", 0.9),), "NERR-EQ10@phi={phi}", gains_01=True),
    CwlClass("NERReq11CWLMetric", (("T", 1.0),), "NERR-EQ11@T={T}", gains_01=True),
    CwlClass("SETCWLMetric", (("beta", 0.5), ("k", 10)), "SET-k@{k}-b@{beta}"),
    CwlClass("NPVCWLMetric", (("rate", 0.1),), "NPV-r@{rate}"),
)
CLASSES = {c.name: c for c in _CLASS_LIST}


@dataclass(frozen=True)
class CwlMeasure:
    """A measure of the report: its class and its arguments (every parameter, defaults filled in)."""

    cls: CwlClass
    args: dict[str, Number]

    @property
    def name(self) -> str:
        """The report's name of the measure, as ``cwl_eval`` prints it (Python's ``str`` of each number)."""
        return self.cls.report.format(**self.args)


def measure(class_name: str, *given: Number) -> CwlMeasure:
    """The measure ``class_name(*given)``; an unknown class or a wrong number of arguments is refused.

    Examples
    --------
    >>> from polars_rankmetrics.cli._cwl_measures import measure
    >>> measure("BPMCWLMetric", 1.2).name
    'BPM-Static-T=1.2-K=10'
    """
    cls = CLASSES.get(class_name)
    if cls is None:
        known = ", ".join(sorted(CLASSES))
        raise prm.UnknownMetricError.bad_measure(
            class_name, f"not a measure class of cwl_eval 1.0.12 ({known})"
        )
    names = [n for n, _ in cls.params]
    required = sum(d is None for _, d in cls.params)
    if not required <= len(given) <= len(names):
        takes = f"takes {required} to {len(names)} arguments ({', '.join(names) or 'none'})"
        raise prm.UnknownMetricError.bad_measure(class_name, f"{takes}, got {len(given)}")
    args = {n: d for n, d in cls.params if d is not None} | dict(zip(names, given, strict=False))
    return CwlMeasure(cls, args)


def parse_line(text: str) -> tuple[str, list[Number]]:
    """A metrics file line as ``cwl_eval`` reads it: the class name and its arguments.

    Raises ValueError (``int`` or ``float``'s) for an argument neither reads,
    IndexError for a line without ``(``: :func:`read_metrics` names the line.

    Examples
    --------
    >>> from polars_rankmetrics.cli._cwl_measures import parse_line
    >>> parse_line("IFTGoalCWLMetric(2.0, 0.9, 10)")
    ('IFTGoalCWLMetric', [2.0, 0.9, 10])
    >>> parse_line("RRCWLMetric()")
    ('RRCWLMetric', [])
    """
    pieces = text.strip().split("(")
    pieces[-1] = pieces[-1][:-1]  # the closing parenthesis (whatever the last character is)
    arguments = [a for a in pieces[1].split(",") if a != ""]
    return pieces[0], [float(a) if "." in a else int(a) for a in arguments]


def read_metrics(path: Path) -> list[CwlMeasure]:
    r"""A metrics file's measures, in its order; a line ``cwl_eval`` cannot read is refused, named.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from polars_rankmetrics.cli._cwl_measures import read_metrics
    >>> path = Path(tempfile.mkdtemp()) / "metrics"
    >>> _ = path.write_text("INSTCWLMetric(1)\nTBGCWLMetric(22)\nNDCGCWLMetric(10)")
    >>> [m.name for m in read_metrics(path)]
    ['INST-T=1', 'TBG-H@22 ', 'NDCG-k@10']
    """
    measures = []
    with path.open() as lines:
        for number, line in enumerate(lines, 1):
            try:
                class_name, arguments = parse_line(line)
            except (ValueError, IndexError):
                expected = "ClassName(arg, ...) with integer or decimal arguments"
                raise prm.TrecFormatError.bad_line(path, number, expected, line.rstrip("\n")) from None
            try:
                measures.append(measure(class_name, *arguments))
            except prm.UnknownMetricError as err:
                raise prm.TrecFormatError.unreadable(path, f"line {number}: {err}") from None
    return measures


# cwl_eval's measures when no metrics file is given (its ruler's list), in its order.
DEFAULT_MEASURES = (
    *(measure("PrecisionCWLMetric", k) for k in (1, 2, 3, 4, 5, 10)),
    *(measure("RBPCWLMetric", theta) for theta in (0.2, 0.4, 0.8)),
    *(measure("NDCGCWLMetric", k) for k in (5, 10)),
    measure("RRCWLMetric"),
    measure("APCWLMetric"),
    *(measure("INSTCWLMetric", t) for t in (1.0, 2.0, 3.0)),
)
