"""polars-rankmetrics: ranking evaluation as lazy Polars expressions.

Importing the package registers the ``.rank`` namespace on DataFrame and
LazyFrame.
"""

from __future__ import annotations

from polars_rankmetrics import plots
from polars_rankmetrics._demo import demo_path
from polars_rankmetrics._registry import Metric, parse, valid_names
from polars_rankmetrics._schema import Columns
from polars_rankmetrics.checks import validate
from polars_rankmetrics.chunked import evaluate_chunked
from polars_rankmetrics.compare import compare, table, table_markdown
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.evaluate import evaluate, population
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
    RankMetricsError,
    TrecFormatError,
    UnknownMetricError,
)
from polars_rankmetrics.io import (
    join_run_qrels,
    read_trec_qrels,
    read_trec_run,
    scan_trec_qrels,
    scan_trec_run,
)
from polars_rankmetrics.metrics import (
    average_precision,
    bpref,
    coverage,
    dcg,
    eleven_point_average,
    entropy,
    err,
    f1,
    gini,
    hit_rate,
    infap,
    intra_list_similarity,
    iprec_at_recall,
    map_capped,
    mar,
    mpr,
    ndcg,
    novelty,
    num_q,
    num_rel,
    num_rel_ret,
    num_ret,
    personalization,
    precision,
    r_precision,
    rbp,
    rbp_resid,
    recall,
    reciprocal_rank,
    relative_precision,
    relstring,
    rprec_mult,
    unjudged,
    utility,
)
from polars_rankmetrics.namespace import RankFrame

__version__ = "0.1.0"

__all__ = [
    "ColumnNotFoundError",
    "ColumnTypeError",
    "Columns",
    "Conventions",
    "InvalidDataError",
    "InvalidParameterError",
    "Metric",
    "RankFrame",
    "RankMetricsError",
    "TrecFormatError",
    "UnknownMetricError",
    "average_precision",
    "bpref",
    "compare",
    "coverage",
    "dcg",
    "demo_path",
    "eleven_point_average",
    "entropy",
    "err",
    "evaluate",
    "evaluate_chunked",
    "f1",
    "gini",
    "hit_rate",
    "infap",
    "intra_list_similarity",
    "iprec_at_recall",
    "join_run_qrels",
    "map_capped",
    "mar",
    "mpr",
    "ndcg",
    "novelty",
    "num_q",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "parse",
    "personalization",
    "plots",
    "population",
    "precision",
    "r_precision",
    "rbp",
    "rbp_resid",
    "read_trec_qrels",
    "read_trec_run",
    "recall",
    "reciprocal_rank",
    "relative_precision",
    "relstring",
    "rprec_mult",
    "scan_trec_qrels",
    "scan_trec_run",
    "table",
    "table_markdown",
    "unjudged",
    "utility",
    "valid_names",
    "validate",
]
