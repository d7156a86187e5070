r"""Off-policy estimators for rankings: a target policy's value from slates a logging policy showed.

The logged frame holds one row per (slate, position): the slate's query or
context, the position, the item shown there, its reward (a click, a grade),
the logging policy's probability of that item at that position and the
target policy's. :func:`estimate` reads it in one lazy plan (no Python loop
over rows or slates) and returns each estimator's value, with a bootstrap
interval on request.

Row estimators (each logged row a round, as in Open Bandit Pipeline's
``obp.ope``), with :math:`w_i = \pi_e(a_i \mid x_i, k_i) / \pi_b(a_i \mid
x_i, k_i)` over the :math:`n` logged rows:

- ``ips``: :math:`\frac1n \sum_i w_i r_i`;
- ``snips``: :math:`\sum_i w_i r_i / \sum_i w_i`;
- ``dm``: :math:`\frac1n \sum_i \sum_a \pi_e(a \mid x_i, k_i) \hat q(x_i, a, k_i)`,
  the reward model's predictions :math:`\hat q` given for every candidate
  item in the `candidates` frame (the inner sum divided by the candidates'
  target probabilities' sum, as ``np.average`` weighs: one when they sum to
  one, which :func:`estimate` checks to 1e-6);
- ``dr``: ``dm``'s term plus :math:`w_i (r_i - \hat q(x_i, a_i, k_i))`;
- ``sndr``: ``dr`` with :math:`w_i` divided by their mean.

Slate estimators (each slate a round; :math:`m` slates, position
:math:`k`'s reward :math:`r_{jk}`): the value is
:math:`\frac1m \sum_j \sum_k \omega_{jk} r_{jk}` with

- ``sips`` (standard IPS, the baseline of Swaminathan et al. 2017):
  :math:`\omega_{jk}` the ratio of the whole slate's probabilities, the
  cascade probabilities at the slate's last position; unbiased whatever the
  reward, at the price of the variance of whole-slate weights;
- ``iips`` (independent IPS, Li et al. 2018): the ratio of the item-position
  marginals, ``target / propensity``; unbiased when each position's reward
  depends on its own item only (the additive rewards under which
  Swaminathan et al.'s pseudoinverse estimator is unbiased);
- ``rips`` (reward-interaction IPS, McInerney et al. 2020): the ratio of the
  probabilities of the slate's top k (the cascade columns);
- ``snsips``: ``sips``'s weights divided by their mean over the logged rows;
  ``sniips`` and ``snrips``: each position's weights divided by their mean
  over that position's rows.

These are the formulas of ``obp.ope`` (``InverseProbabilityWeighting``,
``SelfNormalizedInverseProbabilityWeighting``, ``DirectMethod``,
``DoublyRobust``, ``SelfNormalizedDoublyRobust``, ``SlateStandardIPS``,
``SlateIndependentIPS``, ``SlateRewardInteractionIPS`` and their
``SelfNormalized`` forms), and the values are equal.

References
----------
Swaminathan, Krishnamurthy, Agarwal, Dudik, Langford, Jose & Zitouni (2017),
Off-policy evaluation for slate recommendation, NeurIPS.
Li, Abbasi-Yadkori, Kveton, Muthukrishnan, Vinay & Wen (2018), Offline
evaluation of ranking policies with click models, KDD.
McInerney, Brost, Chandar, Mehrotra & Carterette (2020), Counterfactual
evaluation of slate recommendations with sequential reward interactions, KDD.
Saito, Aihara, Matsutani & Narita (2021), Open Bandit Dataset and Pipeline:
towards realistic and reproducible off-policy evaluation, NeurIPS Datasets
and Benchmarks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._quote import shown
from polars_rankmetrics.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    InvalidDataError,
    InvalidParameterError,
)
from polars_rankmetrics.exceptions._parameters import check_choice

__all__ = ["ESTIMATORS", "estimate"]

ESTIMATORS = ("ips", "snips", "dm", "dr", "sndr", "sips", "snsips", "iips", "sniips", "rips", "snrips")
"""Every estimator :func:`estimate` knows, in the order it reports them."""

_ROW = ("ips", "snips", "dm", "dr", "sndr")
_MODEL = ("dm", "dr", "sndr")
_CASCADE = ("sips", "snsips", "rips", "snrips")
_BY_POSITION = ("sniips", "snrips")
_SUM_TOLERANCE = 1e-6
UNIT_SEPARATOR = "\x1f"
"""Between a row's query and position in the unit the bootstrap resamples."""
_SHOWN_ROWS = 3

