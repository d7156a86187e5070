"""The errors polars-rankmetrics raises: every one is a :class:`RankMetricsError`.

Every message is worded once, by a factory on its class (narwhals'
``ColumnNotFoundError.from_missing_and_available_column_names`` is the
model): the same fault gives the same class and the same words wherever the
package finds it, and modules ``raise SomeError.factory(...)``. The factories
are here, or in a mixin of ``_messages`` the class inherits
(:class:`InvalidParameterError`'s).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from polars_rankmetrics._quote import SHOWN, closest, cut, listed, shown
from polars_rankmetrics.exceptions._messages import ParameterMessages

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
_EVERY_NAME = "Every valid name: prm.valid_names(), or the Metrics page of the documentation."


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
    def from_type(cls: type[E], name: str, expected: str, got: object) -> E:  # noqa: PYI019
        """An argument of the wrong Python type: ```by` must be a column name, got int 3``.

        Raised as :class:`InvalidInputError`, or as :class:`UnknownMetricError`
        by a metric that is neither a name nor a :class:`~polars_rankmetrics.Metric`.
        """
        return cls(f"`{name}` must be {expected}, got {type(got).__name__} {shown(got)}")

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
        cls,
        name: str,
        role: str,
        available: Iterable[str],
        where: str = "the frame",
        *,
        remedy: str | None = None,
    ) -> ColumnNotFoundError:
        """A column is absent: name its role, a close match, the parameter that names it, the columns present.

        `remedy` says which parameter names the column (``name it with
        columns=prm.Columns(query=...)``); a contract role's default is ``prm.Columns(role=...)``.
        """
        present = list(available)
        near = closest(name, present, n=1)
        if remedy is not None:
            close = f"did you mean {near[0]!r}? " if near else ""
            hint = f" ({close}{remedy})"
        elif role in _CONTRACT_ROLES:
            target = repr(near[0]) if near else "..."
            hint = f" (rename with prm.Columns({role}={target}))"
        else:
            hint = f" (did you mean {near[0]!r}?)" if near else ""
        return cls(f"{role} column {shown(name)} not found{hint}; {where} has columns: {listed(present)}")

    @classmethod
    def side_role(
        cls, what: str, role: str, looked_for: Sequence[str], available: Iterable[str], fix: str
    ) -> ColumnNotFoundError:
        """A side frame with no column for one of its roles (read by name, never by position).

        ```popularity` has no count column (none named count, popularity or n); it has columns:
        'movie', 'plays'; name it with columns={'count': 'plays'}``.
        """
        names = ", ".join(looked_for[:-1]) + (" or " if len(looked_for) > 1 else "") + looked_for[-1]
        return cls(
            f"`{what}` has no {role} column (none named {names}); it has columns: "
            f"{listed(list(available))}; name it with {fix}"
        )

    @classmethod
    def read_by(
        cls, name: str, role: str, metric: str, instead: str, available: Iterable[str]
    ) -> ColumnNotFoundError:
        """A column a catalog metric still reads (serendipity's relevance): say what does without it."""
        return cls(
            f"{role} column {shown(name)} not found: {metric} reads it; {instead}; "
            f"the frame has columns: {listed(list(available))}"
        )

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
    def taken(cls, name: str, role: str, holder: str) -> ColumnTypeError:
        """A column the library would add is in the frame already."""
        return cls(f"{holder} already has a {role} column {shown(name)}; drop or rename it")


class InvalidParameterError(ParameterMessages, RankMetricsError):
    """A parameter (``k``, ``depth``, ``gain``, ...) is out of its domain.

    Its factories (``InvalidParameterError.out_of_domain(...)``, ``.needs(...)``...) are
    :class:`polars_rankmetrics.exceptions._messages.ParameterMessages`'.
    """


class UnknownMetricError(RankMetricsError):
    """A metric name does not parse; the message lists the valid names."""

    @classmethod
    def from_name_and_valid(cls, name: str, valid: list[str]) -> UnknownMetricError:
        """A name that is no metric: up to five close valid names, and where all of them are listed."""
        # A cutoff as typed ("P_10x") is compared in the list's placeholder form ("P_kx" is close to "P_k").
        typed = re.sub(r"\d+", "k", name)
        near = list(dict.fromkeys([*closest(name, valid, n=5), *closest(typed, valid, n=5)]))[:5]
        hint = f"; did you mean {', '.join(map(repr, near))}?" if near else ""
        return cls(f"unknown metric {shown(name)}{hint} {_EVERY_NAME}")

    @classmethod
    def blank_around(cls, name: str) -> UnknownMetricError:
        """A metric name with blanks or a newline around it, which would otherwise name its own column."""
        return cls(f"metric name {shown(name, 60)} has blanks around it: write {shown(name.strip(), 60)}")

    @classmethod
    def not_a_number(
        cls, text: str, *, finite: bool = False, metric: str | None = None
    ) -> UnknownMetricError:
        """A metric's parameter, as written in its name, that does not read as a (finite) number."""
        of = "" if metric is None else f" of metric {metric!r}"
        return cls(f"parameter {text!r}{of} is not a {'finite ' if finite else ''}number")

    @classmethod
    def positional(cls, metric: str, count: int, text: str, written: str) -> UnknownMetricError:
        """More parameters written by position than the metric takes: ``rbp(0.5,0.3)``."""
        return cls(f"metric {metric!r} takes {count} parameter(s), got {text!r} in {written!r}")

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
    def out_of_range(  # noqa: PLR0913  (the frame, the key and its value, the rule)
        cls, what: str, key: str, at: object, name: str, value: object, *, rule: str = ""
    ) -> InvalidDataError:
        """A count or weight out of its range (by default, below 0).

        ```popularity` gives item 'a' the count -1: counts must be >= 0``; `rule` words another range.
        """
        return cls(
            f"`{what}` gives {key} {shown(at)} the {name} {shown(value)}: {rule or f'{name}s must be >= 0'}"
        )

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

    @classmethod
    def not_regular(cls, path: object) -> TrecFormatError:
        """A path that is not a regular file (FIFO, device, directory): refused before reading."""
        return cls(
            f"{cut(str(path))}: not a readable file: not a regular file (a directory, FIFO, socket or "
            "device); TREC files are read whole; write the stream to a file first"
        )

    @classmethod
    def too_many_lines(
        cls, path: object, lines: int, size: int, shortest: int, factor: int
    ) -> TrecFormatError:
        """A file of more lines than its size allows: reading it would need over `factor` times its size."""
        return cls(
            f"{cut(str(path))}: {lines:,} lines in {size:,} bytes: its lines average under {shortest} bytes "
            f"(the shortest TREC line), so reading it would need more than {factor} times its size "
            "in memory; a file of blank or cut lines? Remove the blank lines"
        )

    @classmethod
    def nul_byte(cls, path: object, line: int) -> TrecFormatError:
        """A file holding a NUL byte: binary or UTF-16, not a text file of TREC lines."""
        return cls(
            f"{cut(str(path))}: line {line}: holds a NUL byte: not a text file of TREC lines "
            "(a UTF-16 or binary file? save it as UTF-8 text); trec_eval 10.0 misreads it"
        )

    @classmethod
    def bad_line(cls, path: object, line: int, expected: str, text: str) -> TrecFormatError:
        """A line of a file that is not what its format holds: ``path: line N: expected ...; got '...'``."""
        return cls(f"{cut(str(path))}: line {line}: expected {expected}; got {cut(repr(text))}")


class InvalidInputError(RankMetricsError, TypeError):
    """An argument is of a type the library cannot read; the message names what is accepted.

    A frame, a path, `metrics` or `by` of another type raises it.

    Accepted: Polars DataFrame and LazyFrame, pandas DataFrame, pyarrow Table
    and RecordBatch, and any object that exports an Arrow stream
    (``__arrow_c_stream__``). Also a :class:`TypeError`, since the fault is
    the argument's type, so ``except TypeError`` catches it too.
    """

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
