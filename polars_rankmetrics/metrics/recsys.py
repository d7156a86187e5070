"""Recommender accuracy metrics, per user: mean average recall, capped MAP, percentile ranking.

They read one ranked list and its judgments, like the trec_eval family, and
follow the same conventions (:class:`polars_rankmetrics.Conventions`): R counts the user's
relevant items, ranked or not; users without judgments are not evaluated.
"""

from __future__ import annotations

from typing import Annotated, Literal

import polars as pl

from polars_rankmetrics._declare import constructor, spec_of
from polars_rankmetrics._kernel import Rows, exact_sum, ratio
from polars_rankmetrics._quote import shown
from polars_rankmetrics._spec import COUNT, Metric, Param, QuerySpec, Spellings, TieSupport
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions import _plan as _errors
from polars_rankmetrics.exceptions._parameters import check_choice
from polars_rankmetrics.metrics._core import (
    keep_relevant,
    num_relevant,
    num_retrieved,
    relevant_within,
)
from polars_rankmetrics.metrics.rank import precision_at_hits

__all__ = ["gauc", "gauc_weighted", "map_capped", "mar", "mcc", "mpr", "pap", "partial_auc"]

MissingItems = Literal["bottom", "random", "ignore"]


def _mar(m: Metric, rows: Rows) -> pl.Expr:
    return ratio(precision_at_hits(rows, m.k), num_relevant(rows))


MAR = QuerySpec(
    name="mar",
    unretrieved=True,
    needs=frozenset({"hit_rank"}),
    keep=keep_relevant,
    value=_mar,
    ties=TieSupport(extremal=True),
)


def _map_capped(m: Metric, rows: Rows) -> pl.Expr:
    cap = pl.min_horizontal(num_relevant(rows), pl.lit(m.k, dtype=pl.UInt32))
    return ratio(precision_at_hits(rows, m.k), cap)


MAP_CAPPED = QuerySpec(
    name="map_capped",
    unretrieved=True,
    needs=frozenset({"hit_rank"}),
    keep=keep_relevant,
    value=_map_capped,
    ties=TieSupport(extremal=True),
)


# --- mean percentage ranking -----------------------------------------------------------------------


def _n_items(m: Metric) -> float | None:
    return m.number("n_items") if m.name == "mpr_random" else None


def _check_n_items(n_items: object) -> None:
    if (
        isinstance(n_items, bool)
        or not isinstance(n_items, (int, float))
        or n_items != int(n_items)
        or n_items < 1
    ):
        remedy = f"got {shown(n_items)} (write mpr_random(n_items=1000))"
        raise InvalidParameterError.needs(
            "mpr_random", "`n_items`, the catalog size, as a positive integer", remedy
        )


def _confidence(rows: Rows) -> pl.Expr:
    """r_ui: the gain (the grade under the default gain convention) where it is positive, else 0."""
    return pl.when(rows.gain > 0).then(rows.gain).otherwise(0.0)


def _mpr_weight(m: Metric, rows: Rows) -> pl.Expr:
    """The user's sum of r_ui: over every judged item, or (mpr_ignore) over the ranked ones."""
    r = _confidence(rows)
    if m.name == "mpr_ignore":
        r = pl.when(rows.rank.is_not_null()).then(r)
    return exact_sum(r)


def _mpr(m: Metric, rows: Rows) -> pl.Expr:
    r, rank = _confidence(rows), rows.rank
    n = num_retrieved(rows).cast(pl.Float64)  # the list's length (within depth)
    # sum over ranked items of r * (rank - 1); each pct_rank is (rank - 1) / (length - 1).
    ranked = exact_sum(pl.when(rank.is_not_null()).then(r * (rank.cast(pl.Float64) - 1.0)))
    missing = exact_sum(pl.when(rank.is_null()).then(r))  # relevant items the list leaves out
    n_items = _n_items(m)
    if m.name == "mpr":  # missing items at the bottom: pct_rank 1
        numerator = ratio(ranked, n - 1.0) + missing
    elif m.name == "mpr_ignore":
        numerator = ratio(ranked, n - 1.0)
    else:
        # The list tops a ranking of all n_items; the rest come in random order, so a missing
        # item's expected position is the middle of n+1..N: pct_rank (N + n - 1) / (2 (N - 1)).
        assert n_items is not None
        big_n = pl.lit(n_items)
        numerator = ratio(ranked, big_n - 1.0) + ratio(missing * (big_n + n - 1.0), 2.0 * (big_n - 1.0))
        too_long = pl.when(n > big_n).then(
            pl.lit(f"a list ranks more items than n_items={int(n_items)} of mpr_random")
        )
        numerator = pl.coalesce(_errors.in_plan(too_long), numerator)
    weight = _mpr_weight(m, rows)
    return pl.when(weight > 0).then(numerator / weight)


