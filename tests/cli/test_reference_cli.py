"""``corefeval reference``: the reference scorer's arguments and output, on its own edge cases."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from corefeval.cli import main

from ..conftest import SHARED
from ..reference_scorer import FIXTURE, GENERATOR, METRICS, document_lines, generate, scorer, totals_line
from ..reference_scorer import run as reference_run

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


# Float sums in the reference's order: every document's line as the reference prints it.

RECORDED = json.loads(FIXTURE.read_text())


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    if not GENERATOR.exists():
        pytest.skip("the shared generator is not there")
    return generate(tmp_path_factory.mktemp("reference"))


@pytest.mark.parametrize("metric", METRICS)
def test_every_document_line_is_the_recorded_reference_line(
    generated: tuple[str, str], metric: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """B-cubed's numerators are added mention by mention in the reference's order, so that even their
    15th significant digit is the reference's (it was not in 4 of these 60 documents)."""
    _, out = run(capsys, "reference", metric, *generated)
    assert document_lines(out) == RECORDED["documents"][metric]


def test_the_totals_are_one_of_the_reference_s_own(generated: tuple[str, str], capsys) -> None:
    """The reference adds documents in random hash order, so its own totals move in the last digit
    from run to run (recorded: 8 runs); corefeval adds them in key-file order, one of those orders."""
    runs = RECORDED["bcub_totals_by_hash_seed"]
    assert len(set(runs.values())) > 1
    _, out = run(capsys, "reference", "bcub", *generated, "none")
    assert totals_line(out) in set(runs.values())


def _loose(line: str) -> tuple[list[float], list[str]]:
    """A metric line's numbers (numerators, denominators) and its printed percentages."""
    pairs = re.findall(r"\(([\d.e+-]+) / ([\d.e+-]+)\)", line)
    return [float(v) for pair in pairs for v in pair], re.findall(r"[\d.]+%", line)


@pytest.mark.skipif(scorer() is None, reason="set COREFEVAL_REFERENCE_SCORER to a checkout of the reference scorer")
@pytest.mark.parametrize("seed", ["7", "31"])
def test_document_lines_equal_the_live_reference(tmp_path, seed: str, capsys) -> None:
    """Side by side with the reference itself, on other corpora of the generator. CEAFe's numerators
    may differ in the last digit: the reference adds 1 - (1 - similarity) key entity by key entity
    over its own optimal alignment, corefeval the similarities component by component (README,
    "Differences from the reference scorer")."""
    perl = scorer()
    assert perl is not None
    key, response = tmp_path / "k.conll", tmp_path / "r.conll"
    args = [
        "--seed",
        seed,
        "--docs",
        "40",
        "--mentions",
        "4000",
        "--out-key",
        str(key),
        "--out-response",
        str(response),
    ]
    subprocess.run([sys.executable, str(GENERATOR), *args], check=True, capture_output=True)
    for metric in METRICS:
        _, out = run(capsys, "reference", metric, str(key), str(response))
        ours, theirs = document_lines(out), document_lines(reference_run(perl, metric, str(key), str(response)))
        if metric != "ceafe":
            assert ours == theirs, metric
            continue
        assert ours.keys() == theirs.keys()
        for name, line in ours.items():
            (got, shown), (want, printed) = _loose(line), _loose(theirs[name])
            assert shown == printed and np.allclose(got, want, rtol=1e-14, atol=0), name
