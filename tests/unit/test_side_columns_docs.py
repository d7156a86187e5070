"""The side frames' roles and default names are written once: in the docs, and as code.

The guide's "Side frames" section (docs/guides/conventions.md) holds the default names of every
role (``_side.ROLE_NAMES``) and the roles each side input reads (``_side.SIDE_ROLES``); each
constructor's ``columns`` entry names only the roles of its own side frames, exactly those the code
reads, and links the section. A propensity, count or weight frame reads the same vocabulary.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import polars as pl
import pytest

import polars_rankmetrics as prm
from polars_rankmetrics.metrics import FAMILIES
from polars_rankmetrics.metrics._side import ROLE_KEYS, ROLE_NAMES, SIDE_ROLES, role_key

CONVENTIONS = Path(__file__).resolve().parents[2] / "docs" / "guides" / "conventions.md"
HEADING = "## Side frames { #side-frames }"
LINK = "[default names][side-frames]"

# Every constructor that takes `columns=` for its side frames, and the side frames it reads (a
# constructor may build several specs: their side frames together).
SIDE_FAMILIES: dict[str, tuple[str, ...]] = {}
for _module in FAMILIES:
    for _spec in _module.SPECS:
        if any(p.name == "columns" and p.kind == "side" for p in _spec.params):
            _frames = [p.name for p in _spec.params if p.kind == "side" and p.name in SIDE_ROLES]
            _known = SIDE_FAMILIES.get(_spec.python_name, ())
            SIDE_FAMILIES[_spec.python_name] = (*_known, *(f for f in _frames if f not in _known))


def _entry(name: str, parameter: str) -> str:
    """The body of `parameter`'s entry in the Parameters of ``prm.<name>``, following "As :func:`x`'s"."""
    doc = inspect.getdoc(getattr(prm, name))
    assert doc is not None, name
    section = doc.split("Parameters\n----------\n", 1)[1].split("\nReturns\n-------\n", 1)[0]
    entries = re.split(r"\n(?=\S)", section)
    for entry in entries:
        header, _, body = entry.partition("\n")
        if parameter in [h.strip() for h in header.split(",")]:
            body = " ".join(body.split())
            shared = re.fullmatch(r"As :func:`(\w+)`'s\.", body)
            return _entry(shared.group(1), parameter) if shared else body
    raise AssertionError(f"{name}'s docstring has no `{parameter}` entry")


def _named_roles(text: str) -> dict[str, set[str]]:
    """``{side frame: role keys}`` of a ``columns`` entry: "``a``, ``b`` and ``c`` of `frame`"."""
    found: dict[str, set[str]] = {}
    for roles, frame in re.findall(r"((?:``\w+``(?:,| and| or)? )+)of `(\w+)`", text):
        found[frame] = set(re.findall(r"``(\w+)``", roles))
    return found


def test_the_families_with_side_frames_are_found() -> None:
    assert len(SIDE_FAMILIES) >= 30
    assert all(SIDE_FAMILIES.values()), SIDE_FAMILIES  # every `columns=` reads some side frame
    assert SIDE_FAMILIES["aplt"] == ("interactions", "popularity", "head")
    assert SIDE_FAMILIES["ips_rbp"] == ("weights", "propensities")


@pytest.mark.parametrize("name", sorted(SIDE_FAMILIES))
def test_each_columns_entry_names_exactly_the_roles_its_side_frames_read(name: str) -> None:
    text = _entry(name, "columns")
    wanted = {frame: {role_key(frame, r) for r in SIDE_ROLES[frame]} for frame in SIDE_FAMILIES[name]}
    assert _named_roles(text) == wanted, text
    assert LINK in text  # the default names are in the guide, once
    for role, names in ROLE_NAMES.items():  # and not listed here again
        assert not any(f"``{n}``" in text for n in names[1:] if n not in ROLE_KEYS), (role, text)


