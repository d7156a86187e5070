# ruff: noqa: SLF001, T201  (OBP's round terms are private; the JSON goes to stdout)
"""Run Open Bandit Pipeline's estimators on the arrays of an .npz file; print their values as JSON.

Runs inside OBP's own environment (``OBP_PYTHON``; obp 0.5.7 pins Python < 3.11 and old numpy),
never imported by the tests themselves: ``python obp_runner.py data.npz [repeats]``. Also
prints the seconds of the fastest of `repeats` runs (at least one) of every estimator (the
benchmark's timing, taken inside OBP's process).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from typing import Any

import numpy as np


def _ope() -> Any:  # noqa: ANN401  (obp.ope: imported here, so that collecting this file needs no obp)
    return importlib.import_module("obp.ope")


def _estimators(d: dict[str, np.ndarray]) -> dict[str, Any]:
    """Each estimator's call on the arrays, by our name."""
    ope = _ope()
    row = {"reward": d["reward"], "action": d["action"], "position": d["position"], "pscore": d["pscore"]}
    dist = {"action_dist": d["action_dist"]} if "action_dist" in d else {}
    model = {"estimated_rewards_by_reg_model": d["q_hat"]} if "q_hat" in d else {}
    slate = {"slate_id": d["slate_id"], "reward": d["reward"], "position": d["position"]}
    item_position = {
        "pscore_item_position": d["pscore"],
        "evaluation_policy_pscore_item_position": d["target"],
    }
    cascade = {"pscore_cascade": d["cascade"], "evaluation_policy_pscore_cascade": d["target_cascade"]}
    joint = {"pscore": d["joint"], "evaluation_policy_pscore": d["target_joint"]}
    len_list = int(d["position"].max()) + 1
    calls = {
        "ips": lambda: ope.InverseProbabilityWeighting().estimate_policy_value(**row, **dist),
        "snips": lambda: ope.SelfNormalizedInverseProbabilityWeighting().estimate_policy_value(**row, **dist),
        "dm": lambda: ope.DirectMethod().estimate_policy_value(position=d["position"], **dist, **model),
        "dr": lambda: ope.DoublyRobust().estimate_policy_value(**row, **dist, **model),
        "sndr": lambda: ope.SelfNormalizedDoublyRobust().estimate_policy_value(**row, **dist, **model),
        "sips": lambda: ope.SlateStandardIPS(len_list=len_list).estimate_policy_value(**slate, **joint),
        "snsips": lambda: ope.SelfNormalizedSlateStandardIPS(len_list=len_list).estimate_policy_value(
            **slate, **joint
        ),
        "iips": lambda: ope.SlateIndependentIPS(len_list=len_list).estimate_policy_value(
            **slate, **item_position
        ),
        "sniips": lambda: ope.SelfNormalizedSlateIndependentIPS(len_list=len_list).estimate_policy_value(
            **slate, **item_position
        ),
        "rips": lambda: ope.SlateRewardInteractionIPS(len_list=len_list).estimate_policy_value(
            **slate, **cascade
        ),
        "snrips": lambda: ope.SelfNormalizedSlateRewardInteractionIPS(
            len_list=len_list
        ).estimate_policy_value(**slate, **cascade),
    }
    wanted = [str(name) for name in d["estimators"]]
    return {name: calls[name] for name in wanted}


def _rounds(d: dict[str, np.ndarray]) -> dict[str, list[float]]:
    """Round terms, as OBP's estimate_interval resamples them (summed by slate for slate estimators)."""
    ope = _ope()
    r, k, p, t = d["reward"], d["position"], d["pscore"], d["target"]
    a, dist, q = d["action"], d["action_dist"], d["q_hat"]
    len_list = int(k.max()) + 1
    row = {"reward": r, "action": a, "pscore": p, "action_dist": dist, "position": k}
    slate = {"reward": r, "position": k}
    out = {
        "ips": ope.InverseProbabilityWeighting()._estimate_round_rewards(**row),
        "dr": ope.DoublyRobust()._estimate_round_rewards(**row, estimated_rewards_by_reg_model=q),
        "iips": ope.SlateIndependentIPS(len_list=len_list)._estimate_round_rewards(
            **slate, behavior_policy_pscore=p, evaluation_policy_pscore=t
        ),
        "snrips": ope.SelfNormalizedSlateRewardInteractionIPS(len_list=len_list)._estimate_round_rewards(
            **slate, behavior_policy_pscore=d["cascade"], evaluation_policy_pscore=d["target_cascade"]
        ),
    }
    for name in ("iips", "snrips"):
        out[name] = np.bincount(d["slate_id"], weights=out[name])
    return {name: [float(v) for v in values] for name, values in out.items()}


def main() -> None:
    """Print ``{"values": {...}, "seconds": {...}}``."""
    data = dict(np.load(sys.argv[1]))
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    calls = _estimators(data)
    values, seconds = {}, {}
    for name, call in calls.items():  # the value's call is timed too: repeats=1 runs each estimator once
        start = time.perf_counter()
        values[name] = float(call())
        times = [time.perf_counter() - start]
        for _ in range(repeats - 1):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        seconds[name] = min(times)
    rounds = _rounds(data) if "want_rounds" in data else {}
    print(json.dumps({"values": values, "seconds": seconds, "rounds": rounds}))


if __name__ == "__main__":
    main()
