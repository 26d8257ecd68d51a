"""Seq2seqCoref's ``{split}-predicts.txt``: one object per segment, as its ``trainer.py`` writes it
(``doc_key`` with the segment number, ``pred_text`` markup, ``predict_clusters`` word offsets)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.readers import read
from corefeval.readers.seq2seq import _uncrossed
from corefeval.scoring.pipeline import score

CONLL = """#begin document (bc/x); part 000
bc/x 0 0 John - - - - - (0)
bc/x 0 1 saw - - - - - -
bc/x 0 2 his - - - - - (0)
bc/x 0 3 big - - - - - (1
bc/x 0 4 dog - - - - - 1)
bc/x 0 5 . - - - - - -

bc/x 0 0 It - - - - - (1)
bc/x 0 1 barked - - - - - -
#end document
"""


def segment(doc_key: str, clusters: list[list[list[int]]], text: str = "") -> dict[str, object]:
    """A line as ``my_compute_metrics`` writes it for a full_seq run."""
    return {
        "doc_key": doc_key,
        "pred_tokens": ["▁<m>", "▁John", "▁|", "▁1", "▁</m>"],
        "pred_text": text or "<m> John | 1 </m> saw ...",
        "predict_clusters": clusters,
        "gold_clusters": [],
        "predict_token_mentions": [],
    }


def write(tmp_path: Path, records: list[dict[str, object]], name: str = "test-predicts.txt") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


@pytest.fixture
def key(tmp_path: Path) -> str:
    path = tmp_path / "key.conll"
    path.write_text(CONLL)
    return str(path)


def test_one_segment_scores_like_the_key(tmp_path: Path, key: str) -> None:
    path = write(tmp_path, [segment("bc/x_0_0", [[[0, 0], [2, 2]], [[3, 4], [6, 6]]])])
    corpus = read(path)
    assert corpus.format == "seq2seq"
    assert corpus.documents[0].name == "bc/x_0"
    assert corpus.documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]]
    assert score(key, path, ("muc", "bcub"))["muc"].f1 == 1.0


def test_segments_linked_by_a_shared_mention(tmp_path: Path) -> None:
    """Overlapping segments: ``his`` is in both segments' clusters, so John, his and It are one entity;
    a document's segments are told from the trailing ``_k``."""
    path = write(
        tmp_path,
        [
            segment("bc/x_0_0", [[[0, 0], [2, 2]]]),
            segment("bc/x_0_1", [[[2, 2], [6, 6]], [[3, 4], [7, 7]]]),
            segment("bc/y_0_0", [[[0, 1], [3, 3]]]),
        ],
    )
    docs = read(path).documents
    assert [d.name for d in docs] == ["bc/x_0", "bc/y_0"]
    assert docs[0].clusters() == [[(0, 0), (2, 2), (6, 6)], [(3, 4), (7, 7)]]
    assert list(docs[0].lines) == [1, 1, 2, 2, 2]


def test_crossing_mention_in_an_entity_is_dropped(tmp_path: Path) -> None:
    # as get_document_predicts: taken by start (longer first), [2, 5] crosses [1, 3] kept before it
    path = write(tmp_path, [segment("d_0", [[[1, 3], [2, 5], [7, 7]]])])
    assert read(path).documents[0].clusters() == [[(1, 3), (7, 7)]]


def test_nested_mentions_in_an_entity_are_kept(tmp_path: Path) -> None:
    path = write(tmp_path, [segment("d_0", [[[1, 3], [2, 3], [1, 1]]])])
    assert read(path).documents[0].clusters() == [[(1, 1), (2, 3), (1, 3)]]  # in the order a file closes them


def crossing_dropped(group: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """get_document_predicts' rule, as it states it: a mention is kept unless it crosses one kept."""
    kept: list[tuple[int, int]] = []
    for start, end in sorted(group, key=lambda x: (x[0], -x[1])):
        if not any(s < start < e < end for s, e in kept):
            kept.append((start, end))
    return kept


@settings(max_examples=200, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 12), st.integers(0, 5)).map(lambda t: (t[0], t[0] + t[1])), max_size=12))
def test_uncrossed_is_the_tools_rule(group: set[tuple[int, int]]) -> None:
    assert _uncrossed(list(group)) == crossing_dropped(list(group))


def test_short_seq_file_is_refused(tmp_path: Path) -> None:
    record = {"doc_key": "d_0", "pred_tokens": [], "pred_text": "", "pred_aligned_text": [], "input_aligned_text": []}
    path = write(tmp_path, [record])
    with pytest.raises(
        InputError, match=r"predicts.txt:1: error: segment 'd_0' has no 'predict_clusters' \(a short_seq"
    ):
        read(path)


