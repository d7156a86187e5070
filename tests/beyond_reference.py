"""Plain-Python beyond-accuracy metrics from the papers and the peers' code: the oracle for the tests.

Popularity bias as Elliot computes it (its ``Popularity`` short head, ``ARP``,
``APLT``, ``ACLT``, ``PopRSP``) and RecBole's ``TailPercentage``, transcribed
as loops over users and items; no Polars. Each list is a user's ranked items.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np

Item = Hashable
Lists = Sequence[Sequence[Item]]


def popularity(pairs: Sequence[tuple[Hashable, Item]]) -> dict[Item, int]:
    """Elliot's popularity: the number of distinct users of each item."""
    users: dict[Item, set[Hashable]] = {}
    for user, item in pairs:
        users.setdefault(item, set()).add(user)
    return {item: len(us) for item, us in users.items()}


def short_head(pop: Mapping[Item, float], share: float) -> set[Item]:
    """Elliot's short head (items by decreasing popularity while the limit stays positive).

    Elliot's loop breaks ties by the items' order; here every item tied with the
    last one taken joins the head, the library's documented rule.
    """
    limit = sum(pop.values()) * share
    head: list[Item] = []
    for item, p in sorted(pop.items(), key=lambda kv: -kv[1]):
        if limit <= 0:
            break
        head.append(item)
        limit -= p
    if head:
        last = pop[head[-1]]
        head += [i for i, p in pop.items() if p == last and i not in head]
    return {i for i in head if pop[i] > 0}


def arp(lists: Lists, pop: Mapping[Item, float]) -> float:
    """Elliot's ARP: per user the mean popularity of the list (cold items 0), then the mean."""
    return float(np.mean([sum(pop.get(i, 0) for i in items) / len(items) for items in lists]))


def aplt(lists: Lists, head: set[Item]) -> float:
    """Elliot's APLT: per user the share of long-tail (non-head) items, then the mean."""
    return float(np.mean([len(set(items) - head) / len(items) for items in lists]))


def aclt(lists: Lists, head: set[Item]) -> float:
    """Elliot's ACLT: per user the number of long-tail items, then the mean."""
    return float(np.mean([len(set(items) - head) for items in lists]))


def recbole_tail(pop: Mapping[Item, float], tail: float) -> set[Item]:
    """RecBole's TailPercentage tail items (``get_tail``)."""
    if tail > 1:
        return {item for item, count in pop.items() if count <= tail}
    ordered = sorted(pop.items(), key=lambda kv: (kv[1], kv[0]))
    cut = max(int(len(ordered) * tail), 1)
    return {item for item, _ in ordered[:cut]}


def tail_percentage(lists: Lists, pop: Mapping[Item, float], tail: float) -> float:
    """RecBole's TailPercentage at the list's own length: the share of tail items, then the mean."""
    tails = recbole_tail(pop, tail)
    return float(np.mean([sum(i in tails for i in items) / len(items) for items in lists]))


def pop_rsp(
    lists: Mapping[Hashable, Sequence[Item]],
    head: set[Item],
    items: set[Item],
    train: Mapping[Hashable, set[Item]],
) -> float | None:
    """Elliot's PopRSP: std / mean of the head and tail recommendation rates."""
    tail = items - head
    num, den = np.zeros(2), np.zeros(2)
    for user, ranked in lists.items():
        seen = train.get(user, set())
        rec = set(ranked)
        num += [len(rec & head), len(rec & tail)]
        den += [len(head - seen), len(tail - seen)]
    if 0 in den:
        return None
    pr = num / den
    if pr.sum() == 0:
        return None
    return float(np.std(pr) / np.mean(pr))
