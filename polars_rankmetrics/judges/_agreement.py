"""agreement() and confusion_table(): how far two sets of judgments (people's, a model's) agree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from polars_rankmetrics._schema import Columns
from polars_rankmetrics.exceptions import InvalidDataError
from polars_rankmetrics.exceptions._parameters import check_choice, check_real
from polars_rankmetrics.judges._qrels import GRADE_A, GRADE_B, check_scale, judged, side_by_side

__all__ = ["AGREEMENT_COLUMNS", "agreement", "confusion_table"]

AGREEMENT_COLUMNS = (
    "pairs",
    "only_a",
    "only_b",
    "one_side_share",
    "kappa",
    "kappa_linear",
    "kappa_quadratic",
    "alpha_ordinal",
    "alpha_nominal",
)
_ALL = "__prm_all"
_IA, _IB = "__prm_ia", "__prm_ib"  # the grades' positions on the scale (scikit-learn's label index)


def _ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """``1 - numerator / denominator``; null where the denominator is 0 (the statistic is undefined)."""
    return pl.when(denominator != 0).then(1.0 - numerator / denominator)


def _kappas(pairs: pl.DataFrame, keys: list[str], threshold: float) -> pl.DataFrame:
    """Cohen's kappa, binary at `threshold` and weighted on the grades' positions, per key."""
    xa, xb = pl.col(GRADE_A) >= threshold, pl.col(GRADE_B) >= threshold
    n = pl.len().cast(pl.Float64)
    ra1, cb1 = xa.sum().cast(pl.Float64), xb.sum().cast(pl.Float64)
    expected = (n - ra1) * cb1 / n + ra1 * (n - cb1) / n
    observed = (xa != xb).sum().cast(pl.Float64)
    diff = (pl.col(_IA) - pl.col(_IB)).cast(pl.Float64)
    stats = pairs.group_by(keys).agg(
        n.alias("__prm_n"),
        _ratio(observed, expected).alias("kappa"),
        diff.abs().sum().alias("__prm_lin"),
        (diff * diff).sum().alias("__prm_quad"),
    )
    rows = pairs.group_by([*keys, _IA]).agg(pl.len().cast(pl.Float64).alias("__prm_r"))
    cols = pairs.group_by([*keys, _IB]).agg(pl.len().cast(pl.Float64).alias("__prm_c"))
    cell = (pl.col(_IA) - pl.col(_IB)).cast(pl.Float64)
    rc = pl.col("__prm_r") * pl.col("__prm_c")
    chance = (
        rows.join(cols, on=keys)
        .group_by(keys)
        .agg((cell.abs() * rc).sum().alias("__prm_elin"), (cell * cell * rc).sum().alias("__prm_equad"))
    )
    n_ = pl.col("__prm_n")
    return stats.join(chance, on=keys).select(
        *keys,
        "kappa",
        _ratio(pl.col("__prm_lin"), pl.col("__prm_elin") / n_).alias("kappa_linear"),
        _ratio(pl.col("__prm_quad"), pl.col("__prm_equad") / n_).alias("kappa_quadratic"),
    )


def _alphas(pairs: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Krippendorff's alpha, ordinal and nominal, for two coders on every unit, per key."""
    values = pl.concat([pairs.select(*keys, pl.col(g).alias("__prm_v")) for g in (GRADE_A, GRADE_B)])
    counts = values.group_by([*keys, "__prm_v"]).agg(pl.len().cast(pl.Float64).alias("__prm_nc"))
    # The ordinal distance of values c < k is (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2 = (m_k - m_c)^2
    # with m_c = (n_g summed up to c) - n_c / 2.
    nc = pl.col("__prm_nc")
    counts = counts.with_columns((nc.cum_sum().over(keys, order_by="__prm_v") - nc / 2.0).alias("__prm_m"))
    mid = counts.select(*keys, "__prm_v", "__prm_m")
    ma = mid.rename({"__prm_v": GRADE_A, "__prm_m": "__prm_ma"})
    mb = mid.rename({"__prm_v": GRADE_B, "__prm_m": "__prm_mb"})
    gap = pl.col("__prm_ma") - pl.col("__prm_mb")
    observed = (
        pairs.join(ma, on=[*keys, GRADE_A])
        .join(mb, on=[*keys, GRADE_B])
        .group_by(keys)
        .agg(
            (2.0 * pl.len()).alias("__prm_n"),
            (2.0 * (gap * gap).sum()).alias("__prm_do"),
            (2.0 * (pl.col(GRADE_A) != pl.col(GRADE_B)).sum()).alias("__prm_dn"),
        )
    )
    other = counts.rename({"__prm_v": "__prm_v2", "__prm_nc": "__prm_nk", "__prm_m": "__prm_mk"})
    spread = pl.col("__prm_m") - pl.col("__prm_mk")
    weight = pl.col("__prm_nc") * pl.col("__prm_nk")
    chance = (
        counts.join(other, on=keys)
        .group_by(keys)
        .agg(
            (weight * spread * spread).sum().alias("__prm_eo"),
            (weight * (pl.col("__prm_v") != pl.col("__prm_v2"))).sum().alias("__prm_en"),
        )
    )
    n1 = pl.col("__prm_n") - 1.0
    return observed.join(chance, on=keys).select(
        *keys,
        _ratio(n1 * pl.col("__prm_do"), pl.col("__prm_eo")).alias("alpha_ordinal"),
        _ratio(n1 * pl.col("__prm_dn"), pl.col("__prm_en")).alias("alpha_nominal"),
    )