_GRADE = frozenset({"gain"})


def _positive(_m: Metric, rows: Rows) -> pl.Expr:
    """The rows with a weight r_ui."""
    return rows.gain > 0


_POSITIVE = _positive
MPR = QuerySpec(
    name="mpr", aggregate="weighted", k="none", needs=_GRADE, weight=_mpr_weight, keep=_POSITIVE, value=_mpr
)
MPR_IGNORE = QuerySpec(
    name="mpr_ignore", function="mpr", aggregate="weighted", k="none", needs=_GRADE, weight=_mpr_weight,
    keep=_POSITIVE, value=_mpr,
)  # fmt: skip
MPR_RANDOM = QuerySpec(
    name="mpr_random", function="mpr", aggregate="weighted", k="none", needs=_GRADE, weight=_mpr_weight,
    keep=_POSITIVE, value=_mpr, params=(Param("n_items", None, domain=COUNT),),
)  # fmt: skip


# --- group AUC and the Matthews correlation (RecBole, Elliot, RecTools) --------------------------------


def _gauc_counts(rows: Rows) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """A list's relevant items P, other items N, and the sum of the relevant items' ranks."""
    found = rows.rel & rows.rank.is_not_null()
    positives = found.sum().cast(pl.Int64)
    negatives = num_retrieved(rows).cast(pl.Int64) - positives
    return positives, negatives, pl.when(found).then(rows.rank.cast(pl.Int64)).sum()


def _gauc(_m: Metric, rows: Rows) -> pl.Expr:
    # The pairs (relevant above other) of the list: P N + P (P + 1) / 2 - sum of the relevant ranks
    # (RecBole's AUC(u)), counted twice in integers; null without a relevant or another item.
    p, n, rank_sum = _gauc_counts(rows)
    twice = 2 * p * n + p * (p + 1) - 2 * rank_sum
    return pl.when((p > 0) & (n > 0)).then(twice.cast(pl.Float64) / (2 * p * n).cast(pl.Float64))


def _gauc_users(_m: Metric, rows: Rows) -> pl.Expr:
    p, n, _ = _gauc_counts(rows)
    return pl.when((p > 0) & (n > 0)).then(1.0).otherwise(0.0)


def _gauc_positives(_m: Metric, rows: Rows) -> pl.Expr:
    p, n, _ = _gauc_counts(rows)
    return pl.when((p > 0) & (n > 0)).then(p.cast(pl.Float64)).otherwise(0.0)


_GAUC_TIES = TieSupport(
    extremal=True, extremal_with_depth=False, why="its expectation over tie orders is not implemented"
)
GAUC = QuerySpec(
    name="gauc", aliases=("GAUC",), aggregate="weighted", keep=keep_relevant, value=_gauc,
    weight=_gauc_users, ties=_GAUC_TIES,
)  # fmt: skip
GAUC_WEIGHTED = QuerySpec(
    name="gauc_weighted", aggregate="weighted", keep=keep_relevant, value=_gauc,
    weight=_gauc_positives, ties=_GAUC_TIES,
)  # fmt: skip


def _mcc_refuse(m: Metric, _conventions: Conventions) -> str | None:
    if dict(zip((p.name for p in m.spec.params), m.params, strict=True)).get("n_items") is None:
        return "needs `n_items`, the catalog size (RecTools' catalog): write mcc(n_items=1000)@10"
    return None


