"""Evaluator == the file scorer: documents scored in memory and the same documents written as
CoNLL-2012 and scored from files give the same count rows (repeated spans included: clusters are
read in a file's order, :mod:`corefeval.core.reading_order`), names and key digests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corefeval import Evaluator, score
from corefeval.core.model import Corpus, make_document
from corefeval.core.reading_order import in_reading_order
from corefeval.writers import render

Span = tuple[int, int]


def _crosses(a: Span, b: Span) -> bool:
    return a[0] < b[0] <= a[1] < b[1] or b[0] < a[0] <= b[1] < a[1]


@st.composite
def clusterings(draw: st.DrawFn, n_tokens: int) -> list[list[Span]]:
    """Clusters of spans with repeats within and across clusters, singletons and empty clusters;
    spans of one cluster never cross (CoNLL-2012 brackets cannot hold that)."""
    span = st.tuples(st.integers(0, n_tokens - 1), st.integers(0, 2)).map(
        lambda p: (p[0], min(p[0] + p[1], n_tokens - 1))
    )
    out: list[list[Span]] = []
    for raw in draw(st.lists(st.lists(span, max_size=5), max_size=5)):
        cluster: list[Span] = []
        for s in raw:
            if not any(_crosses(s, t) for t in cluster):
                cluster.append(s)
        out.append(cluster)
    return out


@st.composite
def documents(draw: st.DrawFn) -> tuple[int, list[list[Span]], list[list[Span]]]:
    n = draw(st.integers(1, 10))
    return n, draw(clusterings(n)), draw(clusterings(n))


def _repeated_across(clusters: list[list[Span]]) -> bool:
    owners: dict[Span, set[int]] = {}
    for k, cluster in enumerate(clusters):
        for span in cluster:
            owners.setdefault(span, set()).add(k)
    return any(len(o) > 1 for o in owners.values())


def _write(path: Path, docs: list[tuple[str, int, list[list[Span]]]]) -> None:
    corpus = Corpus(str(path), [make_document(name, clusters, n) for name, n, clusters in docs])
    text, _ = render(corpus, "conll2012")
    path.write_text(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(documents(), min_size=1, max_size=4))
def test_evaluator_equals_file_scorer(tmp_path: Path, docs: list[tuple[int, list, list]]) -> None:
    key_path, response_path = tmp_path / "key.conll", tmp_path / "response.conll"
    _write(key_path, [(f"d{i}", n, key) for i, (n, key, _) in enumerate(docs)])
    _write(response_path, [(f"d{i}", n, response) for i, (n, _, response) in enumerate(docs)])
    from_files = score(str(key_path), str(response_path))

    ev = Evaluator()
    for i, (_, key, response) in enumerate(docs):
        ev.update(key, response, name=f"d{i}")
    in_memory = ev.result()

    assert in_memory.document_names == from_files.document_names
    assert [m.name for m in in_memory.metric_objects] == [m.name for m in from_files.metric_objects]
    np.testing.assert_array_equal(in_memory.counts, from_files.counts)
    for i, (_, key, _) in enumerate(docs):
        if not _repeated_across(key):  # otherwise the digest depends on the order of the copies
            assert in_memory.document_digests[i] == from_files.document_digests[i]
    assert in_memory.corpus == from_files.corpus


@settings(max_examples=150, deadline=None)
@given(st.lists(documents(), min_size=1, max_size=4))
def test_opaque_mentions_equal_spans(docs: list[tuple[int, list, list]]) -> None:
    """Any hashable mentions (here strings naming the spans) give the counts of the spans, given in
    the order spans are read in (opaque mentions are taken in the given order; up to the order of
    float additions)."""
    spans, opaque = Evaluator(), Evaluator()
    for n, key, response in docs:
        spans.update(key, response)
        key, response = (in_reading_order(make_document("", c, n)).clusters() for c in (key, response))
        opaque.update([[f"m{s}-{e}" for s, e in c] for c in key], [[f"m{s}-{e}" for s, e in c] for c in response])
    np.testing.assert_allclose(spans.result().counts, opaque.result().counts, rtol=1e-12, atol=0)
