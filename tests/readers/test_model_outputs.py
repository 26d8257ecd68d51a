"""Models' own prediction files, on small files in the shape each model's code writes them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.readers import read
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
WORDS = ["John", "saw", "his", "big", "dog", ".", "It", "barked"]


def write(tmp_path: Path, name: str, records: list[dict[str, object]]) -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


@pytest.fixture
def key(tmp_path: Path) -> str:
    path = tmp_path / "key.conll"
    path.write_text(CONLL)
    return str(path)


def test_wl_coref_predictions(tmp_path: Path, key: str) -> None:
    # predict.py writes the input document back with span_clusters ([start, end) words) and
    # word_clusters (head words); CAW-coref keeps the format
    record = {
        "document_id": "bc/x",
        "cased_words": WORDS,
        "sent_id": [0, 0, 0, 0, 0, 0, 1, 1],
        "part_id": 0,
        "speaker": ["_"] * 8,
        "pos": ["NNP", "VBD", "PRP$", "JJ", "NN", ".", "PRP", "VBD"],
        "deprel": ["nsubj", "root", "nmod:poss", "amod", "obj", "punct", "nsubj", "root"],
        "head": [1, None, 4, 4, 1, 1, 7, None],
        "span_clusters": [[[0, 1], [2, 3]], [[3, 5], [6, 7]]],
        "word_clusters": [[0, 2], [4, 6]],
    }
    path = write(tmp_path, "wl.jsonlines", [record])
    corpus = read(path)
    assert corpus.format == "wl-coref"
    assert corpus.documents[0].name == "bc/x_0"
    assert corpus.documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]]
    result = score(key, path, ("muc", "bcub"))
    assert result["muc"].f1 == result["bcub"].f1 == 1.0
    assert "fmt:conll2012+wl-coref" in result.signature


def test_wl_coref_bad_span_is_located(tmp_path: Path) -> None:
    record = {"document_id": "d", "cased_words": ["a", "b"], "span_clusters": [[[1, 1]]]}
    path = write(tmp_path, "wl.jsonlines", [record])
    with pytest.raises(InputError, match=r"wl.jsonlines:1: error: \[1, 1\] in cluster 0 of 'span_clusters' is not"):
        read(path)


def test_preco(tmp_path: Path, key: str) -> None:
    # PreCo's jsonl: mention_clusters of [sentence, start, end) within the sentence
    record = {
        "id": "bc/x_0",
        "sentences": [WORDS[:6], WORDS[6:]],
        "mention_clusters": [[[0, 0, 1], [0, 2, 3]], [[0, 3, 5], [1, 0, 1]]],
    }
    path = write(tmp_path, "preco.jsonl", [record])
    corpus = read(path)
    assert corpus.format == "preco"
    assert corpus.documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]]
    assert score(key, path, ("muc",))["muc"].f1 == 1.0


def test_preco_mention_outside_its_sentence(tmp_path: Path) -> None:
    record = {"id": "d", "sentences": [["a", "b"]], "mention_clusters": [[[0, 1, 3]]]}
    path = write(tmp_path, "preco.jsonl", [record])
    with pytest.raises(InputError, match=r"preco.jsonl:1: error: \[1, 3\] in cluster 0 .* sentence 0"):
        read(path)


def test_maverick_output_jsonlines_is_token_level(tmp_path: Path, key: str) -> None:
    """evaluate.py copies ``text`` from its input and writes ``clusters`` as inclusive token offsets:
    the one-token spans ``[0, 0]`` cannot be end-exclusive character spans."""
    record = {"doc_key": "bc/x_0", "text": " ".join(WORDS), "clusters": [[[0, 0], [2, 2]], [[3, 4], [6, 6]]]}
    path = write(tmp_path, "output.jsonlines", [record])
    assert read(path, key=read(key)).documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]]
    assert score(key, path, ("muc",))["muc"].f1 == 1.0


def test_maverick_multi_token_mentions_are_token_level(tmp_path: Path, key: str) -> None:
    """With no one-token mention, spans that would cut words as characters are still token offsets:
    ``[0, 1]`` as characters is ``J``, a piece of ``John``."""
    record = {"doc_key": "bc/x_0", "text": " ".join(WORDS), "clusters": [[[0, 1], [3, 4]], [[2, 4], [6, 7]]]}
    path = write(tmp_path, "output.jsonlines", [record])
    assert read(path, key=read(key)).documents[0].clusters() == [[(0, 1), (3, 4)], [(2, 4), (6, 7)]]


def test_maverick_span_starting_on_white_space_is_token_level(tmp_path: Path, key: str) -> None:
    # [4, 6) as characters is " s": no mention starts on a space
    record = {"doc_key": "bc/x_0", "text": " ".join(WORDS), "clusters": [[[4, 6], [0, 2]]]}
    path = write(tmp_path, "output.jsonlines", [record])
    assert read(path, key=read(key)).documents[0].clusters() == [[(0, 2), (4, 6)]]  # in reading order


def test_fastcoref_character_offsets_still_read(tmp_path: Path, key: str) -> None:
    record = {"doc_key": "bc/x_0", "text": " ".join(WORDS), "clusters": [[[0, 4], [9, 12]], [[13, 20], [23, 25]]]}
    path = write(tmp_path, "fast.jsonlines", [record])
    assert read(path, key=read(key)).documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]]


def test_command_line(tmp_path: Path, key: str, capsys: pytest.CaptureFixture[str]) -> None:
    record = {"id": "bc/x_0", "sentences": [WORDS], "mention_clusters": [[[0, 0, 1], [0, 2, 3]]]}
    path = write(tmp_path, "preco.jsonl", [record])
    assert main(["score", key, path, "-m", "muc", "--response-format", "preco"]) == 0
    assert "fmt:conll2012+preco" in capsys.readouterr().out


def test_fastcoref_output_file_paired_by_position(tmp_path: Path, key: str) -> None:
    # FCoref/LingMessCoref.predict(texts, output_file=...): text, clusters, clusters_strings, no doc_key
    text = " ".join(WORDS)
    record = {
        "text": text,
        "clusters": [[[0, 4], [9, 12]], [[13, 20], [23, 25]]],
        "clusters_strings": [["John", "his"], ["big dog", "It"]],
    }
    path = write(tmp_path, "out.jsonlines", [record])
    corpus = read(path, key=read(key))
    assert corpus.documents[0].name == "(bc/x); part 000"
    assert "paired with the key's by position" in str(corpus.warnings[0])
    assert score(key, path, ("muc",))["muc"].f1 == 1.0


def test_fastcoref_output_file_on_split_words(tmp_path: Path, key: str) -> None:
    # predict(words, is_split_into_words=True, output_file=...): [start, end) word offsets
    record = {"text": WORDS, "clusters": [[[0, 1], [2, 3]], [[3, 5], [6, 7]]], "clusters_strings": []}
    path = write(tmp_path, "out.jsonlines", [record])
    assert read(path, key=read(key)).documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]]


def stanza_word(i: int, text: str, *chains: dict[str, object]) -> dict[str, object]:
    word: dict[str, object] = {"id": i, "text": text, "upos": "X", "start_char": 0, "end_char": 1}
    if chains:
        word["coref_chains"] = list(chains)
    return word


def test_stanza_document_json(tmp_path: Path, key: str) -> None:
    # print(doc) / json.dumps(doc.to_dict(), cls=DocJSONEncoder, indent=2): sentences of words, each
    # word of a mention with one CorefAttachment.to_json() per chain
    john = {"index": 0, "representative_text": "John", "is_start": True, "is_end": True, "is_representative": True}
    his = {"index": 0, "representative_text": "John", "is_start": True, "is_end": True}
    big = {"index": 1, "representative_text": "his big dog", "is_start": True}
    dog = {"index": 1, "representative_text": "his big dog", "is_end": True}
    it = {"index": 1, "representative_text": "his big dog", "is_start": True, "is_end": True}
    doc = [
        [
            stanza_word(1, "John", john),
            stanza_word(2, "saw"),
            stanza_word(3, "his", his),
            stanza_word(4, "big", big),
            stanza_word(5, "dog", dog),
            stanza_word(6, "."),
        ],
        [{"id": [1, 2], "text": "It"}, stanza_word(1, "It", it), stanza_word(2, "barked")],
    ]
    path = tmp_path / "stanza.json"
    path.write_text(json.dumps(doc, indent=2))
    corpus = read(str(path), key=read(key))
    assert corpus.format == "stanza"
    assert corpus.documents[0].clusters() == [[(0, 0), (2, 2)], [(3, 4), (6, 6)]]
    assert score(key, str(path), ("muc",))["muc"].f1 == 1.0


def test_stanza_mention_never_ended(tmp_path: Path, key: str) -> None:
    doc = [[stanza_word(1, "John", {"index": 0, "representative_text": "John", "is_start": True})]]
    path = tmp_path / "stanza.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match=r"stanza.json:1: error: a mention of chain 0 is never ended"):
        read(str(path), key=read(key))


def test_stanza_integer_of_thousands_of_digits_is_a_located_error(tmp_path: Path, key: str) -> None:
    word = stanza_word(1, "John", {"index": 0, "representative_text": "John", "is_start": True, "is_end": True})
    path = tmp_path / "stanza.json"
    path.write_text(json.dumps([[word]]).replace('"index": 0', '"index": ' + "9" * 5000))
    with pytest.raises(InputError, match=r"^.*stanza.json:1: error: word 0: 'coref_chains' entries need an integer"):
        read(str(path), key=read(key))
