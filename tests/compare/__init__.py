"""Tests of polars_rankmetrics.compare: oracles, properties, errors, tables, plots, the command."""
