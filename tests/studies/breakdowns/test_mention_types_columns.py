"""Mention types found for all mentions at once (from the tags) equal the mention-by-mention definition."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.model import Document
from corefeval.readers.corefud import EMPTY, NO_HEAD
from corefeval.studies.breakdowns.mention_types import _by_tags, _one_by_one

TAGS = ["PRP", "NNP", "NN", "DT", "IN", ",", "VBD", "PRON", "PROPN", "NOUN", "ADP", "WP$"]


@st.composite
def documents(draw: st.DrawFn) -> tuple[Document, list[str]]:
    pos = draw(st.lists(st.sampled_from(TAGS), min_size=1, max_size=12))
    n = len(pos)
    spans = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 4)), max_size=8))
    starts = np.array([s for s, _ in spans], dtype=np.int64)
    ends = np.array([min(s + k, n - 1) for s, k in spans], dtype=np.int64)
    heads = None
    if draw(st.booleans()):
        choices = st.sampled_from([NO_HEAD, EMPTY, EMPTY + 3]) | st.integers(0, n - 1)
        heads = np.array([draw(choices) for _ in spans], dtype=np.int64)
    entities = np.zeros(len(spans), dtype=np.int64)
    return Document("d", starts, ends, entities, n_tokens=n, heads=heads), pos


@settings(max_examples=300, deadline=None)
@given(documents())
def test_types_from_tags_at_once_are_the_one_by_one_types(found) -> None:
    doc, pos = found
    assert _by_tags(doc, pos) == _one_by_one(doc, pos, None, None)
