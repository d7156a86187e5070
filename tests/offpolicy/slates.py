"""Logged slates for the off-policy tests: arrays in Open Bandit Pipeline's shapes, and the same as frames.

Each slate shows `len_list` items out of `n_items`; rewards are graded (0, 0.5, 1, 2); the
logging propensities lie in (0, 1] with some exactly 1; the target policy's distribution
over the items at each (slate, position) has zeros (so some logged items have target
probability 0); the cascade probabilities are products of per-position conditionals,
the joint ones the cascade at the last position. Row order of the frames is shuffled.
"""

from __future__ import annotations

import numpy as np
import polars as pl

ALL = ("ips", "snips", "dm", "dr", "sndr", "sips", "snsips", "iips", "sniips", "rips", "snrips")


def arrays(seed: int, n_slates: int, len_list: int, n_items: int) -> dict[str, np.ndarray]:
    """OBP's inputs: slate_id, position (0-based), action, reward, pscores, cascades, action_dist, q_hat."""
    rng = np.random.default_rng(seed)
    n = n_slates * len_list
    rows = np.arange(n)
    position = np.tile(np.arange(len_list), n_slates)
    action = rng.integers(0, n_items, n)
    pscore = rng.uniform(0.05, 1.0, n)
    pscore[rng.random(n) < 0.05] = 1.0
    dist = rng.dirichlet(np.ones(n_items), size=n) * (rng.random((n, n_items)) > 0.2)
    dist[:, 0] += 1e-3  # no row without mass
    dist /= dist.sum(axis=1, keepdims=True)
    action_dist = np.full((n, n_items, len_list), 1.0 / n_items)
    action_dist[rows, :, position] = dist
    conditional = rng.uniform(0.1, 1.0, (n_slates, len_list))
    target_conditional = rng.uniform(0.0, 1.0, (n_slates, len_list)) * (
        rng.random((n_slates, len_list)) > 0.1
    )
    cascade = np.cumprod(conditional, axis=1)
    target_cascade = np.cumprod(target_conditional, axis=1)
    return {
        "slate_id": np.repeat(np.arange(n_slates), len_list),
        "position": position,
        "action": action,
        "reward": rng.choice(np.array([0.0, 0.0, 0.0, 0.5, 1.0, 2.0]), n),
        "pscore": pscore,
        "target": dist[rows, action],
        "action_dist": action_dist,
        "q_hat": rng.random((n, n_items, len_list)),
        "cascade": cascade.ravel(),
        "target_cascade": target_cascade.ravel(),
        "joint": np.repeat(cascade[:, -1], len_list),
        "target_joint": np.repeat(target_cascade[:, -1], len_list),
    }


def frames(data: dict[str, np.ndarray], seed: int = 0) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The same data as our frames: the logged rows and the candidates (1-based positions, string ids)."""
    n, n_items, _ = data["action_dist"].shape
    rows = np.arange(n)
    query = np.char.add("s", data["slate_id"].astype(str))
    logged = pl.DataFrame(
        {
            "query": query,
            "position": data["position"] + 1,
            "item": np.char.add("i", data["action"].astype(str)),
            "reward": data["reward"],
            "propensity": data["pscore"],
            "target": data["target"],
            "cascade_propensity": data["cascade"],
            "target_cascade": data["target_cascade"],
        }
    )
    every = np.repeat(rows, n_items)
    items = np.tile(np.arange(n_items), n)
    candidates = pl.DataFrame(
        {
            "query": query[every],
            "position": data["position"][every] + 1,
            "item": np.char.add("i", items.astype(str)),
            "target": data["action_dist"][every, items, data["position"][every]],
            "prediction": data["q_hat"][every, items, data["position"][every]],
        }
    )
    return logged.sample(fraction=1.0, shuffle=True, seed=seed), candidates.sample(
        fraction=1.0, shuffle=True, seed=seed + 1
    )
