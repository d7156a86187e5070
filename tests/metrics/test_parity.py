"""parity (metrics/parity.py): pop_reo against a transcription of Elliot's PopREO, pop_rsp by hand.

pop_reo's reference is tests/beyond_reference.py's; pop_rsp's, on generated data, is checked
beside the popularity metrics (tests/metrics/test_popularity.py).

Generated data: several models (``by="model"``) over one set of judgments joined to each
model's lists, relevant items never retrieved (rows with a null score), graded, negative and
missing grades, users with judgments and no list (not counted, as Elliot), users with a list
and nothing relevant, relevant items the user trained on, cold items, string and integer ids.
"""

from __future__ import annotations

import beyond_reference as ref
import polars as pl
import pytest
from beyond_cases import FEWER, Case, cases, close, judged, top, values_of
from hypothesis import given
from hypothesis import strategies as st

import polars_rankmetrics as prm
from metrics._helpers import DEGENERATE_DATA

CUTOFFS = (1, 3, None)


@DEGENERATE_DATA
@FEWER
@given(cases(), st.data(), st.sampled_from([0.2, 0.5, 0.8, 1.0]))
def test_pop_reo_matches_elliot(case: Case, data: st.DataObject, share: float) -> None:
    frame, relevant = judged(case, data.draw)
    train = case.interactions()
    metrics = [prm.pop_reo(k, interactions=train, head_share=share) for k in CUTOFFS]
    explicit = sorted(case.items(), key=str)[:2]
    metrics += [prm.pop_reo(2, interactions=train.lazy(), head=explicit)]
    got = values_of(case, prm.evaluate(frame, metrics, by=case.by))
    head = ref.short_head(ref.popularity(case.pairs), share)
    items = case.items()
    for key, row in got.items():
        users = case.lists[key or "als"]
        for metric, k in zip(metrics, [*CUTOFFS, 2], strict=True):
            heads = set(explicit) if metric.side("head") is not None else head
            want = ref.pop_reo(top(users, k), relevant, heads, items - heads, case.train())
            assert close(row[str(metric)], want), (str(metric), row[str(metric)], want)
    # The other catalog metrics still read the ranked rows only.
    alone = prm.evaluate(frame, [prm.pop_rsp(3, interactions=train)], by=case.by)
    beside = prm.evaluate(frame, [prm.pop_rsp(3, interactions=train), metrics[1]], by=case.by)
    assert beside.select(alone.columns).equals(alone)


def test_pop_reo_reads_unretrieved_rows_on_every_engine() -> None:
    frame = pl.DataFrame({"model": ["x"] * 5 + ["y"] * 4, "query": [1, 1, 1, 2, 2, 1, 1, 2, 2],
                          "item": ["a", "c", "d", "d", "b", "a", "c", "b", "d"],
                          "score": [3.0, 2.0, 1.0, 1.0, None, None, 1.0, 1.0, None],
                          "relevance": [1, 1, 0, 0, 1, 1, 1, 1, None]})  # fmt: skip
    train = pl.DataFrame({"user": [3], "item": ["a"]})
    groups = pl.DataFrame({"item": ["a", "b", "c", "d"], "group": [1, 1, 2, 2]})
    metrics = [prm.pop_reo(1, interactions=train, head=["a"]), prm.coverage(2), "ndcg@3",
               prm.awrf(2, groups=groups)]  # fmt: skip
    eager = prm.evaluate(frame, metrics, by="model")
    lazy = prm.evaluate(frame.lazy(), metrics, by="model")
    assert lazy.collect(engine="streaming").equals(eager)
    # x: as the docstring, 1.0. y: head a relevant to 1 but unranked; tail c (1) and b (2) both at rank 1.
    assert eager["pop_reo@1"].to_list() == [1.0, 1.0]
    # coverage reads the ranked items only: x ranks a, c, d (b is unretrieved) of a, b, c, d.
    assert eager["coverage@2"].to_list() == [0.75, 0.5]


def test_pop_reo_needs_the_judgments() -> None:
    run = pl.DataFrame({"query": [1], "item": ["a"], "score": [1.0]})
    with pytest.raises(prm.ColumnNotFoundError, match="relevance"):
        prm.evaluate(run, [prm.pop_reo(1, interactions=pl.DataFrame({"user": [1], "item": ["a"]}))])
    with pytest.raises(prm.InvalidParameterError, match="pop_reo needs the training interactions"):
        prm.pop_reo(3, head=["a"])


@DEGENERATE_DATA  # coverage@10 of lists from their own catalog is 1 by construction: it warns
def test_pop_rsp_counts_the_items_ranked_past_its_cutoff_whatever_else_is_asked() -> None:
    # Items 7..37 ranked (37 past the cutoff), 7 the head: the tail is 17, 27, 37 alone or beside coverage@10.
    frame = pl.DataFrame({"query": [1, 1, 1, 1], "item": [7, 17, 27, 37], "score": [4.0, 3.0, 2.0, 1.0]})
    metric = prm.pop_rsp(3, interactions=pl.DataFrame({"user": [0], "item": [7]}))
    alone = prm.evaluate(frame, [metric])
    assert alone.equals(prm.evaluate(frame, [metric, prm.coverage(10)]).select(alone.columns))
    # P_H = 1 / 1, P_T = 2 / 3: |1 - 2/3| / (1 + 2/3).
    assert close(alone.item(), (1 - 2 / 3) / (1 + 2 / 3))
