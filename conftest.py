"""Doctest namespace for the package's docstrings (pytest collects polars_rankmetrics/)."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

import polars_rankmetrics as prm


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace["pl"] = pl
    doctest_namespace["prm"] = prm
