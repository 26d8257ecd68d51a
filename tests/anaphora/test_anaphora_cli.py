"""``corefeval anaphora``'s output options, spelt and behaving as ``score``'s: ``--format text|json|csv``
(the ``corefeval.score/1`` schema and the reporters of ``score``, counts included), ``--per-doc``,
``-q`` and ``-m/--metric``; an input error is one ``PATH:LINE: error:`` line and exit status 1."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest

from corefeval.cli import main

from .generator import pair

UA_NAMES = ("ua-lea", "ua-muc", "ua-bcub", "ua-ceafe", "ua-ceafm", "ua-blanc")
LAYERS = ("non-referring", "bridging-ar", "bridging-fbm", "bridging-fbe")


def _files(tmp_path: Path, seed: int = 7, n_docs: int = 6) -> tuple[str, str]:
    key, response = pair(seed, n_docs, distinct=True)
    k, r = tmp_path / "key.conllu", tmp_path / "response.conllu"
    k.write_text(key, encoding="utf-8")
    r.write_text(response, encoding="utf-8")
    return str(k), str(r)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["anaphora", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def _text_numbers(text: str) -> dict[str, list[str]]:
    """Recall, precision and F1 per measure of the text table (of the corpus: its last table)."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = line.split()
        if len(cells) == 4 and cells[0] != "measure" or len(cells) == 2 and cells[0] == "CoNLL":
            out[cells[0]] = cells[1:]
    return out


def test_json_has_scores_schema_with_counts_and_the_text_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = _files(tmp_path)
    status, text, _ = _run(capsys, key, response)
    assert status == 0
    status, out, _ = _run(capsys, key, response, "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["schema"] == "corefeval.score/1" and data["key"] == key and data["response"] == response
    assert set(data["corpus"]) == {*UA_NAMES, *LAYERS, "conll"}
    assert data["signature"] == text.splitlines()[-1].removeprefix("signature: ")
    shown = _text_numbers(text)
    for name, score in data["corpus"].items():
        row = shown["CoNLL" if name == "conll" else name.removeprefix("ua-")]
        values = [score["f1"]] if name == "conll" else [score["recall"], score["precision"], score["f1"]]
        assert [f"{100 * v:.2f}" for v in values] == row[-len(values) :], name
        if name != "conll":
            assert {"recall_num", "recall_den", "precision_num", "precision_den"} <= score.keys()
    assert set(data["corpus"]["ua-blanc"]) >= {"coref", "noncoref"}


def test_json_equals_score_with_the_ua_metrics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The two doors give the same counts, document by document (the default setting of both)."""
    key, response = _files(tmp_path, seed=11)
    _, out, _ = _run(capsys, key, response, "--format", "json", "--per-doc", "-m", ",".join(UA_NAMES))
    ours = json.loads(out)
    assert main(["score", key, response, "--format", "json", "--per-doc", "-m", ",".join(UA_NAMES)]) == 0
    theirs = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in ours["documents"]] == [d["name"] for d in theirs["documents"]]
    for a, b in zip(ours["documents"] + [ours], theirs["documents"] + [theirs], strict=True):
        scores_a, scores_b = a.get("scores", a.get("corpus")), b.get("scores", b.get("corpus"))
        for name in UA_NAMES:
            for field in ("recall_num", "recall_den", "precision_num", "precision_den", "f1"):
                assert math.isclose(scores_a[name][field], scores_b[name][field], rel_tol=1e-9, abs_tol=1e-12)


def test_csv_rows_per_document_and_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, response = _files(tmp_path)
    status, out, _ = _run(capsys, key, response, "--format", "csv", "--per-doc", "-m", "blanc", "-m", "muc")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("# signature: corefeval:")
    rows = list(csv.DictReader(io.StringIO("\n".join(lines[1:]))))
    assert {r["metric"] for r in rows} == {"ua-muc", "ua-blanc", "ua-blanc.coref", "ua-blanc.noncoref"}
    documents = [r["document"] for r in rows if r["scope"] == "document"]
    assert len(dict.fromkeys(documents)) == 6
    corpus = {r["metric"]: r for r in rows if r["scope"] == "corpus"}
    assert float(corpus["ua-muc"]["recall_den"]) > 0


def test_metric_restricts_in_every_spelling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, response = _files(tmp_path)
    shown = []
    for args in (("-m", "muc,bcub"), ("-m", "ua-muc", "--metric", "ua-bcub"), ("--metrics", "bcub,muc")):
        status, out, _ = _run(capsys, key, response, *args)
        assert status == 0
        shown.append(_text_numbers(out))
    assert set(shown[0]) == {"muc", "bcub"} and shown[0] == shown[1] == shown[2]
    _, out, _ = _run(capsys, key, response, "--format", "json", "-m", "bridging")
    assert set(json.loads(out)["corpus"]) == {"bridging-ar", "bridging-fbm", "bridging-fbe"}
    _, out, _ = _run(capsys, key, response, "--format", "json", "-m", "conll")
    assert set(json.loads(out)["corpus"]) == {"ua-muc", "ua-bcub", "ua-ceafe", "conll"}
    status, _, err = _run(capsys, key, response, "-m", "mucc")
    assert status == 2 and "unknown measure 'mucc'" in err


def test_per_doc_lists_the_documents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, response = _files(tmp_path)
    names = [line.split("= ", 1)[1] for line in Path(key).read_text().splitlines() if line.startswith("# newdoc")]
    _, out, _ = _run(capsys, key, response, "--per-doc")
    assert [line.removeprefix("document ") for line in out.splitlines() if line.startswith("document ")] == names
    assert "corpus (6 documents)" in out
    _, out, _ = _run(capsys, key, response, "--per-doc", "--format", "json")
    assert [d["name"] for d in json.loads(out)["documents"]] == names


def test_quiet_is_scores_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``-q`` turns the progress bar off, as ``score -q`` does; the output is the same, and warnings
    (a repair or a skipped document changes a number) are still printed, as ``score -q`` prints them."""
    key, response = _files(tmp_path)
    text = Path(response).read_text(encoding="utf-8")
    first = text.index("# newdoc", text.index("# newdoc") + 1)
    Path(response).write_text(text[:first].rstrip("\n") + "\n\n", encoding="utf-8")  # one document only
    plain = _run(capsys, key, response)
    quiet = _run(capsys, key, response, "-q")
    assert plain == quiet and quiet[0] == 0
    assert "skipped, as the UA scorer skips it" in quiet[2]


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_an_input_error_is_one_located_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    key, response = _files(tmp_path)
    lines = Path(response).read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if "(EntityID=" in line and not line.rstrip().endswith(")"))
    lines[at] = lines[at].replace("(EntityID=", "(EntityXX=", 1)
    Path(response).write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = _run(capsys, key, response, "--format", fmt)
    assert status == 1 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"{response}:{at + 1}: error:")


def test_only_split_antecedents_is_text_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, response = _files(tmp_path)
    status, _, err = _run(capsys, key, response, "--only-split-antecedents", "--format", "json")
    assert status == 2 and "text only" in err