def _mcc(m: Metric, rows: Rows) -> pl.Expr:
    # RecTools' confusion counts at k: tp the relevant in the top k, fp = k - tp, fn = R - tp,
    # tn = n_items - k - fn; 0 where a margin is empty (the numerator is 0 there too).
    k, n_items = float(m.k or 0), m.number("n_items")
    tp = relevant_within(rows, m.k).cast(pl.Float64)
    fp, fn = k - tp, num_relevant(rows).cast(pl.Float64) - tp
    tn = n_items - k - fn
    denominator = ((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)).sqrt()
    # tn < 0: n_items is smaller than the list and the relevant items together; undefined (null).
    value = pl.when(denominator > 0).then((tp * tn - fp * fn) / denominator).otherwise(0.0)
    return pl.when(tn >= 0).then(value)


MCC = QuerySpec(
    name="mcc", aliases=("MCC",), unretrieved=True, keep=keep_relevant, value=_mcc,
    ties=TieSupport(extremal=True), refuse=_mcc_refuse,
)  # fmt: skip


# --- partial AUC and pAp@k (RecTools) ----------------------------------------------------------------

InsufficientHandling = Literal["ignore", "exclude", "raise"]
INSUFFICIENT_HANDLING: tuple[InsufficientHandling, ...] = ("ignore", "exclude", "raise")


def _keep_listed_or_relevant(_m: Metric, rows: Rows) -> pl.Expr:
    """The listed rows (the negatives are counted by position) and the relevant ones (R, the misses)."""
    return rows.rank.is_not_null() | rows.rel


def _partial_auc(m: Metric, rows: Rows) -> pl.Expr:
    # RecTools' auc.py 175-186, 375-380 and 486-497: each listed relevant item scores k minus the negatives
    # ranked above it (at least 0); a listed item that is not relevant, or an empty position of a
    # given rank (its outer_merge_reco fills them in), is a negative: rank - hit_rank of them lie above.
    k = m.k or 0
    listed = rows.rel & rows.rank.is_not_null()
    above = rows.rank.cast(pl.Int64) - rows.hit_rank.cast(pl.Int64)
    scored = listed & (rows.hit_rank <= k) if m.name == "pap" else listed
    numerator = pl.when(scored).then((k - above).clip(lower_bound=0)).sum()
    r = num_relevant(rows).cast(pl.Int64)
    positives = pl.min_horizontal(r, pl.lit(k, pl.Int64)) if m.name == "pap" else r
    value = pl.when(r > 0).then(ratio(numerator, positives * k))
    handling = m.side("insufficient_handling")
    if handling in (None, "ignore"):
        return value
    # auc.py 131-137 and 146-173: a list with fewer than k negatives and a relevant item it misses.
    found = listed.sum().cast(pl.Int64)
    negatives = rows.rank.max().cast(pl.Int64).fill_null(0) - found
    insufficient = (negatives < k) & (r > found)
    if handling == "exclude":
        return pl.when(~insufficient).then(value)
    text = f"{m} needs {k} negatives listed, or every relevant item listed: a list has fewer"
    return pl.coalesce(_errors.in_plan(pl.when(insufficient).then(pl.lit(text))), value)


def _auc_counted(m: Metric, rows: Rows) -> pl.Expr:
    """1 for a user with a value, 0 for one without (no relevant item, or excluded): the mean's weights."""
    return pl.when(_partial_auc(m, rows).is_not_null()).then(1.0).otherwise(0.0)


def _check_insufficient(m: Metric) -> None:
    check_choice(m.side("insufficient_handling"), "insufficient_handling", INSUFFICIENT_HANDLING)


def _auc_tie_refusal(m: Metric, conventions: Conventions) -> str | None:
    # Which lists are insufficient depends on which tied items a depth cuts.
    if conventions.depth is not None and m.side("insufficient_handling") not in (None, "ignore"):
        return f"with depth={conventions.depth} the insufficient lists depend on the order of tied items"
    return None


_AUC_TIES = TieSupport(
    extremal=True, why="its expectation over tie orders is not implemented", refuse=_auc_tie_refusal
)
PARTIAL_AUC = QuerySpec(
    name="partial_auc", aliases=("pauc",), spellings=Spellings(recommenders=("PartialAUC",)),
    unretrieved=True, needs=frozenset({"hit_rank"}), keep=_keep_listed_or_relevant, value=_partial_auc,
    aggregate="weighted", weight=_auc_counted, ties=_AUC_TIES,
)  # fmt: skip
PAP = QuerySpec(
    name="pap", spellings=Spellings(recommenders=("PAP",)), unretrieved=True, needs=frozenset({"hit_rank"}),
    keep=_keep_listed_or_relevant, value=_partial_auc, aggregate="weighted", weight=_auc_counted,
    ties=_AUC_TIES,
)  # fmt: skip


