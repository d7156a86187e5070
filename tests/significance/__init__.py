"""Tests of polars_rankmetrics.significance: oracles, properties, errors, tables, plots, the command."""