ROLES = (
    "query",
    "position",
    "item",
    "reward",
    "propensity",
    "target",
    "cascade_propensity",
    "target_cascade",
)
"""The logged frame's roles; ``columns={"role": "name"}`` renames any of them."""
CANDIDATE_ROLES = ("query", "position", "item", "target", "prediction")
"""The candidates frame's roles (the same `columns` mapping names them)."""

# Internal column names.
_Q, _K, _I, _R, _P, _T, _CP, _CT, _Y = ("_q", "_k", "_i", "_r", "_p", "_t", "_cp", "_ct", "_y")
_W, _WC, _DM, _QF = ("_w", "_wc", "_dm", "_qf")


@dataclass(frozen=True)
class _Request:
    """What :func:`estimate` was asked: the estimators and the columns of each role."""

    estimators: tuple[str, ...]
    names: dict[str, str]

    @property
    def needs_model(self) -> bool:
        return any(e in _MODEL for e in self.estimators)

    @property
    def needs_cascade(self) -> bool:
        return any(e in _CASCADE for e in self.estimators)


def _request(estimators: object, columns: object) -> _Request:
    """Check the estimators and the `columns` mapping."""
    chosen = (estimators,) if isinstance(estimators, str) else estimators
    if not isinstance(chosen, Sequence) or not chosen:
        raise InvalidParameterError.out_of_domain(
            "estimators", "an estimator's name or a list of them", estimators
        )
    for name in chosen:
        check_choice(name, "estimators", ESTIMATORS)
    if len(set(chosen)) != len(chosen):
        raise InvalidParameterError.repeated("estimators", chosen, what="estimator")
    names = dict(zip(ROLES, ROLES, strict=True)) | {"prediction": "prediction"}
    if columns is not None:
        if not isinstance(columns, Mapping):
            raise InvalidParameterError.out_of_domain("columns", "a mapping {role: column name}", columns)
        for role, name in columns.items():
            check_choice(role, "columns", (*ROLES, "prediction"))
            if not isinstance(name, str):
                raise InvalidParameterError.out_of_domain(f"columns[{role!r}]", "a column name", name)
            names[role] = name
    ordered = tuple(e for e in ESTIMATORS if e in chosen)
    return _Request(ordered, names)


def _frame(frame: object, roles: Sequence[str], names: Mapping[str, str], what: str) -> pl.LazyFrame:
    """`frame`'s columns of `roles`, renamed to the internal names, after checking names and dtypes."""
    lf = as_polars(frame, what).lazy()
    schema = lf.collect_schema()
    internal = {"query": _Q, "position": _K, "item": _I, "reward": _R, "propensity": _P, "prediction": _Y}
    internal |= {"target": _T, "cascade_propensity": _CP, "target_cascade": _CT}
    for role in roles:
        name = names[role]
        if name not in schema:
            raise ColumnNotFoundError.from_missing_and_available(name, role, schema.names(), f"`{what}`")
        numeric = role not in ("query", "item")
        if numeric and not schema[name].is_numeric():
            raise ColumnTypeError.from_dtype(name, role, "numeric", schema[name])
    return lf.select(
        pl.col(names[r]).cast(pl.Float64) if r not in ("query", "item", "position") else pl.col(names[r])
        for r in roles
    ).rename({names[r]: internal[r] for r in roles})


@dataclass(frozen=True)
class _Rule:
    """A rule every row of a frame keeps: its words, and the rows that break it."""

    text: str
    bad: pl.Expr