# --- constructors ----------------------------------------------------------------------------------


@constructor(MAR)
def mar(k: int) -> Metric:
    """Mean average recall at `k` (recmetrics' ``mark``).

    Per user, the sum of the precision at each relevant item in the top `k`,
    divided by R, the user's number of relevant items (recmetrics'
    ``_ark``); 0 when R is 0. This is the same number as trec_eval's
    ``map_cut_k`` (``map@k`` here), under recmetrics' name.

    Parameters
    ----------
    k
        Cutoff (required).

    Returns
    -------
    Metric
        ``mar@k``, averaged over users.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": ["a", "b", "c", "d"],
    ...     "score": [0.9, 0.5, 0.1, None], "relevance": [0, 1, 1, 1]})
    >>> prm.evaluate(df, [prm.mar(2), prm.map_capped(2), prm.mar(3)]).with_columns(pl.all().round(4))
    shape: (1, 3)
    ┌────────┬──────────────┬────────┐
    │ mar@2  ┆ map_capped@2 ┆ mar@3  │
    │ ---    ┆ ---          ┆ ---    │
    │ f64    ┆ f64          ┆ f64    │
    ╞════════╪══════════════╪════════╡
    │ 0.1667 ┆ 0.25         ┆ 0.3889 │
    └────────┴──────────────┴────────┘
    """


@constructor(MAP_CAPPED)
def map_capped(k: int) -> Metric:
    """Mean average precision at `k` with the recommender denominator ``min(R, k)``.

    Per user, the sum of the precision at each relevant item in the top `k`,
    divided by ``min(R, k)``, the most relevant items `k` positions can
    hold: ml_metrics' ``apk`` (the Kaggle MAP@K), where a perfect top `k`
    scores 1 even when the user has more than `k` relevant items. trec_eval's
    ``map_cut_k`` (``map@k``) divides by R instead. 0 when R is 0.

    Parameters
    ----------
    k
        Cutoff (required).

    Returns
    -------
    Metric
        ``map_capped@k``, averaged over users.

    Notes
    -----
    recmetrics' ``mapk`` is a third variant (it divides by the number of
    hits); it is not provided.

    Examples
    --------
    Two relevant items at ranks 1 and 2, three relevant in all:

    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "b", "c"],
    ...     "score": [0.9, 0.5, None], "relevance": [1, 1, 1]})
    >>> prm.evaluate(df, [prm.map_capped(2), "map@2"]).with_columns(pl.all().round(4))
    shape: (1, 2)
    ┌──────────────┬────────┐
    │ map_capped@2 ┆ map@2  │
    │ ---          ┆ ---    │
    │ f64          ┆ f64    │
    ╞══════════════╪════════╡
    │ 1.0          ┆ 0.6667 │
    └──────────────┴────────┘
    """


