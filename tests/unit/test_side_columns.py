"""Every side input takes `columns=` and is read by column name, never by position (issue 38, point 1).

For each metric that reads a frame besides the evaluation frame (popularity, interactions,
history, features, categories, groups, targets, a baseline or reference run, a catalog, a head),
the side frame with its columns renamed and named through ``columns=`` (a ``{role: name}``
mapping, or a ``prm.Columns``) gives the value the frame of default names gives; the renamed frame
without ``columns=`` is refused by a ColumnNotFoundError that names the role, the columns found
and the ``columns=`` that reads it (it used to be read by position); reordering never matters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl
import pytest

import polars_rankmetrics as prm

pytestmark = pytest.mark.filterwarnings("ignore::polars_rankmetrics.RankMetricsWarning")

RUN = pl.DataFrame(
    {
        "query": [1, 1, 1, 2, 2, 2, 3, 3],
        "item": ["a", "b", "c", "a", "d", "b", "c", "d"],
        "score": [3.0, 2.0, 1.0, 3.0, 2.0, 1.0, 2.0, 1.0],
        "relevance": [1, 0, 1, 0, 1, 1, 0, 1],
    }
)
INTERACTIONS = pl.DataFrame({"user": [1, 2, 3, 3, 4, 1, 2], "item": ["a", "a", "b", "c", "d", "b", "c"]})
POPULARITY = pl.DataFrame({"item": ["a", "b", "c", "d"], "count": [9, 4, 2, 1]})
CATEGORIES = pl.DataFrame({"item": ["a", "b", "c", "d"], "category": ["x", "y", "x", "z"]})
GROUPS = pl.DataFrame({"item": ["a", "b", "c", "d"], "group": ["g1", "g2", "g1", "g2"]})
TARGET = pl.DataFrame({"group": ["g1", "g2"], "weight": [1.0, 3.0]})
FEATURES = pl.DataFrame(
    {"item": ["a", "b", "c", "d"], "f0": [1.0, 0.0, 0.5, 1.0], "f1": [0.0, 1.0, 0.5, 1.0]}
)
BASELINE = pl.DataFrame({"user": [1, 2, 3], "item": ["a", "c", "d"], "score": [1.0, 1.0, 1.0]})
REFERENCE = pl.DataFrame(
    {"query": [1, 1, 1, 2, 2], "item": ["b", "a", "c", "a", "b"], "score": [3.0, 2.0, 1.0, 2.0, 1.0]}
)
CATALOG = pl.DataFrame({"item": ["a", "b", "c", "d", "e"], "price": [1, 2, 3, 4, 5]})
PROPENSITIES = pl.DataFrame({"item": ["a", "b", "c", "d"], "propensity": [0.5, 0.8, 0.25, 0.4]})
WEIGHTS = pl.DataFrame({"item": ["a", "b", "c", "d"], "weight": [2.0, 1.25, 4.0, 2.5]})
PER_QUERY = RUN.select(  # a propensity per (query, item): every row of the run
    "query", "item", propensity=pl.Series([0.5, 0.8, 0.25, 0.4, 0.3, 0.9, 0.2, 0.6])
)


@dataclass(frozen=True)
class Case:
    """A metric built from side frames; the renames of their columns and the `columns=` that reads them."""

    build: Callable[..., prm.Metric]  # build(frames..., columns=...) -> Metric
    frames: tuple[pl.DataFrame, ...]
    renames: dict[str, str]  # old column name -> new, over every side frame of the case
    columns: dict[str, str]  # role -> new name


USER_ITEM = {"user": "member", "item": "title"}
ITEM_COUNT = {"item": "title", "count": "plays"}
ITEM_P = {"item": "title", "propensity": "ps"}
QUERY_ITEM_P = {"query": "member", "item": "title", "propensity": "ps"}
CASES = {
    "novelty-interactions": Case(
        lambda f, **c: prm.novelty(2, interactions=f, **c), (INTERACTIONS,), USER_ITEM, USER_ITEM
    ),
    "novelty-popularity": Case(
        lambda f, **c: prm.novelty(2, popularity=f, n_users=10, **c), (POPULARITY,), ITEM_COUNT, ITEM_COUNT
    ),
    "arp-interactions": Case(
        lambda f, **c: prm.arp(3, interactions=f, **c), (INTERACTIONS,), USER_ITEM, USER_ITEM
    ),
    "arp-popularity": Case(
        lambda f, **c: prm.arp(3, popularity=f, **c), (POPULARITY,), ITEM_COUNT, ITEM_COUNT
    ),
    "aplt-popularity": Case(
        lambda f, **c: prm.aplt(3, popularity=f, **c), (POPULARITY,), ITEM_COUNT, ITEM_COUNT
    ),
    "aclt-head": Case(
        lambda f, h, **c: prm.aclt(3, popularity=f, head=h, **c),
        (POPULARITY, POPULARITY.head(1).select("item", note=pl.lit("x"))),
        ITEM_COUNT,
        ITEM_COUNT,
    ),
    "tail_percentage": Case(
        lambda f, **c: prm.tail_percentage(3, popularity=f, **c), (POPULARITY,), ITEM_COUNT, ITEM_COUNT
    ),
    "mean_pop_rank": Case(
        lambda f, **c: prm.mean_pop_rank(3, interactions=f, **c), (INTERACTIONS,), USER_ITEM, USER_ITEM
    ),
    "pop_rsp": Case(
        lambda f, **c: prm.pop_rsp(3, interactions=f, **c), (INTERACTIONS,), USER_ITEM, USER_ITEM
    ),
    "pop_reo": Case(
        lambda f, **c: prm.pop_reo(3, interactions=f, **c), (INTERACTIONS,), USER_ITEM, USER_ITEM
    ),
    "surprisal": Case(
        lambda f, **c: prm.surprisal(2, interactions=f, **c), (INTERACTIONS,), USER_ITEM, USER_ITEM
    ),
    "unexpectedness": Case(
        lambda f, **c: prm.unexpectedness(2, baseline=f, **c),
        (BASELINE,),
        {"user": "member", "item": "title", "score": "points"},
        {"user": "member", "item": "title", "score": "points"},
    ),
    "category_diversity": Case(
        lambda f, **c: prm.category_diversity(3, categories=f, **c),
        (CATEGORIES,),
        {"item": "title", "category": "genre_id"},
        {"item": "title", "category": "genre_id"},
    ),
    "miscalibration": Case(
        lambda h, f, **c: prm.miscalibration(3, history=h, categories=f, **c),
        (INTERACTIONS, CATEGORIES),
        {"user": "member", "item": "title", "category": "kind"},
        {"user": "member", "item": "title", "category": "kind"},
    ),
    "serendipity-features": Case(
        lambda h, f, **c: prm.serendipity(3, history=h, features=f, **c),
        (INTERACTIONS, FEATURES),
        USER_ITEM,
        USER_ITEM,
    ),
    "serendipity-history": Case(
        lambda h, **c: prm.serendipity(3, history=h, **c), (INTERACTIONS,), USER_ITEM, USER_ITEM
    ),
    "intra_list_similarity": Case(
        lambda f, **c: prm.intra_list_similarity(3, features=f, **c),
        (FEATURES,),
        {"item": "sku"},
        {"item": "sku"},
    ),
    "exposure_share": Case(
        lambda g, **c: prm.exposure_share(3, groups=g, group="g1", **c),
        (GROUPS,),
        {"item": "title", "group": "provider"},
        {"item": "title", "group": "provider"},
    ),
    "exposure_disparity": Case(
        lambda g, t, **c: prm.exposure_disparity(3, groups=g, target=t, **c),
        (GROUPS, TARGET),
        {"item": "title", "group": "provider", "weight": "wanted"},
        {"item": "title", "group": "provider", "weight": "wanted"},
    ),
    "awrf": Case(
        lambda g, t, **c: prm.awrf(3, groups=g, target=t, **c),
        (GROUPS, TARGET),
        {"item": "title", "group": "provider", "weight": "wanted"},
        {"item": "title", "group": "provider", "weight": "wanted"},
    ),
    "rbo": Case(
        lambda r, **c: prm.rbo(p=0.8, reference=r, **c),
        (REFERENCE,),
        {"query": "user_id", "item": "movie", "score": "points"},
        {"query": "user_id", "item": "movie", "score": "points"},
    ),
    "coverage-catalog": Case(
        lambda f, **c: prm.coverage(2, catalog=f, **c), (CATALOG,), {"item": "sku"}, {"item": "sku"}
    ),
    "psp-propensities": Case(lambda f, **c: prm.psp(2, propensities=f, **c), (PROPENSITIES,), ITEM_P, ITEM_P),
    "psndcg-counts": Case(
        lambda f, **c: prm.psndcg(3, counts=f, n=100, **c), (POPULARITY,), ITEM_COUNT, ITEM_COUNT
    ),
    "psrecall-per-query": Case(
        lambda f, **c: prm.psrecall(3, propensities=f, normalize="oracle", **c),
        (PER_QUERY,),
        QUERY_ITEM_P,
        QUERY_ITEM_P,
    ),
    "ips_precision-weights": Case(
        lambda f, **c: prm.ips_precision(2, weights=f, **c),
        (WEIGHTS,),
        {"item": "title", "weight": "ipw"},
        {"item": "title", "weight": "ipw"},
    ),
    "ips_rbp-propensities": Case(
        lambda f, **c: prm.ips_rbp(propensities=f, estimator="snips", **c), (PROPENSITIES,), ITEM_P, ITEM_P
    ),
    "ips_ndcg-per-query": Case(
        lambda f, **c: prm.ips_ndcg(3, propensities=f, **c),
        (PER_QUERY,),
        QUERY_ITEM_P,
        {"user": "member", "item": "title", "propensity": "ps"},
    ),
    "gini-catalog": Case(
        lambda f, **c: prm.gini(2, catalog=f, **c), (CATALOG,), {"item": "sku"}, {"item": "sku"}
    ),
}


def _value(metric: prm.Metric) -> float:
    return prm.evaluate(RUN, [metric]).item()  # type: ignore[no-any-return]


def _renamed(frame: pl.DataFrame, renames: dict[str, str]) -> pl.DataFrame:
    return frame.rename({old: new for old, new in renames.items() if old in frame.columns})


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("lazy", [False, True])
def test_renamed_side_frames_read_through_columns(name: str, lazy: bool) -> None:
    case = CASES[name]
    expected = _value(case.build(*case.frames))
    renamed = [_renamed(f, case.renames) for f in case.frames]
    renamed = [f.select(reversed(f.columns)) for f in renamed]  # the order never matters
    given = [f.lazy() if lazy else f for f in renamed]
    assert _value(case.build(*given, columns=case.columns)) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_renamed_side_frames_without_columns_name_the_fix(name: str) -> None:
    case = CASES[name]
    renamed = [_renamed(f, case.renames) for f in case.frames]
    with pytest.raises(prm.ColumnNotFoundError) as caught:
        _value(case.build(*renamed))  # never read by position
    message = str(caught.value)
    assert "has no" in message
    assert "columns={" in message
    new_names = set(case.renames.values())
    assert any(repr(n) in message for n in new_names), message  # the columns found


def test_the_message_names_the_role_the_columns_and_the_fix() -> None:
    plays = POPULARITY.rename({"count": "plays"})
    with pytest.raises(prm.ColumnNotFoundError) as caught:
        prm.arp(3, popularity=plays)
    assert str(caught.value) == (
        "`popularity` has no count column (none named count, popularity, users, n, len, counts, frequency or "
        "freq); it has columns: "
        "'item', 'plays'; name it with columns={'count': 'plays'}"
    )
    assert _value(prm.arp(3, popularity=plays, columns={"count": "plays"})) == _value(
        prm.arp(3, popularity=POPULARITY)
    )


def test_a_prm_columns_names_the_user_item_and_score_roles() -> None:
    baseline = BASELINE.rename({"user": "member", "item": "title", "score": "points"})
    cols = prm.Columns(query="member", item="title", score="points")
    expected = _value(prm.unexpectedness(2, baseline=BASELINE))
    assert _value(prm.unexpectedness(2, baseline=baseline, columns=cols)) == expected
    reference = REFERENCE.rename({"query": "uid", "item": "movie"})
    rbo = prm.rbo(p=0.8, reference=reference, columns=prm.Columns(query="uid", item="movie"))
    assert _value(rbo) == _value(prm.rbo(p=0.8, reference=REFERENCE))


def test_rbo_reads_a_rank_by_name_and_by_columns() -> None:
    by_score = _value(prm.rbo(p=0.8, reference=REFERENCE))
    ranks = REFERENCE.with_columns(rank=pl.col("score").rank("ordinal", descending=True).over("query")).drop(
        "score"
    )
    assert _value(prm.rbo(p=0.8, reference=ranks)) == by_score
    positions = ranks.rename({"rank": "pos"})
    assert _value(prm.rbo(p=0.8, reference=positions, columns={"rank": "pos"})) == by_score
    with pytest.raises(prm.ColumnNotFoundError, match=r"`reference` has no score column"):
        _value(prm.rbo(p=0.8, reference=positions))


def test_a_reference_of_other_names_is_not_read_by_position() -> None:
    # Its first three columns used to be read as query, item, score whatever their names.
    odd = REFERENCE.rename({"query": "a", "item": "b", "score": "c"})
    with pytest.raises(
        prm.ColumnNotFoundError, match=r"`reference` has no query column.*columns=\{.query.: \.\.\.\}"
    ):
        _value(prm.rbo(p=0.8, reference=odd))


def test_a_column_named_in_columns_must_exist() -> None:
    with pytest.raises(prm.ColumnNotFoundError, match=r"plays.*not found.*'item', 'count'"):
        prm.arp(3, popularity=POPULARITY, columns={"count": "plays"})


def test_columns_keys_and_values_are_checked() -> None:
    with pytest.raises(prm.InvalidParameterError, match="colour"):
        prm.arp(3, popularity=POPULARITY, columns={"colour": "x"})
    with pytest.raises(prm.InvalidInputError, match="columns"):
        prm.arp(3, popularity=POPULARITY, columns={"count": 3})  # type: ignore[dict-item]
    with pytest.raises(prm.InvalidInputError, match="columns"):
        prm.arp(3, popularity=POPULARITY, columns=["count"])  # type: ignore[arg-type]


def test_one_column_inputs_and_old_keywords_still_read() -> None:
    # A catalog or head of one column holds the ids whatever its name; no columns= needed.
    ids = pl.DataFrame({"sku": ["a", "b", "c", "d", "e"]})
    assert _value(prm.coverage(2, catalog=ids)) == _value(prm.coverage(2, catalog=CATALOG))
    head = pl.Series("top", ["a"])
    assert _value(prm.aclt(3, popularity=POPULARITY, head=head)) == _value(
        prm.aclt(3, popularity=POPULARITY, head=["a"])
    )


def test_the_side_frame_is_not_mutated() -> None:
    frame = POPULARITY.rename({"count": "plays"})
    before = frame.clone()
    _value(prm.arp(3, popularity=frame, columns={"count": "plays"}))
    assert frame.equals(before)


def test_propensity_frames_take_a_prm_columns_and_the_rank_methods_columns() -> None:
    renamed = PROPENSITIES.rename({"item": "title", "propensity": "ps"})
    expected = _value(prm.psp(2, propensities=PROPENSITIES))
    cols = prm.Columns(item="title")
    with pytest.raises(prm.ColumnNotFoundError, match=r"`propensities` has no propensity column"):
        prm.psp(2, propensities=renamed, columns=cols)
    assert _value(prm.psp(2, propensities=renamed.rename({"ps": "p"}), columns=cols)) == expected
    # `df.rank`: one `columns=` names the frame's columns and the side frame's.
    ps = PROPENSITIES.rename({"propensity": "ps"})
    assert RUN.rank.psp(2, propensities=ps, columns={"propensity": "ps"}).item() == expected
    weights = WEIGHTS.rename({"weight": "ipw"})
    assert RUN.rank.ips_mrr(weights=weights, columns={"weight": "ipw"}).item() == _value(
        prm.ips_mrr(weights=WEIGHTS)
    )


def test_a_propensity_frame_column_named_in_columns_must_exist() -> None:
    # The query role is optional (a frame per item), but one named in `columns=` is read, never ignored.
    with pytest.raises(prm.ColumnNotFoundError, match=r"member.*not found.*'item', 'propensity'"):
        prm.psp(2, propensities=PROPENSITIES, columns={"query": "member"})
    with pytest.raises(prm.ColumnNotFoundError, match=r"ipw.*not found.*'item', 'weight'"):
        prm.ips_precision(2, weights=WEIGHTS, columns={"weight": "ipw"})
    with pytest.raises(prm.InvalidParameterError, match="colour"):
        prm.psp(2, propensities=PROPENSITIES, columns={"colour": "x"})
