"""The corpus-wide counting pass equals the per-document path, bit for bit, row for row."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import InputError
from corefeval.core.model import Corpus, Document, make_document
from corefeval.matching.alignment import align
from corefeval.matching.cells import sequential_sums
from corefeval.metrics import build
from corefeval.readers import read
from corefeval.readers.validate import crossing_pairs
from corefeval.scoring.batch import (
    count_rows,
    crossing_documents,
    document_counts,
    document_digest,
    document_digests,
    document_rows,
    segment_sums,
)
from corefeval.scoring.batch.documents import OWN_SHA256_BELOW, sha256_for
from corefeval.scoring.pipeline import empty_like, score

from ..conftest import SHARED

NAMES = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
OBJECTS = {variant: [build(n, variant) for n in NAMES] for variant in ("reference", "paper")}

Span = tuple[int, int]
spans = st.tuples(st.integers(0, 7), st.integers(0, 2)).map(lambda p: (p[0], p[0] + p[1]))


@st.composite
def partitions(draw: st.DrawFn) -> list[list[Span]]:
    """Clusters of distinct spans (some empty, many singletons): documents the pass counts."""
    chosen = draw(st.lists(spans, unique=True, max_size=14))
    n = draw(st.integers(1, 6))
    clusters: list[list[Span]] = [[] for _ in range(n)]
    for s in chosen:
        clusters[draw(st.integers(0, n - 1))].append(s)
    return clusters


#: Clusters where a span may repeat (in one cluster or two): documents left to the per-document path.
repeating = st.lists(st.lists(spans, max_size=5), max_size=5)
documents = st.lists(st.tuples(st.one_of(partitions(), repeating), st.one_of(partitions(), repeating)), max_size=8)


def _pairs(docs: list[tuple[list[list[Span]], list[list[Span]]]]) -> list[tuple[Document, Document]]:
    """Both sides of each document over the same tokens (every span ends before token 10)."""
    return [(make_document(str(i), k, 10), make_document(str(i), r, 10)) for i, (k, r) in enumerate(docs)]


def _per_document(pairs: list[tuple[Document, Document]], objects: list) -> np.ndarray:  # type: ignore[type-arg]
    width = sum(len(m.fields) for m in objects)
    return np.array([document_counts(objects, align(k, r)) for k, r in pairs], dtype=float).reshape(-1, width)


@settings(max_examples=400, deadline=None)
@given(documents, st.sampled_from(["reference", "paper"]))
def test_rows_equal_the_per_document_path(docs: list, variant: str) -> None:  # type: ignore[type-arg]
    pairs = _pairs(docs)
    objects = OBJECTS[variant]
    expected = _per_document(pairs, objects)
    rows, alone = count_rows(pairs, objects)
    for i, (k, r) in enumerate(pairs):
        a = align(k, r)
        assert alone[i] == bool(a.repeats or a.dropped_rows.size), i
    assert np.array_equal(rows[~alone], expected[~alone])
    assert not rows[alone].any()
    assert np.array_equal(document_rows(pairs, objects), expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(partitions(), partitions()), min_size=1, max_size=6))
def test_documents_without_repeats_are_all_counted_together(docs: list) -> None:  # type: ignore[type-arg]
    pairs = _pairs(docs)
    rows, alone = count_rows(pairs, OBJECTS["reference"])
    assert not alone.any()
    assert np.array_equal(rows, _per_document(pairs, OBJECTS["reference"]))


@settings(max_examples=200, deadline=None)
@given(documents)
def test_digests_equal_each_documents_own(docs: list) -> None:  # type: ignore[type-arg]
    keys = [k for k, _ in _pairs(docs)]
    assert document_digests(keys) == [document_digest(k) for k in keys]


@pytest.mark.parametrize("size", [0, 1, 100, OWN_SHA256_BELOW - 1, OWN_SHA256_BELOW, 3 * OWN_SHA256_BELOW])
def test_each_sha256_gives_hashlibs_digest(size: int) -> None:
    """Small inputs are hashed by CPython's own SHA-256 (quick to load), large ones by OpenSSL's:
    the digests are the same either way."""
    import hashlib

    data = np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8).tobytes()
    assert sha256_for(size)(data).digest() == hashlib.sha256(data).digest()
    assert (sha256_for(size) is hashlib.sha256) is (size >= OWN_SHA256_BELOW)


def test_discontinuous_mentions_take_the_per_document_path() -> None:
    k = make_document("d", [[(0, 2), (4, 4)]])
    k = Document(k.name, k.starts, k.ends, k.entities, k.labels, k.n_tokens, parts={0: (0, 2)})
    r = make_document("d", [[(0, 2), (4, 4)]])
    rows, alone = count_rows([(k, r), (r, r)], OBJECTS["reference"])
    assert alone.tolist() == [True, False]
    assert np.array_equal(document_rows([(k, r)], OBJECTS["reference"]), _per_document([(k, r)], OBJECTS["reference"]))


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.lists(st.integers(0, 3000), max_size=6), st.lists(st.integers(0, 300), max_size=80)),
    st.integers(0, 2**32 - 1),
)
def test_segment_sums_are_ndarray_sums(lengths: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.random(sum(lengths)) / rng.integers(1, 97, sum(lengths))
    segments = np.repeat(np.arange(len(lengths)), lengths)
    bounds = np.cumsum([0, *lengths])
    expected = [values[a:b].sum() for a, b in zip(bounds[:-1], bounds[1:])]
    assert segment_sums(values, segments, len(lengths)).tolist() == expected


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.lists(st.integers(0, 3000), max_size=6), st.lists(st.integers(0, 300), max_size=80)),
    st.integers(0, 2**32 - 1),
)
def test_sequential_sums_add_one_value_after_another(lengths: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.random(sum(lengths)) / rng.integers(1, 97, sum(lengths))
    segments = np.repeat(np.arange(len(lengths)), lengths)
    bounds = np.cumsum([0, *lengths])
    expected = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        total = 0.0
        for v in values[a:b].tolist():
            total += v
        expected.append(total)
    assert sequential_sums(values, segments, len(lengths)).tolist() == expected


def _file_pairs() -> list[tuple[Path, Path]]:
    official = sorted((SHARED / "conformance" / "official").glob("*.key"))
    out = [(k, r) for k in official for r in sorted(k.parent.glob(k.stem + "*.response"))]
    edge = sorted((SHARED / "conformance" / "edge").glob("*.key"))
    out += [(k, r) for k in edge for r in sorted(k.parent.glob(k.stem + "*.response"))]
    ukp = SHARED / "realdata" / "ukp-cdcr-cl2021"
    out += [(g, g.parent / "system.conll") for g in sorted(ukp.glob("**/gold.conll"))]
    hyper = SHARED / "realdata" / "ukp-hypercoref-emnlp2021"
    for corpus in ("ecbp", "gvc"):
        keys = sorted((hyper / "key" / corpus).glob("*.conll"))
        systems = sorted(hyper.glob(f"sys_*/**/{corpus}*/**/*.conll")) + sorted(
            hyper.glob(f"sys_*/**/{corpus}/*/*/*.conll")
        )
        out += [(keys[0], s) for s in dict.fromkeys(systems)] if keys else []
    return out


FILE_PAIRS = _file_pairs()


@pytest.mark.parametrize("key, response", FILE_PAIRS, ids=[f"{k.parent.name}/{r.name}" for k, r in FILE_PAIRS])
def test_scores_of_shared_files_equal_the_per_document_path(key: Path, response: Path) -> None:
    try:
        key_corpus = read(str(key), role="key")
        response_corpus = read(str(response), role="response", key=key_corpus)
    except InputError as error:  # files meant to be refused are the readers' tests
        pytest.skip(f"unreadable: {error}")
    if not set(key_corpus.by_name()) & set(response_corpus.by_name()):  # E1.key with E10.response, E9a
        with pytest.raises(InputError, match="no document of the response is in the key"):
            score(key_corpus, response_corpus, ["all"])
        return
    result = score(key_corpus, response_corpus, ["all"])
    responses = response_corpus.by_name()
    pairs = [(k, responses.get(n) or empty_like(k)) for n, k in key_corpus.by_name().items()]
    objects = list(result.metric_objects)
    assert np.array_equal(result.counts, _per_document(pairs, objects))


def test_in_memory_corpora_score_as_the_per_document_path() -> None:
    docs = [([[(0, 1), (3, 3)], [(5, 6)]], [[(0, 1), (5, 6)], [(3, 3)], [(8, 8)]]), ([[(2, 2)]], [])]
    pairs = _pairs(docs)
    result = score(Corpus("k", [k for k, _ in pairs]), Corpus("r", [r for _, r in pairs]), ["all"])
    assert np.array_equal(result.counts, _per_document(pairs, list(result.metric_objects)))


@settings(max_examples=300, deadline=None)
@given(documents)
def test_crossing_documents_are_those_with_a_crossing_pair(docs: list) -> None:  # type: ignore[type-arg]
    keys = [k for k, _ in _pairs(docs)]
    expected = [bool(crossing_pairs(k.starts, k.ends)) for k in keys]
    assert crossing_documents(keys).tolist() == expected
