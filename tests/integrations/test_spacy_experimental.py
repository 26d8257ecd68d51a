"""corefeval's spaCy scorer with ``metric="lea"`` side by side with spacy-experimental's coreference
scorer (``score_coref_clusters``, LEA alone), on seeded span groups as users produce them
(``spacy_coref_cases``): equal where no span group is empty and no span is in two clusters; where
a span is in two clusters, corefeval keeps the reference scorer's rule and spacy-experimental's
numbers are corefeval's ``repeats="corefud"`` with the span groups in corefeval's reading order;
an empty span group stops spacy-experimental (ZeroDivisionError) and changes no corefeval number.

Recorded numbers (``tests/data/spacy_experimental.json``, by ``record_spacy_experimental.py``) are
checked always; spacy-experimental itself where it can be imported (it needs spaCy < 3.8)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from corefeval import score
from corefeval.cli import main
from corefeval.integrations.spacy_scorer import corpora, score_examples
from corefeval.writers import render
from tests.integrations.spacy_coref_cases import (
    FIXTURE,
    KEYS,
    SEEDS,
    SMALLEST,
    Case,
    case,
    examples,
    has_empty_group,
    has_repeats,
    in_reading_order,
    without_empty_groups,
)

spacy = pytest.importorskip("spacy")

NLP = spacy.blank("en")


def _recorded() -> list[dict[str, Any]]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]


def _lea(cases: Case) -> dict[str, float]:
    return {key: score_examples(examples(cases, NLP), "lea")[key] for key in KEYS}


def _lea_repeats_kept(cases: Case) -> dict[str, float]:
    """corefeval's LEA with every copy of a repeated span scored and looked up in the other side's
    last entity holding it (``repeats="corefud"``)."""
    lea = score(*corpora(examples(cases, NLP)), ["lea"], repeats="corefud").corpus["lea"]
    return {"coref_p": lea.precision, "coref_r": lea.recall, "coref_f": lea.f1}


def _same(ours: dict[str, float], theirs: dict[str, float]) -> bool:
    """Equal up to the last bits (the two sum LEA's fractions in other orders)."""
    return ours == pytest.approx(theirs, rel=1e-12, abs=1e-12)


def check(cases: Case, scores: dict[str, Any], without_empty: Any = None, in_order: Any = None) -> None:
    """corefeval's LEA against spacy-experimental's numbers for the case (``scores``), the case
    without empty span groups and with its span groups in corefeval's reading order."""
    ours = _lea(cases)
    kept = without_empty_groups(cases)
    if has_empty_group(cases):
        assert scores == {"error": "ZeroDivisionError"}
        assert ours == _lea(kept)  # an empty span group is no entity
        scores = without_empty
    if has_repeats(cases):
        assert _same(_lea_repeats_kept(in_reading_order(kept, NLP)), in_order)
    else:
        assert _same(ours, scores)


@pytest.mark.parametrize("entry", _recorded(), ids=lambda e: e["name"])
def test_recorded_spacy_experimental_scores(entry: dict[str, Any]) -> None:
    check(entry["documents"], entry["scores"], entry.get("without_empty"), entry.get("in_reading_order"))


def test_the_recorded_cases_are_the_generated_ones() -> None:
    """The fixture records today's generator (else re-record it) and every kind of case."""
    recorded = {e["name"]: e["documents"] for e in _recorded()}
    generated = {f"seed {s}, repeats {r}": case(s, r) for s in SEEDS for r in (False, True)}
    assert recorded == {**SMALLEST, **generated}
    kinds = {(has_empty_group(c), has_repeats(c)) for c in recorded.values()}
    assert kinds == {(False, False), (False, True), (True, False), (True, True)}


def test_a_span_in_two_clusters_is_scored_as_the_reference_scorer_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the two differ, corefeval's default is the reference scorer's LEA on the same
    documents written as CoNLL-2012: the second copy of the predicted span is ignored (1, 1, 1);
    spacy-experimental keeps both and looks the reference's He up in the later cluster (2/3, 0, 0)."""
    entry = next(e for e in _recorded() if e["name"] == "a span in two predicted clusters")
    assert entry["scores"] == {"coref_p": 2 / 3, "coref_r": 0.0, "coref_f": 0.0}
    cases = entry["documents"]
    assert _lea(cases) == {"coref_p": 1.0, "coref_r": 1.0, "coref_f": 1.0} == _reference_lea(tmp_path, capsys, cases)
    repeating = [e for e in _recorded() if has_repeats(e["documents"])]
    for e in repeating:
        assert _lea(e["documents"]) == _reference_lea(tmp_path, capsys, e["documents"]), e["name"]
    assert sum(not _same(_lea(e["documents"]), e["scores"]) for e in repeating if "error" not in e["scores"]) > 10


def _reference_lea(tmp_path: Path, capsys: pytest.CaptureFixture[str], cases: Case) -> dict[str, float]:
    """``corefeval score -m lea`` on the case written as CoNLL-2012 by corefeval's writer."""
    paths = []
    for corpus, name in zip(corpora(examples(cases, NLP)), ("key.conll", "response.conll")):
        (path := tmp_path / name).write_text(render(corpus, "conll2012")[0], encoding="utf-8")
        paths.append(str(path))
    capsys.readouterr()
    assert main(["score", *paths, "-m", "lea", "--format", "json", "-q"]) == 0
    lea = json.loads(capsys.readouterr().out)["corpus"]["lea"]
    return {"coref_p": lea["precision"], "coref_r": lea["recall"], "coref_f": lea["f1"]}


def test_live_spacy_experimental() -> None:
    """spacy-experimental itself: the recorded numbers are what it gives, and on more seeds the
    same rules hold."""
    pytest.importorskip("spacy_experimental.coref.coref_scorer")
    from tests.integrations.record_spacy_experimental import entry

    for recorded in _recorded():
        assert entry(recorded["name"], recorded["documents"], NLP) == recorded
    for seed in range(40, 140):
        for repeats in (False, True):
            made = entry("", case(seed, repeats), NLP)
            check(made["documents"], made["scores"], made.get("without_empty"), made.get("in_reading_order"))
