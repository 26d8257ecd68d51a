"""Head matching of many documents at once equals matching them one by one, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.model import Corpus, Document
from corefeval.core.options import Options
from corefeval.metrics import build
from corefeval.readers.corefud import NO_HEAD, CorefUDDocument
from corefeval.scoring.batch import alignment_rows
from corefeval.scoring.batch.heads import HeadMatching
from corefeval.scoring.pipeline import preparation

NAMES = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
OBJECTS = [build(n, "reference") for n in NAMES]
WIDTH = sum(len(m.fields) for m in OBJECTS)
#: A mention: start, length - 1, where its head is (an offset in it; -1: none given; 9: past it), entity.
Row = tuple[int, int, int, int]

rows_of = st.lists(
    st.tuples(st.integers(0, 7), st.integers(0, 2), st.sampled_from([0, 0, 0, 1, 2, -1, 9]), st.integers(0, 4)),
    max_size=9,
)


def document(rows: list[Row], copies: bool = False) -> Document:
    """A CorefUD document of ``rows`` (entity ids as drawn: not always in order of first mention);
    ``copies``: its first mention has a copy with another head."""
    heads = [NO_HEAD if h < 0 else s + min(h, n) if h < 9 else s + n + 1 for s, n, h, _ in rows]
    return CorefUDDocument(
        "d",
        np.asarray([s for s, _, _, _ in rows], dtype=np.int64),
        np.asarray([s + n for s, n, _, _ in rows], dtype=np.int64),
        np.asarray([k for _, _, _, k in rows], dtype=np.int64),
        tuple(f"e{k}" for k in range(max((k for *_, k in rows), default=-1) + 1)),
        12,
        heads=np.asarray(heads, dtype=np.int64),
        head_copies={0: ((rows[0][0] + 1, 1),)} if copies and rows else {},
    )


def head_matching(singletons: str) -> HeadMatching:
    corpus = Corpus("k", [], "corefud")
    prepare = preparation(Options(match="head", singletons=singletons, zeros="dependent"), corpus, corpus)
    assert isinstance(prepare, HeadMatching)
    return prepare


def one_by_one(prepare: HeadMatching, pairs: list[tuple[Document, Document]]) -> np.ndarray:
    aligned = [prepare(k, r) for k, r in pairs]
    return alignment_rows(OBJECTS, [a for a, _, _ in aligned], [(k, r) for _, k, r in aligned])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(rows_of, rows_of, st.booleans()), min_size=1, max_size=6), st.sampled_from(["keep", "remove"])
)
def test_many_documents_at_once_equal_one_by_one(
    drawn: list[tuple[list[Row], list[Row], bool]], singletons: str
) -> None:
    pairs = [(document(k), document(r, copies)) for k, r, copies in drawn]
    prepare = head_matching(singletons)
    rows, alone = prepare.rows(pairs, OBJECTS, WIDTH)
    expected = one_by_one(prepare, [p for p, lone in zip(pairs, alone.tolist()) if not lone])
    assert np.array_equal(rows[~alone], expected)
    assert not rows[alone].any()


PLAIN = [(0, 1, 0, 0), (4, 0, 0, 0), (6, 2, 1, 1), (7, 0, 0, 1)]
MOVED = [(0, 1, 0, 0), (3, 1, 1, 0), (6, 1, 1, 1), (7, 0, 0, 1)]  # (3, 4) and (6, 7) move, same heads


@pytest.mark.parametrize(
    "key,response,copies,batched",
    [
        (PLAIN, MOVED, False, True),
        (PLAIN, [], False, True),  # nothing in the response
        (PLAIN, [*MOVED, (9, 1, 0, 2), (10, 1, 1, 2)], False, True),  # an entity of mentions without candidates
        (PLAIN, [*MOVED, (4, 1, 0, 2), (4, 2, 0, 2)], False, False),  # two response mentions want key (4, 4)
        (PLAIN, [*MOVED, (0, 1, 0, 1)], False, False),  # a span in two entities: a repeat
        (PLAIN, [*MOVED[:3], (7, 0, -1, 1)], False, False),  # a mention without a head
        (PLAIN, MOVED, True, False),  # a copy of a mention with another head
    ],
)
def test_which_documents_are_matched_at_once(key: list[Row], response: list[Row], copies: bool, batched: bool) -> None:
    pairs = [(document(key), document(response, copies)), (document(PLAIN), document(PLAIN))]
    prepare = head_matching("remove")
    rows, alone = prepare.rows(pairs, OBJECTS, WIDTH)
    assert alone.tolist() == [not batched, False]
    assert np.array_equal(rows[~alone], one_by_one(prepare, [p for p, lone in zip(pairs, alone) if not lone]))


def test_a_document_without_heads_is_left_to_the_one_by_one_path() -> None:
    plain = document(PLAIN)
    headless = Document("d", plain.starts, plain.ends, plain.entities, plain.labels, 12)
    _, alone = head_matching("keep").rows([(headless, plain), (plain, plain)], OBJECTS, WIDTH)
    assert alone.tolist() == [True, False]


def test_entities_are_numbered_as_the_selection_numbers_them() -> None:
    """Without its singletons, the key numbers its entities in order of first mention, not as
    drawn: B-cubed's sums then add up in another order (a bit apart here)."""
    key = [(4, 2, 0, 2), (5, 1, 0, 2), (2, 0, 0, 0), (1, 1, 0, 4), (5, 0, 0, 1), (2, 2, 0, 1)]
    key += [(1, 2, 1, 4), (5, 1, 1, 2), (3, 2, 0, 0), (7, 0, 0, 2), (0, 1, 1, 4), (2, 2, 1, 3)]
    response = [(3, 2, 0, 4), (6, 1, 1, 4), (6, 2, 0, 0), (4, 0, 0, 0), (1, 1, 0, 4), (2, 0, 0, 0), (4, 2, 0, 1)]
    pairs = [(document(key), document(response))]
    prepare = head_matching("remove")
    rows, alone = prepare.rows(pairs, OBJECTS, WIDTH)
    assert not alone.any()
    assert np.array_equal(rows, one_by_one(prepare, pairs))
