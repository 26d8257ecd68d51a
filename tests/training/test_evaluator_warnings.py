"""Repeated mentions given in memory are said, as a file's are: the ``Evaluator`` keeps the warnings
``score`` gives for the same clusters written as CoNLL-2012 (and gives them through Python's
warnings when it counts), and the plain functions of :mod:`corefeval.metrics` name the mention."""

from __future__ import annotations

from pathlib import Path

import pytest

import corefeval.metrics
from corefeval import Evaluator, score
from corefeval.core.diagnostics import CorefevalWarning
from corefeval.core.model import Corpus, make_document
from corefeval.writers import render

KEY = [[(1, 1), (1, 1), (2, 2)], [(1, 1), (4, 4)]]
RESPONSE = [[(1, 1), (2, 2), (1, 1)], [(5, 5), (6, 6), (5, 5)]]
CLEAN = ([[(1, 1), (2, 2)]], [[(1, 1), (2, 2)]])


def _messages(notes: list) -> list[str]:
    return [d.message for d in notes]


def test_the_evaluator_keeps_and_gives_the_warnings_of_the_same_clusters_written_as_a_file(tmp_path: Path) -> None:
    paths = []
    for side, clusters in (("key", KEY), ("response", RESPONSE)):
        text, notes = render(Corpus(side, [make_document("d0", clusters, 8)]), "conll2012")
        assert notes == []
        paths.append(tmp_path / f"{side}.conll")
        paths[-1].write_text(text)
    with pytest.warns(CorefevalWarning):
        from_files = score(str(paths[0]), str(paths[1]))
    ev = Evaluator("all")
    ev.update(KEY, RESPONSE, "d0")
    with pytest.warns(CorefevalWarning, match="document 'd0': key mention \\(1,1\\) is repeated"):
        result = ev.result()
    assert _messages(result.warnings) == _messages(from_files.warnings)
    assert len(result.warnings) == 2  # the key's copy, the response's ignored copy
    assert result.counts.tolist() == from_files.counts.tolist()


def test_warnings_follow_replaced_and_merged_documents() -> None:
    ev = Evaluator(["muc"])
    ev.update(KEY, RESPONSE, "d0")
    ev.update(*CLEAN, "d1")
    assert {d.message.split("'")[1] for d in ev.result().warnings} == {"d0"}
    ev.update(*CLEAN, "d0", replace=True)
    assert ev.result().warnings == []
    other = Evaluator(["muc"])
    other.update(KEY, RESPONSE, "d1")
    other.update(KEY, RESPONSE, "d2")
    merged = ev.merge(other, replace=True)
    assert sorted({d.message.split("'")[1] for d in merged.result().warnings}) == ["d1", "d2"]
    ev.reset()
    assert ev.result().warnings == []


def test_the_plain_functions_name_a_repeated_mention() -> None:
    with pytest.warns(CorefevalWarning) as caught:
        s = corefeval.metrics.muc([["a", "b"]], [["a", "b", "a"]])
    assert s.f1 == 1.0
    assert [str(w.message) for w in caught] == [
        "<clusters>: response mention 'a' repeats a mention that matched the key; this copy is ignored, "
        "as the reference scorer does (--repeats reference)"
    ]
    with pytest.warns(CorefevalWarning, match=r"key mention \(1, 1\) is repeated"):
        corefeval.metrics.bcub(KEY, RESPONSE)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        corefeval.metrics.conll(*CLEAN)  # nothing repeated: nothing said
