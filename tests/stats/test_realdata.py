"""ECB+ event coreference outputs (Bugert et al. 2021): within-document and cross-document scoring."""

from __future__ import annotations

import re

import pytest

from corefeval.stats.compare import compare

BASE = "realdata/ukp-cdcr-cl2021/feature-based"
LEMMA = "ecbp_lemma_baselines/lemma"
MODEL = "ecbp_evaluate_clustering/0"


def normalised(src, dst):  # type: ignore[no-untyped-def]
    """A copy with the CoNLL-2012 document header (the files write ``#begin document(NAME);``)."""
    text = re.sub(r"^#begin document\((.*)\);$", r"#begin document \1", src.read_text(), flags=re.M)
    dst.write_text(re.sub(r"^#end document;$", "#end document", text, flags=re.M))
    return str(dst)


@pytest.fixture()
def ecb(shared, tmp_path):
    def files(scope: str) -> tuple[str, str, str]:
        root = shared / BASE
        return (
            normalised(root / LEMMA / scope / "gold.conll", tmp_path / f"gold_{scope}.conll"),
            normalised(root / LEMMA / scope / "system.conll", tmp_path / f"lemma_{scope}.conll"),
            normalised(root / MODEL / scope / "system.conll", tmp_path / f"model_{scope}.conll"),
        )

    return files


def test_within_document_comparison(ecb):
    key, lemma, model = ecb("within_doc")
    c = compare(key, lemma, [model], ["muc", "bcub", "ceafe", "conll"], resamples=1000, rounds=10000)
    assert len(c.systems[0].result.document_names) == 206
    assert c.warnings == []
    # the authors' coval scores (eval_*_within_doc.txt)
    assert c.systems[0].result.corpus["conll"].f1 == pytest.approx(0.784165, abs=1e-6)
    assert c.systems[1].result.corpus["conll"].f1 == pytest.approx(0.805252, abs=1e-6)
    tests = c.systems[1].tests
    assert tests.approximate_randomization["conll"] < 0.05 and tests.paired_bootstrap["conll"] < 0.05
    assert tests.approximate_randomization["ceafe"] > 0.05 and tests.paired_bootstrap["ceafe"] > 0.05


def test_cross_document_corpus_warns(ecb):
    key, lemma, model = ecb("cross_doc")
    c = compare(key, lemma, [model], ["conll"], resamples=200, rounds=200)
    assert len(c.systems[0].result.document_names) == 1
    assert any("scored as a single document" in w.message for w in c.warnings)
    assert c.systems[1].tests.approximate_randomization["conll"] == 1.0
    assert c.systems[1].tests.paired_bootstrap["conll"] == 1.0
    assert c.systems[1].confidence.intervals["conll"]["f1"].half_width == 0.0
