"""The evaluation conventions of DESIGN section 3, each a named parameter."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from polars_rankmetrics._validation import check_choice, check_gain, check_k, check_real

__all__ = ["PRESETS", "Conventions"]

Missing = Literal["skip", "zero"]
Gain = Literal["linear", "exponential"] | Mapping[float, float]


@dataclass(frozen=True)
class Conventions:
    """How a ranking is read and which queries count.

    The defaults reproduce trec_eval 10.0; ``Conventions.preset("trec_eval")``
    names them.

    Parameters
    ----------
    depth
        Keep only the first `depth` retrieved items of each query (trec_eval
        ``-M``); None keeps all.
    relevance_level
        An item is relevant when its grade is ``>= relevance_level`` (trec_eval
        ``-l``). Negative grades mark pooled but unjudged items, as in
        trec_eval, and are never relevant.
    missing
        ``"skip"`` drops judged queries with no retrieved item; ``"zero"``
        scores them 0 and counts them (trec_eval ``-c``).
    judged_only
        Drop unjudged items (null or negative grade) from the ranking before
        ranks are given (trec_eval ``-J``).
    gain
        Gain of a grade in graded metrics: ``"linear"`` (the grade),
        ``"exponential"`` (``2**grade - 1``) or a ``{grade: gain}`` mapping
        (trec_eval ``ndcg.1=3,2=9``; unmapped grades keep their linear gain).
        Negative grades and unjudged items gain 0.

    Examples
    --------
    >>> prm.Conventions(depth=100, missing="zero")
    Conventions(depth=100, relevance_level=1.0, missing='zero', judged_only=False, gain='linear')
    """

    depth: int | None = None
    relevance_level: float = 1.0
    missing: Missing = "skip"
    judged_only: bool = False
    gain: Gain = field(default="linear")

    def __post_init__(self) -> None:
        """Check every parameter when the conventions are built."""
        check_k(self.depth, "depth")
        object.__setattr__(
            self, "relevance_level", check_real(self.relevance_level, "relevance_level")
        )
        check_choice(self.missing, "missing", ("skip", "zero"))
        check_choice(self.judged_only, "judged_only", (False, True))
        check_gain(self.gain)

    @classmethod
    def preset(cls, name: str) -> Conventions:
        """Return the conventions of a named preset (``"trec_eval"``)."""
        check_choice(name, "preset", PRESETS)
        return PRESETS[name]


PRESETS: dict[str, Conventions] = {"trec_eval": Conventions()}
