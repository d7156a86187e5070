"""Shared fixtures: hypothesis profiles and the doctest namespace."""

from __future__ import annotations

import os
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, settings

import polars_rankmetrics as prm

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace["pl"] = pl
    doctest_namespace["prm"] = prm
