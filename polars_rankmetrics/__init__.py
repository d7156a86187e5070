"""polars-rankmetrics: ranking evaluation as lazy Polars expressions.

Importing the package registers the ``.rank`` namespace on DataFrame and
LazyFrame.
"""

from __future__ import annotations

from polars_rankmetrics import expr, plots
from polars_rankmetrics._demo import demo_path
from polars_rankmetrics._registry import parse, valid_names
from polars_rankmetrics._schema import Columns
from polars_rankmetrics._spec import Metric
from polars_rankmetrics.accumulate import Accumulator
from polars_rankmetrics.checks import validate
from polars_rankmetrics.chunked import evaluate_chunked
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.curves import pr_curve
from polars_rankmetrics.diversity import evaluate_diversity, join_intents, read_ndeval_qrels
from polars_rankmetrics.evaluation import collect, evaluate, population
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InnerJoinWarning,
    InvalidDataError,
    InvalidInputError,
    InvalidParameterError,
    MissingQueriesError,
    RankMetricsError,
    RankMetricsWarning,
    TrecFormatError,
    UnknownMetricError,
)
from polars_rankmetrics.fusion import FusionSearch, fuse, optimize_fusion
from polars_rankmetrics.io import (
    join_run_qrels,
    read_trec_qrels,
    read_trec_run,
    scan_trec_qrels,
    scan_trec_run,
)
from polars_rankmetrics.metrics import binary as _binary
from polars_rankmetrics.metrics import calibration as _calibration
from polars_rankmetrics.metrics import classification as _classification
from polars_rankmetrics.metrics import counts as _counts
from polars_rankmetrics.metrics import cumulative as _cumulative
from polars_rankmetrics.metrics import distribution as _distribution
from polars_rankmetrics.metrics import diversity as _diversity
from polars_rankmetrics.metrics import exposure as _exposure
from polars_rankmetrics.metrics import graded as _graded
from polars_rankmetrics.metrics import history_similarity as _history_similarity
from polars_rankmetrics.metrics import information as _information
from polars_rankmetrics.metrics import interpolated as _interpolated
from polars_rankmetrics.metrics import judged as _judged
from polars_rankmetrics.metrics import overlap as _overlap
from polars_rankmetrics.metrics import parity as _parity
from polars_rankmetrics.metrics import popularity as _popularity
from polars_rankmetrics.metrics import rank as _rank
from polars_rankmetrics.metrics import recsys as _recsys
from polars_rankmetrics.metrics import similarity as _similarity
from polars_rankmetrics.metrics import surprise as _surprise
from polars_rankmetrics.metrics import text as _text
from polars_rankmetrics.metrics import user as _user
from polars_rankmetrics.metrics.binary import *  # noqa: F403
from polars_rankmetrics.metrics.calibration import *  # noqa: F403
from polars_rankmetrics.metrics.classification import *  # noqa: F403
from polars_rankmetrics.metrics.counts import *  # noqa: F403
from polars_rankmetrics.metrics.cumulative import *  # noqa: F403
from polars_rankmetrics.metrics.distribution import *  # noqa: F403
from polars_rankmetrics.metrics.diversity import *  # noqa: F403
from polars_rankmetrics.metrics.exposure import *  # noqa: F403
from polars_rankmetrics.metrics.graded import *  # noqa: F403
from polars_rankmetrics.metrics.history_similarity import *  # noqa: F403
from polars_rankmetrics.metrics.information import *  # noqa: F403
from polars_rankmetrics.metrics.interpolated import *  # noqa: F403
from polars_rankmetrics.metrics.judged import *  # noqa: F403
from polars_rankmetrics.metrics.overlap import *  # noqa: F403
from polars_rankmetrics.metrics.parity import *  # noqa: F403
from polars_rankmetrics.metrics.popularity import *  # noqa: F403
from polars_rankmetrics.metrics.rank import *  # noqa: F403
from polars_rankmetrics.metrics.recsys import *  # noqa: F403
from polars_rankmetrics.metrics.similarity import *  # noqa: F403
from polars_rankmetrics.metrics.surprise import *  # noqa: F403
from polars_rankmetrics.metrics.text import *  # noqa: F403
from polars_rankmetrics.metrics.user import *  # noqa: F403
from polars_rankmetrics.namespace import RankFrame
from polars_rankmetrics.significance import (
    compare,
    discriminative_power,
    power,
    rank_correlation,
    summarize,
    table,
    table_markdown,
)

__version__ = "0.1.0"

__all__ = [
    "Accumulator",
    "ColumnNotFoundError",
    "ColumnTypeError",
    "Columns",
    "Conventions",
    "FusionSearch",
    "InnerJoinWarning",
    "InvalidDataError",
    "InvalidInputError",
    "InvalidParameterError",
    "Metric",
    "MissingQueriesError",
    "RankFrame",
    "RankMetricsError",
    "RankMetricsWarning",
    "TrecFormatError",
    "UnknownMetricError",
    "collect",
    "compare",
    "demo_path",
    "discriminative_power",
    "evaluate",
    "evaluate_chunked",
    "evaluate_diversity",
    "expr",
    "fuse",
    "join_intents",
    "join_run_qrels",
    "optimize_fusion",
    "parse",
    "plots",
    "population",
    "power",
    "pr_curve",
    "rank_correlation",
    "read_ndeval_qrels",
    "read_trec_qrels",
    "read_trec_run",
    "scan_trec_qrels",
    "scan_trec_run",
    "summarize",
    "table",
    "table_markdown",
    "valid_names",
    "validate",
]
# The metric constructors (prm.ndcg, prm.rbp...): each family module's own __all__.
__all__ += _binary.__all__
__all__ += _calibration.__all__
__all__ += _classification.__all__
__all__ += _counts.__all__
__all__ += _cumulative.__all__
__all__ += _distribution.__all__
__all__ += _diversity.__all__
__all__ += _exposure.__all__
__all__ += _graded.__all__
__all__ += _history_similarity.__all__
__all__ += _information.__all__
__all__ += _interpolated.__all__
__all__ += _judged.__all__
__all__ += _overlap.__all__
__all__ += _parity.__all__
__all__ += _popularity.__all__
__all__ += _rank.__all__
__all__ += _recsys.__all__
__all__ += _similarity.__all__
__all__ += _surprise.__all__
__all__ += _text.__all__
__all__ += _user.__all__
