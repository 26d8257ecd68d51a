"""``--llm-marks official``, rule by rule, on small cases: how the CRAC LLM pipeline repairs marks,
places zeros, moves heads, pairs documents, and where it fails (then corefeval's error). The
numbers of the pipeline itself are compared in ``test_llm_official.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corefeval.cli import main
from corefeval.core.diagnostics import InputError, UsageError
from corefeval.core.options import Options
from corefeval.readers import read
from corefeval.readers.corefud import empty_position
from corefeval.readers.text2text import read_text2text
from corefeval.scoring.pipeline import score

OFFICIAL = Options(("muc",), llm_marks="official")


def conllu_key(
    folder: Path,
    sentences: list[list[str]],
    heads: list[list[int]] | None = None,
    deps: list[list[str]] | None = None,
    fields: str = "eid-etype-head-other",
    documents: int = 1,
) -> str:
    """A CoNLL-U key of ``documents`` documents of these sentences (a word's HEAD is the word
    before it unless ``heads`` says; DEPS ``_`` unless ``deps`` says), without mentions."""
    lines = []
    for d in range(documents):
        lines += [f"# newdoc id = d{d + 1}", f"# global.Entity = {fields}"]
        for s, words in enumerate(sentences):
            lines.append(f"# sent_id = d{d + 1}-{s + 1}")
            for w, word in enumerate(words, 1):
                head = heads[s][w - 1] if heads else w - 1
                dep = deps[s][w - 1] if deps else "_"
                lines.append(f"{w}\t{word}\t{word}\tX\t_\t_\t{head}\t{'root' if head == 0 else 'dep'}\t{dep}\t_")
            lines.append("")
    path = folder / "key.conllu"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def official(key: str, text: str, folder: Path, name: str = "answer.txt"):  # type: ignore[no-untyped-def]
    path = folder / name
    path.write_text(text, encoding="utf-8")
    fmt = "text2text-json" if name.endswith(".json") else "text2text"
    return read(str(path), fmt, key=read(key), llm_marks="official")


def spans(corpus) -> list[list[tuple[int, int]]]:  # type: ignore[no-untyped-def]
    return corpus.documents[0].clusters()


SENTENCES = [["The", "black", "cat", "sat", "on", "the", "mat", "."], ["It", "purred", "."]]


def test_malformed_marks_repaired_as_clean_each_a_located_warning(tmp_path: Path) -> None:
    key = conllu_key(tmp_path, SENTENCES)
    text = "The|[e1) black|E2] cat|(e3 sat|[e4]|x on|e5] the| mat . It|[e6 purred|e6]x .\n"
    corpus = official(key, text, tmp_path)
    assert spans(corpus) == [[(4, 4)], [(8, 9)]]  # e5] alone: one word; e6]x read as e6]
    path = tmp_path / "answer.txt"
    assert [str(w) for w in corpus.warnings] == [
        f"{path}:1: warning: document 'd1': word 1 'The|[e1)': mark '[e1)' read as '[e1'",
        f"{path}:1: warning: document 'd1': word 2 'black|E2]': mark 'E2]' is not [eN, eN] or [eN]: dropped",
        f"{path}:1: warning: document 'd1': word 3 'cat|(e3': mark '(e3' is not [eN, eN] or [eN]: dropped",
        f"{path}:1: warning: document 'd1': word 4 'sat|[e4]|x': more than one '|': its marks are dropped",
        f"{path}:1: warning: document 'd1': word 5 'on|e5]': closes a mention of 'e5' not open in its sentence: "
        "a one-word mention",
        f"{path}:1: warning: document 'd1': word 6 'the|': mark '' is not [eN, eN] or [eN]: dropped",
        f"{path}:1: warning: document 'd1': word 1 'The|[e1)': the mention of 'e1' it opens is not closed in its "
        "sentence: dropped",
        f"{path}:1: warning: document 'd1': word 10 'purred|e6]x': mark 'e6]x' read as 'e6]'",
    ]
    assert corpus.figures["d1"].repaired == 8


def test_repairs_counted_in_the_signature_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = conllu_key(tmp_path, SENTENCES)
    (tmp_path / "a.txt").write_text("The|[e1 black cat|e1] sat|e2] on the mat . It|(e1 purred .\n")
    assert (
        main(["score", key, str(tmp_path / "a.txt"), "--llm-marks", "official", "-m", "muc", "--format", "json"]) == 0
    )
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["alignment"]["total"]["repaired"] == 2
    assert "aligned:ins0,rep0,del0,mov0,lost0,fixed2,marks:official" in out["signature"]
    assert captured.err.count("warning:") == 2


def test_ties_broken_replacement_first(tmp_path: Path) -> None:
    """The cleaning step walks back replacement first: the model's "x2 w2" against the key's "w2 w3"
    costs two edits either way, and it pairs the kept "w2" with "w3", a replacement whose marks it
    drops, so the mention is lost (the default pairs "w2" with "w2" and keeps it)."""
    key = conllu_key(tmp_path, [["w0", "w1", "w2", "w3"]])
    corpus = official(key, "w0 w1|[e1 x2 w2|e1]\n", tmp_path)
    assert spans(corpus) == [] and corpus.figures["d1"].lost == 1
    assert (corpus.figures["d1"].replaced, corpus.figures["d1"].repaired) == (2, 1)
    moved = read(str(tmp_path / "answer.txt"), "text2text", key=read(key), max_edits=1)
    assert spans(moved) == [[(1, 2)]]


def test_unclosed_in_its_sentence_is_dropped(tmp_path: Path) -> None:
    """The cleaning step repairs each key sentence on its own: a mention across a sentence break
    loses its opening (never closed), its closing becomes a one-word mention."""
    key = conllu_key(tmp_path, SENTENCES)
    corpus = official(key, "The|[e1 black cat sat on the mat . It|e1] purred .\n", tmp_path)
    assert spans(corpus) == [[(8, 8)]]
    assert [w.message.split(": ", 1)[1] for w in corpus.warnings[:2]] == [
        "word 1 'The|[e1': the mention of 'e1' it opens is not closed in its sentence: dropped",
        "word 9 'It|e1]': closes a mention of 'e1' not open in its sentence: a one-word mention",
    ]


def test_zeros_become_empty_nodes_after_their_word(tmp_path: Path) -> None:
    """A ``##`` after a key word is that word's next empty node; one after a sentence's last word
    is cleaned with the next sentence, its node staying in its own; one after the document's last
    word is dropped."""
    key = conllu_key(tmp_path, SENTENCES)
    text = "The black cat sat ##|[e1] ##|[e1] on the mat . ##|[e2] It purred . ##|[e2]\n"
    doc = official(key, text, tmp_path).documents[0]
    assert sorted(doc.parts.values()) == [
        (empty_position(0, 4, 1),),
        (empty_position(0, 4, 2),),
        (empty_position(0, 8, 1),),
    ]


def test_a_mention_from_a_zero_across_a_sentence_break_fails(tmp_path: Path) -> None:
    """The zero after a sentence's last word opens a mention closed in the next sentence: the
    pipeline writes its brackets in reverse order (the zero's node is numbered after ``It``), and
    the CorefUD scorer stops on the file."""
    key = conllu_key(tmp_path, SENTENCES)
    with pytest.raises(InputError) as err:
        official(key, "The black cat sat on the mat . ##|[e2 It|e2] purred .\n", tmp_path)
    assert str(err.value) == (
        f"{tmp_path / 'answer.txt'}:1: error: document 'd1': the CorefUD scorer cannot read the response the "
        "official pipeline writes for it: 'e2)' closes a mention of entity e2 that is not open"
    )


def test_ten_zeros_after_one_word_fail(tmp_path: Path) -> None:
    key = conllu_key(tmp_path, SENTENCES)
    nine = official(key, "The " + "## " * 9 + "black cat sat on the mat . It purred .\n", tmp_path)
    assert nine.documents[0].n_mentions == 0
    with pytest.raises(InputError, match="cannot number more than 9 empty nodes after one word"):
        official(key, "The " + "## " * 10 + "black cat sat on the mat . It purred .\n", tmp_path)


def test_documents_one_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = conllu_key(tmp_path, SENTENCES, documents=2)
    line = "The|[e1 black cat|e1] sat on the mat . It|[e1] purred ."
    extra = official(key, f"{line}\n{line}\nI cannot help with that.\n", tmp_path)
    assert [str(w) for w in extra.warnings] == [
        f"{tmp_path / 'answer.txt'}:3: warning: 1 line past the key's 2 documents not read, as the official "
        "pipeline does not read them"
    ]
    with pytest.raises(InputError, match=r"answer.txt:1: error: 1 line \(one document a line\) for the key's 2"):
        official(key, f"{line}\n", tmp_path)
    (tmp_path / "empty.txt").write_text("")
    assert main(["score", key, str(tmp_path / "empty.txt"), "--llm-marks", "official"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{tmp_path / 'empty.txt'}:1: error:") and "\n" not in err


def test_tabs_double_spaces_and_line_ends(tmp_path: Path) -> None:
    """Words are split at any white space, as the cleaning step splits them; ``\\r`` ends a line."""
    key = conllu_key(tmp_path, SENTENCES, documents=2)
    text = "The|[e1\tblack  cat|e1] sat on the mat . It purred .\r\nThe cat|[e1] sat on the mat . It purred .\r\n"
    corpus = official(key, text, tmp_path)
    assert [d.clusters() for d in corpus.documents] == [[[(0, 2)]], [[(2, 2)]]]


def test_no_limit_on_edits(tmp_path: Path) -> None:
    """An answer cut short is scored as the pipeline scores it; ``--llm-marks move`` refuses it
    (``--max-edits``), and so does the official mode when ``--max-edits`` is given."""
    key = conllu_key(tmp_path, SENTENCES)
    (tmp_path / "a.txt").write_text("The|[e1 black cat|e1] sat\n")
    result = score(key, str(tmp_path / "a.txt"), options=OFFICIAL)
    assert result["muc"].recall_den == 0 and "aligned:ins0,rep0,del7" in result.signature
    with pytest.raises(InputError, match="more edits than 25% of the key's words"):
        score(key, str(tmp_path / "a.txt"), ("muc",))
    with pytest.raises(InputError, match="more edits than 50% of the key's words"):
        score(key, str(tmp_path / "a.txt"), options=Options(("muc",), llm_marks="official", max_edits=0.5))


def test_the_key_must_be_conllu(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key.jsonlines"
    key.write_text(json.dumps({"doc_key": "d1", "sentences": [["a", "b"]], "clusters": []}) + "\n")
    (tmp_path / "a.txt").write_text("a|[e1] b\n")
    with pytest.raises(UsageError, match="reads a CoNLL-U \\(CorefUD\\) key"):
        score(str(key), str(tmp_path / "a.txt"), options=OFFICIAL)
    assert main(["score", str(key), str(tmp_path / "a.txt"), "--llm-marks", "official"]) == 2
    assert "convert it" in capsys.readouterr().err


def test_heads_moved_as_the_pipeline_moves_them(tmp_path: Path) -> None:
    """A mention's head: its one word whose parent is outside it; among several, the one whose
    enhanced parents (DEPS) are all outside; else the top of their smallest subtree, if it is one
    of them; else the mention's first word, if it is one of them."""
    words = [["a", "b", "c", "d", "e"]]
    heads = [[0, 1, 4, 1, 1]]  # b and c hang from outside a mention "b c"; d is c's parent
    key = conllu_key(tmp_path, words, heads, [["_", "3:x", "_", "_", "_"]])
    doc = official(key, "a b|[e1 c|e1] d e|[e2]\n", tmp_path).documents[0]
    assert doc.heads is not None and doc.heads.tolist() == [2, 4]  # b's DEPS point inside: c
    key = conllu_key(tmp_path, words, heads)
    doc = official(key, "a b|[e1 c|e1] d e\n", tmp_path).documents[0]
    assert doc.heads is not None and doc.heads.tolist() == [1]  # no top among them: the first word kept
    doc = official(key, "a b c|[e1 d|e1] e\n", tmp_path).documents[0]
    assert doc.heads is not None and doc.heads.tolist() == [3]  # d governs c


def test_without_a_head_field_heads_are_first_nodes(tmp_path: Path) -> None:
    key = conllu_key(tmp_path, SENTENCES, [[3, 3, 4, 0, 7, 7, 4, 4], [2, 0, 2]], fields="GRP-etype")
    doc = official(key, "The|[e1 black cat|e1] sat on the mat . It purred .\n", tmp_path).documents[0]
    assert doc.heads is not None and doc.heads.tolist() == [0]


def test_json_variant_as_the_pipeline_reads_it(tmp_path: Path) -> None:
    """Paired by position (``doc_id`` not read: one unlike the key's is a warning), tokens taken as
    they are, ``[start, end]`` slicing the nodes as a Python list does; a token too many, or a
    slice of no node, is the pipeline failing."""
    key = conllu_key(tmp_path, SENTENCES)
    tokens = ["The", "black", "cat", "sat", "on", "the", "mat", ".", "It", "purred", "."]
    doc = {"doc_id": "other", "tokens": tokens, "clusters_token_offsets": [[[0, 2], [-3, 8]], [[9, 99]]]}
    corpus = official(key, json.dumps([doc]), tmp_path, "answer.json")
    assert spans(corpus) == [[(0, 2), (8, 8)], [(9, 10)]]
    assert "doc_id 'other' is not the key's document 1 'd1': paired by position" in str(corpus.warnings[0])
    for clusters, message in [([[[-1, -2]]], "slices no token"), ([[[1.0, 2]]], "is not \\[start, end\\]")]:
        doc["clusters_token_offsets"] = clusters
        with pytest.raises(InputError, match=message):
            official(key, json.dumps([doc]), tmp_path, "answer.json")
    doc["tokens"] = [*tokens, "extra"]
    with pytest.raises(InputError, match="as many words and zeros as the key's skeleton then has nodes: 12 against 11"):
        official(key, json.dumps([doc]), tmp_path, "answer.json")


def test_json_variant_by_doc_id_otherwise(tmp_path: Path) -> None:
    """Without ``--llm-marks official`` the JSON variant is paired by ``doc_id``: one not in the key
    is left out with a warning; none in the key is the error of every response sharing no document."""
    key = conllu_key(tmp_path, SENTENCES, documents=2)
    tokens = ["The", "black", "cat", "sat", "on", "the", "mat", ".", "It", "purred", "."]
    docs = [{"doc_id": name, "tokens": tokens, "clusters_token_offsets": [[[0, 2]]]} for name in ("d1", "d9")]
    path = tmp_path / "a.json"
    path.write_text(json.dumps(docs))
    corpus = read_text2text(str(path), path.read_text(), read(key), json_variant=True)
    assert [d.name for d in corpus.documents] == ["d1"]
    assert [w.message for w in corpus.warnings] == [
        "document 'd9' is not in the key; it is ignored (1 of the response's 2 documents ignored)"
    ]
    path.write_text(json.dumps(docs[1:]))
    with pytest.raises(InputError, match="a.json:1: error: no document of the response is in the key .* the closest"):
        read_text2text(str(path), path.read_text(), read(key), json_variant=True)


def test_repeated_long_mentions_are_refused_in_linear_time(tmp_path: Path) -> None:
    """Every word opening a mention that the last word closes: mentions over 200 million nodes in
    all; refused from their lengths before any is made."""
    words = [f"w{i % 50}" for i in range(20000)]
    key = conllu_key(tmp_path, [words])
    text = " ".join(w + "|[e1" for w in words[:-1]) + f" {words[-1]}|" + ",".join(["e1]"] * 20000) + "\n"
    with pytest.raises(InputError, match="its mentions cover more than 8388608 nodes in all"):
        official(key, text, tmp_path)
