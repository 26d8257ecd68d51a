"""Every door reads its files with the run's whole reading options (``read_with``): a language-model
answer with ``--llm-marks official`` scores the same through ``score``, ``score --by`` (breakdowns
that need the documents), ``report``'s reading, ``errors`` and the Python API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import corefeval
from corefeval.cli import main
from corefeval.core.options import Options
from corefeval.readers import read, read_with

DATA = Path(__file__).resolve().parent.parent / "data" / "llm"
KEY, ANSWER = str(DATA / "key.conllu"), str(DATA / "edited.txt")
ARGS = ("--llm-marks", "official")


def _conll(capsys: pytest.CaptureFixture[str], *argv: str) -> float:
    capsys.readouterr()
    assert main(["score", KEY, ANSWER, *ARGS, "-m", "conll", "--format", "json", "-q", *argv]) == 0
    out = json.loads(capsys.readouterr().out)
    return float(out.get("score", out)["corpus"]["conll"]["f1"])


def test_read_with_passes_every_reading_option() -> None:
    options = Options(llm_marks="official", max_edits=0.9, heads="tree", lenient=True)
    key = read_with(KEY, options, "key")
    assert (
        read_with(ANSWER, options, "response", key).documents[0].starts.tolist()
        == read(ANSWER, "auto", False, "response", True, key, "tree", "official", 0.9).documents[0].starts.tolist()
    )


def test_breakdowns_that_need_documents_read_the_answer_as_score_does(capsys: pytest.CaptureFixture[str]) -> None:
    plain = _conll(capsys)
    assert _conll(capsys, "--by", "mention-type") == plain
    assert corefeval.score(KEY, ANSWER, ["conll"], llm_marks="official")["conll"].f1 == pytest.approx(plain)
