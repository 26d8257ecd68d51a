"""MOR: the worked example of docs/metrics.md, hand-made cases, and the grouped form against the
literal one-assignment definition."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import CountingError
from corefeval.core.model import Document, make_document
from corefeval.metrics import mor
from corefeval.readers.corefud import empty_position

from ..corefud_generator import from_notation
from ..readers.corefud_peer import our_counts

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "metrics.md").read_text(encoding="utf-8")


def _example(title: str) -> tuple[str, str, list[str]]:
    section = PAGE.split(f"## {title}", 1)[1].split("\n## ", 1)[0]
    block = re.search(
        r"```text\nkey: +(.*)\nresponse: +(.*)\n```\n\n\| measure .*\n.*\n\| [^|]+ \| (.*) \| (.*) \|", section
    )
    assert block is not None
    return block.group(1), block.group(2), [block.group(3), block.group(4)]


def _fraction(cell: str) -> tuple[int, int, str]:
    fraction, percent = cell.split(" = ")
    num, den = (int(x) for x in fraction.split(" / "))
    return num, den, percent


def check_docs_example(title: str, metric: str, tmp_path: Path) -> None:
    key, response, cells = _example(title)
    ktext, rtext = from_notation(key, response)
    (tmp_path / "k.conllu").write_text(ktext)
    (tmp_path / "r.conllu").write_text(rtext)
    counts = our_counts(str(tmp_path / "k.conllu"), str(tmp_path / "r.conllu"), "exact", "keep", "include")
    rn, rd, pn, pd = counts["example"][metric]
    for (num, den, percent), (n, d) in zip(map(_fraction, cells), ((rn, rd), (pn, pd)), strict=True):
        assert (num, den) == (n, d)
        assert f"{100 * float(Fraction(num, den)):.2f}" == percent


def test_docs_example(tmp_path: Path) -> None:
    check_docs_example("MOR, the mention overlap ratio", "mor", tmp_path)


def test_the_best_pair_wins_in_a_group() -> None:
    key = make_document("d", [[(0, 2), (5, 5)], [(7, 8)]])
    response = make_document("d", [[(1, 2), (5, 6)], [(0, 0), (8, 8)]])
    assert mor.counts(key, response) == (4.0, 6.0, 4.0, 6.0)
    assert mor.literal_counts(key, response) == (4.0, 6.0, 4.0, 6.0)


def test_repeats_count_once_per_entity_and_once_per_entity_they_are_in() -> None:
    key = make_document("d", [[(0, 1), (0, 1)], [(0, 1)]])
    response = make_document("d", [[(0, 1)]])
    assert mor.counts(key, response) == (2.0, 4.0, 2.0, 2.0)


def test_empty_sides() -> None:
    key = make_document("d", [[(0, 1), (3, 3)]])
    empty = make_document("d", [])
    assert mor.counts(key, empty) == (0.0, 3.0, 0.0, 0.0)
    assert mor.counts(empty, key) == (0.0, 0.0, 0.0, 3.0)
    assert mor.counts(empty, empty) == (0.0, 0.0, 0.0, 0.0)


def _zero(word: int, k: int = 1) -> int:
    return empty_position(0, word, k)


def test_zeros_are_words_and_join_groups_by_their_nodes() -> None:
    # key: {w0 w1 + zero 1.1}, {zero 3.1}; response: {zero 1.1}, {zero 3.1 + w4}
    key = _with_parts([(0, 1, (0, 1, _zero(1))), (1, 1, (_zero(3),))], [0, 1])
    response = _with_parts([(1, 1, (_zero(1),)), (4, 4, (_zero(3), 4))], [0, 1])
    assert mor.literal_counts(key, response) == (2.0, 4.0, 2.0, 3.0)
    assert mor.counts(key, response) == (2.0, 4.0, 2.0, 3.0)


def _with_parts(rows: list[tuple[int, int, tuple[int, ...] | None]], entities: list[int]) -> Document:
    parts = {i: p for i, (_, _, p) in enumerate(rows) if p is not None}
    return Document(
        "d",
        np.array([s for s, _, _ in rows], dtype=np.int64),
        np.array([e for _, e, _ in rows], dtype=np.int64),
        np.array(entities, dtype=np.int64),
        tuple(str(e) for e in sorted(set(entities))),
        20,
        parts=parts,
    )


@st.composite
def documents(draw: st.DrawFn) -> Document:
    rows: list[tuple[int, int, tuple[int, ...] | None]] = []
    for _ in range(draw(st.integers(0, 9))):
        kind = draw(st.sampled_from(["span", "span", "gappy", "zero", "mixed"]))
        a = draw(st.integers(0, 12))
        if kind == "span":
            rows.append((a, a + draw(st.integers(0, 3)), None))
        elif kind == "gappy":
            b = a + draw(st.integers(2, 4))
            rows.append((a, b, (a, b)))
        elif kind == "zero":
            rows.append((a, a, (_zero(a, draw(st.integers(1, 2))),)))
        else:
            rows.append((a, a + 1, (a, _zero(a, draw(st.integers(1, 2))), a + 1)))
    entities = [draw(st.integers(0, 3)) for _ in rows]
    return _with_parts(rows, entities)


@settings(max_examples=300, deadline=None)
@given(documents(), documents())
def test_grouped_counts_are_the_literal_definition(key: Document, response: Document) -> None:
    assert mor.counts(key, response) == mor.literal_counts(key, response)


def test_the_matching_mode_does_not_change_mor() -> None:
    data = Path(__file__).resolve().parent.parent / "data" / "corefud_peer"
    key, response = str(data / "key1.conllu"), str(data / "response1.conllu")
    by_mode = [
        {d: c["mor"] for d, c in our_counts(key, response, m, "keep", "include").items()}
        for m in ("exact", "partial", "head")
    ]
    assert by_mode[0] == by_mode[1] == by_mode[2]


@st.composite
def span_documents(draw: st.DrawFn) -> Document:
    spans = [(a, a + draw(st.integers(0, 4))) for a in draw(st.lists(st.integers(0, 15), max_size=10))]
    return make_document("d", [[s] for s in spans] if draw(st.booleans()) else [spans])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(span_documents(), span_documents()), min_size=1, max_size=4))
def test_documents_stacked_are_each_their_literal_definition(pairs: list[tuple[Document, Document]]) -> None:
    rows = mor.plain_counts([k for k, _ in pairs], [r for _, r in pairs])
    assert [tuple(row) for row in rows.tolist()] == [mor.literal_counts(k, r) for k, r in pairs]


def test_crowded_groups_of_every_shape() -> None:
    """Dense documents (every group with several mentions on both sides, up to 6 x 6), stacked."""
    rng = np.random.default_rng(5)
    pairs = []
    for _ in range(400):
        sides = []
        for _ in range(2):
            starts = rng.integers(0, 6, size=rng.integers(1, 7))
            spans = [(int(a), int(a + rng.integers(0, 4))) for a in starts]
            sides.append(make_document("d", [[s] for s in spans]))
        pairs.append((sides[0], sides[1]))
    rows = mor.plain_counts([k for k, _ in pairs], [r for _, r in pairs])
    assert [tuple(row) for row in rows.tolist()] == [mor.literal_counts(k, r) for k, r in pairs]


@st.composite
def crowded_span_documents(draw: st.DrawFn) -> Document:
    """Few short spans, many copies of each in a few entities: equal spans on both sides abound."""
    spans = [(a, a + draw(st.integers(0, 1))) for a in draw(st.lists(st.integers(0, 4), max_size=12))]
    entities = [draw(st.integers(0, 2)) for _ in spans]
    return make_document("d", [[s for s, e in zip(spans, entities) if e == k] for k in range(3)])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(crowded_span_documents(), crowded_span_documents()), min_size=1, max_size=3))
def test_equal_spans_paired_first_keep_the_literal_definition(pairs: list[tuple[Document, Document]]) -> None:
    rows = mor.plain_counts([k for k, _ in pairs], [r for _, r in pairs])
    assert [tuple(row) for row in rows.tolist()] == [mor.literal_counts(k, r) for k, r in pairs]
    assert [mor.counts(k, r) for k, r in pairs] == [mor.literal_counts(k, r) for k, r in pairs]


def _copies(span: tuple[int, int], n: int) -> Document:
    return make_document("d", [[span]] * n)


def test_one_span_in_twenty_thousand_entities_on_both_sides_is_one_pass() -> None:
    """Every copy pairs with an equal one: no assignment is built (a dense table would be 20k x 20k)."""
    n = 20_000
    rows = mor.plain_counts([_copies((0, 0), n)], [_copies((0, 0), n)])
    assert rows.tolist() == [[n, n, n, n]]
    zero = _zero(0)
    key = _with_parts([(0, 0, (zero,))] * n, list(range(n)))
    assert mor.counts(key, key) == (n, n, n, n)


def test_copies_left_over_on_one_side_are_solved_with_the_rest() -> None:
    key = make_document("d", [[(0, 0)], [(0, 0)], [(0, 0)], [(0, 1)]])
    response = make_document("d", [[(0, 0)], [(0, 1)], [(0, 1)], [(1, 1)]])
    assert mor.plain_counts([key], [response]).tolist() == [list(mor.literal_counts(key, response))]
    assert mor.literal_counts(key, response) == (4.0, 5.0, 4.0, 6.0)  # 1 + 2 + 1: (1, 1) is left out


def test_a_group_too_large_to_solve_is_refused_naming_the_document() -> None:
    n = mor.MAX_GROUP_CELLS // 1000 + 1
    key, response = _copies((0, 0), 1000), _copies((0, 1), n)
    with pytest.raises(CountingError, match=r"document 'd': MOR would solve an assignment of 1000 key x"):
        mor.plain_counts([key], [response])
    zero = _zero(0)
    gappy = _with_parts([(0, 1, (0, zero))] * n, list(range(n)))
    with pytest.raises(CountingError, match="1000 key x"):
        mor.counts(_with_parts([(0, 0, (zero,))] * 1000, list(range(1000))), gappy)


def test_a_group_too_large_is_one_line_on_the_command_line(tmp_path: Path) -> None:
    n = 4001  # 4001 x 4001 copies of two different spans over the same two words
    key = tmp_path / "key.conll"
    response = tmp_path / "response.conll"
    opened = "|".join(f"({i}" for i in range(n))
    closed = "|".join(f"{i})" for i in range(n))
    single = "|".join(f"({i})" for i in range(n))
    head = "#begin document (d); part 000\n"
    key.write_text(f"{head}d 0 0 a {single}\nd 0 1 b -\n\n#end document\n", encoding="utf-8")
    response.write_text(f"{head}d 0 0 a {opened}\nd 0 1 b {closed}\n\n#end document\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "corefeval", "score", str(key), str(response), "-m", "mor"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"{key}:1: error: document '(d); part 000': MOR would solve"), done.stderr
