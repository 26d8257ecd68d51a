"""Parts of speech kept by the readers, the --by command line and its refusals, the mention types."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from corefeval.cli import main
from corefeval.core.diagnostics import UsageError
from corefeval.core.model import make_document
from corefeval.readers import read
from corefeval.studies.breakdowns.mention_types import mention_types, parse_rules

DATA = Path(__file__).resolve().parent / "data"
KEY, RESPONSE = str(DATA / "key.conllu"), str(DATA / "response.conllu")

CONLL = """#begin document (nw/x); part 000
nw/x\t0\t0\tThe\tDT\t-\t-\t-\t-\t-\t*\t(0
nw/x\t0\t1\tpresident\tNN\t-\t-\t-\t-\t-\t*\t-
nw/x\t0\t2\tof\tIN\t-\t-\t-\t-\t-\t*\t-
nw/x\t0\t3\tAcme\tNNP\t-\t-\t-\t-\t-\t*\t(1)|0)
nw/x\t0\t4\tsaid\tVBD\t-\t-\t-\t-\t-\t*\t-
nw/x\t0\t5\the\tPRP\t-\t-\t-\t-\t-\t*\t(0)
nw/x\t0\t6\tlaughed\tVBD\t-\t-\t-\t-\t-\t*\t-

#end document
"""


def test_conll2012_keeps_the_pos_column_with_the_words(tmp_path: Path) -> None:
    path = tmp_path / "a.conll"
    path.write_text(CONLL, encoding="utf-8")
    doc = read(str(path), keep_tokens=True).documents[0]
    assert doc.pos == ("DT", "NN", "IN", "NNP", "VBD", "PRP", "VBD")
    assert read(str(path)).documents[0].pos is None  # not kept without the words
    # 'The president of Acme' is headed by 'president' (before the preposition): nominal.
    assert mention_types(doc) == ["proper", "nominal", "pronoun"]


def test_corefud_keeps_upos_and_tags_are_interned() -> None:
    corpus = read(KEY, keep_tokens=True)
    doc = corpus.documents[0]
    assert doc.pos == ("PROPN", "VERB", "PROPN", "PRON", "PUNCT", "PRON", "VERB", "PRON", "PUNCT")
    assert doc.pos[0] is corpus.documents[1].pos[3]  # one string per tag


def test_english_words_and_user_rules_type_mentions_without_tags() -> None:
    doc = make_document("d", [[(0, 0), (1, 2), (3, 4)]], n_tokens=5)
    words = ("She", "the", "dog", "New", "York")
    from dataclasses import replace

    doc = replace(doc, tokens=words)
    assert mention_types(doc) == ["pronoun", "nominal", "proper"]
    rules = parse_rules(["animal=dog|cat", "pronoun=^(she|he)$"])
    assert mention_types(doc, rules=rules) == ["other", "animal", "other"]
    with pytest.raises(UsageError):
        parse_rules(["no-equals-sign"])


def test_json_and_csv_hold_every_group(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "score",
                KEY,
                RESPONSE,
                "-m",
                "lea",
                "--by",
                "genre",
                "--by",
                "entity-type",
                "--confidence",
                "--format",
                "json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert [b["grouping"] for b in out["breakdowns"]] == ["genre", "entity-type"]
    person = out["breakdowns"][1]["groups"][0]
    assert person["group"] == "person" and person["entities"] == 3
    assert person["scores"]["lea"]["recall_den"] == 7
    assert set(person["intervals"]["lea"]["f1"]) >= {"low", "high"}
    assert main(["score", KEY, RESPONSE, "-m", "lea", "--by", "mention-type", "--format", "csv"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# signature: corefeval:")
    rows = list(csv.DictReader(io.StringIO(text.split("\n", 1)[1])))
    assert [(r["group"], r["size"], r["recall_num"], r["recall_den"]) for r in rows] == [
        ("pronoun", "3", "2.0", "3.0"),
        ("proper", "1", "0.0", "1.0"),
        ("nominal", "1", "0.0", "1.0"),
    ]


def test_manifest_groups_documents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "groups.tsv"
    manifest.write_text("# document\tgroup\nbc/ex2\tspoken\n", encoding="utf-8")
    assert main(["score", KEY, RESPONSE, "-m", "lea", "--manifest", str(manifest), "--format", "json"]) == 0
    groups = json.loads(capsys.readouterr().out)["breakdowns"][0]["groups"]
    assert [(g["group"], g["documents"]) for g in groups] == [("(other)", 1), ("spoken", 1)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--by", "genre", "--format", "latex"], "print text, json or csv"),
        (["--by", "genre", "--per-doc"], "--per-doc cannot be combined"),
        (["--mention-type-rule", "a=b", "--by", "genre"], "needs --by mention-type"),
        (["--by", "(unclosed"], "bad stratum pattern"),
    ],
)
def test_refusals_are_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", KEY, RESPONSE, *args]) != 0
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_bad_manifest_line_names_its_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "groups.tsv"
    manifest.write_text("nw/ex1\tnews\nno tab here\n", encoding="utf-8")
    assert main(["score", KEY, RESPONSE, "--manifest", str(manifest)]) != 0
    err = capsys.readouterr().err
    assert f"{manifest}:2: error: expected a document name, a TAB and a group name" in err


def test_sentence_distance_reads_conll2012_sentences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.conll"
    path.write_text(CONLL, encoding="utf-8")
    assert main(["score", str(path), str(path), "--by", "sentence-distance"]) == 0
    assert "By sentence-distance" in capsys.readouterr().out


def test_evaluator_breaks_down_by_document_group() -> None:
    from corefeval import Evaluator

    ev = Evaluator(["muc"])
    ev.update([[(0, 1), (3, 3)]], [[(0, 1), (3, 3)]], "nw/a")
    ev.update([[(0, 1), (3, 3)]], [[(0, 1)], [(3, 3)]], "bc/b")
    genre = ev.breakdown("genre")
    assert genre.labels == ("nw", "bc") and [r.corpus["muc"].f1 for r in genre.results] == [1.0, 0.0]
    assert ev.breakdown({"bc/b": "spoken"}).labels == ("(other)", "spoken")
    with pytest.raises(UsageError, match="needs files"):
        ev.breakdown("mention-type")
    frame = genre.with_intervals(50).to_frame()
    assert list(frame["group"]) == ["nw", "bc"] and list(frame["metric"]) == ["muc", "muc"]
    assert {"f1", "f1_low", "f1_high", "documents"} <= set(frame.columns)
