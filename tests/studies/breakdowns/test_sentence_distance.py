"""Distance in sentences on every format that gives sentence boundaries: a worked example on a
CoNLL-2012 file (blank lines end sentences), the same document as jsonlines, and the error for a
key without sentences.

Key: John_0 left . | He_2 smiled . | Mary_4 saw . | (two blank lines) him_6 .
key entity A = John, He, him; B = Mary (a singleton). Response: {John, He} and {Mary, him, .}.
Key anaphors (distance to the mention before them, in sentences): He (1 - 0 = 1), him (3 - 1 = 2).
He is linked to John by the response: true positive in group 1. him is linked to Mary, not to A: a
wrong link in group 2. The response's "." is a non-first response mention that is no key
anaphor: a false positive, in the group of its own distance to him (sentence 3 to 3: 0).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from corefeval.cli import main
from corefeval.core.options import Options
from corefeval.scoring.pipeline import score_with
from corefeval.studies.breakdowns import breakdowns
from corefeval.studies.breakdowns.pairs import read_pair

SENTENCES = [["John", "left", "."], ["He", "smiled", "."], ["Mary", "saw", "."], ["him", "."]]
KEY = [[(0, 0), (3, 3), (9, 9)], [(6, 6)]]
RESPONSE = [[(0, 0), (3, 3)], [(6, 6), (9, 9), (10, 10)]]
#: (tp, tp + fn + wl, tp, tp + wl + fp) of each group, worked out above.
EXPECTED = {"0": [0, 0, 0, 1], "1": [1, 1, 1, 1], "2": [0, 1, 0, 1]}


def _conll(clusters: list[list[tuple[int, int]]]) -> str:
    marks = {}
    for k, cluster in enumerate(clusters):
        for s, e in cluster:
            assert s == e
            marks[s] = f"({k})"
    lines, t = ["#begin document (nw/x); part 000"], 0
    for n, sentence in enumerate(SENTENCES):
        for i, word in enumerate(sentence):
            lines.append(f"nw/x\t0\t{i}\t{word}\tXX\t-\t-\t-\t-\t-\t*\t{marks.get(t, '-')}")
            t += 1
        lines += [""] if n != 2 else ["", ""]  # two blank lines in a row end one sentence
    return "\n".join(lines + ["#end document", ""])


def _jsonlines(clusters: list[list[tuple[int, int]]], field: str) -> str:
    return json.dumps({"doc_key": "nw/x_0", "sentences": SENTENCES, field: [[list(m) for m in c] for c in clusters]})


def _counts(key: Path, response: Path) -> dict[str, list[float]]:
    options = Options(metrics=("muc",))
    key_corpus, response_corpus = read_pair(str(key), str(response), options)
    result = score_with(key_corpus, response_corpus, options)
    (b,) = breakdowns(result, ["sentence-distance"], key_corpus, response_corpus, options)
    assert np.allclose(b.totals().sum(axis=0), [1, 2, 1, 3])  # the groups add up to the whole
    return {g: list(b[g].counts.sum(axis=0)) for g in b.labels}


def test_conll2012_sentences_are_separated_by_blank_lines(tmp_path: Path) -> None:
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(_conll(KEY), encoding="utf-8")
    response.write_text(_conll(RESPONSE), encoding="utf-8")
    assert _counts(key, response) == EXPECTED


def test_jsonlines_sentences_give_the_same_groups(tmp_path: Path) -> None:
    key, response = tmp_path / "key.jsonlines", tmp_path / "response.jsonlines"
    key.write_text(_jsonlines(KEY, "clusters") + "\n", encoding="utf-8")
    response.write_text(_jsonlines(RESPONSE, "predicted_clusters") + "\n", encoding="utf-8")
    assert _counts(key, response) == EXPECTED


def _ua(clusters: list[list[tuple[int, int]]], zero: bool) -> str:
    """The same document as Universal Anaphora (a zero line in the second sentence: it is no word
    and changes no distance)."""
    marks = {s: f"(EntityID={k}|MarkableID=m{s})" for k, cluster in enumerate(clusters) for s, _ in cluster}
    lines = ["# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY", "# newdoc id = x"]
    t = 0
    for n, sentence in enumerate(SENTENCES):
        for i, word in enumerate(sentence, 1):
            lines.append("\t".join([str(i), word, *["_"] * 8, marks.get(t, "_")]))
            if zero and (n, i) == (1, 1):
                lines.append("\t".join(["1.1", "_", *["_"] * 8, "_"]))
            t += 1
        lines.append("")
    return "\n".join(lines)


@pytest.mark.parametrize("zero", [False, True])
def test_universal_anaphora_sentences_give_the_same_groups(tmp_path: Path, zero: bool) -> None:
    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(_ua(KEY, zero), encoding="utf-8")
    response.write_text(_ua(RESPONSE, zero), encoding="utf-8")
    assert _counts(key, response) == EXPECTED


def test_a_key_without_sentences_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key.jsonlines"
    words = [w for s in SENTENCES for w in s]
    doc = {"doc_key": "nw/x_0", "sentences": [words], "subtoken_map": list(range(len(words))), "clusters": []}
    key.write_text(json.dumps({**doc, "clusters": [[list(m) for m in c] for c in KEY]}) + "\n", encoding="utf-8")
    assert main(["score", str(key), str(key), "--by", "sentence-distance"]) != 0
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert f"{key}: the distance in sentences needs the key's sentence boundaries" in err
