"""One test module per metric family: ``tests/metrics/test_<family>.py`` for ``metrics/<family>.py``.

Each module holds its family's values (hand-computed from the definition, or a
plain reference written from it), its tie cases and its oracle cases; its
docstring says where the family's peer-library oracles live when they are per
peer (``tests/reference/``, ``tests/conformance/``). Frames and reference
implementations several families use are in ``tests/metrics/_helpers.py``;
the generated-data strategies in ``tests/strategies.py``. Every family's tie
policies are also checked against every order of the tied items by
``tests/property/test_ties.py``, by itself. Tests that cross
families (the engine, the entry points, errors, the CLI, IO, docs) stay in the
other folders. A package, so that these basenames may repeat elsewhere.
"""