def _counts(rules: Sequence[_Rule], prefix: str) -> list[pl.Expr]:
    """How many rows break each rule: cheap sums, computed with the estimates."""
    return [rule.bad.sum().alias(f"{prefix}{i}") for i, rule in enumerate(rules)]


def _raise_broken(
    frame: pl.LazyFrame, rules: Sequence[_Rule], counts: Mapping[str, object], prefix: str
) -> None:
    """Raise InvalidDataError for the first rule some rows break, naming the first (query, position) of them.

    The rows are looked for only once a count says there are some: a second pass, over bad data only.
    """
    for i, rule in enumerate(rules):
        count = counts[f"{prefix}{i}"]
        if isinstance(count, int) and count:
            first = frame.filter(rule.bad).select(_Q, _K).sort(_Q, _K, nulls_last=False).head(1).collect()
            q, k = first.row(0) if first.height else (None, None)
            what = "logged" if prefix == "l" else "candidates"
            raise InvalidDataError.broken_rule(
                rule.text, count, f"{what} row of query {shown(q)}, position {shown(k)}"
            )


def _out_of(name: str, low_open: bool) -> pl.Expr:
    """Rows where `name` is null, NaN or outside (0, 1] (`low_open`) or [0, 1]."""
    col = pl.col(name)
    low = col <= 0 if low_open else col < 0
    return (col.is_null() | col.is_nan() | low | (col > 1)).fill_null(value=True)


DUPLICATE_RULE = "each (query, position) must be logged once"
CANDIDATE_DUPLICATE_RULE = "each (query, position, item) must be a candidate once"


def _logged_rules(req: _Request) -> list[_Rule]:
    """The rules of the logged frame's rows (its duplicates are looked for apart: see :func:`estimate`)."""
    rules = [
        _Rule("logging propensities must be in (0, 1]", _out_of(_P, low_open=True)),
        _Rule("target probabilities must be in [0, 1]", _out_of(_T, low_open=False)),
        _Rule("rewards must be finite", ~pl.col(_R).is_finite().fill_null(value=False)),
        _Rule("query and position must not be null", pl.col(_Q).is_null() | pl.col(_K).is_null()),
    ]
    if req.needs_cascade:
        rules.append(_Rule("logging cascade propensities must be in (0, 1]", _out_of(_CP, low_open=True)))
        rules.append(_Rule("target cascade probabilities must be in [0, 1]", _out_of(_CT, low_open=False)))
    if req.needs_model:
        rules.append(_Rule("every logged item must be a candidate with a prediction", pl.col(_QF).is_null()))
    return rules


_CANDIDATE_RULES = (
    _Rule("target probabilities must be in [0, 1]", _out_of(_T, low_open=False)),
    _Rule("predictions must be finite", ~pl.col(_Y).is_finite().fill_null(value=False)),
)
_SUM_RULE = _Rule(
    "target probabilities must sum to one per (query, position)",
    ((pl.col("_s") - 1.0).abs() > _SUM_TOLERANCE) | pl.col("_s").is_nan(),
)


@dataclass(frozen=True)
class _Prepared:
    """The logged rows with their weights and model terms; the candidates and their sums, if any."""

    rows: pl.LazyFrame
    candidates: pl.LazyFrame | None = None
    per_position: pl.LazyFrame | None = None  # one row per candidates' (query, position): ``_s``


