"""Readers of model outputs: Maverick token and character offsets, fastcoref character offsets,
spaCy span groups; each scored against a CoNLL-2012 key equals the same clusters in memory."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from corefeval import Evaluator, score
from corefeval.core.diagnostics import InputError
from corefeval.readers.validate import validate

WORDS = ["Barack", "Obama", "is", "traveling", "to", "Rome", ".", "The", "city", "is", "sunny", "."]
TEXT = "Barack Obama is traveling to Rome. The city is sunny."
KEY_CLUSTERS = [[(0, 1)], [(5, 5), (7, 8)]]
RESPONSE_CLUSTERS = [[(5, 5), (7, 8), (0, 1)]]


def _key(tmp_path: Path) -> Path:
    brackets = {0: "(0", 1: "0)", 5: "(1)", 7: "(1", 8: "1)"}
    lines = ["#begin document (doc); part 000"]
    lines += [f"doc\t0\t{i}\t{w}\t-\t-\t-\t-\t-\t-\t*\t{brackets.get(i, '-')}" for i, w in enumerate(WORDS)]
    lines += ["", "#end document", ""]
    path = tmp_path / "key.conll"
    path.write_text("\n".join(lines))
    return path


def _char_spans(spans: list[tuple[int, int]], inclusive: bool) -> list[list[int]]:
    starts, cursor = [], 0
    for w in WORDS:
        at = TEXT.index(w, cursor)
        starts.append(at)
        cursor = at + len(w)
    return [[starts[s], starts[e] + len(WORDS[e]) - (1 if inclusive else 0)] for s, e in spans]


def _expected() -> np.ndarray:
    ev = Evaluator()
    ev.update(KEY_CLUSTERS, RESPONSE_CLUSTERS, name="(doc); part 000")
    return ev.result().counts


@pytest.mark.parametrize(
    "obj",
    [
        {"doc_key": "doc_0", "tokens": WORDS, "clusters_token_offsets": [[list(s) for s in RESPONSE_CLUSTERS[0]]]},
        {"doc_key": "doc_0", "text": TEXT, "clusters_char_offsets": [_char_spans(RESPONSE_CLUSTERS[0], True)]},
        {"doc_key": "doc_0", "text": TEXT, "clusters": [_char_spans(RESPONSE_CLUSTERS[0], False)]},
    ],
    ids=["maverick-tokens", "maverick-chars", "fastcoref-chars"],
)
def test_model_outputs_score_as_their_clusters(tmp_path: Path, obj: dict) -> None:
    response = tmp_path / "predictions.jsonl"
    response.write_text(json.dumps(obj) + "\n")
    result = score(str(_key(tmp_path)), str(response))
    assert result.settings.response_format == "predictions"
    np.testing.assert_array_equal(result.counts, _expected())
    cli = subprocess.run(
        [sys.executable, "-m", "corefeval", "score", str(_key(tmp_path)), str(response), "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["corpus"]["muc"]["f1"] == result.corpus["muc"].f1


def test_validate_maps_character_offsets_onto_the_key_as_score_does(tmp_path: Path) -> None:
    response = tmp_path / "predictions.jsonl"
    response.write_text(
        json.dumps({"doc_key": "doc_0", "text": TEXT, "clusters": [_char_spans([(0, 1)], False)]}) + "\n"
    )
    key = str(_key(tmp_path))
    score(key, str(response))
    assert validate([str(response)], key=key) == []


def test_span_off_token_boundaries_is_a_located_error(tmp_path: Path) -> None:
    response = tmp_path / "predictions.jsonl"
    response.write_text(json.dumps({"doc_key": "doc_0", "text": TEXT, "clusters": [[[0, 3], [29, 33]]]}) + "\n")
    with pytest.raises(InputError, match=r"document 'doc_0': span \[0, 3\] \('Bar'\)"):
        score(str(_key(tmp_path)), str(response))
    cli = subprocess.run(
        [sys.executable, "-m", "corefeval", "score", str(_key(tmp_path)), str(response)], capture_output=True, text=True
    )
    assert cli.returncode == 1 and "Traceback" not in cli.stderr
    assert cli.stderr.strip().count("\n") == 0 and f"{response}:1: error:" in cli.stderr


def test_char_offset_outside_the_text_is_a_located_error(tmp_path: Path) -> None:
    response = tmp_path / "predictions.jsonl"
    response.write_text(json.dumps({"doc_key": "doc_0", "text": TEXT, "clusters": [[[0, 6], [40, 400]]]}) + "\n")
    with pytest.raises(InputError, match=r"span \[40, 400\]"):
        score(str(_key(tmp_path)), str(response))


def _spacy_doc():  # type: ignore[no-untyped-def]
    spacy = pytest.importorskip("spacy")
    doc = spacy.blank("en").make_doc(TEXT)
    assert [t.text for t in doc][:6] == WORDS[:6]
    for k, cluster in enumerate(RESPONSE_CLUSTERS, 1):
        doc.spans[f"coref_clusters_{k}"] = [doc[s : e + 1] for s, e in cluster]
    doc.spans["sc"] = [doc[2:3]]  # another component's span group: not coreference
    doc.user_data["doc_key"] = "doc_0"
    return doc


def test_spacy_docs_in_memory_and_docbin(tmp_path: Path) -> None:
    pytest.importorskip("spacy")
    from spacy.tokens import DocBin

    from corefeval.readers.spacy_docs import corpus_from_docs

    doc = _spacy_doc()
    assert [t.text for t in doc] == WORDS
    result = score(str(_key(tmp_path)), corpus_from_docs([doc]))
    np.testing.assert_array_equal(result.counts, _expected())
    path = tmp_path / "predictions.spacy"
    DocBin(docs=[doc], store_user_data=True).to_disk(path)
    cli = subprocess.run(
        [sys.executable, "-m", "corefeval", "score", str(_key(tmp_path)), str(path), "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["corpus"]["bcub"]["f1"] == result.corpus["bcub"].f1


def test_jsonlines_matched_by_doc_key_in_the_table(tmp_path: Path) -> None:
    """The e2e-coref jsonlines response finds the CoNLL-2012 key's document by its doc_key, and the
    per-document table names it by the key's name."""
    response = tmp_path / "predictions.jsonlines"
    obj = {"doc_key": "doc_0", "sentences": [WORDS], "clusters": [[list(s) for s in RESPONSE_CLUSTERS[0]]]}
    response.write_text(json.dumps(obj) + "\n")
    result = score(str(_key(tmp_path)), str(response))
    np.testing.assert_array_equal(result.counts, _expected())
    frame = result.to_frame()
    assert set(frame.loc[frame["scope"] == "document", "document"]) == {"(doc); part 000"}
