"""prm.table (great_tables) and prm.table_markdown: bold best means, significance letters, the footnote."""

from __future__ import annotations

import re

import polars as pl
import pytest

import polars_rankmetrics as prm
from significance.compare_data import frame

# Baseline "a" and two systems: "b" well above "a"; "c" well below "a" on m. 12 queries. Means, by hand:
# a is the mean of 0..5 over 8, so 0.3125; b is a plus 0.125 plus half of 1/64, so 0.4453125;
# c is a minus 0.25 minus 1/64, so 0.046875.
N = 12
A = [(i % 6) / 8 for i in range(N)]
B = [v + 0.125 + (i % 2) / 64 for i, v in enumerate(A)]
C = [v - 0.25 - (i % 3) / 64 for i, v in enumerate(A)]


def _comparison(**kwargs: object) -> pl.DataFrame:
    return prm.compare(frame({"a": A, "b": B, "c": C}), by="system", **kwargs)  # type: ignore[arg-type]


def _cells(markdown: str) -> dict[str, list[str]]:
    """The Markdown table's body: row label -> cells."""
    rows = [line.strip("|").split("|") for line in markdown.splitlines() if line.startswith("| ")]
    return {cells[0].strip(): [c.strip() for c in cells[1:]] for cells in rows[1:]}


def test_markdown_bold_best_and_letters_of_the_systems_beaten() -> None:
    """B beats a and c, a beats c: the letters say so, whichever side of the comparison won."""
    text = prm.table_markdown(_comparison())  # every pair: (b, a), (c, a), (c, b)
    assert _cells(text) == {
        "a (a)": ["0.3125<sup>c</sup>"],  # c - a < 0 and significant: a is higher than c
        "b (b)": ["**0.4453**<sup>ac</sup>"],
        "c (c)": ["0.0469"],
    }
    assert text.splitlines()[0].split("|")[1].strip() == "system"


def test_markdown_against_a_baseline_only_marks_those_comparisons() -> None:
    """With a baseline, b and c are not compared with each other: no letter between them."""
    text = prm.table_markdown(_comparison(baseline="a"))
    assert _cells(text) == {
        "a (a)": ["0.3125<sup>c</sup>"],
        "b (b)": ["**0.4453**<sup>a</sup>"],
        "c (c)": ["0.0469"],
    }


def test_no_significant_difference_means_no_letters() -> None:
    """Tiny differences on few queries: no superscript; the best is still bold; ties are all bold."""
    df = frame({"a": [0.5, 0.25, 0.75], "b": [0.5, 0.5, 0.5], "c": [0.25, 0.25, 0.5]})
    assert _cells(prm.table_markdown(prm.compare(df, by="system"))) == {
        "a (a)": ["**0.5000**"],
        "b (b)": ["**0.5000**"],
        "c (c)": ["0.3333"],
    }


@pytest.mark.parametrize(
    ("kwargs", "how"),
    [
        (
            {},
            "paired t test, Holm correction over each metric's 3 comparison(s); alpha = 0.05; 12 paired",
        ),
        (
            {"test": "wilcoxon", "correction": "bh", "alpha": 0.1, "baseline": "a"},
            "Wilcoxon signed-rank test, Benjamini-Hochberg correction over each metric's 2 comparison(s)",
        ),
        (
            {"test": "randomization", "correction": None, "seed": 0, "n_resamples": 100},
            "paired randomization (sign-flip) test, no correction over each metric's 3 comparison(s)",
        ),
        (
            {"test": "tukey", "seed": 0, "n_resamples": 100},
            "randomised Tukey HSD test, which controls the family-wise error over all pairs; alpha = 0.05",
        ),
    ],
)
def test_the_footnote_says_test_correction_and_alpha(kwargs: dict[str, object], how: str) -> None:
    """The footnote explains bold and letters and names the test, the correction and alpha."""
    text = prm.table_markdown(_comparison(**kwargs))
    footnote = " ".join(text.split("\n\n", 1)[1].split())
    assert footnote.startswith("Bold: the best mean of each metric. A superscript letter marks a mean")
    assert how in footnote


def test_decimals() -> None:
    """Decimals sets the digits of every mean."""
    assert _cells(prm.table_markdown(_comparison(), decimals=2))["c (c)"] == ["0.05"]  # 0.046875


def test_great_tables_html_and_latex() -> None:
    """table() is a great_tables GT; its HTML and LaTeX carry the same bold, superscripts and footnote."""
    from great_tables import GT  # noqa: PLC0415

    gt = prm.table(_comparison())
    assert isinstance(gt, GT)
    html = gt.as_raw_html()
    cells = re.findall(r'<td headers="stub-\d m" class="gt_row gt_right">(.*?)</td>', html, re.DOTALL)
    assert cells[1].startswith("<strong>0.4453</strong>")
    assert re.search(r"<sup[^>]*>ac</sup>", cells[1])
    assert "Holm correction" in html
    latex = gt.as_latex()
    assert r"b (b) & \textbf{0.4453}\textsuperscript{ac} \\" in latex
    assert r"c (c) & 0.0469 \\" in latex
    assert "paired t test" in latex


def test_several_metrics_are_columns_in_the_order_compared() -> None:
    """One column per metric, in compare's order, each with its own best."""
    df = frame({"a": A, "b": B}).with_columns((1 - pl.col("m")).alias("err"))
    text = prm.table_markdown(prm.compare(df, by="system", metrics=["err", "m"]))
    header = [c.strip() for c in text.splitlines()[0].strip("|").split("|")]
    assert header == ["system", "err", "m"]
    assert _cells(text)["a (a)"][0].startswith("**")  # a is best on err (1 - m)


@pytest.mark.parametrize("render", [prm.table_markdown, prm.table])
def test_not_a_comparison_is_refused(render: object) -> None:
    """A frame that is not compare's output, mixed settings, an empty frame or bad decimals: clear errors."""
    comparison = _comparison()
    with pytest.raises(prm.ColumnNotFoundError, match=r"must be the frame prm\.compare returns"):
        render(comparison.drop("p_adjusted"))  # type: ignore[operator]
    mixed = pl.concat([comparison, _comparison(alpha=0.1)])
    with pytest.raises(prm.InvalidDataError, match="mixes tests, corrections, alphas"):
        render(mixed)  # type: ignore[operator]
    with pytest.raises(prm.InvalidDataError, match="empty"):
        render(comparison.clear())  # type: ignore[operator]
    with pytest.raises(
        prm.InvalidParameterError, match=r"`decimals` must be an integer in \[0, 15\], got -1"
    ):
        render(comparison, decimals=-1)  # type: ignore[operator]
    with pytest.raises(prm.InvalidParameterError, match="got LazyFrame"):
        render(comparison.lazy())  # type: ignore[operator]
