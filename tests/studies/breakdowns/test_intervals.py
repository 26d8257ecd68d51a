"""Breakdown intervals of rare groups (issue 32, item 4): a resample that draws no document holding
a group does not count for it, the output says how many resamples held it, and a group held by one
document has no interval."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

from corefeval.cli import main
from corefeval.core.options import Options
from corefeval.scoring.pipeline import score_with
from corefeval.stats.resampling import bootstrap_draws, streams
from corefeval.studies.breakdowns import breakdowns
from corefeval.studies.breakdowns.pairs import read_pair

GUM = Path(__file__).resolve().parents[4] / "shared" / "realdata" / "gum-reddit-corefud" / "en_gumreddit-ud-test.conllu"


def _conll(tmp_path: Path) -> str:
    """20 documents of two-mention entities; documents 3 and 11 also hold an entity of 20 mentions."""
    lines = []
    for d in range(20):
        lines.append(f"#begin document (doc{d}); part 000")
        fields = [f"({k // 2})" for k in range(8)]
        if d in (3, 11):
            fields += ["(9)"] * 20
        lines += [f"doc{d}\t0\t{i}\tw\tNN\t*\t-\t-\t-\t-\t*\t{f}" for i, f in enumerate(fields)]
        lines += ["", "#end document"]
    path = tmp_path / "key.conll"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_resamples_without_the_group_do_not_count_for_it(tmp_path: Path) -> None:
    """A perfect response: the large-entity group, in 2 of 20 documents, scores 100 in every resample
    that holds it; the ~12% of resamples that draw neither document would have scored it 0."""
    key = _conll(tmp_path)
    options = Options(metrics=("lea",))
    k, r = read_pair(key, key, options)
    result = score_with(k, r, options)
    (sizes,) = breakdowns(result, ["entity-size"], k, r, options)
    found = sizes.with_intervals(1000, seed=3)
    big = found.labels.index(">=17")
    group = found.intervals[big] if found.intervals else None
    assert group is not None and group.intervals is not None and group.documents == 2
    draws = bootstrap_draws(streams(3)[0], 20, 1000)
    assert group.held == int(np.isin(draws, [3, 11]).any(axis=1).sum()) < 950  # some resamples lack it
    assert group.intervals.intervals["lea"]["f1"].low == 1.0 == group.intervals.intervals["lea"]["f1"].high
    assert group.drawn == 1000 and group.intervals.resamples == group.held


@pytest.fixture
def gum() -> str:
    if not GUM.exists():
        pytest.skip("the shared GUM files are not there")
    return str(GUM)


def test_a_group_in_one_document_is_too_small_for_an_interval(gum: str, capsys: pytest.CaptureFixture[str]) -> None:
    """GUM's test file has two documents; `plant` is in one: no interval, and how many resamples held it."""
    assert main(["score", gum, gum, "-m", "lea", "--by", "entity-type", "--confidence"]) == 0
    out = capsys.readouterr().out
    plant = [line.split() for line in out.splitlines() if line.lstrip().startswith("plant ")]
    assert [row[2:] for row in plant] == [
        ["LEA", "100.00", "100.00", "100.00", "too", "small:", "1", "document", plant[0][-1]],
        ["mentions", "100.00", "100.00", "100.00", "too", "small:", "1", "document", plant[0][-1]],
    ]
    assert 600 < int(plant[0][-1]) < 900  # of 1000: a resample of two documents lacks it one time in four
    assert "[0.00, 100.00]" not in out
    assert "(intervals from the resamples, of 1000, holding the group; too small: in under 2 documents)" in out


def test_json_and_csv_say_how_many_resamples_and_documents_hold_a_group(gum: str, capsys) -> None:
    args = ["score", gum, gum, "-m", "lea", "--by", "entity-type", "--confidence", "200"]
    assert main([*args, "--format", "json"]) == 0
    groups = {g["group"]: g for g in json.loads(capsys.readouterr().out)["breakdowns"][0]["groups"]}
    assert groups["plant"]["intervals"] is None and groups["plant"]["documents_holding"] == 1
    assert 100 < groups["plant"]["resamples_holding"] < 200
    person = groups["person"]
    assert person["documents_holding"] == 2 and person["resamples_holding"] == 200
    assert person["intervals"]["lea"]["f1"]["low"] == 1.0
    assert main([*args, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out.split("\n", 1)[1])))
    plant = [r for r in rows if r["group"] == "plant"]
    assert plant and all(r["f1_low"] == r["f1_high"] == "" and r["documents_holding"] == "1" for r in plant)
