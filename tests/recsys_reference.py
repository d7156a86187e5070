"""Plain-Python recommender metrics written from their definitions: the oracle for the tests.

Lists of items, dicts and explicit pairwise loops; no Polars. Each list is a
user's recommendations in rank order (distinct items); a "top k" is its
first k items.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from math import log2, sqrt

Item = Hashable
Lists = Sequence[Sequence[Item]]


def top(lists: Lists, k: int | None) -> list[list[Item]]:
    return [list(items[:k]) if k is not None else list(items) for items in lists]


def personalization(lists: Lists) -> float | None:
    """1 - the mean over pairs of users of the cosine of their binary item vectors (None for one user)."""
    if len(lists) < 2:
        return None  # no pair: the mean over pairs is undefined
    sims = []
    for a, b in combinations(lists, 2):
        sa, sb = set(a), set(b)
        # Binary vectors: dot product |A & B|, norms sqrt(|A|) and sqrt(|B|).
        sims.append(len(sa & sb) / sqrt(len(sa) * len(sb)))
    return 1.0 - sum(sims) / len(sims)


def cosine(u: Sequence[float], v: Sequence[float]) -> float:
    """Cosine similarity; None (0/0, undefined) if either vector is all zeros (scikit-learn says 0)."""
    nu, nv = sqrt(sum(x * x for x in u)), sqrt(sum(x * x for x in v))
    if nu == 0 or nv == 0:
        return None
    return sum(x * y for x, y in zip(u, v, strict=True)) / (nu * nv)


def intra_list_similarity(lists: Lists, features: Mapping[Item, Sequence[float]]) -> float | None:
    """Mean over lists with a defined pair of the mean of their items' defined pairwise cosines."""
    per_list = []
    for items in lists:
        cosines = [cosine(features[a], features[b]) for a, b in combinations(items, 2)]
        pairs = [c for c in cosines if c is not None]  # a zero vector's pairs are undefined
        if pairs:
            per_list.append(sum(pairs) / len(pairs))
    return sum(per_list) / len(per_list) if per_list else None


def coverage(lists: Lists, catalog: Sequence[Item] | int) -> float:
    recommended = {i for items in lists for i in items}
    size = catalog if isinstance(catalog, int) else len(set(catalog))
    return len(recommended) / size


def recommendation_counts(lists: Lists, catalog: Sequence[Item]) -> list[int]:
    """How many lists hold each catalog item (0 for items never recommended)."""
    counts = Counter(i for items in lists for i in items)
    return [counts.get(i, 0) for i in set(catalog)]


def gini(lists: Lists, catalog: Sequence[Item]) -> float:
    """Gini index of the recommendation counts over the catalog, sorted ascending (RecBole's form)."""
    counts = sorted(recommendation_counts(lists, catalog))
    n, total = len(counts), sum(counts)
    return sum((2 * (i + 1) - n - 1) * c for i, c in enumerate(counts)) / (n * total)


def gini_mean_difference(lists: Lists, catalog: Sequence[Item]) -> float:
    """The same Gini index as half the relative mean absolute difference over all ordered pairs."""
    counts = recommendation_counts(lists, catalog)
    n, total = len(counts), sum(counts)
    return sum(abs(a - b) for a in counts for b in counts) / (2 * n * total)


def entropy(lists: Lists) -> float:
    counts = Counter(i for items in lists for i in items)
    total = sum(counts.values())
    return -sum(c / total * log2(c / total) for c in counts.values())


def novelty(lists: Lists, pop: Mapping[Item, int], u: int) -> float:
    """Mean over lists of the mean self-information -log2(pop[i] / u) of the list's items."""
    means = [sum(-log2(pop[i] / u) for i in items) / len(items) for items in lists]
    return sum(means) / len(means)


def recmetrics_novelty(predicted: Lists, pop: Mapping[Item, int], u: int, n: int) -> float:
    """Recmetrics' novelty: each list's sum of self-information over `n`, then the mean over lists."""
    per_list = [sum(-log2(pop[i] / u) for i in items) / n for items in predicted]
    return sum(per_list) / len(per_list)


def _precision_sum(actual: set[Item], predicted: Sequence[Item], k: int) -> float:
    score, hits = 0.0, 0
    for i, p in enumerate(predicted[:k]):
        if p in actual and p not in predicted[:i]:
            hits += 1
            score += hits / (i + 1)
    return score


def ark(actual: Sequence[Item], predicted: Sequence[Item], k: int) -> float:
    """Recmetrics' average recall at k: the precision sum over the number of relevant items."""
    if not actual:
        return 0.0
    return _precision_sum(set(actual), predicted, k) / len(actual)


def apk(actual: Sequence[Item], predicted: Sequence[Item], k: int) -> float:
    """ml_metrics' average precision at k: the precision sum over min(number relevant, k)."""
    if not actual:
        return 0.0
    return _precision_sum(set(actual), predicted, k) / min(len(actual), k)


def mpr(
    users: Sequence[tuple[Sequence[Item], Mapping[Item, float]]],
    missing_items: str = "bottom",
    n_items: int | None = None,
) -> float | None:
    """Expected percentile rank: sum of r * pct_rank over sum of r, over every (user, item) with r > 0.

    `users` holds each user's ranked list and weights {item: r}; pct_rank is
    (position - 1) / (length - 1) of the ranking, where for "random" the
    ranking is the list followed by the remaining n_items - len(list) items
    in random order (so a missing item's pct_rank is its expectation).
    """
    num = den = 0.0
    for ranked, weights in users:
        n = len(ranked)
        length = n_items if missing_items == "random" else n
        assert length is not None
        position = {item: i + 1 for i, item in enumerate(ranked)}
        for item, r in weights.items():
            if r <= 0:
                continue
            if item in position:
                pct = (position[item] - 1) / (length - 1) if length > 1 else 0.0
            elif missing_items == "bottom":
                pct = 1.0
            elif missing_items == "random":
                # Uniform over positions n+1..N: the mean of (p - 1) / (N - 1).
                positions = range(n + 1, length + 1)
                pct = sum((p - 1) / (length - 1) for p in positions) / len(positions) if length > 1 else 0.0
            else:
                continue
            num += r * pct
            den += r
    return num / den if den > 0 else None
