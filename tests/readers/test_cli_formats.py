"""Command line: convert, the scoring options, and the signature in every output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from corefeval.cli import main
from corefeval.core.model import Corpus, make_document
from corefeval.readers import read
from corefeval.writers import render

from .helpers import same_corpus

KEY = """#begin document (a); part 000
a 0 0 John (0)
a 0 1 saw -
a 0 2 him (0)
a 0 3 . -
#end document
"""


@pytest.fixture
def key(tmp_path: Path) -> str:
    path = tmp_path / "key.conll"
    path.write_text(KEY)
    return str(path)


def test_convert_to_each_format_and_back(tmp_path: Path, key: str, capsys: pytest.CaptureFixture[str]) -> None:
    for fmt, suffix in (("corefud", "conllu"), ("jsonlines", "jsonlines")):
        out = tmp_path / f"out.{suffix}"
        assert main(["convert", key, str(out), "--to", fmt]) == 0
        assert read(str(out)).format == fmt
        back = tmp_path / f"back-{fmt}.conll"
        assert main(["convert", str(out), str(back), "--to", "conll2012"]) == 0
        same_corpus(read(key, keep_tokens=True), read(str(back), keep_tokens=True))


def test_convert_to_standard_output(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", key, "-", "--to", "jsonlines"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record == {
        "doc_key": "(a); part 000",
        "sentences": [["John", "saw", "him", "."]],
        "clusters": [[[0, 0], [2, 2]]],
    }


def test_convert_never_writes_over_its_input(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", key, key, "--to", "conll2012"]) == 2
    assert "is the input" in capsys.readouterr().err
    assert Path(key).read_text() == KEY


def test_convert_reports_what_the_format_cannot_hold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conllu = tmp_path / "z.conllu"
    conllu.write_text(
        "# newdoc id = d\n# global.Entity = eid-etype-head-other\n"
        "1\tw\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1[1/2]-x-1)\n2\tw\t_\t_\t_\t_\t1\tdep\t_\t_\n"
        "2.1\t_\t_\t_\t_\t_\t_\t_\t_\tEntity=(e2-x-1)\n"
        "3\tw\t_\t_\t_\t_\t1\tdep\t_\tEntity=(e1[2/2]-x-1)\n\n"
    )
    assert main(["convert", str(conllu), str(tmp_path / "z.conll"), "--to", "conll2012"]) == 0
    err = capsys.readouterr().err
    assert "1 mention(s) of empty nodes only left out" in err
    assert "1 discontinuous mention(s) written as their covering span" in err


def test_convert_predicted_clusters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.jsonlines"
    path.write_text(
        json.dumps(
            {
                "doc_key": "d",
                "sentences": [["a", "b"]],
                "clusters": [[[0, 0], [1, 1]]],
                "predicted_clusters": [[[0, 1]]],
            }
        )
        + "\n"
    )
    assert main(["convert", str(path), "-", "--to", "conll2012", "--predicted"]) == 0
    assert capsys.readouterr().out.split("\n")[1].endswith("(0")


@pytest.mark.parametrize("fmt", ["text", "json", "csv", "reference"])
def test_signature_in_every_output(key: str, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", key, key, "--format", fmt, "--singletons", "remove"]) == 0
    out = capsys.readouterr().out
    signature = "|match:exact|singletons:remove|zeros:include|blanc:reference|repeats:reference|docs:1|key:"
    assert signature in out
    assert "fmt:conll2012" in out
    if fmt == "reference":
        assert out.splitlines()[-1].startswith("# corefeval:")


def test_signature_names_both_formats(tmp_path: Path, key: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.conllu"
    assert main(["convert", key, str(out), "--to", "corefud"]) == 0
    assert main(["score", key, str(out), "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["signature"].endswith("fmt:conll2012+corefud")
    assert result["corpus"]["muc"]["f1"] == 1.0


def test_forced_format(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", key, key, "--response-format", "corefud"]) == 1
    assert "10 TAB-separated columns" in capsys.readouterr().err


def test_conll_writer_reports_crossing_mentions_of_one_entity() -> None:
    corpus = Corpus("mem", [make_document("d", [[(0, 1), (1, 2)]], n_tokens=3)])
    notes = render(corpus, "conll2012")[1]
    assert [n.message for n in notes] == [
        "document 'd': 1 mention(s) crossing another mention of one entity "
        "cannot be written in CoNLL-2012 (they read back as other spans)"
    ]


def test_head_matching_needs_heads(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", key, key, "--match", "head"]) == 2
    assert "needs mention heads" in capsys.readouterr().err


def test_singletons_remove_changes_the_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "k.conll"
    key.write_text(KEY.replace("a 0 3 . -", "a 0 3 . (1)"))
    response = tmp_path / "r.conll"
    response.write_text(KEY)
    main(["score", str(key), str(response), "-m", "mentions", "--format", "json"])
    kept = json.loads(capsys.readouterr().out)["corpus"]["mentions"]
    main(["score", str(key), str(response), "-m", "mentions", "--format", "json", "--singletons", "remove"])
    removed = json.loads(capsys.readouterr().out)["corpus"]["mentions"]
    assert (kept["recall_num"], kept["recall_den"]) == (2, 3)
    assert (removed["recall_num"], removed["recall_den"]) == (2, 2)


spans = st.tuples(st.integers(0, 19), st.integers(0, 4)).map(lambda t: (t[0], min(t[0] + t[1], 19)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(spans, min_size=1, max_size=4), max_size=6))
def test_any_document_survives_every_conversion(
    tmp_path_factory: pytest.TempPathFactory, clusters: list[list[tuple[int, int]]]
) -> None:
    seen: set[tuple[int, int]] = set()
    unique = [[s for s in c if not (s in seen or seen.add(s))] for c in clusters]  # type: ignore[func-returns-value]
    # crossing mentions of one entity cannot be written in CoNLL-2012 (the writer says so)
    assume(not any(a[0] < b[0] <= a[1] < b[1] for c in unique for a in c for b in c))
    corpus = Corpus("mem", [make_document("(d); part 000", [c for c in unique if c], n_tokens=20)])
    folder = tmp_path_factory.mktemp("any")
    current = corpus
    for fmt in ("corefud", "jsonlines", "conll2012", "corefud", "conll2012"):
        path = folder / f"x.{fmt}"
        path.write_text(render(current, fmt)[0])
        current = read(str(path))
        same_corpus(corpus, current)
