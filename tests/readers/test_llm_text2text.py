"""text2text-coref markup (the CRAC LLM track's format) read and put on the key's words."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.core.model import Corpus, make_document
from corefeval.readers import detect_format, read
from corefeval.readers.corefud import empty_position
from corefeval.readers.llm_written import is_text2text
from corefeval.readers.text2text import read_text2text
from corefeval.scoring.pipeline import score

DATA = Path(__file__).parent.parent / "data" / "llm"
KEY = str(DATA / "key.conllu")


def key_corpus(words: list[str], clusters: list[list[tuple[int, int]]] | None = None) -> Corpus:
    doc = replace(make_document("d", clusters or [], len(words)), tokens=tuple(words))
    return Corpus("key.jsonlines", [doc], format="jsonlines")


def spans(corpus: Corpus) -> list[list[tuple[int, int]]]:
    return corpus.documents[0].clusters()


def test_detected_from_content() -> None:
    line = "The|[e1 black cat|e1] sat on the|[e2 mat|e2] ."
    assert is_text2text(line)
    assert detect_format("x", line + "\n") == "text2text"
    assert detect_format("x", '[{"doc_id": "d", "tokens": []}]') == "text2text-json"
    assert detect_format("x", '[\n  {"doc_id": "d"}\n]\n') == "text2text-json"
    assert detect_format("x", "#begin document (a); part 000\na 0 0 w - - - - - (1)\n") == "conll2012"
    assert not is_text2text("plain words with a|b pipe")
    # lines of plain words decide nothing (a refusal, a document without marks): alone, they are text2text
    assert detect_format("x", "plain words with a|b pipe\n") == "text2text"
    assert detect_format("x", "x 0 0 w - - - - - -\n") == "conll2012"


@pytest.mark.parametrize(
    "text",
    [
        "The|[e1\tblack cat|e1]\tsat .\n",  # TABs between words
        "The|[e1  black cat|e1]  sat .\n",  # double spaces
        "I cannot help with that.\nThe|[e1 black cat|e1] sat .\n",  # a refusal line first
        "The black cat sat .\nIt|[e1] purred\n",  # a first document without marks
        "The|[e1 black ca",  # cut short
    ],
)
def test_detected_however_written(text: str) -> None:
    assert detect_format("x", text) == "text2text"


def test_unedited_markup_is_the_key(tmp_path: Path) -> None:
    result = score(KEY, str(DATA / "exact.txt"), ("muc", "bcub"))
    assert result["muc"].f1 == result["bcub"].f1 == 1.0
    assert "aligned:ins0,rep0,del0,mov0,lost0" in result.signature
    assert "fmt:corefud+text2text" in result.signature


def test_marks_grammar() -> None:
    key = key_corpus(["a", "b", "c", "d", "e"])
    corpus = read_text2text("r.txt", "a|[e1,[e2] b|[e3 c d|e1],e3] e|[e4]\n", key)
    doc = corpus.documents[0]
    assert doc.labels == ("e2", "e1", "e3", "e4")
    assert spans(corpus) == [[(0, 0)], [(0, 3)], [(1, 3)], [(4, 4)]]


def test_edits_counted_and_boundaries_moved() -> None:
    # "so" is the model's own word and opens a mention: it moves to "the", the next aligned word
    key = key_corpus(["the", "cat", "sat", "on", "a", "mat"])
    corpus = read_text2text("r.txt", "so|[e1 the cat|e1] sat upon a|[e2 mat|e2] today\n", key, max_edits=1)
    assert spans(corpus) == [[(0, 1)], [(4, 5)]]
    fig = corpus.figures["d"]
    assert (fig.words, fig.inserted, fig.replaced, fig.deleted, fig.moved, fig.lost) == (6, 2, 1, 0, 1, 0)
    assert "2 inserted, 1 replaced, 0 deleted of 6 key words" in str(corpus.warnings[0])


def test_mention_on_own_words_only_is_lost() -> None:
    key = key_corpus(["the", "cat", "sat"])
    corpus = read_text2text("r.txt", "the cat|[e1] sat really|[e2 very|e2]\n", key, max_edits=1)
    assert spans(corpus) == [[(1, 1)]]
    assert corpus.figures["d"].lost == 1


def test_official_marks_drop_marks_on_edited_words() -> None:
    """``clean`` keeps marks on equal words only: "teh" opens e2, is replaced, and the lone closing
    mark on "mat" becomes a one-word mention, as ``_correct_tags`` repairs it."""
    key = read(KEY)
    text = (DATA / "edited.txt").read_text()
    moved = read_text2text("edited.txt", text, read(KEY, keep_tokens=True), max_edits=1)
    official = read_text2text("edited.txt", text, read(KEY, keep_tokens=True), marks="official", max_edits=1)
    assert spans(moved) == key.documents[0].clusters() == [[(0, 2), (8, 8)], [(5, 6)]]
    assert spans(official) == [[(0, 2), (8, 8)], [(6, 6)]]


def test_official_pairs_within_key_sentences(tmp_path: Path) -> None:
    # a mention across the sentence break: clean keeps the lone closing mark as a one-word mention
    text = "The|[e1 black cat sat on the mat . It|e1] purred .\n"
    official = read_text2text("r.txt", text, read(KEY, keep_tokens=True), marks="official")
    moved = read_text2text("r.txt", text, read(KEY, keep_tokens=True))
    assert spans(official) == [[(8, 8)]]
    assert spans(moved) == [[(0, 8)]]


def test_zero_after_its_word() -> None:
    key = read(KEY, keep_tokens=True)
    text = "The|[e1 black cat|e1] sat ##|[e1] on the mat . It|[e1] purred .\n"
    doc = read_text2text("r.txt", text, key).documents[0]
    zero = empty_position(0, 4, 1)  # after word 4 ("sat") of the first sentence: node 4.1
    assert doc.parts == {1: (zero,)}  # read as the CorefUD reader reads a zero mention:
    assert (doc.starts[1], doc.ends[1], doc.heads is not None and doc.heads[1]) == (3, 3, zero)


def test_json_variant(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    data = [
        {
            "doc_id": "d1",
            "tokens": ["The", "black", "cat", "sat", "on", "the", "mat", ".", "It", "purred"],
            "clusters_token_offsets": [[[0, 2], [8, 8]], [[5, 6]]],
            "clusters_text_mentions": [["The black cat", "It"], ["the mat"]],
        }
    ]
    path.write_text(json.dumps(data, indent=1))
    result = score(KEY, str(path), ("muc", "bcub"))
    assert result["muc"].f1 == result["bcub"].f1 == 1.0
    assert "fmt:corefud+text2text-json" in result.signature
    assert "aligned:ins0,rep0,del1" in result.signature  # the final "." left out


@pytest.mark.parametrize(
    "text,message",
    [
        ("The|[e1 black cat sat on the mat . It purred .", "the mention of e1 opened at word 1 'The' is never closed"),
        ("The black cat|e1] sat on the mat . It purred .", "word 3 'cat' closes a mention of e1, which has none open"),
        ("The|[x1] black cat sat on the mat . It purred .", "mark '[x1]' is not [eN, eN] or [eN]"),
        ("The|[e1]|x black cat sat on the mat . It purred .", "has more than one '|'"),
    ],
)
def test_bad_markup_is_a_located_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "r.txt"
    path.write_text("\n" + text + "\n")
    with pytest.raises(InputError) as err:
        read(str(path), "text2text", key=read(KEY))
    assert str(err.value).startswith(f"{path}:2: error: ")
    assert message in str(err.value)


def test_lenient_repairs_as_clean(tmp_path: Path) -> None:
    path = tmp_path / "r.txt"
    path.write_text("The|[e1 black cat|e2] sat|[x1] on the mat . It|[e1] purred .\n")
    corpus = read(str(path), "text2text", key=read(KEY), lenient=True)
    assert spans(corpus) == [[(2, 2)], [(8, 8)]]  # the unclosed e1 dropped, the lone e2] one word
    assert [str(w) for w in corpus.warnings] == [
        f"{path}:1: warning: document 'd1': word 4 'sat': mark '[x1]' is not [eN, eN] or [eN]: dropped",
        f"{path}:1: warning: document 'd1': word 3 'cat': closes a mention of 'e2', which has none open: "
        "a one-word mention",
        f"{path}:1: warning: document 'd1': word 1 'The': the mention of 'e1' it opens is never closed: dropped",
    ]
    assert corpus.figures["d1"].repaired == 3


def test_document_count_must_match(tmp_path: Path) -> None:
    path = tmp_path / "r.txt"
    path.write_text("The|[e1] cat\nIt|[e1] purred\n")
    with pytest.raises(InputError, match=r"r.txt:2: error: 2 documents \(one a line\), the key .* has 1"):
        read(str(path), key=read(KEY))


def test_too_many_edits_is_an_error_naming_the_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["score", KEY, str(DATA / "edited.txt")])
    err = capsys.readouterr().err.strip()
    assert status == 1 and "\n" not in err
    assert err.startswith(f"{DATA / 'edited.txt'}:1: error: document 'd1': aligning its words")
    assert "2 inserted, 1 replaced, 1 deleted of 11 key words" in err and "(--max-edits)" in err
    assert main(["score", KEY, str(DATA / "edited.txt"), "--max-edits", "0.5", "-m", "muc"]) == 0


def test_head_only_mentions_match_by_head(tmp_path: Path) -> None:
    """A model that writes head words only ("cat", "mat", "It") scores fully under head matching."""
    path = tmp_path / "heads.txt"
    path.write_text("The black cat|[e7] sat on the mat|[e3] . It|[e7] purred .\n")
    head = score(KEY, str(path), ("muc", "bcub"), match="head")
    exact = score(KEY, str(path), ("muc", "bcub"))
    assert head["muc"].f1 == head["bcub"].f1 == 1.0
    assert exact["bcub"].recall < 1.0


def test_needs_a_key() -> None:
    with pytest.raises(InputError, match="scored against a key"):
        read_text2text("r.txt", "a|[e1]\n", None)


def test_same_numbers_as_token_offsets_on_the_key() -> None:
    words = [f"w{i}" for i in range(12)]
    clusters = [[(0, 2), (5, 5)], [(3, 4), (9, 11)], [(7, 7)]]
    key = key_corpus(words, [[(0, 2), (6, 6)], [(3, 4), (9, 10)], [(7, 7), (11, 11)]])
    marks: list[list[str]] = [[] for _ in words]
    for k, cluster in enumerate(clusters):
        for s, e in cluster:
            if s == e:
                marks[s].append(f"[e{k + 1}]")
            else:
                marks[s].append(f"[e{k + 1}")
                marks[e].append(f"e{k + 1}]")
    text = " ".join(w + ("|" + ",".join(m) if m else "") for w, m in zip(words, marks))
    ours = score(key, read_text2text("r.txt", text, key))
    offsets = score(key, Corpus("o", [make_document("d", clusters, len(words))], format="predictions"))
    assert np.array_equal(ours.counts, offsets.counts)


def test_hostile_output_is_refused_before_aligning(tmp_path: Path) -> None:
    """A long output with nothing in common with the key is refused from word counts, without
    filling the alignment's table."""
    words = [f"k{i}" for i in range(20000)]
    key = key_corpus(words)
    text = " ".join(f"x{i}" for i in range(20000)) + "|[e1]\n"
    with pytest.raises(InputError, match=r"r.txt:1: error: document 'd': .* takes at least 20000 edits"):
        read_text2text("r.txt", text, key)
    with pytest.raises(InputError, match="more than corefeval aligns in a document that long"):
        read_text2text("r.txt", text, key, max_edits=100)


