"""Table rendering: alignment, Markdown pipes and indentation, LaTeX escaping."""

from __future__ import annotations

from corefeval.report.grid import latex_escape, render

HEADER = ["system", "F1"]
ROWS = [["a_b (baseline)", "50.00 ± 1.00"], ["  p test", "0.0100"], ["x|y", "1"]]


def test_text_alignment():
    lines = render("text", HEADER, ROWS, "caption").splitlines()
    assert lines[0] == "caption"
    assert lines[1] == "system                    F1"
    assert lines[3] == "  p test              0.0100"


def test_markdown_pipes_and_indent():
    lines = render("markdown", HEADER, ROWS).splitlines()
    assert lines[:2] == ["| system | F1 |", "|:---|---:|"]
    assert lines[3] == "| &emsp;p test | 0.0100 |"
    assert lines[4] == r"| x\|y | 1 |"


def test_latex_escapes_and_indent():
    out = render("latex", HEADER, ROWS, "50% of it")
    assert out.startswith("% 50% of it\n\\begin{tabular}{lr}")
    assert r"a\_b (baseline) & 50.00 $\pm$ 1.00 \\" in out
    assert r"\quad p test & 0.0100 \\" in out
    assert latex_escape("Δ 5% & #1 ~{x}") == r"$\Delta$ 5\% \& \#1 \textasciitilde{}\{x\}"