@pytest.mark.parametrize(
    ("clusters", "message"),
    [
        ({"a": 1}, r"'predict_clusters' must be a list of clusters"),
        ([[[3, 1]]], r"\[3, 1\] in cluster 0 of .predict_clusters. is not \[start, end\]"),
        ([7], r"cluster 0 of 'predict_clusters' is not a list"),
    ],
)
def test_bad_clusters_are_located_errors(tmp_path: Path, clusters: object, message: str) -> None:
    record = segment("d_0", [])
    path = write(tmp_path, [segment("d_0", [[[0, 0]]]), {**record, "predict_clusters": clusters}])
    with pytest.raises(InputError, match=r"predicts.txt:2: error: segment 'd_0': " + message):
        read(path)


def test_missing_doc_key(tmp_path: Path) -> None:
    record = segment("d_0", [])
    del record["doc_key"]
    path = write(tmp_path, [record])
    with pytest.raises(InputError, match=r"predicts.txt:1: error: expected a JSON object with a 'doc_key'"):
        read(path, format="seq2seq")


def test_command_line(tmp_path: Path, key: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, [segment("bc/x_0_0", [[[0, 0], [2, 2]], [[3, 4], [6, 6]]])])
    assert main(["score", key, path, "-m", "muc"]) == 0
    assert "fmt:conll2012+seq2seq" in capsys.readouterr().out


ONTONOTES = """#begin document (bc/x); part 000
bc/x 0 0 John NNP * - - - Speaker_A * (0)
bc/x 0 1 saw VBD * - - - Speaker_A * -
bc/x 0 2 his PRP$ * - - - Speaker_A * (0)
bc/x 0 3 big JJ * - - - Speaker_A * (1
bc/x 0 4 dog NN * - - - Speaker_A * 1)
bc/x 0 5 . . * - - - Speaker_A * -

bc/x 0 0 It PRP * - - - Speaker_B * (1)
bc/x 0 1 barked VBD * - - - Speaker_B * -
#end document
"""
# Seq2seqCoref's words: the speaker's name at 0 (Speaker A) and 7 (Speaker B), John at 1, It at 8
SHIFTED_GOLD = [[[1, 1], [3, 3]], [[4, 5], [8, 8]]]


def test_ontonotes_speaker_names_counted_as_words_are_read_back(tmp_path: Path) -> None:
    key = tmp_path / "key.v4_gold_conll"
    key.write_text(ONTONOTES)
    record = segment("bc/x_0_0", [*SHIFTED_GOLD, [[0, 0], [7, 7]]])
    path = write(tmp_path, [{**record, "gold_clusters": SHIFTED_GOLD}])
    corpus = read(path, key=read(str(key)))
    assert corpus.documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]]
    assert "2 mentions on a speaker's name or sentence mark dropped" in str(corpus.warnings[0])
    result = score(str(key), path, ("muc", "bcub"))
    assert (result["muc"].f1, result["bcub"].f1) == (1.0, 1.0)


def test_offsets_kept_when_the_gold_clusters_are_the_keys_words(tmp_path: Path) -> None:
    """A run without speakers (LitBank, PreCo): its gold mentions are the key's own, so no shift."""
    key = tmp_path / "key.v4_gold_conll"
    key.write_text(ONTONOTES)
    gold = [[[0, 0], [2, 2]], [[3, 4], [6, 6]]]
    path = write(tmp_path, [{**segment("bc/x_0_0", gold), "gold_clusters": gold}])
    corpus = read(path, key=read(str(key)))
    assert corpus.documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]]
    assert not corpus.warnings


@pytest.mark.parametrize(
    ("gold", "why"),
    [
        # preprocess_data_mark_sentence.py on OntoNotes: [S] speaker John ... . [/S] [S] speaker It barked
        ([[[2, 2], [4, 4]], [[5, 6], [11, 11]]], "sentence marks and speakers' names"),
        # the same on LitBank (no speakers): [S] John ... . [/S] [S] It barked
        ([[[1, 1], [3, 3]], [[4, 5], [9, 9]]], "sentence marks"),
    ],
)
def test_sentence_marks_counted_as_words_are_read_back(tmp_path: Path, gold: list[list[list[int]]], why: str) -> None:
    key = tmp_path / "key.v4_gold_conll"
    key.write_text(ONTONOTES)
    path = write(tmp_path, [{**segment("bc/x_0_0", gold), "gold_clusters": gold}])
    corpus = read(path, key=read(str(key)))
    assert corpus.documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]], why