def _table(after: str) -> list[tuple[str, str]]:
    """The first markdown table after `after` in the Side frames section: (first cell, second cell) rows."""
    section = CONVENTIONS.read_text(encoding="utf-8").split(HEADING, 1)[1].split("\n## ", 1)[0]
    rows = section.split(after, 1)[1].split("\n\n", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    return [tuple(cell.strip() for cell in row.strip("|").split("|"))[:2] for row in rows]  # type: ignore[misc]


def test_the_guide_lists_each_roles_default_names_as_the_code_reads_them() -> None:
    rows = _table("mapping over the keys below")
    seen = set()
    for keys_cell, names_cell in rows:
        keys = re.findall(r"`(\w+)`", keys_cell)
        roles = {ROLE_KEYS[k] for k in keys}
        assert len(roles) == 1, keys_cell
        role = roles.pop()
        assert set(keys) == {k for k, r in ROLE_KEYS.items() if r == role}, keys_cell
        assert tuple(re.findall(r"`(\w+)`", names_cell)) == ROLE_NAMES[role], role  # in order
        seen.add(role)
    assert seen == set(ROLE_NAMES)


def test_the_guide_lists_the_roles_each_side_input_reads() -> None:
    rows = _table("Each side input reads these roles")
    seen = set()
    for inputs_cell, roles_cell in rows:
        for frame in re.findall(r"`(\w+)=`", inputs_cell):
            keys = {k for k in re.findall(r"`(\w+)`", roles_cell) if k in ROLE_KEYS}
            if frame in ("propensities", "counts", "weights"):  # the value's role is the frame's own
                keys = {k for k in keys if ROLE_KEYS[k] in SIDE_ROLES[frame]}
            assert keys == {role_key(frame, r) for r in SIDE_ROLES[frame]}, frame
            seen.add(frame)
    assert seen == set(SIDE_ROLES)


RUN = pl.DataFrame({
    "query": ["q1", "q1", "q1", "q2", "q2"], "item": ["a", "b", "c", "a", "c"],
    "score": [0.9, 0.8, 0.1, 0.9, 0.5], "relevance": [1, 0, 1, 0, 1],
})  # fmt: skip
PER_QUERY = RUN.select("query", "item", weight=pl.Series([2.0, 9.0, 4.0, 1.5, 3.0]))


def _per_query(metric: prm.Metric) -> list[float]:
    return prm.evaluate(RUN, metric, per_query=True).sort("query").to_series(1).to_list()


@pytest.mark.parametrize(
    "renames",
    [
        {"query": "qid", "item": "label_id", "weight": "w"},
        {"query": "user", "item": "doc_id", "weight": "weights"},
        {"query": "user_id", "item": "docno", "weight": "share"},
    ],
)
def test_a_weight_frame_reads_every_default_name_of_its_roles(renames: dict[str, str]) -> None:
    # Per (query, item) weights: q2's `a` weighs 1.5, not q1's 2.0; read under any of the roles' names.
    expected = _per_query(prm.ips_ndcg(3, weights=PER_QUERY))
    per_item = PER_QUERY.filter(pl.col("query") == "q1").drop("query")
    assert _per_query(prm.ips_ndcg(3, weights=per_item)) != expected  # the query column matters
    renamed = PER_QUERY.rename(renames)
    renamed = renamed.select(reversed(renamed.columns))  # the order never matters
    assert _per_query(prm.ips_ndcg(3, weights=renamed)) == expected


def test_a_count_frame_reads_the_count_roles_names() -> None:
    counts = pl.DataFrame({"item": ["a", "b", "c"], "count": [40, 3, 2]})
    expected = prm.evaluate(RUN, prm.psp(2, counts=counts, n=100)).item()
    for name in ROLE_NAMES["count"]:
        assert prm.evaluate(RUN, prm.psp(2, counts=counts.rename({"count": name}), n=100)).item() == expected
