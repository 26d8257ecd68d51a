"""``corefeval reference``: the reference scorer's arguments and output, on its own edge cases."""

from __future__ import annotations

import json
import re

import pytest

from corefeval.cli import main

from .conftest import SHARED

EDGE = SHARED / "conformance" / "edge"
DATA = json.loads((EDGE / "perl-output.json").read_text()) if EDGE.exists() else {"cases": [], "named_mode": []}
SEMANTIC = {"E1", "E3", "E7", "E7r", "E9a", "E9b", "E10", "E11"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def blocks(stdout: str) -> list[str]:
    """Per-document blocks (the reference prints documents in random order), then the totals."""
    body = stdout.split("\n", 1)[1]
    docs, _, tail = body.partition("\n====== TOTALS =======")
    parts = re.split(r"(?m)^(?=====> )", docs)
    merged: list[str] = []
    for p in parts:
        if merged and p.startswith("====> ") and merged[-1].startswith("====> ") and "Total key" not in merged[-1]:
            merged[-1] += p
        elif p:
            merged.append(p)
    return sorted(merged) + [tail]


@pytest.mark.parametrize("case", [c for c in DATA["cases"] if c["id"] in SEMANTIC], ids=lambda c: c["id"])
def test_verbose_output_equals_reference(case: dict, capsys: pytest.CaptureFixture[str]) -> None:
    want = case["verbose"]["muc"]
    code, out = run(capsys, "reference", "muc", str(EDGE / case["key_file"]), str(EDGE / case["response_file"]))
    assert code == want["exit_status"] == 0
    assert blocks(out) == blocks(want["stdout"])


@pytest.mark.parametrize("case", [c for c in DATA["cases"] if c["id"] in SEMANTIC], ids=lambda c: c["id"])
def test_all_none_output_equals_reference(case: dict, capsys: pytest.CaptureFixture[str]) -> None:
    for metric, want in case["none"].items():
        code, out = run(
            capsys, "reference", metric, str(EDGE / case["key_file"]), str(EDGE / case["response_file"]), "none"
        )
        assert code == 0
        assert out.split("\n", 1)[1] == want["stdout"].split("\n", 1)[1], metric


@pytest.mark.parametrize(
    "case", [c for c in DATA["named_mode"] if c["id"] != "E9b"], ids=lambda c: f"{c['id']}:{c['doc_id']}"
)
def test_named_document_mode(case: dict, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys, "reference", "muc", str(EDGE / case["key_file"]), str(EDGE / case["response_file"]), case["doc_id"]
    )
    assert code == 0
    assert out.split("\n", 1)[1] == case["muc"]["stdout"].split("\n", 1)[1]


def test_named_mode_takes_the_last_occurrence_of_a_repeated_name(capsys: pytest.CaptureFixture[str]) -> None:
    """E9 repeats a document name; like the all-documents mode we score its last occurrence."""
    code, out = run(capsys, "reference", "muc", str(EDGE / "E9.key"), str(EDGE / "E9b.response"), "(x); part 000")
    assert code == 0
    assert "Entity 0: (0,0) (2,2)" in out and "Coreference: Recall: (1 / 1) 100%" in out


def test_first_line_names_corefeval(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(capsys, "reference", "MUC", str(EDGE / "E1.key"), str(EDGE / "E1.response"), "none")
    assert out.startswith("version: 8.01 corefeval ")


def test_all_runs_five_metrics_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(capsys, "reference", "all", str(EDGE / "E1.key"), str(EDGE / "E1.response"), "none")
    assert re.findall(r"METRIC (\w+):", out) == ["muc", "bcub", "ceafm", "ceafe", "blanc"]


def test_invalid_metric_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reference", "mucx", str(EDGE / "E1.key"), str(EDGE / "E1.response")]) == 2
    assert "Invalid metric" in capsys.readouterr().err
