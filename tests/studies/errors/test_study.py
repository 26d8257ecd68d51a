"""Automatic counts against the hand counts of the 2022 human-judgment study (../shared/human-study)."""

from __future__ import annotations

import csv

import pytest

from corefeval.readers.conll2012 import read_conll2012
from corefeval.studies.errors import TYPES
from corefeval.studies.errors.analysis import analyse
from corefeval.studies.errors.compare import agreement


def _read(path):
    # The study files hold one malformed label "(-" (passage 121): not a mention, read leniently as "-".
    return read_conll2012(str(path), lenient=True)


@pytest.fixture(scope="module")
def study(shared):
    folder = shared / "human-study"
    if not (folder / "errors.csv").is_file():
        pytest.skip("the study data is not in ../shared")
    with open(folder / "errors.csv", encoding="utf-8") as fh:
        rows = list(csv.reader(fh, delimiter=";"))[1:]
    hand = [{t: int(x) if x else None for t, x in zip(TYPES, row[1:], strict=True)} for row in rows]
    gold, system = _read(folder / "GOLD.txt"), _read(folder / "SYS.txt")
    layer = _read(folder / "GOLD-b185f93-with-singletons.txt")
    return gold, system, layer, hand


def _rates(study, with_layer):
    gold, system, layer, hand = study
    result = analyse(gold, system, layer if with_layer else None, costs=False)
    auto = [d.counts for d in result.documents]
    return agreement(auto[:108], hand[:108]), agreement(auto[108:], hand[108:])


def test_study_passages_are_analysed_in_file_order(study):
    gold, system, _, hand = study
    result = analyse(gold, system, costs=False)
    assert len(result.documents) == len(hand) == 127
    assert [d.name for d in result.documents] == [d.name for d in gold.documents]
    assert result.documents[52].counts == dict.fromkeys(TYPES, 0)  # passage 53: SYS equals GOLD


def test_beats_the_prototype_on_single_error_passages(study):
    single, _ = _rates(study, with_layer=False)
    assert single["all"] > 0.726
    single_layer, _ = _rates(study, with_layer=True)
    assert single_layer["all"] > 0.774
    assert min(single_layer[t] for t in TYPES) >= 0.85
