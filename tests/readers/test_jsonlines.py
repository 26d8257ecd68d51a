"""The e2e-coref jsonlines format: clusters, predicted clusters, subword maps, pairing with CoNLL names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.readers import detect_format, read
from corefeval.scoring.pipeline import score


def write(tmp_path: Path, records: list[dict[str, object]], name: str = "f.jsonlines") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


DOC = {
    "doc_key": "bc/cctv/00/cctv_0000_0",
    "sentences": [["John", "saw", "him", "."], ["He", "left"]],
    "clusters": [[[0, 0], [4, 4]], [[2, 2]]],
}


def test_reads_clusters_of_inclusive_offsets(tmp_path: Path) -> None:
    path = write(tmp_path, [DOC])
    assert detect_format(path, Path(path).read_text()) == "jsonlines"
    doc = read(path).documents[0]
    assert (doc.name, doc.n_tokens, doc.clusters()) == (
        "bc/cctv/00/cctv_0000_0",
        6,
        [[(0, 0), (4, 4)], [(2, 2)]],
    )


def test_response_side_is_predicted_clusters(tmp_path: Path) -> None:
    path = write(tmp_path, [{**DOC, "predicted_clusters": [[[0, 0], [2, 2], [4, 4]]]}])
    assert read(path, role="response").documents[0].clusters() == [[(0, 0), (2, 2), (4, 4)]]
    assert read(path).documents[0].clusters() == [[(0, 0), (4, 4)], [(2, 2)]]
    result = score(path, path, ("muc",))
    assert (result["muc"].recall_num, result["muc"].precision_num, result["muc"].precision_den) == (1, 1, 2)


def test_single_file_scored_on_its_own_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, [{**DOC, "predicted_clusters": [[[0, 0], [4, 4]]]}])
    assert main(["score", path, "-m", "muc", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["corpus"]["muc"]["f1"] == 1.0
    plain = write(tmp_path, [DOC], "plain.jsonlines")
    assert main(["score", plain]) == 2
    assert "predicted_clusters" in capsys.readouterr().err


def test_subtoken_map_maps_spans_back_to_words(tmp_path: Path) -> None:
    record = {
        "doc_key": "d",
        "sentences": [["[CLS]", "Jo", "##hn", "saw", "him", "[SEP]"]],
        "subtoken_map": [0, 0, 0, 1, 2, 2],
        "clusters": [[[1, 2], [4, 4]]],
    }
    doc = read(write(tmp_path, [record]), keep_tokens=True).documents[0]
    assert (doc.n_tokens, doc.clusters(), doc.tokens) == (3, [[(0, 0), (2, 2)]], ("John", "saw", "him"))


def test_pairs_with_conll_document_names(tmp_path: Path) -> None:
    conll = tmp_path / "key.conll"
    lines = ["#begin document (bc/cctv/00/cctv_0000); part 000"]
    brackets = ["(0)", "-", "(1)", "-", "(0)", "-"]
    words = [w for sentence in DOC["sentences"] for w in sentence]  # type: ignore[attr-defined]
    lines += [f"bc/cctv/00/cctv_0000\t0\t{i}\t{w}\t{b}" for i, (w, b) in enumerate(zip(words, brackets))]
    lines.append("#end document")
    conll.write_text("\n".join(lines) + "\n")
    result = score(str(conll), write(tmp_path, [DOC]), ("muc", "mentions"))
    assert result["mentions"].f1 == 1.0
    assert result.warnings == []


@pytest.mark.parametrize(
    "record,message",
    [
        ({"sentences": [["a"]], "clusters": []}, "doc_key"),
        ({"doc_key": "d", "sentences": [["a"]]}, "no 'clusters'"),
        ({"doc_key": "d", "sentences": [["a"]], "clusters": [[[0, 3]]]}, "after the last token"),
        ({"doc_key": "d", "sentences": [["a"]], "clusters": [[[1, 0]]]}, "start <= end"),
        ({"doc_key": "d", "sentences": [["a"]], "clusters": [[0]]}, "not \\[start, end\\]"),
    ],
)
def test_errors_name_the_line(tmp_path: Path, record: dict[str, object], message: str) -> None:
    path = write(tmp_path, [DOC, record])
    with pytest.raises(InputError, match=message) as err:
        read(path)
    assert err.value.diagnostic.line == 2


def test_broken_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonlines"
    path.write_text(json.dumps(DOC) + '\n{"doc_key": \n')
    with pytest.raises(InputError, match="not a JSON object") as err:
        read(str(path))
    assert err.value.diagnostic.line == 2


def test_sentences_survive_conversion_to_corefud(tmp_path: Path) -> None:
    from corefeval.writers import render

    corpus = read(write(tmp_path, [DOC]), keep_tokens=True)
    text = render(corpus, "corefud")[0]
    assert text.count("# sent_id") == 2
    back = tmp_path / "back.conllu"
    back.write_text(text)
    assert read(str(back)).sentences == {DOC["doc_key"]: [4, 2]}
    assert render(read(str(back), keep_tokens=True), "jsonlines")[0] == json.dumps(DOC) + "\n"


def test_a_doc_key_ending_in_digits_int_cannot_read_names_no_conll_document() -> None:
    """``X_N`` is CoNLL-2012's ``(X); part N`` only for ASCII digits int() reads: a superscript
    digit or thousands of digits (``str.isdigit`` accepts both) name no document, without a
    ValueError traceback."""
    from corefeval.core.pairing import by_other_name

    docs = {"(x); part 002": 1}
    assert by_other_name("x_2", docs) == 1
    for name in ("x_\u00b2", "x_" + "2" * 5000):
        assert by_other_name(name, docs) is None


def test_documents_are_views_of_the_files_columns_with_their_own_fields() -> None:
    """Each document of a jsonlines file is a view of the file's columns (a file may have a million
    documents): its mentions are its rows, its words' fingerprints are there only where its tokens
    are words, and a copy is a plain document with the same fields."""
    import dataclasses
    import pickle

    from corefeval.core.model import Document, ViewDocument
    from corefeval.readers.jsonlines import read_jsonlines

    lines = [
        {"doc_key": "a", "sentences": [["x", "y"], ["z"]], "clusters": [[[0, 1], [2, 2]], [], [[1, 1]]]},
        {"doc_key": "b", "sentences": [["p", "##q"]], "subtoken_map": [0, 0], "clusters": [[[0, 1]]]},
        {"doc_key": "c", "clusters": [[[4, 5]]]},
    ]
    corpus = read_jsonlines("f", "\n".join(map(json.dumps, lines)), keep_tokens=True)
    a, b, c = corpus.documents
    assert all(type(d) is ViewDocument for d in corpus.documents)
    assert (a.starts.tolist(), a.ends.tolist(), a.entities.tolist(), a.labels) == (
        [0, 2, 1],
        [1, 2, 1],
        [0, 0, 1],
        ("0", "2"),
    )
    assert a.forms is not None and a.forms.size == 3 and a.tokens == ("x", "y", "z") and a.lines.tolist() == [1, 1, 1]
    assert (b.starts.tolist(), b.n_tokens, b.forms, b.tokens) == ([0], 1, None, ("pq",))
    assert (c.starts.tolist(), c.n_tokens, c.forms, c.begin_line) == ([4], 6, None, 3)
    names = {f.name for f in dataclasses.fields(Document)}
    for copy in (pickle.loads(pickle.dumps(a)), dataclasses.replace(a)):
        assert set(vars(copy)) == names and repr(copy).split("(", 1)[1] == repr(a).split("(", 1)[1]
    assert type(pickle.loads(pickle.dumps(a))) is Document
