"""LitBank (CoNLL-2012) and GUM Reddit (CorefUD) convert to every format and back without loss, and
scoring a CoNLL-2012 pair or its CorefUD conversion gives identical numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from corefeval.readers import read
from corefeval.scoring.pipeline import score
from corefeval.writers import render

from .helpers import same_corpus

FORMATS = ("conll2012", "corefud", "jsonlines")


def _convert(path: str, fmt: str, out: Path) -> str:
    text, notes = render(read(path, keep_tokens=True), fmt)
    assert notes == []
    out.write_text(text)
    return str(out)


def _litbank(shared: Path) -> list[Path]:
    return sorted((shared / "realdata" / "litbank" / "conll").glob("*.conll"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_litbank_round_trip(shared: Path, tmp_path: Path, fmt: str) -> None:
    files = _litbank(shared)
    assert len(files) == 100
    for f in files:
        original = read(str(f), keep_tokens=True)
        there = _convert(str(f), fmt, tmp_path / f"there.{fmt}")
        back = _convert(there, "conll2012", tmp_path / "back.conll")
        assert read(there).format == fmt
        same_corpus(original, read(there, keep_tokens=True))
        same_corpus(original, read(back, keep_tokens=True))


@pytest.mark.parametrize("split", ["train", "dev", "test"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_gum_round_trip(shared: Path, tmp_path: Path, split: str, fmt: str) -> None:
    path = str(shared / "realdata" / "gum-reddit-corefud" / f"en_gumreddit-ud-{split}.conllu")
    original = read(path, keep_tokens=True)
    there = _convert(path, fmt, tmp_path / f"there.{fmt}")
    back = _convert(there, "corefud", tmp_path / "back.conllu")
    same_corpus(original, read(there, keep_tokens=True), heads=fmt == "corefud")
    same_corpus(original, read(back, keep_tokens=True), heads=fmt == "corefud")
    if fmt == "corefud":  # sentences and split antecedents survive too
        assert read(back).sentences == original.sentences
        assert read(back).split_antecedents == original.split_antecedents


UKP_PAIRS = [
    (
        "ukp-cdcr-cl2021/ba2019/ecbp_CD_test_event_mention_based.key_conll",
        "ukp-cdcr-cl2021/ba2019/ecbp_evaluate_clustering_with_gold_clustering/CD_test_event_mention_based.response_conll",
    ),
    (
        "ukp-cdcr-cl2021/feature-based/gvc_evaluate_clustering/0/within_doc/gold.conll",
        "ukp-cdcr-cl2021/feature-based/gvc_evaluate_clustering/0/within_doc/system.conll",
    ),
    (
        "ukp-hypercoref-emnlp2021/key/ecbp/test_events_corpus_level.conll",
        "ukp-hypercoref-emnlp2021/sys_mentiondetection/sg/sg_bbc_25k/events_10_0.25/ecbp/closure/0/"
        "test_events_average_1e-05_model_0_corpus_level.conll",
    ),
]


@pytest.mark.parametrize("key,response", UKP_PAIRS, ids=["ba2019", "within-doc", "predicted-mentions"])
@pytest.mark.parametrize("fmt", ["corefud", "jsonlines"])
def test_conll_to_other_format_scores_identically(
    shared: Path, tmp_path: Path, key: str, response: str, fmt: str
) -> None:
    key_path, response_path = (str(shared / "realdata" / p) for p in (key, response))
    direct = score(key_path, response_path)
    k2 = _convert(key_path, fmt, tmp_path / f"key.{fmt}")
    r2 = _convert(response_path, fmt, tmp_path / f"response.{fmt}")
    k3 = _convert(k2, "conll2012", tmp_path / "key.conll")
    r3 = _convert(r2, "conll2012", tmp_path / "response.conll")
    for k, r in ((k2, r2), (k3, r3), (key_path, r2)):
        again = score(k, r)
        if fmt == "corefud" and r == r2:
            # a CorefUD file orders its entities over the whole file (as udapi does), and these
            # cross-document entities recur in later documents: the same counts, added in another order
            np.testing.assert_allclose(again.counts, direct.counts, rtol=1e-13, atol=0)
            continue
        assert np.array_equal(again.counts, direct.counts)
        assert again.signature.split("|key:")[1].split("|")[0] == direct.key_digest
