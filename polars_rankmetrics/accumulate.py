"""Accumulator: evaluate's result over batches that arrive one at a time, from mergeable states.

Each batch is reduced when it arrives to the states :func:`evaluate_chunked` and
the Spark adapter merge (a mean's exact banded sums per `by` group, the catalog
metrics' tables of sums, or each query's values where the result needs them),
and its rows are dropped. States of disjoint queries add up to the state of
all of them, whatever the split, so the result is the bits of
:func:`polars_rankmetrics.evaluate` on every row seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from polars_rankmetrics import _engine
from polars_rankmetrics._accumulate_inputs import from_arrays, same_schema
from polars_rankmetrics._accumulate_state import Layout, Queries, from_table, to_table
from polars_rankmetrics._engine import Aggregation, MetricLike
from polars_rankmetrics._inputs import as_polars
from polars_rankmetrics._request import request
from polars_rankmetrics._schema import Columns
from polars_rankmetrics.conventions import Conventions
from polars_rankmetrics.evaluation import evaluate
from polars_rankmetrics.exceptions import InvalidInputError, InvalidParameterError
from polars_rankmetrics.exceptions._parameters import check_choice

if TYPE_CHECKING:
    import pyarrow as pa
    from typing_extensions import Unpack

    from polars_rankmetrics.conventions import ConventionOptions

__all__ = ["Accumulator"]

_COMPACT_EVERY = 32  # batches whose states wait before they are merged (merging sooner gives the same bits)


class Accumulator:
    """Evaluation that accumulates batch by batch: update, merge, save and restore, then compute.

    ``acc.update(batch)`` reduces a batch to the states that :func:`evaluate`
    merges exactly and drops its rows; ``acc.compute()`` returns what
    ``prm.evaluate(all_rows, metrics, **options)`` returns for a DataFrame,
    bit for bit, whatever the batches, their order, and the accumulators merged
    (``acc.merge(other)``: associative and commutative). The state pickles (for
    ``torch.distributed.all_gather_object``, Ray, multiprocessing) and saves
    to Arrow or Parquet (:meth:`to_arrow`, :meth:`save`, :meth:`load`).

    Parameters
    ----------
    metrics
        As for :func:`evaluate`: names or metrics. Every family is supported:
        per-query families keep exact sums per `by` group, catalog families
        (coverage, personalization...) their tables of sums over items.
    queries
        ``"whole"`` (default): every batch holds whole queries (each query's
        candidates scored together, as in a validation loop); each query is
        reduced at update. A query that arrives again in another batch (or
        in an accumulator merged in) is an error naming it, raised at the
        latest by the next :meth:`compute`, :meth:`merge` or :meth:`save`
        (the check runs every 32 batches, not at each, to stay cheap).
        ``"split"``: queries may be cut across batches and workers in any
        way; rows are kept until :meth:`compute`, so memory grows with the
        rows, as in torchmetrics.
    by, per_query, columns, conventions, check, aggregate, **overrides
        As for :func:`evaluate`. ``aggregate="median"`` and
        ``per_query=True`` keep one row per query (a median is no mergeable
        state); the other statistics keep a few numbers per `by` group.

    Notes
    -----
    Memory with ``queries="whole"``: the keys of the queries seen (for the
    check), plus one row per query for ``per_query=True`` or a median, a few
    numbers per `by` group for the means, and one row per (group, item...)
    for catalog metrics. :func:`evaluate`'s ``qrels=`` does not apply: a
    batch holds its queries' judged rows (:func:`join_run_qrels` per batch).
    The warnings :func:`evaluate` gives for degenerate results are not
    repeated. A side input of a metric (a popularity frame...) is not
    part of a saved state's request: :meth:`load` compares the metrics'
    names and the options only.

    Raises
    ------
    RankMetricsError
        At construction, as :func:`evaluate` does for the same request (an
        unknown metric, a tie policy a metric does not define, options that
        do not go together) and for ``qrels=``; a batch's data errors at
        :meth:`update` (``queries="split"``: at :meth:`compute`).

    See Also
    --------
    evaluate : the same result from one frame.
    evaluate_chunked : one frame larger than memory, in ranges of queries.
    polars_rankmetrics.torch_metric.AccumulatorMetric : a torchmetrics ``Metric`` over an accumulator.

    Examples
    --------
    >>> df = pl.DataFrame({"query": [1, 1, 2, 2, 3], "item": ["a", "b", "a", "c", "a"],
    ...     "score": [0.9, 0.5, 0.8, 0.1, 0.7], "relevance": [0, 1, 1, 0, 2]})
    >>> acc = prm.Accumulator(["ndcg@10", "mrr"])
    >>> acc.update(df.filter(pl.col("query") == 3)).update(df.filter(pl.col("query") < 3)).compute()
    shape: (1, 2)
    ┌──────────┬──────────┐
    │ ndcg@10  ┆ mrr      │
    │ ---      ┆ ---      │
    │ f64      ┆ f64      │
    ╞══════════╪══════════╡
    │ 0.876977 ┆ 0.833333 │
    └──────────┴──────────┘

    Arrays as torchmetrics names them (numpy arrays or torch tensors):

    >>> import numpy as np
    >>> acc = prm.Accumulator(["P_1"]).update(
    ...     preds=np.array([0.9, 0.2, 0.4]), target=np.array([1, 0, 0]), indexes=np.array([0, 0, 1]))
    >>> acc.compute()
    shape: (1, 1)
    ┌─────┐
    │ P_1 │
    │ --- │
    │ f64 │
    ╞═════╡
    │ 0.5 │
    └─────┘
    """

    def __init__(  # noqa: PLR0913
        self,
        metrics: MetricLike | Sequence[MetricLike],
        *,
        queries: Queries = "whole",
        by: str | Sequence[str] | None = None,
        per_query: bool = False,
        columns: Columns | None = None,
        conventions: Conventions | str | None = None,
        check: bool = True,
        aggregate: Aggregation = "mean",
        **overrides: Unpack[ConventionOptions],
    ) -> None:
        check_choice(queries, "queries", ("whole", "split"))
        if "qrels" in overrides:
            why = "does not apply: each batch holds its queries' judged rows (prm.join_run_qrels per batch)"
            raise InvalidParameterError.refused("Accumulator(qrels=...)", why)
        options: dict[str, Any] = {"by": by, "per_query": per_query, "columns": columns}
        options |= {"conventions": conventions, "check": check, "aggregate": aggregate}
        options |= dict(overrides)
        self._args: tuple[Any, dict[str, Any]] = (metrics, {"queries": queries, **options})
        self._req = request(
            metrics, by=by, per_query=per_query, columns=columns, conventions=conventions, check=check,
            aggregate=aggregate, **overrides,
        )  # fmt: skip
        if per_query:  # a list's value needs the whole list's rows: states hold count tables
            _engine.refuse_catalog(
                self._req.metrics,
                "read(s) every list at once: per_query=True gives them in one plan (prm.evaluate), "
                "not across batches",
            )
        _engine.check_ties(self._req.metrics, self._req.conventions)  # refused now, not at the first batch
        self._layout = Layout(self._req, queries)
        self.reset()

    # -- the request ---------------------------------------------------------------------------------

    @property
    def metrics(self) -> list[str]:
        """The output names of the metrics, in the order requested.

        >>> prm.Accumulator(["ndcg@10", prm.recall(50)]).metrics
        ['ndcg@10', 'recall@50']
        """
        return self._req.names

    # -- update --------------------------------------------------------------------------------------

    @property
    def _key_columns(self) -> list[str]:
        """The columns whose dtype every batch shares: by, query, item."""
        return [*self._layout.keys, self._req.columns.item]

    def reset(self) -> Accumulator:
        """Forget every batch seen: the accumulator as constructed. Returns it.

        >>> acc = prm.Accumulator(["mrr"]).update(pl.DataFrame({"query": [1], "item": ["a"],
        ...     "score": [0.5], "relevance": [1]}))
        >>> acc.reset().compute()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        polars_rankmetrics.exceptions.InvalidParameterError: compute() needs a batch first: ...
        """
        self._parts: dict[str, list[pl.DataFrame]] = {}
        self._schema: pl.Schema | None = None
        self._pending = 0
        return self

    def update(
        self,
        batch: object = None,
        *,
        preds: object = None,
        target: object = None,
        indexes: object = None,
        items: object = None,
    ) -> Accumulator:
        """Add a batch of rows; returns the accumulator (``acc.update(a).update(b)``).

        Parameters
        ----------
        batch
            A frame with the columns :func:`evaluate` reads: Polars (a LazyFrame
            is collected), pandas, pyarrow, or any Arrow stream.
        preds, target, indexes
            Instead of `batch`, arrays as torchmetrics' retrieval metrics take
            them (numpy arrays or torch tensors; tensors on a GPU are moved to
            the CPU): the scores, the relevance grades (bool or numeric) and
            the query of each row, flattened. They become the columns of
            `columns` (query, score, relevance).
        items
            With arrays: each row's item id. None numbers the rows of each
            query in the batch 0, 1, ... (their order among tied scores is
            then trec_eval's, by item text); with ``queries="split"`` the ids
            are required, since a query's rows span batches.

        Returns
        -------
        Accumulator

        Examples
        --------
        >>> acc = prm.Accumulator(["P_1"], per_query=True)
        >>> batch = pl.DataFrame({"query": ["q"], "item": ["a"], "score": [1.0], "relevance": [1]})
        >>> acc.update(batch).compute()
        shape: (1, 2)
        ┌───────┬─────┐
        │ query ┆ P_1 │
        │ ---   ┆ --- │
        │ str   ┆ f64 │
        ╞═══════╪═════╡
        │ q     ┆ 1.0 │
        └───────┴─────┘
        """
        frame = self._batch(batch, preds, target, indexes, items)
        self._schema = same_schema(self._schema, frame.schema, self._key_columns)
        if frame.is_empty():
            return self
        if self._layout.queries == "split":
            self._add({"rows": frame})
        else:
            self._add(self._layout.reduce(frame))
        return self

    def _batch(
        self, batch: object, preds: object, target: object, indexes: object, items: object
    ) -> pl.DataFrame:
        arrays = {"preds": preds, "target": target, "indexes": indexes}
        given = [name for name, value in arrays.items() if value is not None]
        if batch is not None:
            if given or items is not None:
                raise InvalidParameterError.not_both("a batch", "arrays", owner="update()")
            frame = as_polars(batch, "batch")
            return _engine.collect(frame) if isinstance(frame, pl.LazyFrame) else frame
        if len(given) < len(arrays):
            missing = ", ".join(f"`{name}`" for name in arrays if name not in given)
            raise InvalidParameterError.needs(
                "update()", missing, "give a frame, or preds, target and indexes"
            )
        if items is None and self._layout.queries == "split":
            why = "is needed with queries='split': a query's rows span batches, each needs its own item id"
            raise InvalidParameterError.refused("update(items=None)", why)
        return from_arrays(self._req.columns, preds, target, indexes, items)

    # -- merging -------------------------------------------------------------------------------------

    def _add(self, frames: dict[str, pl.DataFrame]) -> None:
        for name, frame in frames.items():
            self._parts.setdefault(name, []).append(frame)
        self._pending += 1
        if self._pending >= _COMPACT_EVERY:
            self._compact()

    def _compact(self) -> None:
        """Merge every part's waiting frames into one (the same bits whenever it runs)."""
        self._parts = {name: [self._layout.merged(name, frames)] for name, frames in self._parts.items()}
        self._pending = 0

    def merge(self, other: Accumulator) -> Accumulator:
        """Add the batches another accumulator of the same request has seen; returns this one.

        `other` is left as it was. Merging is associative and commutative, bit for bit.

        Parameters
        ----------
        other
            An :class:`Accumulator` built with the same metrics and options.

        Returns
        -------
        Accumulator

        Raises
        ------
        InvalidParameterError
            `other` was built for another request.

        Examples
        --------
        >>> df = pl.DataFrame({"query": [1, 1, 2], "item": ["a", "b", "a"],
        ...     "score": [0.9, 0.5, 0.8], "relevance": [0, 1, 1]})
        >>> one = prm.Accumulator(["mrr"]).update(df.filter(pl.col("query") == 1))
        >>> two = prm.Accumulator(["mrr"]).update(df.filter(pl.col("query") == 2))
        >>> one.merge(two).compute()
        shape: (1, 1)
        ┌──────┐
        │ mrr  │
        │ ---  │
        │ f64  │
        ╞══════╡
        │ 0.75 │
        └──────┘
        """
        if not isinstance(other, Accumulator):
            raise InvalidInputError.from_type("other", "an Accumulator", other)
        if other._layout.fingerprint() != self._layout.fingerprint():
            theirs, ours = other._layout.fingerprint(), self._layout.fingerprint()
            why = f"was built for another request: {theirs}, not {ours}"
            raise InvalidParameterError.refused("the accumulator to merge", why)
        if other._schema is None:
            return self
        self._schema = same_schema(self._schema, other._schema, self._key_columns)
        for name, frames in other._parts.items():
            self._parts.setdefault(name, []).extend(frames)
        self._compact()
        return self

    # -- compute -------------------------------------------------------------------------------------

    def compute(self) -> pl.DataFrame:
        """What :func:`evaluate` returns for every row seen (a DataFrame); the state is kept.

        Returns
        -------
        pl.DataFrame

        Raises
        ------
        InvalidDataError
            A query arrived in two batches (``queries="whole"``), or a batch's data breaks the
            frame contract (``queries="split"`` checks its rows here).
        InvalidParameterError
            No batch was seen yet (the result's types come from the batches).

        Examples
        --------
        >>> acc = prm.Accumulator(["recall@2"], by="model")
        >>> acc.update(pl.DataFrame({"model": ["x", "x", "y"], "query": [1, 1, 1],
        ...     "item": ["a", "b", "a"], "score": [0.3, 0.2, 0.1], "relevance": [1, 0, 1]})).compute()
        shape: (2, 2)
        ┌───────┬──────────┐
        │ model ┆ recall@2 │
        │ ---   ┆ ---      │
        │ str   ┆ f64      │
        ╞═══════╪══════════╡
        │ x     ┆ 1.0      │
        │ y     ┆ 1.0      │
        └───────┴──────────┘
        """
        if self._schema is None:
            why = "needs a batch first: the result's column types come from the batches"
            raise InvalidParameterError.refused("compute()", why)
        self._compact()
        parts = {name: frames[0] for name, frames in self._parts.items()}
        if "rows" in parts:
            parts = self._layout.reduce(parts["rows"])
        if not parts:  # only empty batches: evaluate's own empty result
            options = {k: v for k, v in self._args[1].items() if k != "queries"}
            return evaluate(pl.DataFrame(schema=self._schema), self._args[0], **options)
        return self._layout.finish(parts, self._schema)

    # -- serialisation -------------------------------------------------------------------------------

    def to_arrow(self) -> pa.Table:
        """The state as one Arrow table: the parts' columns prefixed, the request and version in its metadata.

        Exact sums (Int128, which Arrow lacks) are written as decimal text. A plain
        layout: any Arrow reader sees it; :meth:`load` reads it back.

        Returns
        -------
        pyarrow.Table

        Examples
        --------
        >>> acc = prm.Accumulator(["mrr"]).update(pl.DataFrame({"query": [1], "item": ["a"],
        ...     "score": [0.5], "relevance": [1]}))
        >>> prm.Accumulator(["mrr"]).load(acc.to_arrow()).compute()
        shape: (1, 1)
        ┌─────┐
        │ mrr │
        │ --- │
        │ f64 │
        ╞═════╡
        │ 1.0 │
        └─────┘
        """
        self._compact()
        parts = {name: frames[0] for name, frames in self._parts.items()}
        return to_table(parts, self._schema, self._layout.fingerprint())

    def save(self, path: str | Path) -> None:
        """Write the state to a Parquet file (:meth:`to_arrow`'s table); :meth:`load` reads it back.

        Parameters
        ----------
        path
            The file to write.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "state.parquet"
        >>> prm.Accumulator(["mrr"]).update(pl.DataFrame({"query": [1], "item": ["a"],
        ...     "score": [0.5], "relevance": [1]})).save(path)
        >>> prm.Accumulator(["mrr"]).load(path).compute()["mrr"].item()
        1.0
        """
        import pyarrow.parquet as pq  # noqa: PLC0415  (pyarrow is imported when used: import time)

        pq.write_table(self.to_arrow(), str(path))

    def load(self, source: str | Path | pa.Table) -> Accumulator:
        """Replace the state with a saved one (:meth:`save`'s file or :meth:`to_arrow`'s table); returns it.

        Parameters
        ----------
        source
            A Parquet file's path, or an Arrow table.

        Returns
        -------
        Accumulator

        Raises
        ------
        InvalidParameterError
            The state was saved for another request, or in another format version.

        Examples
        --------
        >>> saved = prm.Accumulator(["mrr"]).to_arrow()
        >>> prm.Accumulator(["ndcg@10"]).load(saved)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        polars_rankmetrics.exceptions.InvalidParameterError: the saved state was saved for another ...
        """
        import pyarrow as pa  # noqa: PLC0415  (pyarrow is imported when used: import time)
        import pyarrow.parquet as pq  # noqa: PLC0415

        table = source if isinstance(source, pa.Table) else pq.read_table(str(source))
        parts, schema = from_table(table, self._layout.fingerprint())
        self.reset()
        self._parts = {name: [frame] for name, frame in parts.items()}
        self._schema = schema
        return self

    def __getstate__(self) -> dict[str, object]:
        """The constructor's arguments and the merged state: what pickling keeps."""
        self._compact()
        return {"args": self._args, "parts": self._parts, "schema": self._schema}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Rebuild the request from the constructor's arguments, then restore the state."""
        metrics, options = state["args"]
        self.__init__(metrics, **options)  # type: ignore[misc]
        self._parts, self._schema = state["parts"], state["schema"]

    def __repr__(self) -> str:
        """The metrics and the queries policy."""
        return f"Accumulator({self.metrics!r}, queries={self._layout.queries!r})"
