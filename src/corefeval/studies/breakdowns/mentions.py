"""Mention groups: anaphor-level scores by mention type and by distance to the antecedent.

Every key mention that is not the first of its entity is an anaphor and has one outcome (true
positive, false negative or wrong link), and every response mention that is not the first of its
entity and is no key anaphor's counterpart is a false positive, as in
:mod:`corefeval.metrics.anaphors` with a filter that accepts every mention. A key anaphor counts in
the group of its key mention, a false positive in the group of its response mention (both found in
their own document), so the groups of a grouping add up to the whole:

* recall of group g = tp_g / (tp_g + fn_g + wl_g);
* precision of group g = tp_g / (tp_g + wl_g + fp_g).

An anaphor's distance is to the mention before it in its entity (the CorefUD scorer's order): in
tokens, the words between the end of that mention and the start of the anaphor (0 when they touch
or overlap); in sentences, the difference of the sentences their first words are in (sentences as
the key file gives them: CoNLL-2012 blank lines, CorefUD and UA sentences, jsonlines ``sentences``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ...core.model import Corpus, Document
from ...metrics.anaphors import FALSE_NEGATIVE, TRUE_POSITIVE, anaphor_rows, entities_in_order
from ...metrics.base import Metric
from ...scoring.results import ScoreResult
from .buckets import bucket_labels, bucket_of
from .groups import Breakdown, group_results
from .mention_types import TYPES, Rules, mention_types
from .pairs import AlignedPair

#: Distance bucket edges: in tokens, and in sentences.
TOKEN_EDGES = (1, 8, 32, 128, 512)
SENTENCE_EDGES = (1, 2, 3, 6, 11)
#: A function giving the group of every row of a document (``None``: not an anaphor).
RowGroups = Callable[[Document, Document], list[str | None]]


class AnaphorLevel(Metric):
    """The anaphor-level score of a group: counts made by :func:`anaphor_counts`, not from cells."""

    name = "anaphors"
    title = "Anaphors"


def antecedents(doc: Document) -> dict[int, int]:
    """Each non-first distinct row of ``doc`` to the row before it in its entity."""
    out: dict[int, int] = {}
    for rows in entities_in_order(doc):
        out.update(zip(rows[1:], rows[:-1]))
    return out


def token_distances(doc: Document) -> dict[int, int]:
    """Each anaphor row's distance in tokens to its antecedent."""
    starts, ends = doc.starts.tolist(), doc.ends.tolist()
    return {row: max(0, starts[row] - ends[before] - 1) for row, before in antecedents(doc).items()}


def sentence_distances(doc: Document, sentence_lengths: Sequence[int]) -> dict[int, int]:
    """Each anaphor row's distance in sentences to its antecedent."""
    firsts = np.cumsum([0, *sentence_lengths])
    sentence = (np.searchsorted(firsts, doc.starts, side="right") - 1).tolist()  # of every row at once
    return {row: sentence[row] - sentence[before] for row, before in antecedents(doc).items()}


def anaphor_counts(pairs: Sequence[AlignedPair], groups: RowGroups, labels: list[str]) -> np.ndarray:
    """Counts (groups x documents x 4: tp, tp+fn+wl, tp, tp+wl+fp) of every group; groups met that
    are not in ``labels`` are appended to it."""
    index = {g: i for i, g in enumerate(labels)}
    rows: list[list[tuple[int, int, int]]] = []  # per document: (group, field, amount)
    for p in pairs:
        found, spurious = anaphor_rows(p.key, p.response, p.alignment, _everything)
        key_groups, response_groups = groups(p.key, p.source_key), groups(p.response, p.source_response)
        cells = []
        for row, outcome in found.items():
            g = index.setdefault(str(key_groups[row]), len(index))
            cells.append((g, 1, 1))
            if outcome != FALSE_NEGATIVE:
                cells.append((g, 3, 1))
            if outcome == TRUE_POSITIVE:
                cells += [(g, 0, 1), (g, 2, 1)]
        for row in spurious:
            cells.append((index.setdefault(str(response_groups[row]), len(index)), 3, 1))
        rows.append(cells)
    labels[:] = list(index)
    out = np.zeros((len(index), len(pairs), 4))
    for d, cells in enumerate(rows):
        for g, field, amount in cells:
            out[g, d, field] += amount
    return out


def _everything(doc: Document) -> np.ndarray:
    return np.ones(doc.n_mentions, dtype=bool)


def anaphor_breakdown(
    base: ScoreResult, pairs: Sequence[AlignedPair], kind: str, groups: RowGroups, order: Sequence[str]
) -> Breakdown:
    """The anaphor-level score of every group (``order`` first, then groups as met)."""
    labels = list(order)
    counts = anaphor_counts(pairs, groups, labels)
    present = counts.sum(axis=(1, 2)) > 0
    keep = [i for i in range(len(labels)) if present[i]]
    results = group_results(base, (AnaphorLevel(),), counts[keep], ("anaphors",))
    sizes = tuple(int(counts[i, :, 1].sum()) for i in keep)
    return Breakdown(kind, "anaphors", tuple(labels[i] for i in keep), results, sizes)


def mention_type_breakdown(base: ScoreResult, pairs: Sequence[AlignedPair], rules: Rules | None = None) -> Breakdown:
    """Anaphors by mention type (see :mod:`corefeval.studies.breakdowns.mention_types`)."""

    def groups(doc: Document, source: Document) -> list[str | None]:
        return list(mention_types(doc, source.pos, source.tokens, rules))

    order = [name for name, _ in rules] + ["other"] if rules is not None else list(TYPES)
    return anaphor_breakdown(base, pairs, "mention-type", groups, order)


def distance_breakdown(
    base: ScoreResult,
    pairs: Sequence[AlignedPair],
    sentences: dict[str, list[int]] | None = None,
    edges: Sequence[int] | None = None,
) -> Breakdown:
    """Anaphors by distance to their antecedent: in sentences when ``sentences`` (each document's
    sentence lengths) is given, else in tokens."""
    edges = tuple(edges) if edges is not None else SENTENCE_EDGES if sentences is not None else TOKEN_EDGES

    def groups(doc: Document, source: Document) -> list[str | None]:
        if sentences is not None:
            found = sentence_distances(doc, sentences.get(source.name, [source.n_tokens]))
        else:
            found = token_distances(doc)
        rows = list(found)
        names = bucket_of([found[r] for r in rows], edges)
        out: list[str | None] = [None] * doc.n_mentions
        for r, name in zip(rows, names):
            out[r] = name
        return out

    kind = "sentence-distance" if sentences is not None else "distance"
    return anaphor_breakdown(base, pairs, kind, groups, bucket_labels(edges))


def corpus_sentences(corpus: Corpus) -> dict[str, list[int]] | None:
    """Each document's sentence lengths, when the reader kept them (CoNLL-2012: blank lines;
    CorefUD; jsonlines in words: ``sentences``); None when the format gives none."""
    return getattr(corpus, "sentences", None) or None
