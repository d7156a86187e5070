"""The bundled demo data: trec_eval's own test collection (NIST; see data/LICENSE.md)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from polars_rankmetrics.exceptions._parameters import check_choice

DEMO_FILES = ("qrels.test", "qrels.rel_level", "results.test", "results.trunc")


def demo_path(name: str) -> Path:
    """Return the path of a bundled trec_eval test file.

    Parameters
    ----------
    name
        One of ``qrels.test``, ``qrels.rel_level``, ``results.test``,
        ``results.trunc`` (trec_eval 10.0's ``test/`` folder).

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> prm.demo_path("qrels.test").name
    'qrels.test'
    """
    check_choice(name, "name", DEMO_FILES)
    return Path(str(resources.files("polars_rankmetrics") / "data" / name))