def test_a_blank_line_is_an_empty_document(tmp_path: Path) -> None:
    """``clean`` reads one document a line, blank ones included: the next documents keep their place."""
    words = ["a", "b"]
    two = Corpus(
        "key", [replace(make_document(n, [], 2), tokens=tuple(words)) for n in ("d1", "d2")], format="jsonlines"
    )
    corpus = read_text2text("r.txt", "\na|[e1] b\n", two, max_edits=1)
    assert [d.n_mentions for d in corpus.documents] == [0, 1]
    assert corpus.figures["d1"].deleted == 2


def test_figures_in_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", KEY, str(DATA / "edited.txt"), "-m", "muc", "--max-edits", "0.5", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    figures = {"words": 11, "inserted": 2, "replaced": 1, "deleted": 1, "moved": 0, "lost": 0, "repaired": 0}
    assert out["alignment"] == {"total": figures, "documents": {"d1": figures}}
    assert "aligned:ins2,rep1,del1,mov0,lost0,fixed0" in out["signature"]


def test_json_variant_integer_of_thousands_of_digits_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    data = [{"doc_id": "d1", "tokens": ["The", "cat"], "clusters_token_offsets": [[[0, 1]]]}]
    path.write_text(json.dumps(data).replace("[[[0, 1]]]", "[[[0, " + "9" * 5000 + "]]]"))
    with pytest.raises(InputError, match=r"document 'd1': \[0, <a 5000-digit integer>\] in cluster 0 is not"):
        score(KEY, str(path), ("muc",))