def _prepared(qrels_a: object, qrels_b: object, cols: Columns, scale: Sequence[float] | None) -> pl.DataFrame:
    a, b = judged(qrels_a, "qrels_a", cols), judged(qrels_b, "qrels_b", cols)
    check_scale(a, b, cols, scale)
    return side_by_side(a, b, cols)


def _with_positions(both: pl.DataFrame, keys: list[str], scale: Sequence[float] | None) -> pl.DataFrame:
    """The grades' positions on the scale: `scale` sorted, else the grades each key's pairs hold."""
    if scale is None:
        grades = pl.concat(
            [both.select(*keys, pl.col(g).alias("__prm_g")) for g in (GRADE_A, GRADE_B)]
        ).unique()
        position = grades.with_columns(
            (pl.col("__prm_g").rank("dense").over(keys) - 1).cast(pl.Int64).alias("__prm_i")
        )
        on = keys
    else:
        values = pl.Series(sorted({float(g) for g in scale}), dtype=pl.Float64)
        position = pl.DataFrame({"__prm_g": values}).with_row_index("__prm_i")
        position = position.with_columns(pl.col("__prm_i").cast(pl.Int64))
        on = []
    for grade, name in ((GRADE_A, _IA), (GRADE_B, _IB)):
        renamed = position.rename({"__prm_g": grade, "__prm_i": name})
        both = both.join(renamed, on=[*on, grade], how="left")
    return both


