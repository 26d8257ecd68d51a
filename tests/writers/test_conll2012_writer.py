"""The CoNLL-2012 writer: brackets of one span are written in the order of the document's rows, so
that entities opening on one span read back in their order, however many entities there are."""

from __future__ import annotations

from pathlib import Path

from corefeval.core.model import Corpus, make_document
from corefeval.readers import read
from corefeval.writers import render
from corefeval.writers.conll2012 import brackets


def test_entities_opening_on_one_span_are_written_in_their_order() -> None:
    assert brackets(3, [(0, 2, 2), (0, 2, 10), (1, 1, 10), (1, 1, 2)], [str(k) for k in range(11)]) == [
        "(2|(10",
        "(10)|(2)",
        "2)|10)",
    ]


def test_ten_entities_or_more_read_back_in_their_order(tmp_path: Path) -> None:
    """Entities 2 and 10 open on one span: read back, entity 2 is numbered first (by text, ``(10``
    would be written first and read first)."""
    clusters = [[(20 + k, 20 + k)] for k in range(11)]
    clusters[2] = [(0, 2), (5, 5)]
    clusters[10] = [(0, 2), (7, 7)]
    text, notes = render(Corpus("k", [make_document("d", clusters, 40)]), "conll2012")
    assert notes == []
    path = tmp_path / "k.conll"
    path.write_text(text)
    assert read(str(path)).documents[0].clusters()[:2] == [[(0, 2), (5, 5)], [(0, 2), (7, 7)]]
