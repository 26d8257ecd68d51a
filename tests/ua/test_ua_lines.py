"""The UA reader's plain word lines, counted in runs (:mod:`corefeval.readers.ua_lines`), read as
reading every line reads them: the same documents, words, sentences, zeros and warnings, or the
same located error, whatever the file's layout."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.diagnostics import InputError
from corefeval.readers import ua
from corefeval.readers.ua import read_ua_documents
from corefeval.readers.ua_lines import scan_lines

from .generator import pair

#: Pieces that change a line's layout and words, not its markup: every kind of whitespace that
#: ``str.split`` splits on (a tab more: an empty cell), a zero's id, words of every UTF-8 length.
LAYOUT = ["\t", " ", "\r", "\x0b", "\x1c", "\u0085", "\u00a0", "\u1680", "\u2003", "\u2028", "\u202f", "\u3000"]
LAYOUT += [".1", "\u00e9", "\u2019", "\u20ac", "\U0001f600"]
#: Any piece: layout, line ends, comments, markup.
PIECES = LAYOUT + [
    "\t\t",
    "\n",
    "\n\n",
    "#",
    "\n# newdoc id = x\n",
    "\n# global.columns = ID FORM IDENTITY\n",
    ".",
    ".1",
    "_",
    "(EntityID=9|MarkableID=z9)",
    ")",
]


def _every_line(text: str) -> object:
    """``read_ua_documents`` reading every line one by one (no plain lines counted in runs)."""
    scan = ua._scan
    ua._scan = lambda text, lines: None  # type: ignore[assignment]
    try:
        return _read(text)
    finally:
        ua._scan = scan  # type: ignore[assignment]


def _read(text: str) -> object:
    """What the reader gives: the documents with their word fingerprints, or the error's line."""
    try:
        layers = read_ua_documents("x", text)
    except InputError as err:
        return str(err)
    forms = [None if d.forms is None else d.forms.tolist() for d in layers.documents]
    return layers.documents, forms, layers.sentences, layers.zero_lines, layers.warnings


def _edited(text: str, edits: list[tuple[float, int, bool, str]]) -> str:
    """``text`` with each piece put at the start or end of cell ``j`` of a line (a plain word line,
    by a fraction of them, when any is left; the cells are tab-separated)."""
    lines = text.split("\n")
    for line_at, j, at_end, piece in edits:
        plain = [i for i, line in enumerate(lines) if line.endswith("\t_\t_\t_") and not line.startswith("#")]
        i = plain[int(line_at * (len(plain) - 1))] if plain else int(line_at * (len(lines) - 1))
        cells = lines[i].split("\t")
        j = min(j, len(cells) - 1)
        cells[j] = cells[j] + piece if at_end else piece + cells[j]
        lines[i] = "\t".join(cells)
    return "\n".join(lines)


_EDITS = st.tuples(st.floats(0, 1), st.sampled_from([0, 1, 2, 9, 10, 11, 12]), st.booleans())


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.tuples(_EDITS, st.sampled_from(LAYOUT)), max_size=4), st.booleans())
def test_lines_of_any_layout_read_as_every_line(
    seed: int, edits: list[tuple[tuple[float, int, bool], str]], header: bool
) -> None:
    key, _ = pair(seed, 2)
    if not header:
        key = key.split("\n", 1)[1]  # the default columns
    text = _edited(key, [(*at, piece) for at, piece in edits])
    assert _read(text) == _every_line(text)


@pytest.mark.parametrize("piece", LAYOUT)
@pytest.mark.parametrize("cell", [0, 1, 10])
def test_each_layout_piece_in_a_plain_line_reads_as_every_line(piece: str, cell: int) -> None:
    """Each piece at either end of the id, the word or the first layer cell of a plain word line."""
    key, _ = pair(3, 2)
    for at_end in (False, True):
        text = _edited(key, [(0.5, cell, at_end, piece)])
        assert _read(text) == _every_line(text)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.tuples(_EDITS, st.sampled_from(PIECES)), max_size=6))
def test_mutated_files_read_as_every_line(seed: int, edits: list[tuple[tuple[float, int, bool], str]]) -> None:
    """Any piece anywhere: the same documents, or the same located error."""
    key, _ = pair(seed, 2)
    text = _edited(key, [(*at, piece) for at, piece in edits])
    assert _read(text) == _every_line(text)


def test_most_word_lines_of_a_generated_file_are_counted_in_runs() -> None:
    """The scan leaves comments it skips and plain word lines out of the lines read one by one."""
    key, _ = pair(1, 20)
    lines = key.split("\n")
    scan = scan_lines(key, lines, 12, [10, 11, 12])
    assert scan is not None
    words = [line for line in lines if line and not line.startswith("#")]
    marked = [w for w in words if w.split("\t")[10:] != ["_", "_", "_"]]
    skipped = [line for line in lines if line.startswith("# sent_id")]
    assert len(scan.plain) == len(words) - len(marked) > 0 and skipped
    assert len(scan.events) == len(lines) - len(scan.plain) - len(skipped)
    assert scan.regular  # its documents are put together from the scan, without reading line by line


@pytest.mark.parametrize("code", [c for c in range(sys.maxunicode + 1) if chr(c).isspace() and c not in (9, 10)])
def test_every_other_whitespace_makes_its_line_read_one_by_one(code: int) -> None:
    """A word line holding whitespace ``str.split`` splits on (other than tab) is read one by one."""
    line = "\t".join(["1", f"a{chr(code)}b", *["_"] * 11])
    text = f"# newdoc id = d\n{line}\n"
    scan = scan_lines(text, text.split("\n"), 12, [10, 11, 12])
    assert scan is not None and scan.plain.size == 0 and 1 in scan.events
    assert np.array_equal(read_ua_documents("x", text).documents[0].forms, _every_line(text)[1][0])  # type: ignore[index]
