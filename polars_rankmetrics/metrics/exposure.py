"""Catalog-scope exposure fairness: each item group's share of the users' attention.

A browsing model (:mod:`._exposure_side`) gives each rank an attention; a
group's exposure is the attention its items receive in the top-`k` lists.
``exposure_share`` is one group's share of it, ``exposure_disparity`` the
distance between the groups' shares and a target distribution, and ``awrf``
(attention-weighted rank fairness) that distance per list.
"""

from __future__ import annotations

import polars as pl

from polars_rankmetrics._kernel import ITEM, Rows, exact_sum, fixed_point_sum
from polars_rankmetrics._quote import shown
from polars_rankmetrics._spec import OPEN_UNIT, SUMMED, CatalogSpec, CountState, Metric, Param
from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions._parameters import check_choice
from polars_rankmetrics.metrics._core import keep_top, keep_within
from polars_rankmetrics.metrics._count_tables import exact, state
from polars_rankmetrics.metrics._exposure_side import (
    ALL,
    ATTENTION,
    BAD_TARGET,
    GROUP,
    IN,
    MEMBER,
    RBP,
    TARGET,
    attention_rows,
    check_groups,
    check_target,
    finish_ratio,
    given,
    group_shares,
    groups,
    missing,
    relevance_sums,
    relevance_targets,
    with_totals,
)
from polars_rankmetrics.metrics._popularity_side import USER
from polars_rankmetrics.metrics._side import (
    BAD,
    SideColumns,
    finish,
    keyed,
)

__all__ = ["awrf", "exposure_disparity", "exposure_share"]

_BAD_REL = BAD + "_rel"  # the text of a relevant item without a group, or null
_BAD_UNKNOWN = BAD + "_unknown"  # exposure_share's group is no group of `groups`
_BY_RELEVANCE = "exposure_disparity_rel"  # the families whose target is the groups' share of relevance
# The mergeable state (CountState): fixed-point sums per key, or per (key, item group) rows.
_ATTENTION = SUMMED + "_attention"  # the attention of the key's top-k rows
_RECEIVED = SUMMED + "_received"  # the attention the (item) group receives
_RELEVANT = SUMMED + "_relevant"  # the group's share of the relevant items (exposure_disparity_rel)
_JSD, _LISTS = SUMMED + "_jsd", SUMMED + "_lists"  # awrf: the lists' divergences, and the lists
_PER_GROUP = "__prm_per_group"  # a key: the row is per (key, item group), not per key


def _share_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per key: the attention of the top-k rows, and the part the group receives (fixed-point sums)."""
    members = groups(metric, lists.collect_schema()[ITEM])
    rows, keys = attention_rows(metric, lists, by, query)
    name = str(metric.side("group"))
    mine = members.filter(pl.col(GROUP) == name)
    total = rows.group_by(keys).agg(fixed_point_sum(pl.col(ATTENTION)).alias(_ATTENTION))
    received = (
        rows.join(mine, on=ITEM, how="inner")
        .group_by(keys)
        .agg(fixed_point_sum(pl.col(ATTENTION) * pl.col(MEMBER)).alias(_RECEIVED))
    )
    unknown = pl.when(pl.len() == 0).then(pl.lit(f"group {name!r} is not a group of `groups`"))
    per_key = (
        total.join(received, on=keys, how="left")
        .join(missing(rows, members, keys), on=keys, how="left")
        .join(mine.select(unknown.alias(_BAD_UNKNOWN)), how="cross")
    )
    return state(per_key, by, keys)


def _exposure_share(_metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    out = table.with_columns(pl.coalesce(BAD, _BAD_UNKNOWN).alias(BAD))
    return finish(out, by, exact(_RECEIVED).fill_null(0.0) / exact(_ATTENTION), BAD)


def _disparity_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per key: the top-k rows' attention; per (key, GROUP): the attention received, the relevant share.

    Fixed-point sums; an ITEM column of nulls keeps the item dtype for the groups' ids.
    """
    item = lists.collect_schema()[ITEM]
    members = groups(metric, item)
    rows, keys = attention_rows(metric, lists, by, query)
    total = rows.group_by(keys).agg(fixed_point_sum(pl.col(ATTENTION)).alias(_ATTENTION))
    per_key = total.join(missing(rows, members, keys), on=keys, how="left")
    received = (
        rows.join(members, on=ITEM, how="inner")
        .group_by(*keys, GROUP)
        .agg(fixed_point_sum(pl.col(ATTENTION) * pl.col(MEMBER)).alias(_RECEIVED))
    )
    if metric.name.startswith(_BY_RELEVANCE):
        relevant, unknown = relevance_sums(lists, members, by, _RELEVANT)
        received = received.join(relevant, on=[*keys, GROUP], how="full", coalesce=True)
        per_key = per_key.join(unknown.rename({BAD: _BAD_REL}), on=keys, how="full", coalesce=True)
    parts = [
        state(per_key, by, keys).with_columns(pl.lit(value=False).alias(_PER_GROUP)),
        state(received, by, keys).with_columns(pl.lit(value=True).alias(_PER_GROUP)),
    ]
    return pl.concat(parts, how="diagonal").with_columns(pl.lit(None, dtype=item).alias(ITEM))


