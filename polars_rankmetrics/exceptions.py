"""The errors polars-rankmetrics raises: every one is a :class:`RankMetricsError`.

Every message is worded here, once, by a factory on its class (narwhals'
``ColumnNotFoundError.from_missing_and_available_column_names`` is the
model): the same fault gives the same class and the same words wherever the
package finds it, and modules ``raise SomeError.factory(...)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from polars_rankmetrics._quote import SHOWN, closest, cut, listed, shown

__all__ = [
    "ColumnNotFoundError",
    "ColumnTypeError",
    "InnerJoinWarning",
    "InvalidDataError",
    "InvalidInputError",
    "InvalidParameterError",
    "MissingQueriesError",
    "RankMetricsError",
    "RankMetricsWarning",
    "TrecFormatError",
    "UnknownMetricError",
]

E = TypeVar("E", bound="RankMetricsError")

_CONTRACT_ROLES = ("query", "item", "score", "rank", "relevance")


def _of(name: str, metric: str | None, method: str | None) -> str:
    """How a message names a parameter: ```k```, ```k`` of metric 'ndcg'``, ``-M`` (an option as typed)."""
    if metric is not None:
        return f"`{name}` of metric {metric!r}"
    if method is not None:
        return f"`{name}` of fusion method {method!r}"
    return name if name.startswith("-") else f"`{name}`"


class RankMetricsError(ValueError):
    """Base class of every error raised by polars-rankmetrics."""

    @classmethod
    def from_worded(cls: type[E], message: str) -> E:  # noqa: PYI019  (typing.Self is Python 3.11)
        """An error whose message a factory worded already, carried back to its class.

        A data error found inside a lazy plan (``_errors.in_plan``), in a TREC
        file's lines, or on a Spark worker reaches the caller as text; this
        rebuilds the library's error around that text.
        """
        return cls(message)

    @classmethod
    def unknown_option(cls: type[E], owner: str, name: str, known: Iterable[str]) -> E:  # noqa: PYI019
        """A parameter `owner` does not take: name it and list the ones it takes.

        Raised as :class:`InvalidParameterError` by a function's keyword, as
        :class:`UnknownMetricError` by a metric's name (``rbp(q=0.5)``).
        """
        accepted = ", ".join(known) or "none"
        return cls(f"{owner} has no parameter {shown(name)}; its parameters: {accepted}")

    @classmethod
    def needs_cutoff(cls: type[E], metric: str) -> E:  # noqa: PYI019
        """A metric that needs a cutoff, given none (:class:`UnknownMetricError` from a name)."""
        return cls(f"metric {metric!r} needs a cutoff: write {metric}@k")

    @classmethod
    def takes_no_cutoff(cls: type[E], metric: str, got: object) -> E:  # noqa: PYI019
        """A metric that takes no cutoff, given one: `got` is the name as written, or the cutoff."""
        return cls(f"metric {metric!r} takes no cutoff, got {got}")


class ColumnNotFoundError(RankMetricsError):
    """A column the evaluation needs is not in the frame."""

    @classmethod
    def from_missing_and_available(
        cls, name: str, role: str, available: Iterable[str], where: str = "the frame"
    ) -> ColumnNotFoundError:
        """A column is absent: name its role, a close match, how to rename, and the columns present."""
        present = list(available)
        near = closest(name, present, n=1)
        if role in _CONTRACT_ROLES:
            target = repr(near[0]) if near else "..."
            hint = f" (rename with prm.Columns({role}={target}))"
        else:
            hint = f" (did you mean {near[0]!r}?)" if near else ""
        return cls(f"{role} column {shown(name)} not found{hint}; {where} has columns: {listed(present)}")

    @classmethod
    def no_order(cls, score: str, rank: str, available: Iterable[str]) -> ColumnNotFoundError:
        """A frame with neither a score nor a rank column."""
        return cls(
            f"the frame needs a score column {score!r} or a rank column {rank!r} (rename with "
            f"prm.Columns(score=...) or Columns(rank=...)); the frame has columns: {listed(available)}"
        )

    @classmethod
    def pattern(cls, pattern: str, available: Iterable[str]) -> ColumnNotFoundError:
        """No column whose name fits `pattern` (``recall@k``)."""
        return cls(f"a column {pattern} not found; the frame has columns: {listed(available)}")

    @classmethod
    def layout(cls, what: str, needed: str, available: Iterable[str]) -> ColumnNotFoundError:
        """A frame argument without the columns it must hold, in order: ```interactions` needs ...``."""
        return cls(f"{what} needs {needed}; it has columns {list(available)}")

    @classmethod
    def not_output_of(
        cls,
        what: str,
        producer: str,
        lacking: Sequence[str],
        unexpected: Sequence[str] = (),
        columns: str = "",
    ) -> ColumnNotFoundError:
        """A frame argument that must be what another function returns, and lacks its columns."""
        shape = f" ({columns})" if columns else ""
        also = f", and has unexpected {list(unexpected)}" if unexpected else ""
        return cls(f"`{what}` must be the frame {producer} returns{shape}; it lacks {list(lacking)}{also}")


class ColumnTypeError(RankMetricsError):
    """A column has a dtype the evaluation cannot use."""

    @classmethod
    def from_dtype(
        cls, name: str, role: str, expected: str, dtype: object, verb: str = "be"
    ) -> ColumnTypeError:
        """A column of a dtype the evaluation cannot use: ``score column 's' must be numeric, got ...``."""
        return cls(f"{role} column {shown(name)} must {verb} {expected}, got dtype {dtype}")

    @classmethod
    def mismatch(cls, first: str, second: str) -> ColumnTypeError:
        """Ids compared across frames but of two dtypes: ``column 'query' is Int64 in the run but ...``."""
        return cls(f"{first} but {second}; cast one so they match")

    @classmethod
    def layout(cls, what: str, needed: str, schema: object) -> ColumnTypeError:
        """A frame argument whose columns are not of the dtypes it must hold, in order."""
        return cls(f"{what} needs {needed}; it has schema {schema}")

    @classmethod
    def both_orders(cls, score: str, rank: str) -> ColumnTypeError:
        """A frame with both a score and a rank column: which one orders the items is ambiguous."""
        return cls(
            f"the frame has both a score column {score!r} and a rank column {rank!r}; keep exactly one "
            "(drop one, or rename it away)"
        )

    @classmethod
    def taken(cls, name: str, role: str, holder: str) -> ColumnTypeError:
        """A column the library would add is in the frame already."""
        return cls(f"{holder} already has a {role} column {shown(name)}; drop or rename it")


class InvalidParameterError(RankMetricsError):
    """A parameter (``k``, ``depth``, ``gain``, ...) is out of its domain."""

    @classmethod
    def out_of_domain(
        cls, name: str, expected: str, got: object, *, metric: str | None = None, method: str | None = None
    ) -> InvalidParameterError:
        """A parameter outside its domain: ```p` of metric 'rbp' must be in (0, 1), got 2.0``."""
        return cls(f"{_of(name, metric, method)} must be {expected}, got {shown(got)}")

    @classmethod
    def cutoff_too_large(
        cls, size: str, *, metric: str | None = None, name: str = "k"
    ) -> InvalidParameterError:
        """A cutoff too large for a Polars literal (no list is that long); `size` says how large."""
        return cls(
            f"{_of(name, metric, None)} must be a positive integer below 2**127 (the widest integer "
            f"Polars holds; no list is that long), got {size}"
        )

    @classmethod
    def choice(cls, name: str, choices: Iterable[object], got: object) -> InvalidParameterError:
        """A parameter that must be one of a few values."""
        valid = ", ".join(repr(c) for c in choices)
        return cls(f"`{name}` must be one of {valid}, got {shown(got)}")

    @classmethod
    def repeated(cls, name: str, values: Iterable[object], what: str = "column") -> InvalidParameterError:
        """A parameter that lists the same column (or run, metric...) twice."""
        return cls(f"`{name}` must name each {what} once, got {listed(values)} more than once")

    @classmethod
    def not_unique(cls, what: str, values: Iterable[object]) -> InvalidParameterError:
        """Names that must be unique and are not: ``metric names must be unique, got 'm' more than once``."""
        return cls(f"{what} must be unique, got {listed(values)} more than once")

    @classmethod
    def empty(cls, name: str, remedy: str) -> InvalidParameterError:
        """A parameter that lists nothing: ```metrics` is empty: name at least one ...``."""
        return cls(f"`{name}` is empty: {remedy}")

    @classmethod
    def same_column(cls, role: str, name: str, other: str) -> InvalidParameterError:
        """A column given a role it already has: ``metric 'query' is the query column``."""
        return cls(f"{role} {shown(name)} is the {other} column")

    @classmethod
    def missing(
        cls, name: str, expected: str, *, metric: str | None = None, method: str | None = None
    ) -> InvalidParameterError:
        """A parameter without a default that was not given: say what it is and how to write it."""
        owner, call = (
            (f"metric {metric!r}", f"{metric}(")
            if method is None
            else (f"fusion method {method!r}", f"fuse(..., method={method!r}, ")
        )
        return cls.needs(owner, f"`{name}`, {expected}", f"write {call}{name}=...)")

    @classmethod
    def needs(cls, owner: str, what: str, remedy: str) -> InvalidParameterError:
        """An input `owner` cannot do without and did not get: ``owner needs what: remedy``."""
        return cls(f"{owner} needs {what}: {remedy}")

    @classmethod
    def not_both(cls, first: str, second: str, *, owner: str) -> InvalidParameterError:
        """Two inputs of which one only may be given."""
        return cls(f"give {owner} either {first} or {second}, not both")

    @classmethod
    def takes_no(cls, owner: str, what: str, takers: str) -> InvalidParameterError:
        """An input `owner` does not take, and the ones that take it: ``owner takes no what; takers``."""
        return cls(f"{owner} takes no {what}; {takers}")

    @classmethod
    def refused(cls, setting: str, why: str) -> InvalidParameterError:
        """An input refused for a reason of its own: the subject, then why (``optimize_fusion ...``)."""
        return cls(f"{setting} {why}")

    @classmethod
    def not_output_of(cls, what: str, producer: str, got: object) -> InvalidParameterError:
        """A frame argument that must be what another function returns, and is not even a DataFrame."""
        return cls(f"`{what}` must be the DataFrame {producer} returns, got {type(got).__name__}")

    @classmethod
    def no_weight(cls, run: object, column: str, given: Iterable[object]) -> InvalidParameterError:
        """A run of a weighted fusion that `weights` does not name."""
        return cls(
            f"run {shown(run)} of column {column!r} has no weight: name every run in `weights` "
            f"(given: {listed(given)})"
        )

    @classmethod
    def shared_column(cls, name: str, first: str, second: str) -> InvalidParameterError:
        """Two roles given the same column."""
        return cls(
            f"the {first} and {second} columns are both {shown(name)}: each role needs its own column "
            f"(copy it first, e.g. frame.with_columns(pl.col({shown(name)}).alias('{second}')))"
        )

    @classmethod
    def reserved_column(cls, name: str, role: str) -> InvalidParameterError:
        """A column named with the library's internal prefix."""
        return cls(
            f"{role} column {shown(name)}: names starting with '__prm_' are reserved for the library's "
            "internal columns; rename the column"
        )

    @classmethod
    def not_among(
        cls, name: str, got: object, column: str, present: Iterable[object]
    ) -> InvalidParameterError:
        """A value that must be one of a column's (a baseline system): name the column and list them."""
        return cls(f"{name} {shown(got)} is not in column {column!r}; the systems: {listed(present)}")

    @classmethod
    def tie_policy(
        cls, metric: str, policy: str, defined: Iterable[str], why: str = ""
    ) -> InvalidParameterError:
        """A tie policy a metric does not define: name both, say why, list the metrics that define it."""
        valid = ", ".join(sorted(defined))
        reason = f" ({why})" if why else ""
        return cls(
            f"ties={policy!r} is not defined for metric {metric!r}{reason}; use ties='text' for it, "
            f"or evaluate it separately. ties={policy!r} is defined for: {valid}"
        )


class UnknownMetricError(RankMetricsError):
    """A metric name does not parse; the message lists the valid names."""

    @classmethod
    def from_name_and_valid(cls, name: str, valid: list[str]) -> UnknownMetricError:
        """A name that is no metric: the closest valid names first, then all of them."""
        # A cutoff as typed ("P_10x") is compared in the list's placeholder form ("P_kx" is close to "P_k").
        near = list(dict.fromkeys([*closest(name, valid), *closest(re.sub(r"\d+", "k", name), valid)]))[:3]
        hint = f"; did you mean {' or '.join(map(repr, near))}?" if near else ""
        return cls(f"unknown metric {shown(name)}{hint} Valid names: {', '.join(valid)}")

    @classmethod
    def not_a_number(
        cls, text: str, *, finite: bool = False, metric: str | None = None
    ) -> UnknownMetricError:
        """A metric's parameter, as written in its name, that does not read as a (finite) number."""
        of = "" if metric is None else f" of metric {metric!r}"
        return cls(f"parameter {text!r}{of} is not a {'finite ' if finite else ''}number")

    @classmethod
    def unknown_measure(cls, spec: str, near: Sequence[str], supported: str) -> UnknownMetricError:
        """A trec_eval measure (``-m``) that is no measure: the closest ones, then all of them."""
        hint = f"; did you mean {' or '.join(map(repr, near))}?" if near else ""
        return cls(f"unknown measure {spec!r}{hint} (trec_eval: illegal measure); supported: {supported}")

    @classmethod
    def bad_measure(cls, spec: str | None, why: str) -> UnknownMetricError:
        """A trec_eval measure (``-m name.params``) whose parameters do not read: ``measure 'x': why``."""
        return cls(why if spec is None else f"measure {spec!r}: {why}")


class InvalidDataError(RankMetricsError):
    """The data breaks the frame contract: NaN scores, null ids, duplicate rows."""

    @classmethod
    def null_values(
        cls, column: str, need: str, *, count: int | None = None, what: str = "value(s)"
    ) -> InvalidDataError:
        """A column that must hold no null: ``column 'run' has 2 null value(s); every row needs ...``."""
        many = "" if count is None else f"{count} "
        return cls(f"column {column!r} has {many}null {what}; {need}")

    @classmethod
    def nulls_in(cls, frame: str, column: str, what: str = "nulls", first: bool = False) -> InvalidDataError:
        """A frame argument holding nulls: ```interactions` holds null ids in its column 'user'``."""
        return cls(f"{frame} holds {what} in its {'first ' if first else ''}column {column!r}")

    @classmethod
    def not_finite(cls, holder: str, count: int | None, where: str) -> InvalidDataError:
        """Values holding NaN, infinite or null: ``metric 'm' has 1 NaN, infinite or null value(s): ...``."""
        many = "a" if count is None else f"{count}"
        return cls(f"{holder} has {many} NaN, infinite or null value(s): {where}")

    @classmethod
    def several_rows(cls, keys: Sequence[str], count: int, examples: str) -> InvalidDataError:
        """Keys (system, query...) that have several rows where one each is expected."""
        return cls(f"{count} ({', '.join(keys)}) key(s) have several rows: {examples}; expected one each")

    @classmethod
    def repeated_value(cls, holder: str, what: str, value: object, remedy: str = "") -> InvalidDataError:
        """A value that must appear once: ```target` holds group 'a' more than once``."""
        return cls(f"{holder} holds {what} {shown(value)} more than once{'; ' + remedy if remedy else ''}")

    @classmethod
    def duplicate_rows(
        cls, keys: Sequence[str], extra: object, where: str, times: object, hint: str = ""
    ) -> InvalidDataError:
        """Duplicate rows of the frame contract's keys: how many, the first, how often it appears."""
        return cls(f"{extra} duplicate ({', '.join(keys)}) row(s): {where} appears {times} times{hint}")

    @classmethod
    def broken_rule(cls, rule: str, count: int, where: str) -> InvalidDataError:
        """Rows that break a rule of the frame contract: the rule, how many, the first."""
        return cls(f"{rule}: {count} row(s), first at {where}")

    @classmethod
    def too_few(cls, found: str, purpose: str, needed: str = "at least 2") -> InvalidDataError:
        """Too few systems or queries for a statistic: ``1 paired query ('q1'); ... needs at least 2``."""
        return cls(f"{found}; {purpose} needs {needed}")

    @classmethod
    def undefined(cls, what: str, why: str) -> InvalidDataError:
        """A statistic the data leaves undefined (no variance, ties): say what and why."""
        return cls(f"{what}: {why}")

    @classmethod
    def uneven_replicates(cls, column: str, counts: str, where: str) -> InvalidDataError:
        """Systems or queries with different numbers of replicates, and the option that averages them."""
        return cls(
            f"systems or queries have different numbers of replicates in {column!r} ((system, replicates): "
            f"{counts}{where}). Pass unequal_replicates='mean' to average whatever replicates each "
            "(system, query) has"
        )

    @classmethod
    def negative(cls, what: str, key: str, at: object, name: str, value: object) -> InvalidDataError:
        """A count or weight below 0: ```popularity` gives item 'a' the count -1: counts must be >= 0``."""
        return cls(f"`{what}` gives {key} {shown(at)} the {name} {shown(value)}: {name}s must be >= 0")

    @classmethod
    def unusable(cls, what: str, why: str) -> InvalidDataError:
        """A frame argument whose rows cannot give what is asked: ```comparison` is empty: ...``."""
        return cls(f"`{what}` {why}")

    @classmethod
    def no_queries(cls, why: str) -> InvalidDataError:
        """Nothing to evaluate: no query has what a value needs."""
        return cls(f"no queries {why}")

    @classmethod
    def failed(cls, detail: str) -> InvalidDataError:
        """An evaluation Polars could not compute with parameters the library accepts."""
        return cls(f"the evaluation failed: {detail}")

    @classmethod
    def unreadable_source(cls, kind: str, text: str) -> InvalidDataError:
        """A scan whose files cannot be read, or disagree: Polars' first paragraph, cut."""
        return cls(f"cannot read the frame's input ({kind}): {cut(text, 4 * SHOWN)}")

    @classmethod
    def sum_overflow(cls, terms: str) -> InvalidDataError:
        """A term of an exact sum that its 128-bit fixed point cannot hold."""
        return cls(
            "a term of a metric's exact sum is not finite or too large: sums are exact in 128-bit "
            "fixed point, which holds terms below 2**63 (about 9.2e18) in magnitude; check the gains "
            "(a gain mapping such as {1: 1e20}) and the grades. The failing terms, scaled by 2**64: "
            f"[{cut(terms)}]"
        )


class MissingQueriesError(InvalidDataError):
    """Systems compared without a value for the same queries, and no policy says what to do.

    `detail` says which system lacks which queries; the message adds the remedy in the caller's
    spelling (``missing='zero'`` in Python, ``--missing zero`` on the command line).
    """

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.detail = message if detail is None else detail

    @classmethod
    def with_remedy(cls, detail: str, remedy: str) -> MissingQueriesError:
        """The queries some systems lack (`detail`), and the remedy in the caller's spelling."""
        return cls(f"{detail}. {remedy}", detail)


class TrecFormatError(RankMetricsError):
    """A TREC run or qrels file has a malformed line; the message names file and line."""

    @classmethod
    def unreadable(cls, path: object, why: str) -> TrecFormatError:
        """A TREC file that cannot be read: ``path: why`` (a bad line is worded in its plan)."""
        return cls(f"{cut(str(path))}: {why}")


class InvalidInputError(RankMetricsError, TypeError):
    """An argument is of a type the library cannot read; the message names what is accepted.

    A frame, a path, `metrics` or `by` of another type raises it.

    Accepted: Polars DataFrame and LazyFrame, pandas DataFrame, pyarrow Table
    and RecordBatch, and any object that exports an Arrow stream
    (``__arrow_c_stream__``). Also a :class:`TypeError`, since the fault is
    the argument's type, so ``except TypeError`` catches it too.
    """

    @classmethod
    def from_type(cls, name: str, expected: str, got: object) -> InvalidInputError:
        """An argument of the wrong Python type: ```by` must be a column name, got int 3``."""
        return cls(f"`{name}` must be {expected}, got {type(got).__name__} {shown(got)}")

    @classmethod
    def not_a_frame(cls, name: str, accepted: str, got: str, hint: str = "") -> InvalidInputError:
        """A frame argument of a type no reader takes: ```frame` must be ...; got dict``."""
        return cls(f"`{name}` must be {accepted}; got {got}{hint}")

    @classmethod
    def not_converted(cls, name: str, kind: str, why: str) -> InvalidInputError:
        """A frame argument whose conversion to a Polars DataFrame failed."""
        return cls(f"`{name}`: the {kind} {why}")


class RankMetricsWarning(UserWarning):
    """A result that is a number but probably not the one meant: no query evaluated, no shared ids...

    Filter it like any warning: ``warnings.filterwarnings("ignore", category=prm.RankMetricsWarning)``.
    """


class InnerJoinWarning(RankMetricsWarning):
    """A frame whose every row is both retrieved and judged, read by a metric that needs the others.

    That is the signature of an inner join of a run and its judgments, which drops the judged items
    the run did not retrieve: recall, AP, R-precision and the ideal DCG then read too few relevant
    items. Build the frame with :func:`polars_rankmetrics.join_run_qrels`, or pass the judgments as
    ``evaluate(run, ..., qrels=qrels)``. A frame that really holds every judged item (each candidate
    scored and labelled) may silence it:
    ``warnings.filterwarnings("ignore", category=prm.InnerJoinWarning)``.
    """