def _prepared(logged: object, candidates: object, req: _Request) -> _Prepared:
    """The logged rows with their weights (and the reward model's terms)."""
    roles = ["query", "position", "reward", "propensity", "target"]
    roles += ["cascade_propensity", "target_cascade"] if req.needs_cascade else []
    roles += ["item"] if req.needs_model else []
    lf = _frame(logged, roles, req.names, "logged").with_columns((pl.col(_T) / pl.col(_P)).alias(_W))
    if req.needs_cascade:
        lf = lf.with_columns((pl.col(_CT) / pl.col(_CP)).alias(_WC))
    if not req.needs_model:
        return _Prepared(lf)
    if candidates is None:
        raise InvalidParameterError.needs("estimators dm, dr and sndr", "candidates", "pass candidates=")
    cand = _frame(candidates, CANDIDATE_ROLES, req.names, "candidates")
    per_position = cand.group_by(_Q, _K).agg(
        pl.col(_T).sum().alias("_s"), (pl.col(_T) * pl.col(_Y)).sum().alias("_ty")
    )
    expected = per_position.select(_Q, _K, (pl.col("_ty") / pl.col("_s")).alias(_DM))  # np.average's
    factual = cand.select(_Q, _K, _I, pl.col(_Y).alias(_QF))
    lf = lf.join(expected, on=[_Q, _K], how="left").join(factual, on=[_Q, _K, _I], how="left")
    return _Prepared(lf, cand, per_position)


def _sums() -> dict[str, pl.Expr]:
    """The sums over logged rows every estimator's value is made of, by name."""
    r, w = pl.col(_R), pl.col(_W)
    return {
        "n": pl.len().cast(pl.Float64),
        "m": pl.col(_Q).n_unique().cast(pl.Float64),
        "wr": (w * r).sum(),
        "w": w.sum(),
        "dm": pl.col(_DM).sum(),
        "res": (w * (r - pl.col(_QF))).sum(),
        "wcr": (pl.col(_WC) * r).sum(),
    }


def _slate_sums(lf: pl.LazyFrame) -> pl.LazyFrame:
    """SIPS's sums: each slate's weight (its last position's cascade ratio) times its rewards; its rows."""
    per_slate = lf.group_by(_Q).agg(
        pl.col(_WC).get(pl.col(_K).arg_max()).alias("_ws"),
        pl.col(_R).sum().alias("_rs"),
        pl.len().alias("_n"),
    )
    return per_slate.select(
        (pl.col("_ws") * pl.col("_rs")).sum().alias("wsr"),
        (pl.col("_ws") * pl.col("_n")).sum().alias("ws"),
        pl.len().cast(pl.Float64).alias("m_slates"),
    )


_NEEDS = {
    "ips": ("n", "wr"),
    "snips": ("wr", "w"),
    "dm": ("n", "dm"),
    "dr": ("n", "dm", "res"),
    "sndr": ("n", "dm", "res", "w"),
    "sips": ("m",),
    "snsips": ("n", "m"),
    "iips": ("m", "wr"),
    "rips": ("m", "wcr"),
    "sniips": ("m",),
    "snrips": ("m",),
}


def _value(name: str, s: Mapping[str, float], by_position: Mapping[str, float]) -> float:
    """An estimator's value from the sums."""
    values = {
        "ips": lambda: s["wr"] / s["n"],
        "snips": lambda: s["wr"] / s["w"],
        "dm": lambda: s["dm"] / s["n"],
        "dr": lambda: (s["dm"] + s["res"]) / s["n"],
        "sndr": lambda: s["dm"] / s["n"] + s["res"] / s["w"],
        "sips": lambda: s["wsr"] / s["m"],
        "snsips": lambda: s["wsr"] / (s["ws"] / s["n"]) / s["m"],
        "iips": lambda: s["wr"] / s["m"],
        "rips": lambda: s["wcr"] / s["m"],
        "sniips": lambda: by_position["sniips"] / s["m"],
        "snrips": lambda: by_position["snrips"] / s["m"],
    }
    return float(values[name]())


def _by_position(lf: pl.LazyFrame, req: _Request) -> pl.LazyFrame:
    """Per-position self-normalised sums of sniips and snrips, summed over positions."""
    terms = {"sniips": _W, "snrips": _WC}
    wanted = [e for e in _BY_POSITION if e in req.estimators]
    per = lf.group_by(_K).agg(
        ((pl.col(terms[e]) * pl.col(_R)).sum() / pl.col(terms[e]).mean()).alias(e) for e in wanted
    )
    return per.select(pl.col(e).sum() for e in wanted)


