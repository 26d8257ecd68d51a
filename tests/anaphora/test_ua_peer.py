"""corefeval's Universal Anaphora measures equal the UA scorer's (juntaoy/universal-anaphora-scorer),
every number, in every mode of :data:`MODES`.

Recorded: generated pairs with fixed seeds and the scorer's numbers for them
(``tests/data/ua/ua_peer.json``, written by ``tests/anaphora/record_ua_peer.py``), checked everywhere.
Live (skipped where the scorer is not checked out): hypothesis-chosen generated pairs, and the
UA-format test files of the scorer and of ufal/corefud-scorer's ``tests-ua``.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .generator import pair
from .ua_peer import MODES, Peer, our_scores, scorer_path, ua_test_pairs

FIXTURE = Path(__file__).parents[1] / "data" / "ua" / "ua_peer.json"
SCORER = scorer_path()
needs_scorer = pytest.mark.skipif(
    SCORER is None,
    reason="the UA scorer is not checked out (it is not on PyPI): set UA_SCORER to its ua-scorer.py "
    "(github.com/juntaoy/universal-anaphora-scorer) and UA_PYTHON to a Python with numpy and scipy",
)
#: Where ufal/corefud-scorer's UA test files are (its ``tests/tests-ua``), for the live file test.
COREFUD_TESTS = Path(os.environ.get("COREFUD_SCORER_TESTS", "/work/scratch/peers/corefud-scorer/tests/tests-ua"))


def assert_equal(theirs: dict[str, object], ours: dict[str, object], where: str) -> int:
    """Every number of ``theirs`` equals ``ours``; returns how many were compared."""
    compared = 0
    for name, values in theirs.items():
        if name == "documents":
            assert ours[name] == values, where
            continue
        assert isinstance(values, list)
        mine = ours[name]
        assert isinstance(mine, list)
        for a, b in zip(values, mine, strict=True):
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), f"{where} {name}: {values} != {mine}"
            compared += 1
    return compared


def _write(tmp: Path, seed: int) -> tuple[Path, Path]:
    key, response = pair(seed)
    k, r = tmp / f"{seed}.key", tmp / f"{seed}.response"
    k.write_text(key, encoding="utf-8")
    r.write_text(response, encoding="utf-8")
    return k, r


def test_recorded_pairs(tmp_path: Path) -> None:
    record = json.loads(FIXTURE.read_text(encoding="utf-8"))["pairs"]
    compared = 0
    for seed, modes in record.items():
        k, r = _write(tmp_path, int(seed))
        for mode, theirs in modes.items():
            compared += assert_equal(theirs, our_scores(k, r, mode), f"seed {seed} {mode}")
    assert compared > 5000


@needs_scorer
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=1000, max_value=2**32))
def test_generated_pairs_live(tmp_path: Path, seed: int) -> None:
    assert SCORER is not None
    k, r = _write(tmp_path, seed)
    theirs = Peer(SCORER).many([(k, r)], list(MODES))[0]
    for mode in MODES:
        if "error" in theirs[mode]:
            continue  # a failure of the scorer (see docs/anaphora.md), ours is tested on its cases
        assert_equal(theirs[mode], our_scores(k, r, mode), f"seed {seed} {mode}")


@needs_scorer
def test_test_files_live() -> None:
    assert SCORER is not None
    files = ua_test_pairs([SCORER.parent / "plural-tests", COREFUD_TESTS])
    results = Peer(SCORER).many(files, list(MODES))
    compared = 0
    for (k, r), modes in zip(files, results):
        for mode, theirs in modes.items():
            if "error" in theirs:
                continue
            compared += assert_equal(theirs, our_scores(k, r, mode), f"{r} {mode}")
    assert compared > 0
