"""The evaluation conventions (order, depth, relevance, gains, population, ties): named parameters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, TypedDict

from polars_rankmetrics.exceptions import InvalidParameterError
from polars_rankmetrics.exceptions._parameters import check_choice, check_gain, check_k, check_real

__all__ = ["PRESETS", "ConventionOptions", "Conventions", "ReadingOptions"]

Missing = Literal["skip", "zero"]
Gain = Literal["linear", "exponential", "binary", "thresholded_exponential"] | Mapping[float, float]
Ties = Literal["text", "average", "optimistic", "pessimistic"]
IprecRule = Literal["round", "trec_eval_9"]
Judgments = Literal["all", "retrieved"]
ApDenominator = Literal["relevant", "min_k_relevant", "found", "k", "min_length_relevant"]
NoRelevant = Literal["count", "skip"]
Ranks = Literal["positions", "given"]
Ideal = Literal["judged", "k_slots"]
Discount = Literal["log2", "log2_clipped"]
RbpNormalization = Literal["series", "achievable"]
PrecisionDenominator = Literal["k", "length"]
RecallDenominator = Literal["relevant", "min_k_relevant"]
TIES: tuple[str, ...] = ("text", "average", "optimistic", "pessimistic")
IPREC_RULES: tuple[str, ...] = ("round", "trec_eval_9")
JUDGMENTS: tuple[str, ...] = ("all", "retrieved")
AP_DENOMINATORS: tuple[str, ...] = ("relevant", "min_k_relevant", "found", "k", "min_length_relevant")
NO_RELEVANT: tuple[str, ...] = ("count", "skip")
RANKS: tuple[str, ...] = ("positions", "given")
IDEALS: tuple[str, ...] = ("judged", "k_slots")
DISCOUNTS: tuple[str, ...] = ("log2", "log2_clipped")
RBP_NORMALIZATIONS: tuple[str, ...] = ("series", "achievable")
PRECISION_DENOMINATORS: tuple[str, ...] = ("k", "length")
RECALL_DENOMINATORS: tuple[str, ...] = ("relevant", "min_k_relevant")


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
        ``"exponential"`` (``2**grade - 1``), ``"binary"`` (1 for a relevant
        item, ``grade >= relevance_level``, else 0: Microsoft Recommenders'
        ``score_type="binary"``), ``"thresholded_exponential"``
        (``2**(grade - relevance_level + 1) - 1`` for a relevant grade, else 0:
        Elliot's nDCG) or a ``{grade: gain}`` mapping (trec_eval
        ``ndcg.1=3,2=9``; unmapped grades keep their linear gain). Negative
        grades and unjudged items gain 0.
    ties
        How items of equal score are ordered. ``"text"``: item id text
        descending (trec_eval's order). ``"optimistic"`` / ``"pessimistic"``:
        higher / lower grade first (null grades lowest), then text: the best /
        worst value any order of the tied items gives a metric that rewards
        higher grades earlier. ``"average"``: the exact expected value over
        every order of the tied items, in closed form (McSherry and Najork,
        ECIR 2008), for the metrics that define one; any other metric raises
        :class:`InvalidParameterError` naming it. Every policy but ``"text"``
        refuses `depth` together with `judged_only`.
    iprec_rule
        How ``iprec_at_recall`` and ``11pt_avg`` turn a recall level x into a
        number of relevant items: ``"round"`` (trec_eval 10.0: ``round(x * R)``)
        or ``"trec_eval_9"`` (trec_eval 9.x, bundled by pytrec_eval:
        ``int(x * R + 0.9)``).
    judgments
        Which judgments define the relevant set R and the ideal ranking:
        ``"all"`` (trec_eval: every judged item, retrieved or not) or
        ``"retrieved"`` (scikit-learn, torchmetrics: only the items the run
        ranked; judgments of items it never retrieved are ignored).
    ap_denominator
        What average precision at a cutoff k divides by: ``"relevant"``
        (trec_eval's ``map_cut``: R), ``"min_k_relevant"`` (min(k, R):
        Microsoft Recommenders' ``map_at_k``) or ``"found"`` (the relevant
        items found in the top k: torchmetrics' ``RetrievalMAP(top_k=k)``,
        recmetrics' unreleased ``mapk``), ``"k"`` (the cutoff itself: RecTools'
        ``MAP(divide_by_k=True)``) or ``"min_length_relevant"`` (min(R, the
        items listed within k): LensKit's ``AveragePrecision``). Without a
        cutoff, ``"found"`` divides by the relevant items retrieved, ``"k"``
        by R.
    no_relevant
        A judged query without a relevant item: ``"count"`` (trec_eval: it
        gets its value, 0 for most metrics, and counts in the mean) or
        ``"skip"`` (Microsoft Recommenders: users without a relevant item
        are not evaluated).
    ranks
        How a ``rank`` column is read: ``"positions"`` (the order it gives,
        positions 1, 2, 3... whatever the values) or ``"given"`` (each value
        is the item's position, gaps kept: RecTools reads a lone item of rank
        3 at position 3). A score column always gives positions.
    ideal
        nDCG's ideal DCG: ``"judged"`` (the judged items, best gain first) or
        ``"k_slots"`` (every one of the k slots filled with the query's top
        gain: RecTools' ``NDCG(divide_by_achievable=False)``; needs a cutoff).
    dcg_discount
        DCG's discount at rank r: ``"log2"`` (``log2(r + 1)``) or
        ``"log2_clipped"`` (``max(1, log2 r)``, Järvelin and Kekäläinen's
        first form: LensKit's default).
    rbp_normalization
        What rbp's discounted gains are measured against: ``"series"``
        (``1 / (1 - p)``, the infinite list: ``(1 - p) * sum``) or
        ``"achievable"`` (the sum of the first min(R, n) discounts, n the
        list's length: LensKit's ``RBP(normalize=True)``).
    precision_denominator
        What precision at k divides by: ``"k"`` (trec_eval) or ``"length"``
        (the items listed within k: LensKit's ``Precision``).
    recall_denominator
        What recall at k divides by: ``"relevant"`` (R) or ``"min_k_relevant"``
        (min(k, R): LensKit's ``Recall``, our ``relative_P``).

    Examples
    --------
    >>> prm.Conventions(depth=100, missing="zero")
    Conventions(depth=100, relevance_level=1.0, missing='zero', judged_only=False, gain='linear',
                ties='text', iprec_rule='round', judgments='all', ap_denominator='relevant',
                no_relevant='count', ranks='positions', ideal='judged', dcg_discount='log2',
                rbp_normalization='series', precision_denominator='k',
                recall_denominator='relevant')
    """

    depth: int | None = None
    relevance_level: float = 1.0
    missing: Missing = "skip"
    judged_only: bool = False
    gain: Gain = field(default="linear")
    ties: Ties = "text"
    iprec_rule: IprecRule = "round"
    judgments: Judgments = "all"
    ap_denominator: ApDenominator = "relevant"
    no_relevant: NoRelevant = "count"
    ranks: Ranks = "positions"
    ideal: Ideal = "judged"
    dcg_discount: Discount = "log2"
    rbp_normalization: RbpNormalization = "series"
    precision_denominator: PrecisionDenominator = "k"
    recall_denominator: RecallDenominator = "relevant"

    def __post_init__(self) -> None:
        """Check every parameter when the conventions are built."""
        check_k(self.depth, "depth")
        object.__setattr__(self, "relevance_level", check_real(self.relevance_level, "relevance_level"))
        check_choice(self.missing, "missing", ("skip", "zero"))
        check_choice(self.judged_only, "judged_only", (False, True))
        check_gain(self.gain)
        check_choice(self.ties, "ties", TIES)
        check_choice(self.iprec_rule, "iprec_rule", IPREC_RULES)
        check_choice(self.judgments, "judgments", JUDGMENTS)
        check_choice(self.ap_denominator, "ap_denominator", AP_DENOMINATORS)
        check_choice(self.no_relevant, "no_relevant", NO_RELEVANT)
        check_choice(self.ranks, "ranks", RANKS)
        check_choice(self.ideal, "ideal", IDEALS)
        check_choice(self.dcg_discount, "dcg_discount", DISCOUNTS)
        check_choice(self.rbp_normalization, "rbp_normalization", RBP_NORMALIZATIONS)
        check_choice(self.precision_denominator, "precision_denominator", PRECISION_DENOMINATORS)
        check_choice(self.recall_denominator, "recall_denominator", RECALL_DENOMINATORS)

    @classmethod
    def preset(cls, name: str) -> Conventions:
        """Return the conventions of a named preset: another library's, as our parameters.

        ``"trec_eval"`` (10.0, the default), ``"pytrec_eval"`` (trec_eval 9's
        recall levels), ``"ir_measures"`` (also scores unanswered judged
        queries 0), ``"ranx"`` (the same, ties by text), ``"sklearn"`` (ties
        averaged, R from the candidates), ``"torchmetrics"`` (the same, AP at
        k over the relevant found) and ``"recommenders"`` (AP at k over
        min(k, R), users without a relevant item skipped), ``"llamaindex"`` and
        ``"ragas"`` (every expected id relevant with gain 1; lists from
        :func:`from_id_lists`); see :data:`PRESETS`
        and the presets' table in the documentation
        (docs/guides/coming-from.md). The recommender libraries: ``"rectools"``
        (RecTools 0.19: binary gains, ranks as given, nDCG's ideal over k slots),
        ``"lenskit"`` (LensKit 2025.8: binary gains, the clipped log discount,
        precision over the list's length, recall and AP over min(k, R) and
        min(length, R)), ``"recbole"`` (RecBole 1.2: binary gains, AP over
        min(k, R)) and ``"elliot"`` (Elliot: gains ``2**(g - t + 1) - 1`` above
        the threshold t, ``relevance_level``).

        Examples
        --------
        >>> prm.Conventions.preset("sklearn").ties, prm.Conventions.preset("ir_measures").missing
        ('average', 'zero')
        """
        check_choice(name, "preset", PRESETS)
        return PRESETS[name]

    @classmethod
    def resolve(cls, conventions: Conventions | str | None = None, **overrides: object) -> Conventions:
        """The conventions every entry point uses: a base, then keyword overrides.

        Parameters
        ----------
        conventions
            None (trec_eval's, the default), a preset name, or a :class:`Conventions`.
        **overrides
            Any field of :class:`Conventions` (``depth=100``, ``missing="zero"``...);
            None leaves the base's value. ``preset=`` names the base too.

        Examples
        --------
        >>> prm.Conventions.resolve("trec_eval", depth=10)
        Conventions(depth=10, relevance_level=1.0, missing='skip', judged_only=False, gain='linear',
                    ties='text', iprec_rule='round', judgments='all', ap_denominator='relevant',
                    no_relevant='count', ranks='positions', ideal='judged', dcg_discount='log2',
                    rbp_normalization='series', precision_denominator='k',
                    recall_denominator='relevant')
        """
        preset = overrides.pop("preset", None)
        if preset is not None:
            if conventions is not None:
                raise InvalidParameterError.not_both(
                    "`conventions=`", "`preset=`", owner="the base conventions"
                )
            conventions = str(preset) if not isinstance(preset, str) else preset
            check_choice(conventions, "preset", PRESETS)
        if conventions is None:
            base = cls()
        elif isinstance(conventions, Conventions):
            base = conventions
        else:
            check_choice(conventions, "conventions", PRESETS)
            base = PRESETS[conventions]
        unknown = sorted(set(overrides) - set(cls.__dataclass_fields__))
        if unknown:
            fields = [*cls.__dataclass_fields__, "preset"]
            raise InvalidParameterError.unknown_option("prm.Conventions", unknown[0], fields)
        given = {k: v for k, v in overrides.items() if v is not None}
        return replace(base, **given) if given else base  # type: ignore[arg-type]  # checked by __post_init__


