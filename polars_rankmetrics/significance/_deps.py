"""The optional dependencies of significance/ (compare, table, summarize...), imported when first needed."""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, feature: str, extra: str = "significance") -> ModuleType:
    """Import `module`, or raise ModuleNotFoundError naming the extra that installs it.

    Parameters
    ----------
    module
        The module to import (``"scipy.stats"``, ``"great_tables"``).
    feature
        What needs it, for the message (``"prm.compare(test='t')"``).
    extra
        The extra that installs it: ``"significance"`` (numpy, scipy,
        great_tables) or ``"plot"`` (altair, vl-convert-python).

    Returns
    -------
    types.ModuleType

    Raises
    ------
    ModuleNotFoundError
        The module is not installed; an ``ImportError``, so that ``except
        ImportError`` catches it too.
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.partition(".")[0]
        msg = f'{feature} needs {top}, an optional dependency: pip install "polars-rankmetrics[{extra}]"'
        raise ModuleNotFoundError(msg, name=top) from None
