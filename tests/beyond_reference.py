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


def pop_reo(
    lists: Mapping[Hashable, Sequence[Item]],
    relevant: Mapping[Hashable, set[Item]],
    head: set[Item],
    tail: set[Item],
    train: Mapping[Hashable, set[Item]],
) -> float | None:
    """Elliot's PopREO: std / mean of the head and tail rates of relevant items reaching the lists.

    Transcribed from elliot/evaluation/metrics/bias/pop_reo/pop_reo.py: users with a list and a
    relevant item; per user, the relevant recommended items of each group, and the relevant
    items of each group outside the user's training items.
    """
    num, den = [], []
    for user, ranked in lists.items():
        rel = relevant.get(user, set())
        if len(rel):
            seen = train.get(user, set())
            recommended = {i for i in ranked if i in rel}
            num.append([len(recommended & head), len(recommended & tail)])
            den.append([len((head & rel) - seen), len((tail & rel) - seen)])
    if not num:
        return None
    total_num, total_den = np.sum(np.array(num), axis=0), np.sum(np.array(den), axis=0)
    if 0 in total_den:
        return None
    pr = total_num / total_den
    if pr.sum() == 0:
        return None
    return float(np.std(pr) / np.mean(pr))


# --- RePlay: surprisal, unexpectedness, categorical diversity ---------------------------------------


def surprisal(lists: Lists, pairs: Sequence[tuple[Hashable, Item]], k: int) -> float:
    """RePlay's Surprisal: per user sum of log2(N / u_i) / log2(N) (cold items 1) over k, then the mean."""
    pop = popularity(pairs)
    n = len({u for u, _ in pairs})
    weight = {i: float(np.log2(n / c) / np.log2(n)) for i, c in pop.items()}
    return float(np.mean([sum(weight.get(i, 1.0) for i in items[:k]) / k for items in lists]))


def unexpectedness(
    lists: Mapping[Hashable, Sequence[Item]], base: Mapping[Hashable, Sequence[Item]], k: int
) -> float:
    """RePlay's Unexpectedness: per user 1 - |recs[:k] & base[:k]| / k (0 without base), then the mean."""
    values = []
    for user, recs in lists.items():
        base_recs = base.get(user)
        values.append(0.0 if not base_recs or not recs else 1.0 - len(set(recs[:k]) & set(base_recs[:k])) / k)
    return float(np.mean(values))


def category_diversity(lists: Lists, categories: Mapping[Item, set[Hashable]], k: int) -> float:
    """RePlay's CategoricalDiversity: distinct categories of the top k over k, then the mean."""
    return float(np.mean([len(set().union(*(categories[i] for i in items[:k]))) / k for items in lists]))


# --- Steck (2018): calibration -----------------------------------------------------------------------


def _distribution(
    items: Sequence[Item], weights: Sequence[float], categories: Mapping[Item, set[Hashable]]
) -> dict[Hashable, float]:
    out: dict[Hashable, float] = {}
    for item, w in zip(items, weights, strict=True):
        for g in categories[item]:
            out[g] = out.get(g, 0.0) + w / len(categories[item])
    total = sum(weights)
    return {g: v / total for g, v in out.items()}


def miscalibration(
    lists: Mapping[Hashable, Sequence[Item]],
    history: Mapping[Hashable, set[Item]],
    categories: Mapping[Item, set[Hashable]],
    alpha: float,
    *,
    rank_weights: bool = False,
) -> float | None:
    """Mean over users with a history of KL(p || (1 - alpha) q + alpha p), natural log."""
    values = []
    for user, items in lists.items():
        seen = sorted(history.get(user, set()), key=str)
        if not seen:
            continue
        p = _distribution(seen, [1.0] * len(seen), categories)
        w = [1.0 / float(np.log2(r + 2)) if rank_weights else 1.0 for r in range(len(items))]
        q = _distribution(items, w, categories)
        values.append(
            sum(pg * float(np.log(pg / ((1 - alpha) * q.get(g, 0.0) + alpha * pg))) for g, pg in p.items())
        )
    return float(np.mean(values)) if values else None


