"""Each grouping is a partition: its groups' counts add up to the counts of the whole corpus."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.model import Corpus, Document, make_document
from corefeval.core.options import Options
from corefeval.metrics.anaphors import outcomes
from corefeval.scoring.pipeline import score_with
from corefeval.studies.breakdowns import breakdown, by_manifest
from corefeval.studies.breakdowns.pairs import aligned_pairs

NAMES = ("nw/a", "nw/b", "bc/c", "wb/d")


@st.composite
def documents(draw: st.DrawFn, name: str) -> tuple[Document, Document]:
    """A key and a response over the same tokens, without repeated spans on either side."""
    spans = draw(
        st.lists(
            st.tuples(st.integers(0, 60), st.integers(0, 3)).map(lambda t: (t[0], t[0] + t[1])),
            min_size=1,
            max_size=25,
            unique=True,
        )
    )
    key = _clusters(spans, draw(st.lists(st.integers(0, 5), min_size=len(spans), max_size=len(spans))))
    kept = [
        s for s, keep in zip(spans, draw(st.lists(st.booleans(), min_size=len(spans), max_size=len(spans)))) if keep
    ]
    extra = [(s, s) for s in draw(st.lists(st.integers(70, 90), max_size=5, unique=True))]
    answer = kept + extra
    response = _clusters(answer, draw(st.lists(st.integers(0, 5), min_size=len(answer), max_size=len(answer))))
    pos = tuple(draw(st.lists(st.sampled_from(["PRON", "PROPN", "NOUN"]), min_size=100, max_size=100)))
    k = make_document(name, key, n_tokens=100)
    r = make_document(name, response, n_tokens=100)
    return _with_pos(k, pos), _with_pos(r, pos)


def _clusters(spans: list[tuple[int, int]], entity: list[int]) -> list[list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for s, e in zip(spans, entity):
        out.setdefault(e, []).append(s)
    return list(out.values())


def _with_pos(doc: Document, pos: tuple[str, ...]) -> Document:
    from dataclasses import replace

    return replace(doc, pos=pos)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[Corpus, Corpus]:
    n = draw(st.integers(1, len(NAMES)))
    pairs = [draw(documents(name)) for name in NAMES[:n]]
    return Corpus("key", [k for k, _ in pairs]), Corpus("response", [r for _, r in pairs])


def _everything(doc: Document) -> np.ndarray:
    return np.ones(doc.n_mentions, dtype=bool)


@settings(max_examples=40, deadline=None)
@given(corpora())
def test_groups_add_up_to_the_whole(pair: tuple[Corpus, Corpus]) -> None:
    key, response = pair
    options = Options(metrics=("muc", "lea", "conll"))
    result = score_with(key, response, options)
    whole = result.counts.sum(axis=0)
    for kind in ("genre", "length", r"/(\w)"):
        b = breakdown(result, kind, key, response)
        assert np.allclose(b.totals().sum(axis=0), whole)
        assert sum(b.sizes) == len(key)
    b = by_manifest(result, {"nw/a": "first"})
    assert np.allclose(b.totals().sum(axis=0), whole)

    pairs = aligned_pairs(key, response, result.settings)
    tp = fn = wl = fp = 0
    for p in pairs:
        a, b_, c, d = outcomes(p.key, p.response, p.alignment, _everything)
        tp, fn, wl, fp = tp + a, fn + b_, wl + c, fp + d
    for kind in ("mention-type", "distance"):
        b = breakdown(result, kind, key, response, pairs=pairs)
        total = b.totals().sum(axis=0) if b.labels else np.zeros(4)  # no anaphor at all: no group
        assert np.allclose(total, [tp, tp + fn + wl, tp, tp + wl + fp])
        assert sum(b.sizes) == tp + fn + wl

    lea, mentions = whole[result.columns["lea"]], whole[result.columns["mentions"]]
    for kind in ("entity-size", "entity-type"):
        b = breakdown(result, kind, key, response, pairs=pairs)
        total = b.totals().sum(axis=0)
        assert np.allclose(total[:4], lea)
        assert np.allclose(total[4:], mentions)
        assert sum(b.sizes) == sum(d.n_entities for d in key)