def mpr(*, missing_items: MissingItems = "bottom", n_items: int | None = None) -> Metric:
    """Mean percentage ranking (expected percentile rank; Hu, Koren and Volinsky, 2008).

    ``sum_ui r_ui pct_rank_ui / sum_ui r_ui`` over every (user, item) with a
    positive relevance ``r_ui``: a ratio of sums over all users, not a mean
    of per-user values. ``pct_rank`` is ``(rank - 1) / (n - 1)`` in the
    user's list of ``n`` ranked items: 0 at the top, 1 at the bottom (0 when
    ``n`` is 1). Lower is better; a random ranking scores about 0.5.

    Parameters
    ----------
    missing_items
        Where the relevant items the list does not rank go. ``"bottom"``
        (the default): ``pct_rank`` 1. ``"random"``: the list is the top of
        a ranking of all `n_items` items whose rest comes in random order;
        every ``pct_rank`` is then out of ``n_items - 1``, and a missing item
        takes its expected value ``(n_items + n - 1) / (2 (n_items - 1))``.
        ``"ignore"``: they are left out, from the weights too.
    n_items
        The catalog size, for ``missing_items="random"`` only.

    Returns
    -------
    Metric
        ``mpr``, ``mpr_random(n_items)`` or ``mpr_ignore``. Over users, the
        ratio of sums; per user (``per_query=True``), that user's own ratio,
        null for a user without a positive grade.

    Raises
    ------
    InvalidParameterError
        An unknown policy, or `n_items` missing (or given) where it does
        not belong. A list longer than `n_items` fails when the plan runs.

    Notes
    -----
    The paper ranks every item of the catalog for every user, so no item is
    ever missing and the three policies agree there. ``"bottom"`` is the
    default because it needs no catalog size and never rewards a list for
    leaving a relevant item out; ``"ignore"`` does (a list of only its
    surest items looks best), ``"random"`` is the paper's value for a model
    whose unranked items would come in random order. The gain (the grade
    under the default ``gain="linear"``) is the weight ``r_ui`` (the
    paper's watching time); with 0/1 grades, or ``gain="binary"``, every
    relevant item weighs the same.

    References
    ----------
    Hu, Koren and Volinsky (2008), "Collaborative filtering for implicit
    feedback datasets", ICDM.

    Examples
    --------
    User 1 ranks five items, relevant ones first (grade 1) and fourth (grade
    2), and misses one (grade 1); user 2 has its relevant item last of two:

    >>> df = pl.DataFrame({"query": [1] * 6 + [2, 2], "item": list("abcdef") + ["a", "b"],
    ...     "score": [5.0, 4, 3, 2, 1, None, 2, 1], "relevance": [1, 0, 0, 2, 0, 1, 0, 1]})
    >>> prm.evaluate(df, [prm.mpr(), prm.mpr(missing_items="ignore"),
    ...     prm.mpr(missing_items="random", n_items=11)]).with_columns(pl.all().round(4))
    shape: (1, 3)
    ┌─────┬────────────┬────────────────────────┐
    │ mpr ┆ mpr_ignore ┆ mpr_random(n_items=11) │
    │ --- ┆ ---        ┆ ---                    │
    │ f64 ┆ f64        ┆ f64                    │
    ╞═════╪════════════╪════════════════════════╡
    │ 0.7 ┆ 0.625      ┆ 0.29                   │
    └─────┴────────────┴────────────────────────┘
    >>> prm.evaluate(df, [prm.mpr()], per_query=True)
    shape: (2, 2)
    ┌───────┬───────┐
    │ query ┆ mpr   │
    │ ---   ┆ ---   │
    │ i64   ┆ f64   │
    ╞═══════╪═══════╡
    │ 1     ┆ 0.625 │
    │ 2     ┆ 1.0   │
    └───────┴───────┘
    """
    check_choice(missing_items, "missing_items", ("bottom", "random", "ignore"))
    if missing_items == "random":
        _check_n_items(n_items)
        return Metric(MPR_RANDOM, n_items=n_items)
    if n_items is not None:
        why = f'is only read with missing_items="random", got missing_items={missing_items!r}'
        raise InvalidParameterError.refused("`n_items`", why)
    return Metric(MPR if missing_items == "bottom" else MPR_IGNORE)


@constructor(GAUC)
def gauc() -> Metric:
    """Group AUC: each list's AUC of its relevant items against the other items it ranks, averaged.

    Per list of n retrieved items of which P are relevant, at ranks r_i, with
    N = n - P: ``(P N + P (P + 1) / 2 - sum r_i) / (P N)``, the share of
    (relevant, other) pairs in the right order (Zhou et al., KDD 2018).
    Every retrieved item that is not relevant counts as a negative, judged
    or not (implicit feedback, as RecBole and Elliot read a full ranking);
    relevant items the list leaves out are not pairs. A list without a
    relevant or another item has no value and does not count (null per
    query). Elliot's ``GAUC``; RecBole's ``gauc`` is :func:`gauc_weighted`.

    Returns
    -------
    Metric
        ``gauc``: the mean over the lists that have one.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "b"],
    ...     "score": [0.9, 0.5, 0.1, 0.8, 0.2], "relevance": [0, 1, None, 1, 1]})
    >>> prm.evaluate(df, [prm.gauc()], per_query=True)
    shape: (2, 2)
    ┌───────┬──────┐
    │ query ┆ gauc │
    │ ---   ┆ ---  │
    │ i64   ┆ f64  │
    ╞═══════╪══════╡
    │ 1     ┆ 0.5  │
    │ 2     ┆ null │
    └───────┴──────┘
    """