def _unit_terms(lf: pl.LazyFrame, req: _Request) -> pl.LazyFrame:
    """One row per round and estimator: ``estimator``, ``unit`` and ``value`` (the round's term)."""
    r, w = pl.col(_R), pl.col(_W)
    row = {
        "ips": w * r,
        "snips": w * r / w.mean(),
        "dm": pl.col(_DM),
        "dr": pl.col(_DM) + w * (r - pl.col(_QF)),
        "sndr": pl.col(_DM) + w * (r - pl.col(_QF)) / w.mean(),
    }
    ws = pl.col(_WC).get(pl.col(_K).arg_max()).over(_Q)  # the slate's weight: its last position's ratio
    slate = {
        "sips": ws * r,
        "snsips": ws * r / ws.mean(),
        "iips": w * r,
        "sniips": w * r / w.mean().over(_K),
        "rips": pl.col(_WC) * r,
        "snrips": pl.col(_WC) * r / pl.col(_WC).mean().over(_K),
    }
    parts = []
    query = pl.col(_Q).cast(pl.String)
    for e in req.estimators:
        if e in row:  # a row's unit: its query and position, so the draws never depend on the row order
            unit = pl.concat_str([query, pl.col(_K).cast(pl.String)], separator=UNIT_SEPARATOR)
            part = lf.select(unit.alias("_unit"), row[e].alias("value"))
        else:
            per_row = lf.select(_Q, slate[e].alias("value"))
            part = (
                per_row.group_by(_Q)
                .agg(pl.col("value").sum())
                .select(pl.col(_Q).cast(pl.String).alias("_unit"), "value")
            )
        parts.append(part.select(pl.lit(e).alias("estimator"), "_unit", "value"))
    return pl.concat(parts).rename({"_unit": "unit"})


def _checked_duplicates(
    lf: pl.LazyFrame,
    found: Mapping[str, object],
    text: str = DUPLICATE_RULE,
    keys: tuple[str, ...] = (_Q, _K),
    prefix: str = "l",
) -> None:
    """Raise for keys ((query, position) logged, (query, position, item) candidates) found twice.

    The estimates' pass counts the distinct hashes of the keys; only when they are fewer than the
    rows (duplicates, or a hash collision) does a second pass compare the keys themselves.
    """
    if found.get("_keys", found["n"]) == found["n"]:
        return
    rule = _Rule(text, pl.struct(*keys).is_duplicated())
    count = lf.select(rule.bad.sum().alias(f"{prefix}0")).collect()
    _raise_broken(lf, [rule], count.row(0, named=True), prefix)


def _collected(prep: _Prepared, req: _Request) -> tuple[dict[str, float], dict[str, float]]:
    """One pass over the data for every sum and every rule's count; then the checks raise, if any."""
    rules = _logged_rules(req)
    sums = _sums()
    slate_level = any(e in ("sips", "snsips") for e in req.estimators)
    needed = {s for e in req.estimators for s in _NEEDS[e]} - {"n", "m"}
    row = [pl.len().alias("n"), *_counts(rules, "l")]
    if any(e not in _ROW for e in req.estimators):  # a slate's positions must be distinct
        row.append(pl.struct(_Q, _K).hash().n_unique().alias("_keys"))
    row += [] if slate_level else [sums["m"].alias("m")]
    plans = [prep.rows.select(*row, *(sums[s].alias(s) for s in sorted(needed)))]
    if slate_level:
        plans.append(_slate_sums(prep.rows))
    if prep.candidates is not None and prep.per_position is not None:
        keys = pl.struct(_Q, _K, _I).hash().n_unique().alias("_keys")
        plans.append(prep.candidates.select(*_counts(_CANDIDATE_RULES, "c"), pl.len().alias("n"), keys))
        plans.append(prep.per_position.select(_counts([_SUM_RULE], "s")))
    by_pos = any(e in _BY_POSITION for e in req.estimators)
    if by_pos:
        plans.append(_by_position(prep.rows, req))
    done = pl.collect_all(plans)
    found = done[0].row(0, named=True)
    if slate_level:
        found |= done[1].row(0, named=True)
        found["m"] = found.pop("m_slates")
    if prep.candidates is not None and prep.per_position is not None:
        counts = done[-2 - by_pos].row(0, named=True)
        _raise_broken(prep.candidates, _CANDIDATE_RULES, counts, "c")
        _checked_duplicates(prep.candidates, counts, CANDIDATE_DUPLICATE_RULE, (_Q, _K, _I), "c")
        _raise_broken(prep.per_position, [_SUM_RULE], done[-1 - by_pos].row(0, named=True), "s")
    _raise_broken(prep.rows, rules, found, "l")
    if not found["n"]:
        raise InvalidDataError.unusable("logged", "has no row: no estimate")
    _checked_duplicates(prep.rows, found)
    return found, done[-1].row(0, named=True) if by_pos else {}


