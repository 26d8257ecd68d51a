"""MOR and the zero score count what the CorefUD scorer counts, per document, in every mode.

``tests/data/corefud_peer`` holds random file pairs (``tests/corefud_random.py``) and the CorefUD
scorer's counts on them (``record.py --fixture`` rewrites both); the live test runs the scorer on
new pairs where it is installed (``COREFUD_SCORER``: its ``corefud-scorer.py``; ``COREFUD_PYTHON``:
a Python with udapi).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from .corefud_random import pair
from .peer_counts import our_counts

DATA = Path(__file__).resolve().parent / "data" / "corefud_peer"
RECORDED = json.loads((DATA / "counts.json").read_text())
SCORER = Path(os.environ.get("COREFUD_SCORER", "/work/scratch/peers/corefud-scorer/corefud-scorer.py"))
PYTHON = Path(os.environ.get("COREFUD_PYTHON", "/work/scratch/peers/corefud-venv/bin/python"))
#: Documents whose zeros ``--zeros dependent`` pairs otherwise than the CorefUD scorer: zeros of the
#: key tie for response zeros beside a response mention that begins at an empty node; ties of
#: single zeros are broken as the CorefUD scorer breaks them (``matching``), this one is not yet
#: explained. (seed, document, singletons)
ZERO_PAIRING_TIES = {("5", "d5x0", "keep"), ("5", "d5x0", "remove")}


def _cases() -> list[object]:
    out = []
    for seed, by_mode in sorted(RECORDED.items()):
        for mode, docs in sorted(by_mode.items()):
            match, singletons, zeros = mode.split("/")
            for doc in sorted(docs):
                marks = []
                if zeros == "dependent" and (seed, doc, singletons) in ZERO_PAIRING_TIES:
                    marks.append(pytest.mark.xfail(strict=True, reason="zero ties beside an empty-node mention"))
                out.append(pytest.param(seed, mode, doc, marks=marks, id=f"{seed}-{mode}-{doc}"))
    return out


@pytest.mark.parametrize("seed,mode,doc", _cases())
def test_recorded_counts(seed: str, mode: str, doc: str) -> None:
    ours = our_counts(str(DATA / f"key{seed}.conllu"), str(DATA / f"response{seed}.conllu"), *mode.split("/"))
    assert ours[doc] == RECORDED[seed][mode][doc]


def test_the_fixture_has_zeros_of_every_outcome() -> None:
    rows = [d["zero"] for by_mode in RECORDED.values() for docs in by_mode.values() for d in docs.values()]
    assert any(r[0] > 0 for r in rows)  # true positives
    assert any(r[1] > r[0] for r in rows) and any(r[3] > r[0] for r in rows)  # misses and inventions
    mor = [d["mor"] for by_mode in RECORDED.values() for docs in by_mode.values() for d in docs.values()]
    assert any(0 < r[0] < min(r[1], r[3]) for r in mor)


@pytest.mark.parametrize("seed", [101, 102, 103, 104])
def test_live_against_the_corefud_scorer(seed: int, tmp_path: Path) -> None:
    if not SCORER.is_file() or not PYTHON.is_file():
        pytest.skip(f"the CorefUD scorer is not installed ({SCORER}, {PYTHON}); set COREFUD_SCORER and COREFUD_PYTHON")
    key, response = pair(seed)
    (tmp_path / "k.conllu").write_text(key)
    (tmp_path / "r.conllu").write_text(response)
    run = subprocess.run(
        [
            str(PYTHON),
            str(DATA / "record.py"),
            "--scorer",
            str(SCORER.parent),
            str(tmp_path / "k.conllu"),
            str(tmp_path / "r.conllu"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    peer = json.loads(run.stdout)
    for mode, docs in peer.items():
        ours = our_counts(str(tmp_path / "k.conllu"), str(tmp_path / "r.conllu"), *mode.split("/"))
        for doc, counts in docs.items():
            assert ours[doc]["mor"] == counts["mor"], (mode, doc)
            if mode.endswith("/include"):
                assert ours[doc]["zero"] == counts["zero"], (mode, doc)