class ReadingOptions(TypedDict, total=False):
    """The convention overrides besides `gain` (a graded metric's own `gain` takes that name)."""

    depth: int | None
    relevance_level: float | None
    missing: Missing | None
    judged_only: bool | None
    ties: Ties | None
    iprec_rule: IprecRule | None
    judgments: Judgments | None
    ap_denominator: ApDenominator | None
    no_relevant: NoRelevant | None
    ranks: Ranks | None
    ideal: Ideal | None
    dcg_discount: Discount | None
    rbp_normalization: RbpNormalization | None
    precision_denominator: PrecisionDenominator | None
    recall_denominator: RecallDenominator | None
    preset: str | None


class ConventionOptions(ReadingOptions, total=False):
    """The convention keywords every entry point takes as overrides (see :class:`Conventions`)."""

    gain: Gain | None


PRESETS: dict[str, Conventions] = {
    # trec_eval 10.0, the default: every convention at its default.
    "trec_eval": Conventions(),
    # pytrec_eval bundles trec_eval 9.0.x: iprec_at_recall (and 11pt_avg) take int(x R + 0.9) items.
    "pytrec_eval": Conventions(iprec_rule="trec_eval_9"),
    # ir_measures (pytrec_eval provider underneath): every judged query gets a value, the
    # measure's default 0 when the run never answered it.
    "ir_measures": Conventions(missing="zero", iprec_rule="trec_eval_9"),
    # ranx (evaluate with make_comparable=True, else it raises): a judged query the run never
    # answered scores 0 and counts. Its order inside a tie is numpy's unstable argsort of the
    # insertion order: not reproducible, so ties stay trec_eval's text order.
    "ranx": Conventions(missing="zero"),
    # scikit-learn's ndcg_score / dcg_score: gains averaged over tied scores (ignore_ties=False);
    # the ideal list from the candidates it is given.
    "sklearn": Conventions(ties="average", judgments="retrieved"),
    # torchmetrics' retrieval metrics (1.x) at their defaults: R and the ideal list from the
    # candidates (a target it never saw does not exist for it); nDCG averages tied scores (its other
    # metrics take torch.topk's order of a tie, which is not reproducible: the expectation here);
    # RetrievalMAP(top_k=k) divides by the relevant items found in the top k; a query without a
    # relevant target scores 0 and counts (empty_target_action="neg").
    "torchmetrics": Conventions(ties="average", judgments="retrieved", ap_denominator="found"),
    # Microsoft Recommenders' python_evaluation (precision_at_k, recall_at_k, ndcg_at_k, map_at_k):
    # map_at_k divides by min(k, R); only users with a relevant item and a prediction are evaluated
    # (the ground truth holds the relevant items only); ndcg_at_k's default score_type="binary"
    # gives every relevant item gain 1, whatever its rating. (recmetrics' mapk, on its main
    # branch only, divides by the relevant items found: ap_denominator="found".)
    "recommenders": Conventions(gain="binary", ap_denominator="min_k_relevant", no_relevant="skip"),
    # LlamaIndex (llama_index.core.evaluation.retrieval.metrics: HitRate, MRR, Precision, Recall,
    # AveragePrecision, NDCG at their defaults): every expected id relevant with gain 1, AP and
    # recall over all expected ids, NDCG's ideal list over all of them; the list is the retriever's
    # top_k, so its metrics take no cutoff (precision = relevant retrieved / retrieved). Repeated
    # ids: prm.from_id_lists counts one at its first position (LlamaIndex's MRR, AP and NDCG read
    # every copy and can leave [0, 1]).
    "llamaindex": Conventions(gain="binary"),
    # Ragas' ID-based context precision and recall (IDBasedContextPrecision, IDBasedContextRecall):
    # sets of ids, = precision and recall without a cutoff, each id once (prm.from_id_lists).
    "ragas": Conventions(gain="binary"),
    # RecTools 0.19 (rectools.metrics): interactions are the relevant items (binary); the rank column
    # is read as the position (a lone item of rank 3 is at 3); NDCG(divide_by_achievable=False)
    # measures DCG against k relevant slots; MAP divides by the user's test items (divide_by_k=False);
    # a user with test interactions but no recommendation scores 0 and counts (merge_reco).
    "rectools": Conventions(
        gain="binary", ranks="given", ideal="k_slots", missing="zero", no_relevant="skip"
    ),
    # LensKit 2025.8 (lenskit.metrics): test items are relevant (binary); NDCG's LogRankWeight clips
    # log2 at rank 2 (1 / max(1, log2 r)); Precision divides by the list's length within n, Recall by
    # min(n, |test|), AveragePrecision by min(|test|, list length); a list without test items is NaN
    # (skipped in the mean); a test user without recommendations gets each metric's default, 0
    # (RunAnalysis fills missing lists). Its RBP's default patience is 0.85 (write rbp(p=0.85)).
    "lenskit": Conventions(
        gain="binary",
        missing="zero",
        dcg_discount="log2_clipped",
        precision_denominator="length",
        recall_denominator="min_k_relevant",
        ap_denominator="min_length_relevant",
        no_relevant="skip",
    ),
    # RecBole 1.2 (recbole/evaluator/metrics.py): binary positives; MAP@k divides by min(k, |pos|);
    # NDCG's ideal holds min(k, |pos|) positives; every evaluated user has a positive item.
    "recbole": Conventions(gain="binary", ap_denominator="min_k_relevant", no_relevant="skip"),
    # Elliot (elliot/evaluation/relevance/relevance.py, DiscountedRelevance): nDCG's gain is
    # 2**(r - t + 1) - 1 for a rating r >= the threshold t (relevance_level), else 0; users without a
    # relevant test item are not evaluated. Its MAP and MAR (precision at every position) are not
    # reproduced: a bug, see the guide.
    "elliot": Conventions(gain="thresholded_exponential", no_relevant="skip"),
}
"""Other libraries' conventions, each a named set of :class:`Conventions` (a table entry, not a code path)."""