def _rounds(name: str, sums: Mapping[str, float]) -> int:
    """The rounds an estimator averages over: logged rows, or slates."""
    return int(sums["n"] if name in _ROW else sums["m"])


def _intervals(
    lf: pl.LazyFrame, req: _Request, alpha: float, n_resamples: int, seed: int | None
) -> pl.DataFrame:
    """Each estimator's percentile bootstrap interval over its rounds, by :func:`prm.summarize`."""
    from polars_rankmetrics.significance import summarize  # noqa: PLC0415  (numpy and scipy: optional)

    units = _unit_terms(lf, req).collect()
    out = summarize(
        units,
        by="estimator",
        metrics="value",
        query="unit",
        interval="bootstrap",
        alpha=alpha,
        n_resamples=n_resamples,
        seed=seed,
    )
    return out.select("estimator", "ci_low", "ci_high")


def estimate(  # noqa: PLR0913  (the frames, the columns and the interval's options)
    logged: pl.DataFrame | pl.LazyFrame,
    estimators: str | Sequence[str],
    *,
    candidates: pl.DataFrame | pl.LazyFrame | None = None,
    columns: Mapping[str, str] | None = None,
    interval: bool = False,
    alpha: float = 0.05,
    n_resamples: int = 10_000,
    seed: int | None = None,
) -> pl.DataFrame:
    r"""A target policy's value estimated from logged slates, by each estimator, with an interval on request.

    Parameters
    ----------
    logged
        One row per (slate, position) shown by the logging policy: columns
        ``query`` (the slate: a query or context, one slate each),
        ``position``, ``reward``, ``propensity`` (the logging policy's
        probability of the logged item at that position) and ``target``
        (the target policy's probability of it there); ``item`` for
        ``dm``, ``dr`` and ``sndr``; ``cascade_propensity`` and
        ``target_cascade`` (each policy's probability of the slate's items
        down to that position) for ``sips``, ``rips`` and their
        self-normalised forms. ``sips`` reads the cascade at the slate's
        last position (the whole slate's probability): with only the joint
        probabilities, give them on every row of the slate as the cascade
        columns (as ``obp.ope.SlateStandardIPS`` takes them).
    estimators
        Names among :data:`ESTIMATORS`: ``ips``, ``snips``, ``dm``, ``dr``,
        ``sndr`` (each logged row a round), ``sips``, ``snsips``, ``iips``,
        ``sniips``, ``rips``, ``snrips`` (each slate a round); see the
        module's formulas.
    candidates
        For ``dm``, ``dr`` and ``sndr``: one row per (query, position,
        candidate item) with the target policy's probability ``target``
        (summing to one over the candidates of each query and position) and
        the reward model's ``prediction``.
    columns
        ``{role: column name}`` for any role of either frame whose column
        is named otherwise (``{"query": "session", "reward": "click"}``).
    interval
        Add the percentile bootstrap interval of each estimator over its
        rounds (:func:`polars_rankmetrics.summarize` with
        ``interval="bootstrap"``, as ``obp.ope``'s ``estimate_interval``
        resamples the rounds' terms); needs numpy and scipy.
    alpha
        The interval's level is ``1 - alpha``.
    n_resamples
        Bootstrap resamples.
    seed
        Seed of the bootstrap draws.

    Returns
    -------
    pl.DataFrame
        One row per estimator, in the order of :data:`ESTIMATORS`:
        ``estimator``, ``value``, ``rounds`` (the logged rows or slates it
        averages over), ``ci_low`` and ``ci_high`` (null without
        `interval`).

    Raises
    ------
    ColumnNotFoundError, ColumnTypeError
        A role's column is absent or not numeric.
    InvalidParameterError
        An unknown estimator or role; ``dm``, ``dr`` or ``sndr`` without
        `candidates`.
    InvalidDataError
        Rows breaking a rule, named by their query and position: logging
        propensities missing, NaN or outside (0, 1]; target probabilities
        missing, NaN or outside [0, 1]; rewards not finite; a (query,
        position) logged twice (for the slate estimators: the row
        estimators take each row as a round); target probabilities of the candidates
        not summing to one per (query, position); a logged item without a
        candidate row, or a candidate given twice; an empty frame.

    Notes
    -----
    With :math:`w_i = \pi_e / \pi_b` of row :math:`i` of :math:`n`, IPS is
    :math:`\frac1n \sum_i w_i r_i` and SNIPS :math:`\sum_i w_i r_i /
    \sum_i w_i`; the slate estimators sum each slate's weighted rewards
    and average over the :math:`m` slates. The module's docstring gives
    every formula.

    References
    ----------
    Swaminathan et al. (2017), Off-policy evaluation for slate
    recommendation, NeurIPS. McInerney et al. (2020), Counterfactual
    evaluation of slate recommendations with sequential reward
    interactions, KDD. Saito et al. (2021), Open Bandit Dataset and
    Pipeline, NeurIPS Datasets and Benchmarks (``obp.ope``).

    Examples
    --------
    >>> from polars_rankmetrics import offpolicy
    >>> logged = pl.DataFrame({
    ...     "query": ["q1", "q1", "q2", "q2"],
    ...     "position": [1, 2, 1, 2],
    ...     "reward": [1.0, 0.0, 0.0, 1.0],
    ...     "propensity": [0.5, 0.5, 0.25, 0.5],
    ...     "target": [0.8, 0.2, 0.5, 0.25],
    ... })
    >>> offpolicy.estimate(logged, ["ips", "snips", "iips"])
    shape: (3, 5)
    ┌───────────┬──────────┬────────┬────────┬─────────┐
    │ estimator ┆ value    ┆ rounds ┆ ci_low ┆ ci_high │
    │ ---       ┆ ---      ┆ ---    ┆ ---    ┆ ---     │
    │ str       ┆ f64      ┆ i64    ┆ f64    ┆ f64     │
    ╞═══════════╪══════════╪════════╪════════╪═════════╡
    │ ips       ┆ 0.525    ┆ 4      ┆ null   ┆ null    │
    │ snips     ┆ 0.466667 ┆ 4      ┆ null   ┆ null    │
    │ iips      ┆ 1.05     ┆ 2      ┆ null   ┆ null    │
    └───────────┴──────────┴────────┴────────┴─────────┘
    """
    req = _request(estimators, columns)
    if not isinstance(interval, bool):
        raise InvalidParameterError.out_of_domain("interval", "True or False", interval)
    prep = _prepared(logged, candidates, req)
    found, per_pos = _collected(prep, req)
    out = pl.DataFrame(
        {
            "estimator": list(req.estimators),
            "value": [_value(e, found, per_pos) for e in req.estimators],
            "rounds": [_rounds(e, found) for e in req.estimators],
        },
        schema={"estimator": pl.String, "value": pl.Float64, "rounds": pl.Int64},
    )
    if not interval:
        return out.with_columns(ci_low=pl.lit(None, pl.Float64), ci_high=pl.lit(None, pl.Float64))
    ci = _intervals(prep.rows, req, alpha, n_resamples, seed)
    return out.join(ci, on="estimator", how="left", maintain_order="left")