@constructor(GAUC_WEIGHTED)
def gauc_weighted() -> Metric:
    """Group AUC weighted by each list's relevant items: RecBole's ``gauc``.

    Each list's AUC as in :func:`gauc`, averaged with weight P, its relevant
    items retrieved: ``sum P AUC / sum P`` over the lists with a relevant
    and another item.

    Returns
    -------
    Metric
        ``gauc_weighted``.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 2, 2, 2], "item": ["a", "b", "c", "a", "b", "c"],
    ...     "score": [0.9, 0.5, 0.1, 0.8, 0.5, 0.2], "relevance": [0, 1, 1, 1, 0, 0]})
    >>> prm.evaluate(df, [prm.gauc(), prm.gauc_weighted()])
    shape: (1, 2)
    ┌──────┬───────────────┐
    │ gauc ┆ gauc_weighted │
    │ ---  ┆ ---           │
    │ f64  ┆ f64           │
    ╞══════╪═══════════════╡
    │ 0.5  ┆ 0.333333      │
    └──────┴───────────────┘
    """


@constructor(MCC)
def mcc(k: int, *, n_items: Annotated[float | None, COUNT] = None) -> Metric:
    """Matthews correlation of the top `k` as a classifier of the catalog's items (RecTools' ``MCC``).

    ``(tp tn - fp fn) / sqrt((tp + fp)(tp + fn)(tn + fp)(tn + fn))`` with tp
    the relevant items in the top k, ``fp = k - tp``, ``fn = R - tp`` and
    ``tn = n_items - k - fn``: every catalog item is predicted (in the top
    k) or not, relevant or not; 0 when a margin is empty. From -1 to 1.

    Parameters
    ----------
    k
        Cutoff: the predicted positives (RecTools counts k of them, however
        short the list).
    n_items
        The catalog's size, required.

    Returns
    -------
    Metric
        ``mcc(n_items=...)@k``, averaged over queries.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 1, 1], "item": [1, 2, 3, 4],
    ...     "score": [3.0, 2.0, 1.0, None], "relevance": [0, 1, 1, 1]})
    >>> # tp 1, fp 1, fn 2, tn 10 - 2 - 2 = 6: (6 - 2) / sqrt(2 * 3 * 7 * 8)
    >>> prm.evaluate(df, [prm.mcc(2, n_items=10)]).with_columns(pl.all().round(4))
    shape: (1, 1)
    ┌───────────────────┐
    │ mcc(n_items=10)@2 │
    │ ---               │
    │ f64               │
    ╞═══════════════════╡
    │ 0.2182            │
    └───────────────────┘
    """


@constructor(PARTIAL_AUC, check=_check_insufficient)
def partial_auc(k: int, *, insufficient_handling: InsufficientHandling = "ignore") -> Metric:
    r"""Partial AUC at `k`: the relevant items against the top `k` negatives (RecTools' ``PartialAUC``).

    The AUC of every relevant item of the user against the `k` highest
    ranked items that are not relevant (Hiranandani et al., 2020), per user::

        pAUC@k = sum_{i relevant, listed} max(0, k - n_i) / (k R)

    with ``n_i`` the negatives ranked above ``i`` (listed items that are
    not relevant, judged or not; under ``ranks="given"`` an empty position
    counts as one, as RecTools fills the gaps of its rank column) and R
    the user's relevant items, listed or not: a relevant item the list
    misses scores 0. `k` counts negatives, not positions: the value reads
    the list past its top `k`. A user without a relevant item has no value
    (null, not averaged).

    Parameters
    ----------
    k
        The number of top negatives (required).
    insufficient_handling
        A list with fewer than `k` negatives that misses a relevant item
        cannot tell where that item would come (RecTools'
        ``InsufficientHandling``): ``"ignore"`` (the default) scores it as
        above; ``"exclude"`` leaves such users out (null per user);
        ``"raise"`` fails the evaluation (:class:`InvalidDataError`).

    Returns
    -------
    Metric
        ``partial_auc@k`` (``partial_auc(insufficient_handling=exclude)@k``),
        averaged over users; RecTools' spelling ``PartialAUC@k``.

    References
    ----------
    Hiranandani, Vijitbenjaronk, Koyejo and Jain (2020), "Optimization and
    analysis of the pAp@k metric for recommender systems", ICML.
    RecTools, ``rectools/metrics/auc.py`` (``PartialAUC``).

    Examples
    --------
    RecTools' own example: user 3 lists its relevant item 2 under one
    negative and misses its relevant item 1.

    >>> df = pl.DataFrame({"query": [1, 1, 2, 2, 2, 3, 3, 3], "item": [1, 2, 3, 1, 2, 3, 2, 1],
    ...     "score": [2.0, 1, 3, 2, 1, 2, 1, None], "relevance": [1, 1, 1, 1, None, None, 1, 1]})
    >>> exclude = prm.partial_auc(3, insufficient_handling="exclude")
    >>> prm.evaluate(df, [prm.partial_auc(1), prm.partial_auc(3), exclude], per_query=True)
    shape: (3, 4)
    ┌───────┬───────────────┬───────────────┬─────────────────────────────────┐
    │ query ┆ partial_auc@1 ┆ partial_auc@3 ┆ partial_auc(insufficient_handl… │
    │ ---   ┆ ---           ┆ ---           ┆ ---                             │
    │ i64   ┆ f64           ┆ f64           ┆ f64                             │
    ╞═══════╪═══════════════╪═══════════════╪═════════════════════════════════╡
    │ 1     ┆ 1.0           ┆ 1.0           ┆ 1.0                             │
    │ 2     ┆ 1.0           ┆ 1.0           ┆ 1.0                             │
    │ 3     ┆ 0.0           ┆ 0.333333      ┆ null                            │
    └───────┴───────────────┴───────────────┴─────────────────────────────────┘
    """


