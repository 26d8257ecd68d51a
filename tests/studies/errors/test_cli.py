"""``corefeval errors``: the JSON shape, CSV, text, the JSON-lines log, the HTML page, bad input."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from errcases import doc

from corefeval.cli import main
from corefeval.studies.errors import KK_TYPES, TYPES

A = [(0, 0), (2, 2), (4, 4)]
B = [(6, 6), (8, 8)]


@pytest.fixture
def files(write_conll):
    key = write_conll("key.conll", [doc([A, B], name="zeta"), doc([A, B], name="alpha")])
    response = write_conll(
        "response.conll",
        [doc([A], name="alpha"), doc([[(0, 1), (2, 2), (4, 4)], B, [(10, 10), (12, 12)]], name="zeta")],
    )
    return key, response


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_json_has_the_counts_of_every_document_in_key_order(files, capsys):
    status, out, _ = run(capsys, "errors", *files, "--format", "json")
    data = json.loads(out)
    assert status == 0 and data["schema"] == "corefeval.errors/1"
    assert [d["name"] for d in data["documents"]] == ["(zeta); part 000", "(alpha); part 000"]
    assert data["documents"][0]["counts"] == {
        "border": 1,
        "type": 0,
        "noise": 0,
        "silence": 0,
        "irrelevant": 1,
        "absence": 0,
    }
    assert data["documents"][1]["counts"] == dict.fromkeys(TYPES, 0) | {"absence": 1}
    assert data["corpus"]["counts"]["absence"] == 1
    assert set(data["documents"][0]["kk"]["operations"]) == set(KK_TYPES)
    assert data["costs"]["absence"]["muc"] > 0 and data["costs"]["noise"]["muc"] == 0
    assert set(data["kk_costs"]) == set(KK_TYPES)


def test_csv_and_text(files, capsys):
    _, out, _ = run(capsys, "errors", *files, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["scope"], r["document"]) for r in rows] == [
        ("document", "(zeta); part 000"),
        ("document", "(alpha); part 000"),
        ("corpus", ""),
    ]
    assert rows[-1]["border"] == "1" and rows[-1]["missing_entity"] == "1"
    _, out, _ = run(capsys, "errors", *files)
    assert "\ncorpus " in out and "irrelevant" in out and "F1 gain" in out


def test_log_itemises_every_counted_error(files, capsys, tmp_path):
    log = tmp_path / "errors.jsonl"
    run(capsys, "errors", *files, "--log", str(log), "--no-costs")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    typology = [r for r in records if r["view"] == "typology"]
    assert sorted(r["type"] for r in typology) == ["absence", "border", "irrelevant"]
    border = next(r for r in typology if r["type"] == "border")
    assert border["response_spans"] == [[0, 1]] and border["key_spans"] == [[0, 0]]
    assert border["rule"] and border["explanation"] and border["document"] == "(zeta); part 000"


def test_html_page_is_self_contained(files, capsys, tmp_path):
    page = tmp_path / "errors.html"
    status, _, _ = run(capsys, "errors", *files, "--html", str(page))
    text = page.read_text(encoding="utf-8")
    assert status == 0 and text.startswith("<!DOCTYPE html>")
    assert "http://" not in text and "https://" not in text and "<script" not in text
    assert 'title="border: ' in text and 'title="absence: ' in text
    assert text.index("(zeta); part 000") < text.index("(alpha); part 000")


def test_bad_input_is_one_line_and_inputs_are_never_overwritten(files, capsys, tmp_path):
    key, response = files
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (x); part 000\nx 0 0 w (1\n#end document\n")
    status, _, err = run(capsys, "errors", str(bad), response)
    assert status == 1 and err.count("\n") == 1 and err.startswith(f"{bad}:2")
    before = Path(key).read_text()
    status, _, err = run(capsys, "errors", key, response, "--html", key)
    assert status == 2 and "refusing" in err and Path(key).read_text() == before


def test_document_missing_from_the_response_is_analysed_against_nothing(write_conll, capsys):
    key = write_conll("k.conll", [doc([A, B], name="one"), doc([A], name="two")])
    response = write_conll("r.conll", [doc([A, B], name="one")])
    status, out, err = run(capsys, "errors", key, response, "--format", "json", "--no-costs")
    assert status == 0 and "'(two); part 000' is not in the response" in err
    assert json.loads(out)["documents"][1]["counts"]["absence"] == 1
