"""One table (a header and rows of cells) as aligned text, Markdown or LaTeX."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.diagnostics import plural, printable

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\u00b1": r"$\pm$",
    "\u0394": r"$\Delta$",
}


def latex_escape(text: str) -> str:
    """``text`` as LaTeX source: special characters escaped, control characters written out."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in printable(text))


def _split_indent(cell: str) -> tuple[int, str]:
    """A first-column cell's indentation (sub-rows start with spaces) and its text."""
    text = cell.lstrip(" ")
    return len(cell) - len(text), text


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the last one an ellipsis when something was cut."""
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns padded with two spaces; the first left-aligned, the others right-aligned. Control
    characters in cells (names come from files) are escaped."""
    table = [[printable(c) for c in header], *[[printable(c) for c in r] for r in rows]]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = []
    for r in table:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-flavoured Markdown table, numbers right-aligned."""

    def line(cells: Sequence[str]) -> str:
        indent, first = _split_indent(cells[0])
        cells = ["&emsp;" * (indent // 2) + first, *cells[1:]]
        cells = [printable(c) for c in cells]
        return "| " + " | ".join(c.replace("|", r"\|") for c in cells) + " |"

    rule = "|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|"
    return "\n".join([line(header), rule, *[line(r) for r in rows]]) + "\n"


def latex_table(header: Sequence[str], rows: Sequence[Sequence[str]], caption: str | None = None) -> str:
    """A ``tabular`` with booktabs rules (``\\usepackage{booktabs}``), cells escaped."""
    out = [
        r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
        r"\toprule",
        " & ".join(latex_escape(h) for h in header) + r" \\",
        r"\midrule",
    ]
    for r in rows:
        indent, first = _split_indent(r[0])
        cells = [r"\quad " * (indent // 2) + latex_escape(first), *(latex_escape(c) for c in r[1:])]
        out.append(" & ".join(cells) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        out.insert(0, f"% {caption}")
    return "\n".join(out) + "\n"


def render(fmt: str, header: Sequence[str], rows: Sequence[Sequence[str]], caption: str | None = None) -> str:
    """``fmt``: text, markdown or latex; a caption becomes a line before the table."""
    caption = printable(caption) if caption else None
    if fmt == "markdown":
        return (f"{caption}\n\n" if caption else "") + markdown_table(header, rows)
    if fmt == "latex":
        return latex_table(header, rows, caption)
    return (f"{caption}\n" if caption else "") + text_table(header, rows)


def documents(n: int) -> str:
    """``1 document``, ``206 documents``."""
    return plural(n, "document")
