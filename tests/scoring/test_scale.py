"""Streaming, parallel and sharded scoring give exactly the numbers of a plain run; and the fast
contingency-table counts equal the literal definitions on the benchmark corpora."""

from __future__ import annotations

import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from corefeval.core.options import Options
from corefeval.matching.alignment import align
from corefeval.metrics import build
from corefeval.readers import read
from corefeval.scoring.distributed.documents import score_by_documents
from corefeval.scoring.pipeline import score
from corefeval.scoring.results import merge

from ..conftest import SHARED

OFFICIAL = SHARED / "conformance" / "official"
EDGE = SHARED / "conformance" / "edge"
GENERATOR = SHARED / "tools" / "make_synthetic_conll.py"


def generate(tmp: Path, name: str, *args: str) -> tuple[str, str]:
    key, response = tmp / f"{name}.key", tmp / f"{name}.response"
    subprocess.run(
        [
            sys.executable,
            str(GENERATOR),
            *args,
            "--out-key",
            str(key),
            "--out-response",
            str(response),
            "--summary",
            str(tmp / f"{name}.json"),
        ],
        check=True,
    )
    return str(key), str(response)


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory: pytest.TempPathFactory, shared: Path) -> tuple[str, str]:
    return generate(tmp_path_factory.mktemp("small"), "small", "--seed", "3", "--docs", "40", "--mentions", "2000")


@pytest.fixture(scope="module")
def benchmark_inputs(tmp_path_factory: pytest.TempPathFactory, shared: Path) -> dict[str, tuple[str, str]]:
    tmp = tmp_path_factory.mktemp("bench")
    return {
        "corpus": generate(tmp, "c350", "--seed", "2012", "--docs", "350", "--mentions", "19000"),
        "document": generate(
            tmp, "d20k", "--seed", "7", "--docs", "1", "--mentions", "20000", "--max-entity-size", "400"
        ),
    }


CONFORMANCE_PAIRS = (
    sorted(
        {(p.name.split("-")[0] + "-" + p.name.split("-")[1] + ".key", p.name) for p in OFFICIAL.glob("TC-*-*.response")}
    )
    if OFFICIAL.exists()
    else []
)


@pytest.mark.parametrize(("key", "response"), CONFORMANCE_PAIRS)
def test_scoring_by_documents_equals_plain_run_on_conformance_cases(key: str, response: str) -> None:
    a = score(str(OFFICIAL / key), str(OFFICIAL / response))
    b = score_by_documents(str(OFFICIAL / key), str(OFFICIAL / response), Options())
    assert np.array_equal(a.counts, b.counts) and a.signature == b.signature


def test_scoring_by_documents_reports_like_the_reader(shared: Path) -> None:
    a = score(str(EDGE / "E1.key"), str(EDGE / "E1.response"))
    b = score_by_documents(str(EDGE / "E1.key"), str(EDGE / "E1.response"), Options())
    assert np.array_equal(a.counts, b.counts) and a.document_names == b.document_names
    assert {w.message for w in a.warnings} == {w.message for w in b.warnings}
    c = score_by_documents(str(EDGE / "E6.key"), str(EDGE / "E6.response"), Options())
    assert c.corpus["muc"].f1 == 1.0 and any("missing '#end document'" in w.message for w in c.warnings)


def test_scoring_by_documents_equals_plain_run(small_corpus: tuple[str, str]) -> None:
    a = score(*small_corpus)
    b = score_by_documents(*small_corpus, Options())
    assert np.array_equal(a.counts, b.counts) and a.signature == b.signature


def _score_pair(paths: tuple[str, str]):  # type: ignore[no-untyped-def]
    return score(*paths)


def test_sharded_scores_merge_into_the_whole(small_corpus: tuple[str, str], tmp_path: Path) -> None:
    """The documented cluster recipe: score shards anywhere, gather the results, merge them."""
    key, response = read(small_corpus[0]), read(small_corpus[1])
    shards = []
    for i in range(3):
        docs = key.documents[i::3]
        names = {d.name for d in docs}
        shards.append(
            (_write(tmp_path / f"k{i}", small_corpus[0], names), _write(tmp_path / f"r{i}", small_corpus[1], names))
        )
    with ProcessPoolExecutor(max_workers=2) as pool:
        parts = list(pool.map(_score_pair, shards))
    merged = merge(parts)
    whole = score(key, response)
    assert merged.corpus["conll"].f1 == pytest.approx(whole.corpus["conll"].f1, abs=0)
    order = [whole.document_names.index(n) for n in merged.document_names]
    assert np.array_equal(merged.counts, whole.counts[order])
    assert pickle.loads(pickle.dumps(merged)).corpus["blanc"] == merged.corpus["blanc"]


def _write(target: Path, source: str, names: set[str]) -> str:
    """Copy the documents named ``names`` of a CoNLL file (as the shard-splitting step of a pipeline would)."""
    out, keep = [], False
    for line in Path(source).read_text().splitlines(keepends=True):
        if line.startswith("#begin document"):
            keep = line[len("#begin document ") :].rstrip("\n") in names
        if keep:
            out.append(line)
        if line.startswith("#end document"):
            keep = False
    target.write_text("".join(out))
    return str(target)


def test_merge_refuses_different_settings(small_corpus: tuple[str, str]) -> None:
    with pytest.raises(ValueError):
        merge([score(*small_corpus), score(*small_corpus, blanc="paper")])


LITERAL_LIMIT = 3000  # above this many mentions a document's literal CEAF and non-coreference links are too slow


def test_fast_counts_equal_literal_definitions_on_benchmark_inputs(benchmark_inputs: dict) -> None:
    """Every document of both benchmark inputs: contingency-table counts == the reference's literal rules."""
    for key_path, response_path in benchmark_inputs.values():
        key, response = read(key_path), read(response_path).by_name()
        for kdoc in key:
            a = align(kdoc, response[kdoc.name])
            big = kdoc.n_mentions > LITERAL_LIMIT
            kc, rc = a.key_chains(), a.response_chains()
            for name in ("muc", "bcub", "lea") if big else ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea"):
                m = build(name)
                assert np.allclose(m.counts(a)[:8], m.literal_counts(kc, rc)[:8], rtol=1e-12), (kdoc.name, name)
            if big:  # coreference links enumerated pair by pair
                from itertools import combinations

                fast = build("blanc").counts(a)

                ck = {frozenset(p) for c in kc for p in combinations(c, 2)}
                cr = {frozenset(p) for c in rc for p in combinations(c, 2)}
                assert fast[:4] == (len(ck & cr), len(ck), len(ck & cr), len(cr))
