"""Tests of polars_rankmetrics.fusion: ranx as the oracle, plans, errors, the command."""