def agreement(  # noqa: PLR0913  (two frames, the threshold, the scale, the shape, the names)
    qrels_a: pl.DataFrame | pl.LazyFrame,
    qrels_b: pl.DataFrame | pl.LazyFrame,
    *,
    threshold: float = 1,
    scale: Sequence[float] | None = None,
    per_query: bool = False,
    columns: Columns | Mapping[str, str] | None = None,
) -> pl.DataFrame:
    r"""How far two sets of judgments agree on the (query, item) pairs both judged.

    On the ``N`` pairs both sides judged, with ``O`` the confusion table of
    their grades (rows `qrels_a`, columns `qrels_b`), ``r`` and ``c`` its
    margins and ``E = r c^T / N`` the table chance gives:

    - ``kappa``: Cohen's kappa of the binary labels ``grade >= threshold``,
      ``(p_o - p_e) / (1 - p_e)`` = ``1 - sum_{i != j} O_ij / sum_{i != j} E_ij``.
    - ``kappa_linear``, ``kappa_quadratic``: weighted kappa on the grades,
      ``1 - sum w_ij O_ij / sum w_ij E_ij`` with ``w_ij = |i - j|`` or
      ``(i - j)^2``, ``i`` and ``j`` the grades' positions on the scale: the
      sorted grades the pairs hold (per query with `per_query`), as
      ``sklearn.metrics.cohen_kappa_score(a, b, weights=...)`` gives on the
      same pairs, or those of `scale` (its ``labels=scale``).
    - ``alpha_ordinal``, ``alpha_nominal``: Krippendorff's alpha for two
      coders, ``1 - (n - 1) sum_u d(a_u, b_u) * 2 / sum_{c,k} n_c n_k d(c, k)``
      over the ``n = 2N`` values, ``n_c`` of them equal to ``c``; nominal
      ``d = [c != k]``, ordinal ``d = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2``
      (the ``krippendorff`` package's ``alpha``).
    - ``pairs`` (both judged), ``only_a``, ``only_b`` (judged by one side
      only) and ``one_side_share`` = ``(only_a + only_b) / (pairs + only_a +
      only_b)``.

    A statistic the data leaves undefined (every pair with one label, so
    chance agreement is perfect) is null; scikit-learn gives NaN there.

    Parameters
    ----------
    qrels_a, qrels_b
        Judgments, one row per (query, item) with a numeric grade; a null
        grade is unjudged. Usually people's and a model's.
    threshold
        The grade from which an item counts as relevant, for ``kappa``.
    scale
        The grades both sides use (``[0, 1, 2, 3]``): the positions of the
        weighted kappas, the same for every query. By default, the grades
        the pairs hold (each query's own with `per_query`, as scikit-learn
        called on that query's pairs); see Raises for when the two sides'
        scales are refused.
    per_query
        One row per query either side judged (statistics null where the
        query has no pair both judged) instead of one row overall.
    columns
        The column names; the `query`, `item` and `relevance` roles are read.

    Returns
    -------
    pl.DataFrame
        One row (or one per query, with the query column first): the columns
        ``pairs``, ``only_a``, ``only_b``, ``one_side_share``, ``kappa``,
        ``kappa_linear``, ``kappa_quadratic``, ``alpha_ordinal``,
        ``alpha_nominal``.

    Raises
    ------
    ColumnNotFoundError, ColumnTypeError
        A column missing, a grade not numeric, ids of different dtypes.
    InvalidDataError
        Null ids, NaN grades, a pair judged twice by one side; no pair judged
        by both; grades on different scales (fractions on one side, whole
        numbers on the other, or neither side's grades within the other's,
        as 0-3 against 0-100) unless `scale` names them; a grade outside `scale`.

    See Also
    --------
    confusion_table : the table of grades the statistics are computed from.
    system_agreement : whether the systems rank the same under both.

    References
    ----------
    Cohen (1968), Weighted kappa, Psychological Bulletin 70(4).
    Krippendorff (2011), Computing Krippendorff's alpha-reliability.

    Examples
    --------
    >>> people = pl.DataFrame({"query": ["q1"] * 4 + ["q2"] * 3,
    ...     "item": ["a", "b", "c", "d", "a", "b", "e"], "relevance": [2, 0, 1, 0, 1, 0, 2]})
    >>> model = pl.DataFrame({"query": ["q1"] * 4 + ["q2"] * 3,
    ...     "item": ["a", "b", "c", "e", "a", "b", "e"], "relevance": [2, 1, 1, 0, 2, 0, 2]})
    >>> prm.agreement(people, model).select(pl.all().round(4)).transpose(include_header=True)
    shape: (9, 2)
    ┌─────────────────┬──────────┐
    │ column          ┆ column_0 │
    │ ---             ┆ ---      │
    │ str             ┆ f64      │
    ╞═════════════════╪══════════╡
    │ pairs           ┆ 6.0      │
    │ only_a          ┆ 1.0      │
    │ only_b          ┆ 1.0      │
    │ one_side_share  ┆ 0.25     │
    │ kappa           ┆ 0.5714   │
    │ kappa_linear    ┆ 0.625    │
    │ kappa_quadratic ┆ 0.75     │
    │ alpha_ordinal   ┆ 0.7636   │
    │ alpha_nominal   ┆ 0.5319   │
    └─────────────────┴──────────┘
    """
    threshold = check_real(threshold, "threshold")
    check_choice(per_query, "per_query", (False, True))
    cols = Columns.of(columns)
    joined = _prepared(qrels_a, qrels_b, cols, scale)
    keys = [cols.query] if per_query else [_ALL]
    joined = joined.with_columns(pl.lit(0, pl.Int8).alias(_ALL))
    has_a, has_b = pl.col(GRADE_A).is_not_null(), pl.col(GRADE_B).is_not_null()
    counts = joined.group_by(keys).agg(
        (has_a & has_b).sum().alias("pairs"),
        (has_a & ~has_b).sum().alias("only_a"),
        (~has_a & has_b).sum().alias("only_b"),
    )
    both = joined.filter(has_a & has_b)
    if not both.height:
        raise InvalidDataError.too_few(
            "no (query, item) pair is judged by both `qrels_a` and `qrels_b`", "agreement", "at least 1"
        )
    both = _with_positions(both, keys, scale)
    out = (
        counts.with_columns(
            (
                (pl.col("only_a") + pl.col("only_b"))
                / (pl.col("pairs") + pl.col("only_a") + pl.col("only_b"))
            ).alias("one_side_share")
        )
        .join(_kappas(both, keys, threshold), on=keys, how="left")
        .join(_alphas(both, keys), on=keys, how="left")
    )
    return out.sort(keys).select(*([cols.query] if per_query else []), *AGREEMENT_COLUMNS)


