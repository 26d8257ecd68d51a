"""The worked example of docs/breakdowns.md: the page's command output, and its hand counts."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from corefeval.cli import main
from corefeval.core.options import Options
from corefeval.scoring.pipeline import score_with
from corefeval.studies.breakdowns import Breakdown, breakdowns
from corefeval.studies.breakdowns.pairs import read_pair

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parent / "data"
KEY, RESPONSE = str(DATA / "key.conllu"), str(DATA / "response.conllu")
PAGE = (ROOT / "docs" / "breakdowns.md").read_text(encoding="utf-8")
KINDS = ["genre", "length", "mention-type", "distance", "sentence-distance", "entity-size", "entity-type"]


@pytest.fixture(scope="module")
def found() -> dict[str, Breakdown]:
    options = Options(metrics=("lea",))
    key, response = read_pair(KEY, RESPONSE, options)
    result = score_with(key, response, options)
    return {b.kind: b for b in breakdowns(result, KINDS, key, response, options)}


def test_the_page_shows_what_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["score", KEY, RESPONSE, "-m", "lea", "--confidence"] + [x for k in KINDS for x in ("--by", k)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    shown = re.search(r"prints:\n\n```text\n(.*?)```", PAGE, re.S)
    assert shown is not None
    version = re.compile(r"corefeval:[^|]+\|")  # the page may be older than the version
    assert version.sub("corefeval:V|", shown.group(1)) == version.sub("corefeval:V|", printed)


def _anaphors(b: Breakdown, group: str) -> list[float]:
    return list(b[group].counts.sum(axis=0))


# (tp, tp + fn + wl, tp, tp + wl + fp) of each group, from the page's table.
ANAPHORS = {
    "mention-type": {"pronoun": [2, 3, 2, 3], "proper": [0, 1, 0, 2], "nominal": [0, 1, 0, 0]},
    "distance": {"0": [1, 1, 1, 1], "1-7": [1, 4, 1, 4]},
    "sentence-distance": {"0": [1, 1, 1, 2], "1": [1, 4, 1, 3]},
}


@pytest.mark.parametrize("kind", list(ANAPHORS))
def test_anaphor_counts_are_the_pages(found: dict[str, Breakdown], kind: str) -> None:
    b = found[kind]
    assert {g: _anaphors(b, g) for g in b.labels} == ANAPHORS[kind]
    assert np.allclose(b.totals().sum(axis=0), [2, 5, 2, 5])


# LEA (recall num, den, precision num, den), then mentions, from the page.
ENTITIES = {
    "entity-size": {"2": [2, 6, 2, 6, 6, 6, 6, 6], "3-4": [1, 3, 1, 3, 3, 3, 3, 3]},
    "entity-type": {"person": [3, 7, 3, 5, 7, 7, 5, 5], "organization": [0, 2, 0, 4, 2, 2, 4, 4]},
}


@pytest.mark.parametrize("kind", list(ENTITIES))
def test_entity_counts_are_the_pages(found: dict[str, Breakdown], kind: str) -> None:
    b = found[kind]
    got = {g: [round(x, 9) for x in b[g].counts.sum(axis=0)] for g in b.labels}
    assert got == ENTITIES[kind]


def test_document_groups_are_the_pages(found: dict[str, Breakdown]) -> None:
    genre = found["genre"]
    assert genre.labels == ("nw", "bc")
    lea = genre["nw"].columns["lea"]
    assert list(genre["nw"].counts.sum(axis=0)[lea]) == [3, 5, 3, 5]
    assert list(genre["bc"].counts.sum(axis=0)[lea]) == [0, 4, 0, 4]
    assert found["length"].labels == ("0-127",)
