"""MOR and the zero score take part in every output, interval and comparison, asked for by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corefeval import Evaluator, score
from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.core.registry import resolve
from corefeval.scoring.distributed.unit import unit_options

DATA = Path(__file__).resolve().parent.parent / "data" / "corefud_peer"
KEY, RESPONSE = str(DATA / "key3.conllu"), str(DATA / "response3.conllu")
RECORDED = json.loads((DATA / "counts.json").read_text())["3"]["exact/keep/include"]


def _sum(metric: str) -> list[float]:
    return [sum(d[metric][i] for d in RECORDED.values()) for i in range(4)]


def test_asked_for_by_name_not_by_all() -> None:
    assert "mor" not in resolve(["all"]) and "zero" not in resolve(["all"])
    assert resolve(["mor,zeros"]) == ("mor", "zero")


def test_corpus_counts_are_the_corefud_scorers() -> None:
    result = score(KEY, RESPONSE, ("mor", "zero"))
    for metric in ("mor", "zero"):
        s = result[metric]
        assert [s.recall_num, s.recall_den, s.precision_num, s.precision_den] == _sum(metric)


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["score", KEY, RESPONSE, "-m", "mor,zero", *args]) == 0
    return capsys.readouterr().out


def test_text_json_csv_and_reference(capsys: pytest.CaptureFixture[str]) -> None:
    rn, rd, pn, pd = (int(x) for x in _sum("mor"))
    assert f"{rn} / {rd}" in _cli(capsys, "--format", "text")
    data = json.loads(_cli(capsys, "--format", "json", "--per-doc"))
    assert data["corpus"]["mor"]["precision_den"] == pd
    per_doc = {d["name"]: d["scores"]["zero"] for d in data["documents"]}
    assert {
        n: [s["recall_num"], s["recall_den"], s["precision_num"], s["precision_den"]] for n, s in per_doc.items()
    } == {n: c["zero"] for n, c in RECORDED.items()}
    assert '"corpus","","zero"' in _cli(capsys, "--format", "csv")
    reference = _cli(capsys, "--format", "reference")
    assert "METRIC mor:" in reference and "METRIC zero:" in reference
    assert f"Coreference: Recall: ({rn} / {rd})" in reference


def test_confidence_and_compare(capsys: pytest.CaptureFixture[str]) -> None:
    out = _cli(capsys, "--confidence", "50", "--seed", "1")
    assert out.count("\nMOR ") == 2 and out.count("\nzeros ") == 2
    assert main(["compare", KEY, RESPONSE, KEY, "-m", "mor,zero", "--resamples", "50", "--rounds", "50"]) == 0
    out = capsys.readouterr().out
    assert "MOR" in out and "zeros" in out


def test_evaluator() -> None:
    e = Evaluator(["mor", "zero"])
    e.update([[(0, 2), (5, 5)], [(7, 8)]], [[(1, 2), (5, 6)], [(0, 0), (8, 8)]])
    s = e.result()["mor"]
    assert (s.recall_num, s.recall_den, s.precision_num, s.precision_den) == (4.0, 6.0, 4.0, 6.0)
    assert e.result()["zero"].recall_den == 0.0


def test_a_mention_table_unit_refuses_them() -> None:
    with pytest.raises(InputError, match="mor"):
        unit_options("k.parquet", None, ["muc", "mor"])