def _exposure_disparity(metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    members = groups(metric, table.collect_schema()[ITEM])
    frame, keys = keyed(table, by)
    per_key, per_group = frame.filter(~pl.col(_PER_GROUP)), frame.filter(pl.col(_PER_GROUP))
    total = per_key.filter(pl.col(_ATTENTION).is_not_null()).select(*keys, exact(_ATTENTION).alias(ALL))
    received = per_group.filter(pl.col(_RECEIVED).is_not_null()).select(
        *keys, GROUP, exact(_RECEIVED).alias(IN)
    )
    if metric.name.startswith(_BY_RELEVANCE):
        tables = relevance_targets(per_group.filter(pl.col(_RELEVANT).is_not_null()), keys, _RELEVANT)
        totals = tables.group_by(keys).agg(exact_sum(pl.col(TARGET)).alias("__prm_t_total"))
        shares = group_shares(total, received, tables, [*keys, GROUP])
        bad = per_key.select(*keys, pl.coalesce(BAD, _BAD_REL).alias(BAD))
    else:
        tables, totals = given(metric, members)
        shares, bad = group_shares(total, received, tables, [GROUP]), per_key.select(*keys, BAD)
    a, t = pl.col("__prm_a"), pl.col(TARGET)
    # 1/2 sum_g |a_g - t_g| over every group: the groups without exposure add their t_g, so the sum is
    # sum over the exposed groups of (|a_g - t_g| - t_g), plus the target's total.
    gaps = shares.group_by(keys).agg(exact_sum((a - t).abs() - t).alias("__prm_gap"))
    per_key_value = with_totals(gaps, totals, keys).select(
        *keys,
        *([BAD_TARGET] if BAD_TARGET in totals.collect_schema().names() else []),
        (0.5 * (pl.col("__prm_gap") + pl.col("__prm_t_total"))).alias("__prm_sum"),
        pl.lit(1, dtype=pl.UInt32).alias("__prm_count"),
    )
    return finish_ratio(per_key_value, bad, keys, by)


def _awrf_sums(metric: Metric, lists: pl.LazyFrame, by: tuple[str, ...], query: str) -> pl.LazyFrame:
    """Per key: the fixed-point sum of the lists' divergences from the target, and the lists."""
    members = groups(metric, lists.collect_schema()[ITEM])
    rows, keys = attention_rows(metric, lists, by, query)
    tables, totals = given(metric, members)
    at = [*keys, USER]
    total = rows.group_by(at).agg(exact_sum(pl.col(ATTENTION)).alias(ALL))
    received = (
        rows.join(members, on=ITEM, how="inner")
        .group_by(*at, GROUP)
        .agg(exact_sum(pl.col(ATTENTION) * pl.col(MEMBER)).alias(IN))
    )
    shares = group_shares(total, received, tables, [GROUP])
    a, t = pl.col("__prm_a"), pl.col(TARGET)
    m = (a + t) / 2.0
    # JSD_2(a, t) = 1/2 sum_g a_g log2(a_g / m_g) + t_g log2(t_g / m_g), m = (a + t) / 2; a group absent
    # from the list (a_g = 0) adds t_g / 2, so the sum runs over the list's groups, minus their t_g / 2,
    # plus half the target's total.
    own = pl.when(a > 0).then(a * (a / m).log(2)).otherwise(0.0)
    other = pl.when(t > 0).then(t * (t / m).log(2)).otherwise(0.0)
    parts = shares.group_by(*keys, USER).agg(exact_sum(0.5 * (own + other - t)).alias("__prm_part"))
    per_list = parts.join(totals, how="cross").with_columns(
        (pl.col("__prm_part") + 0.5 * pl.col("__prm_t_total")).alias("__prm_jsd")
    )
    per_key = per_list.group_by(keys).agg(
        fixed_point_sum(pl.col("__prm_jsd")).alias(_JSD),
        pl.len().cast(pl.Int64).alias(_LISTS),
        pl.col(BAD_TARGET).min(),
    )
    return state(per_key.join(missing(rows, members, keys), on=keys, how="full", coalesce=True), by, keys)


def _awrf(_metric: Metric, table: pl.LazyFrame, by: tuple[str, ...]) -> pl.LazyFrame:
    # The keys with a list holding a grouped item; the others name their missing item in the table.
    out = table.filter(pl.col(_LISTS).is_not_null() | pl.col(BAD).is_not_null()).with_columns(
        pl.coalesce(BAD, BAD_TARGET).alias(BAD)
    )
    return finish(out, by, exact(_JSD) / pl.col(_LISTS).cast(pl.Float64), BAD)


_NEEDS = frozenset({"rank"})
_GROUPS = Param("groups", None, "side")
_TARGET = Param("target", None, "side")
_P = Param("p", 0.9, domain=OPEN_UNIT)
_COLUMNS = Param("columns", None, "side")  # the side frames' column names


def _keep_relevant_too(metric: Metric, rows: Rows) -> pl.Expr:
    """The top-k rows and every relevant row (the relevant items no list ranked count)."""
    return keep_within(rows, metric.k) | rows.rel


def _specs(
    name: str, counts: CountState, params: tuple[Param, ...], *, relevance: bool = False
) -> tuple[CatalogSpec, CatalogSpec]:
    """The family under the log2 browsing model and under the rbp one (`name` + "_rbp", with `p`).

    With `relevance`, it reads the relevant items the lists did not rank (``unretrieved``).
    """
    keep = _keep_relevant_too if relevance else keep_top
    function = name.removesuffix("_rel")
    params = (*params, _COLUMNS)
    return (
        CatalogSpec(name=name, function=function, keep=keep, needs=_NEEDS, catalog=counts.catalog,
                    counts=counts, params=params, unretrieved=relevance),
        CatalogSpec(name=name + RBP, function=function, keep=keep, needs=_NEEDS, catalog=counts.catalog,
                    counts=counts, params=(_P, *params), unretrieved=relevance),
    )  # fmt: skip


_DISPARITY = CountState(_disparity_sums, _exposure_disparity)
EXPOSURE_SHARE, EXPOSURE_SHARE_RBP = _specs(
    "exposure_share", CountState(_share_sums, _exposure_share), (_GROUPS, Param("group", None, "side"))
)
EXPOSURE_DISPARITY, EXPOSURE_DISPARITY_RBP = _specs("exposure_disparity", _DISPARITY, (_GROUPS, _TARGET))
EXPOSURE_DISPARITY_REL, EXPOSURE_DISPARITY_REL_RBP = _specs(
    _BY_RELEVANCE, _DISPARITY, (_GROUPS,), relevance=True
)
AWRF, AWRF_RBP = _specs("awrf", CountState(_awrf_sums, _awrf), (_GROUPS, _TARGET))
SPECS = (
    EXPOSURE_SHARE,
    EXPOSURE_SHARE_RBP,
    EXPOSURE_DISPARITY,
    EXPOSURE_DISPARITY_RBP,
    EXPOSURE_DISPARITY_REL,
    EXPOSURE_DISPARITY_REL_RBP,
    AWRF,
    AWRF_RBP,
)


def _built(
    pair: tuple[CatalogSpec, CatalogSpec], k: int | None, discount: str, p: float | None, **sides: object
) -> Metric:
    check_choice(discount, "discount", ("log2", "rbp"))
    check_groups(sides["groups"], None, sides.get("columns"))
    check_target(sides.get("target"), sides.get("columns"))
    if discount == "rbp":
        return Metric(pair[1], k, p=0.9 if p is None else p, **sides)
    if p is not None:
        why = f"applies to discount='rbp', not discount={discount!r}"
        raise InvalidParameterError.refused("p (the rbp user's persistence)", why)
    return Metric(pair[0], k, **sides)


def exposure_share(  # noqa: PLR0913  (a parameter per side input, and their columns)
    k: int | None = None,
    *,
    groups: pl.DataFrame | pl.LazyFrame | None = None,
    group: str | int | None = None,
    discount: str = "log2",
    p: float | None = None,
    columns: SideColumns = None,
) -> Metric:
    """The share of the users' attention that the items of one group receive.

    ``share(g) = sum_u sum_{i in L_u} w(r_ui) m(i, g) / sum_u sum_{i in L_u} w(r_ui)``,
    with ``L_u`` user ``u``'s top-`k` list, ``r_ui`` the rank of item ``i``
    in it, ``m(i, g)`` item ``i``'s membership of group ``g`` (1, or
    ``1/n`` for an item in ``n`` groups) and ``w`` the browsing model's
    attention: ``1 / log2(r + 1)`` (``discount="log2"``) or ``p**(r - 1)``
    (``discount="rbp"``). The exposure is pooled over the lists of a `by`
    group: the share of all the attention those lists give (Singh and
    Joachims 2018's group exposure, amortised over users as Biega et al.
    2018 do).

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    groups
        The items' groups (a provider, a label): a frame of (item, group)
        rows, an item in as many rows as it has groups. Every ranked item
        needs one.
    group
        The group whose share to give (compared as text with the labels of
        `groups`). A catalog metric gives one value per `by` group, so one
        metric gives one group's share: build one per group of interest
        (the shares of every group sum to 1); the column is named
        ``exposure_share(group=...)@k``.
    discount
        The browsing model: ``"log2"`` or ``"rbp"``.
    p
        The rbp user's persistence in (0, 1), default 0.9; only with
        ``discount="rbp"`` (``exposure_share_rbp``).

    columns
        Column names for the ``item`` and ``group`` of `groups`, where not the
        [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``exposure_share(group=g)@k`` (``exposure_share_rbp`` for rbp), one
        value per `by` group (catalog scope); 0 for a group never ranked.

    Raises
    ------
    InvalidParameterError
        No `groups` or `group`; an unknown `discount`; `p` without rbp.
    InvalidDataError
        Nulls in eager `groups`; found when the plan runs: a ranked item
        without a group, or a `group` that is not one of `groups`.

    References
    ----------
    Singh and Joachims (2018), "Fairness of exposure in rankings", KDD.
    Biega, Gummadi and Weikum (2018), "Equity of attention: amortizing
    individual fairness in rankings", SIGIR.

    Examples
    --------
    Provider ``x`` holds items ``a`` and ``b``; one list ranks ``a``, ``c``, ``b``:

    >>> providers = pl.DataFrame({"item": ["a", "b", "c"], "group": ["x", "x", "y"]})
    >>> df = pl.DataFrame({"query": [1, 1, 1], "item": ["a", "c", "b"], "score": [3.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.exposure_share(2, groups=providers, group="x"),
    ...     prm.exposure_share(2, groups=providers, group="y")])
    shape: (1, 2)
    ┌───────────────────────────┬───────────────────────────┐
    │ exposure_share(group=x)@2 ┆ exposure_share(group=y)@2 │
    │ ---                       ┆ ---                       │
    │ f64                       ┆ f64                       │
    ╞═══════════════════════════╪═══════════════════════════╡
    │ 0.613147                  ┆ 0.386853                  │
    └───────────────────────────┴───────────────────────────┘
    """
    if group is None or isinstance(group, bool) or not isinstance(group, (str, int)):
        remedy = f"group=<label> (a str or int), got {shown(group)}"
        raise InvalidParameterError.needs("exposure_share", "the group whose share to give", remedy)
    return _built(
        (EXPOSURE_SHARE, EXPOSURE_SHARE_RBP), k, discount, p, groups=groups, group=str(group), columns=columns
    )


def exposure_disparity(  # noqa: PLR0913  (a parameter per side input, and their columns)
    k: int | None = None,
    *,
    groups: pl.DataFrame | pl.LazyFrame | None = None,
    target: pl.DataFrame | pl.LazyFrame | str | None = None,
    discount: str = "log2",
    p: float | None = None,
    columns: SideColumns = None,
) -> Metric:
    """Disparate exposure: how far the groups' shares of attention are from a target distribution.

    ``D = 1/2 sum_g |share(g) - t(g)|``, the total variation distance
    between the groups' exposure shares (as :func:`exposure_share`, pooled
    over the lists of a `by` group) and the target ``t``: by default each
    group's share of the catalog, ``t(g) = sum_i m(i, g) / n`` over the
    ``n`` items of `groups`. At that target ``D`` is 0 exactly when every
    group's mean exposure per item is the same: Singh and Joachims (2018)'s
    demographic parity constraint ``Exposure(G_a) / |G_a| = Exposure(G_b) /
    |G_b|``, for any number of groups. In [0, 1]; 0 is parity.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    groups
        The items' groups, as for :func:`exposure_share`.
    target
        Another target: a frame of (group, weight) rows, weights >= 0
        normalised to sum to 1 (a group it omits has target 0); or
        ``"relevance"``: each group's share of the relevant items of the
        `by` group's users with a list, retrieved or not (each relevant
        (user, item) pair once, shared among the item's groups). At that
        target ``D`` is 0 exactly when exposure is proportional to
        relevance: Singh and Joachims's disparate treatment constraint
        ``Exposure(G_a) / U(G_a) = Exposure(G_b) / U(G_b)``, pooled over
        the users (``exposure_disparity_rel``; it needs the frame's
        relevance column and reads the relevant items no list ranked, as
        :func:`join_run_qrels` keeps them).
    discount, p
        The browsing model, as for :func:`exposure_share`.

    columns
        Column names for the ``item`` and ``group`` of `groups` and the ``group`` and ``weight`` of
        `target`, where not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``exposure_disparity@k`` (``exposure_disparity_rbp`` for rbp), one
        value per `by` group (catalog scope); with ``target="relevance"``,
        null for a group whose users have no relevant item.

    Raises
    ------
    InvalidParameterError
        No `groups`; an unknown `discount`; `p` without rbp.
    InvalidDataError
        Nulls in eager `groups`; a negative, null or repeated weight in
        `target`, or weights summing to 0 (eager ones when built, lazy ones
        when the plan runs); a ranked item without a group.

    References
    ----------
    Singh and Joachims (2018), "Fairness of exposure in rankings", KDD.

    Examples
    --------
    Two of the four items are provider ``x``'s (target 1/2 each); ``x`` gets
    the first rank of both lists:

    >>> providers = pl.DataFrame({"item": ["a", "b", "c", "d"], "group": ["x", "x", "y", "y"]})
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "c", "b", "d"],
    ...     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.exposure_disparity(1, groups=providers),
    ...     prm.exposure_disparity(2, groups=providers)])
    shape: (1, 2)
    ┌──────────────────────┬──────────────────────┐
    │ exposure_disparity@1 ┆ exposure_disparity@2 │
    │ ---                  ┆ ---                  │
    │ f64                  ┆ f64                  │
    ╞══════════════════════╪══════════════════════╡
    │ 0.5                  ┆ 0.113147             │
    └──────────────────────┴──────────────────────┘
    """
    if isinstance(target, str):
        check_choice(target, "target", ("relevance",))  # or a frame
        pair = (EXPOSURE_DISPARITY_REL, EXPOSURE_DISPARITY_REL_RBP)
        return _built(pair, k, discount, p, groups=groups, columns=columns)
    pair = (EXPOSURE_DISPARITY, EXPOSURE_DISPARITY_RBP)
    return _built(pair, k, discount, p, groups=groups, target=target, columns=columns)


def awrf(  # noqa: PLR0913  (a parameter per side input, and their columns)
    k: int | None = None,
    *,
    groups: pl.DataFrame | pl.LazyFrame | None = None,
    target: pl.DataFrame | pl.LazyFrame | None = None,
    discount: str = "log2",
    p: float | None = None,
    columns: SideColumns = None,
) -> Metric:
    """Attention-weighted rank fairness (Sapiezynski et al., 2019): each list's distance from a target.

    Per list, the attention-weighted group distribution
    ``a(g) = sum_{i in L_u} w(r_ui) m(i, g) / sum_{i in L_u} w(r_ui)`` (the
    browsing model and memberships as for :func:`exposure_share`), then its
    Jensen-Shannon divergence from the target ``t``, in bits:
    ``JSD(a, t) = 1/2 sum_g a(g) log2(a(g) / m(g)) + t(g) log2(t(g) / m(g))``,
    ``m = (a + t) / 2``; the mean over the lists of the `by` group. The
    target defaults to the groups' shares of the catalog, as for
    :func:`exposure_disparity`. In [0, 1]; 0 when every list gives each
    group its target share of attention.

    Parameters
    ----------
    k
        Cutoff; None uses the whole lists.
    groups, target
        As for :func:`exposure_disparity`.
    discount, p
        The browsing model, as for :func:`exposure_share`.

    columns
        Column names for the ``item`` and ``group`` of `groups` and the ``group`` and ``weight`` of
        `target`, where not the [default names][side-frames]: a ``{role: name}`` mapping or a
        :class:`~polars_rankmetrics.Columns`.

    Returns
    -------
    Metric
        ``awrf@k`` (``awrf_rbp`` for rbp), one value per `by` group
        (catalog scope).

    Raises
    ------
    InvalidParameterError, InvalidDataError
        As for :func:`exposure_disparity`.

    Notes
    -----
    Sapiezynski et al. leave the distance open; the Jensen-Shannon
    divergence is the one the TREC 2021 Fair Ranking track chose, which
    reports ``1 - JSD`` in nats, with the ``log2`` attention: that is
    ``1 - ln(2) * awrf`` per list.

    References
    ----------
    Sapiezynski, Zeng, Robertson, Mislove and Wilson (2019), "Quantifying
    the impact of user attention on fair group representation in ranked
    lists", WWW companion.

    Examples
    --------
    >>> providers = pl.DataFrame({"item": ["a", "b", "c", "d"], "group": ["x", "x", "y", "y"]})
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2], "item": ["a", "c", "b", "d"],
    ...     "score": [2.0, 1.0, 2.0, 1.0]})
    >>> prm.evaluate(df, [prm.awrf(1, groups=providers), prm.awrf(2, groups=providers)])
    shape: (1, 2)
    ┌──────────┬──────────┐
    │ awrf@1   ┆ awrf@2   │
    │ ---      ┆ ---      │
    │ f64      ┆ f64      │
    ╞══════════╪══════════╡
    │ 0.311278 ┆ 0.009376 │
    └──────────┴──────────┘
    """
    return _built((AWRF, AWRF_RBP), k, discount, p, groups=groups, target=target, columns=columns)
