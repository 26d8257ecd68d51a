"""The anaphor-decomposable zero score: the worked example of docs/metrics.md, each outcome, the
word order of empty nodes, and the general anaphor filter."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from corefeval.matching.alignment import align
from corefeval.metrics import anaphors
from corefeval.readers import read

from ..corefud_generator import from_notation
from ..readers.corefud_peer import our_counts
from .test_mor import check_docs_example


def test_docs_example(tmp_path: Path) -> None:
    check_docs_example("The zero score", "zero", tmp_path)


def _files(tmp_path: Path, key: str, response: str) -> tuple[str, str]:
    ktext, rtext = from_notation(key, response)
    (tmp_path / "k.conllu").write_text(ktext)
    (tmp_path / "r.conllu").write_text(rtext)
    return str(tmp_path / "k.conllu"), str(tmp_path / "r.conllu")


def _outcomes(
    tmp_path: Path, key: str, response: str, accept: anaphors.AnaphorFilter = anaphors.zeros
) -> tuple[int, ...]:
    kpath, rpath = _files(tmp_path, key, response)
    kdoc, rdoc = read(kpath).documents[0], read(rpath).documents[0]
    return anaphors.outcomes(kdoc, rdoc, align(kdoc, rdoc), accept)


def test_each_outcome(tmp_path: Path) -> None:
    # (tp, fn, wl, fp)
    assert _outcomes(tmp_path, "{1 2.1}", "{1 2.1}") == (1, 0, 0, 0)
    assert _outcomes(tmp_path, "{1 2.1}", "{1} {2.1 3}") == (0, 1, 0, 0)  # counterpart first of its entity
    assert _outcomes(tmp_path, "{1 2.1}", "{1} {2 2.1}") == (0, 0, 1, 0)  # no earlier counterpart there
    assert _outcomes(tmp_path, "{1 2.1}", "{1} {3}") == (0, 1, 0, 0)  # no counterpart
    assert _outcomes(tmp_path, "{1} {3}", "{1 2.1}") == (0, 0, 0, 1)  # an invented zero anaphor
    assert _outcomes(tmp_path, "{2.1 3}", "{1 2.1}") == (0, 0, 0, 1)  # a key zero that is first


def test_an_empty_node_comes_right_after_its_word(tmp_path: Path) -> None:
    # 2.1 comes before word 3 and after word 2: the first mention of {3 2.1} is the zero
    assert _outcomes(tmp_path, "{3 2.1}", "{3 2.1}") == (0, 0, 0, 0)
    assert _outcomes(tmp_path, "{2 2.1}", "{2 2.1}") == (1, 0, 0, 0)
    # 0.1 comes before word 1 of its sentence
    assert _outcomes(tmp_path, "{1 0.1}", "{1 0.1}") == (0, 0, 0, 0)


def test_order_keys_place_empty_nodes_between_words(tmp_path: Path) -> None:
    kpath, _ = _files(tmp_path, "{0.1} {1} {2.1} {2.2} {3}", "{1}")
    doc = read(kpath).documents[0]
    first, last, count = anaphors.order_keys(doc)
    rows = sorted(range(doc.n_mentions), key=lambda r: first[r])
    assert [doc.mention_keys()[r] for r in rows] == [doc.mention_keys()[r] for r in range(doc.n_mentions)]
    assert count.tolist() == [1] * 5


def test_other_filters(tmp_path: Path) -> None:
    every = anaphors.predicate(lambda doc, row: True)
    assert _outcomes(tmp_path, "{1 2 4}", "{1 2} {3 4}", every) == (1, 0, 1, 0)
    kpath, _ = _files(tmp_path, "{1 2 4}", "{1}")
    doc = read(kpath).documents[0]
    fourth = anaphors.head_upos({3: "PRON"})  # word 4 is position 3
    assert fourth(doc).tolist() == [False, False, True]
    assert _outcomes(tmp_path, "{1 2 4}", "{1 2} {3 4}", fourth) == (0, 0, 1, 0)


def test_singletons_removed_first(tmp_path: Path) -> None:
    kpath, rpath = _files(tmp_path, "{1 2.1}", "{1} {2.1} {3 4.1}")
    assert our_counts(kpath, rpath, "exact", "keep", "include")["example"]["zero"] == [0.0, 1.0, 0.0, 1.0]
    assert our_counts(kpath, rpath, "exact", "remove", "include")["example"]["zero"] == [0.0, 1.0, 0.0, 1.0]
    # {1} and {2.1} are gone with --singletons remove: the key zero has no counterpart either way


def test_no_zeros_no_counts() -> None:
    z = np.zeros(0, dtype=np.int64)
    from corefeval.core.model import Document

    doc = Document("d", z, z, z, (), 0, heads=z)
    assert anaphors.counts(doc, doc, align(doc, doc)) == (0.0, 0.0, 0.0, 0.0)