# --- exposure fairness: Singh & Joachims (2018), Sapiezynski et al. (2019) ---------------------------


def attention(rank: int, discount: str, p: float) -> float:
    """The browsing model's attention at a 1-based rank: 1 / log2(rank + 1), or p**(rank - 1)."""
    return 1.0 / float(np.log2(rank + 1)) if discount == "log2" else p ** (rank - 1)


def _list_exposure(
    items: Sequence[Item], groups: Mapping[Item, set[Hashable]], discount: str, p: float
) -> tuple[dict[Hashable, float], float]:
    """One list's attention per group (an item's shared equally among its groups) and in all."""
    per: dict[Hashable, float] = {}
    total = 0.0
    for position, item in enumerate(items, start=1):
        w = attention(position, discount, p)
        total += w
        for g in groups[item]:
            per[g] = per.get(g, 0.0) + w / len(groups[item])
    return per, total


def catalog_target(groups: Mapping[Item, set[Hashable]]) -> dict[Hashable, float]:
    """Each group's share of the catalog: the sum of its items' memberships over the number of items."""
    out: dict[Hashable, float] = {}
    for gs in groups.values():
        for g in gs:
            out[g] = out.get(g, 0.0) + 1.0 / len(gs)
    return {g: v / len(groups) for g, v in out.items()}


def group_exposure(
    lists: Lists, groups: Mapping[Item, set[Hashable]], discount: str, p: float
) -> dict[Hashable, float]:
    """Each group's share of all the attention of `lists` (pooled over the lists)."""
    pooled: dict[Hashable, float] = {}
    total = 0.0
    for items in lists:
        per, t = _list_exposure(items, groups, discount, p)
        total += t
        for g, v in per.items():
            pooled[g] = pooled.get(g, 0.0) + v
    return {g: v / total for g, v in pooled.items()}


def exposure_disparity(
    lists: Lists,
    groups: Mapping[Item, set[Hashable]],
    target: Mapping[Hashable, float],
    discount: str,
    p: float,
) -> float:
    """Total variation distance between the pooled exposure shares and the target."""
    share = group_exposure(lists, groups, discount, p)
    return 0.5 * sum(abs(share.get(g, 0.0) - target.get(g, 0.0)) for g in set(share) | set(target))


def relevance_target(
    lists: Mapping[Hashable, Sequence[Item]],
    relevant: Mapping[Hashable, set[Item]],
    groups: Mapping[Item, set[Hashable]],
) -> dict[Hashable, float]:
    """Each group's share of the relevant (user, item) pairs of the users with a list."""
    out: dict[Hashable, float] = {}
    for user, items in lists.items():
        if not items:
            continue
        for item in relevant.get(user, set()):
            for g in groups[item]:
                out[g] = out.get(g, 0.0) + 1.0 / len(groups[item])
    total = sum(out.values())
    return {g: v / total for g, v in out.items()}


def _jsd(a: Mapping[Hashable, float], t: Mapping[Hashable, float]) -> float:
    """Jensen-Shannon divergence in bits."""
    out = 0.0
    for g in set(a) | set(t):
        x, y = a.get(g, 0.0), t.get(g, 0.0)
        m = (x + y) / 2
        out += 0.5 * (x * float(np.log2(x / m)) if x > 0 else 0.0) + 0.5 * (
            y * float(np.log2(y / m)) if y > 0 else 0.0
        )
    return out


def awrf(
    lists: Lists,
    groups: Mapping[Item, set[Hashable]],
    target: Mapping[Hashable, float],
    discount: str,
    p: float,
) -> float:
    """Mean over lists of JSD(attention-weighted group distribution of the list, target)."""
    values = []
    for items in lists:
        per, total = _list_exposure(items, groups, discount, p)
        values.append(_jsd({g: v / total for g, v in per.items()}, target))
    return float(np.mean(values))
