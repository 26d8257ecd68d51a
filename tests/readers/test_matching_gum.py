"""Head, partial and exact matching, with and without singletons, on GUM Reddit (CorefUD).

The response is the gold file made imperfect by ``noisy.noisy_corpus``; the expected CoNLL and LEA
F1 (percent, 2 decimals) were printed by the CRAC shared tasks' scorer (corefud-scorer v1.2, run
outside this repository on the same two files as written by corefeval's CorefUD writer):
``corefud-scorer.py GOLD NOISY -a MODE [-s] -m muc bcub ceafe lea``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corefeval.readers import read
from corefeval.scoring.pipeline import score
from corefeval.writers import render

from .noisy import noisy_corpus

# split, match, singletons -> (CoNLL F1, LEA F1, MUC F1) from corefud-scorer
CRAC_SCORER = {
    ("dev", "exact", "keep"): (69.74, 58.38, 66.25),
    ("dev", "exact", "remove"): (65.88, 56.17, 66.25),
    ("dev", "partial", "keep"): (72.97, 61.64, 68.33),
    ("dev", "partial", "remove"): (67.85, 58.87, 68.33),
    ("dev", "head", "keep"): (78.68, 68.12, 73.33),
    ("dev", "head", "remove"): (72.55, 65.60, 73.33),
    ("test", "exact", "keep"): (66.48, 52.89, 64.16),
    ("test", "exact", "remove"): (61.82, 51.08, 64.16),
    ("test", "partial", "keep"): (72.90, 59.84, 69.70),
    ("test", "partial", "remove"): (66.92, 57.97, 69.70),
    ("test", "head", "keep"): (79.85, 69.23, 78.02),
    ("test", "head", "remove"): (74.87, 69.98, 78.42),
}


@pytest.fixture(scope="module")
def files(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    out = {}
    folder = tmp_path_factory.mktemp("gum")
    for split in ("dev", "test"):
        # tree heads written as head fields: the files the recorded numbers were made from
        path = shared / "realdata" / "gum-reddit-corefud" / f"en_gumreddit-ud-{split}.conllu"
        gold = read(str(path), heads="tree")
        key, response = folder / f"{split}.gold.conllu", folder / f"{split}.noisy.conllu"
        key.write_text(render(gold, "corefud")[0])
        response.write_text(render(noisy_corpus(gold, gold.sentences), "corefud")[0])
        out[split] = (str(key), str(response))
    return out


@pytest.mark.parametrize("split,match,singletons", sorted(CRAC_SCORER))
def test_matches_crac_scorer(files: dict[str, tuple[str, str]], split: str, match: str, singletons: str) -> None:
    key, response = files[split]
    result = score(key, response, ("muc", "lea", "conll"), match=match, singletons=singletons)
    conll, lea, muc = CRAC_SCORER[(split, match, singletons)]
    assert round(result["conll"].f1 * 100, 2) == conll
    assert round(result["lea"].f1 * 100, 2) == lea
    assert round(result["muc"].f1 * 100, 2) == muc
    assert f"match:{match}|singletons:{singletons}" in result.signature


def test_head_and_partial_forgive_what_exact_does_not(files: dict[str, tuple[str, str]]) -> None:
    key, response = files["dev"]
    f1 = {m: score(key, response, ("conll",), match=m)["conll"].f1 for m in ("exact", "partial", "head")}
    assert f1["exact"] < f1["partial"] < f1["head"]