@constructor(PAP, check=_check_insufficient)
def pap(k: int, *, insufficient_handling: InsufficientHandling = "ignore") -> Metric:
    r"""Partial AUC plus precision at `k` (pAp@k): the top relevant items against the top `k` negatives.

    RecTools' ``PAP``: as :func:`partial_auc`, over the first
    ``beta = min(k, R)`` relevant items listed only (Budhiraja et al.,
    2020), per user::

        pAp@k = sum_{i among the first beta relevant listed} max(0, k - n_i) / (k beta)

    with ``n_i`` the negatives ranked above ``i`` (an empty position of a
    given rank counts as one). It behaves like precision at `k` when R is at
    least `k`, like the partial AUC otherwise. A user without a relevant
    item has no value (null, not averaged).

    Parameters
    ----------
    k
        The number of top negatives and of top relevant items (required).
    insufficient_handling
        ``"ignore"``, ``"exclude"`` or ``"raise"``, for a list with fewer
        than `k` negatives that misses a relevant item (see
        :func:`partial_auc`).

    Returns
    -------
    Metric
        ``pap@k``, averaged over users; RecTools' spelling ``PAP@k``.

    References
    ----------
    Budhiraja, Hiranandani, Natarajan, Jain, Kumar and Nagaraj (2020),
    "Rich-item recommendations for rich-users: exploiting dynamic and static
    side information", arXiv:2001.10495.
    RecTools, ``rectools/metrics/auc.py`` (``PAP``).

    Examples
    --------
    Two relevant items, at ranks 2 and 3, and a third missed: at k = 2 the
    first two count, each under one negative: ``(1 + 1) / (2 * 2)``.

    >>> df = pl.DataFrame({"query": [1, 1, 1, 1, 1], "item": [1, 2, 3, 4, 5],
    ...     "score": [5.0, 4.0, 3.0, 2.0, None], "relevance": [0, 1, 1, 0, 1]})
    >>> prm.evaluate(df, [prm.pap(2), prm.partial_auc(2), "PAP@1"])
    shape: (1, 3)
    ┌───────┬───────────────┬───────┐
    │ pap@2 ┆ partial_auc@2 ┆ PAP@1 │
    │ ---   ┆ ---           ┆ ---   │
    │ f64   ┆ f64           ┆ f64   │
    ╞═══════╪═══════════════╪═══════╡
    │ 0.5   ┆ 0.333333      ┆ 0.0   │
    └───────┴───────────────┴───────┘
    """


SPECS = (
    spec_of(mar), spec_of(map_capped), MPR, MPR_IGNORE, MPR_RANDOM, spec_of(gauc), spec_of(gauc_weighted),
    spec_of(mcc), spec_of(partial_auc), spec_of(pap),
)  # fmt: skip