def confusion_table(
    qrels_a: pl.DataFrame | pl.LazyFrame,
    qrels_b: pl.DataFrame | pl.LazyFrame,
    *,
    per_query: bool = False,
    columns: Columns | Mapping[str, str] | None = None,
) -> pl.DataFrame:
    """The confusion table of two sets of judgments: how many pairs got each (grade_a, grade_b).

    Every (query, item) either side judged is counted: a null grade on one
    side means that side did not judge the pair (the ``only_a`` and ``only_b``
    counts of :func:`agreement`). The statistics of :func:`agreement` are
    computed from its rows with both grades.

    Parameters
    ----------
    qrels_a, qrels_b
        Judgments, one row per (query, item) with a numeric grade; a null
        grade is unjudged.
    per_query
        One table per query (the query column first) instead of one overall.
    columns
        The column names; the `query`, `item` and `relevance` roles are read.

    Returns
    -------
    pl.DataFrame
        The columns ``grade_a``, ``grade_b`` (Float64, null: not judged by
        that side) and ``count``, one row per pair of grades that occurs,
        sorted by the grades (nulls first).

    Raises
    ------
    ColumnNotFoundError, ColumnTypeError, InvalidDataError
        As :func:`agreement`, without its checks of the scale and the overlap.

    See Also
    --------
    agreement : kappa and alpha from this table.

    Examples
    --------
    >>> people = pl.DataFrame({"query": ["q1"] * 3, "item": ["a", "b", "c"], "relevance": [2, 0, 1]})
    >>> model = pl.DataFrame({"query": ["q1"] * 3, "item": ["a", "b", "d"], "relevance": [2, 1, 0]})
    >>> prm.confusion_table(people, model)
    shape: (4, 3)
    ┌─────────┬─────────┬───────┐
    │ grade_a ┆ grade_b ┆ count │
    │ ---     ┆ ---     ┆ ---   │
    │ f64     ┆ f64     ┆ u32   │
    ╞═════════╪═════════╪═══════╡
    │ null    ┆ 0.0     ┆ 1     │
    │ 0.0     ┆ 1.0     ┆ 1     │
    │ 1.0     ┆ null    ┆ 1     │
    │ 2.0     ┆ 2.0     ┆ 1     │
    └─────────┴─────────┴───────┘
    """
    check_choice(per_query, "per_query", (False, True))
    cols = Columns.of(columns)
    a, b = judged(qrels_a, "qrels_a", cols), judged(qrels_b, "qrels_b", cols)
    keys = [cols.query, GRADE_A, GRADE_B] if per_query else [GRADE_A, GRADE_B]
    table = side_by_side(a, b, cols).group_by(keys).agg(pl.len().alias("count"))
    return table.sort(keys, nulls_last=False)
