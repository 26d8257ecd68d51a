"""Seeded coreference span groups as spaCy users produce them, as plain data (JSON-able) and as
``Example`` objects: several documents, singletons, nested spans, spans of two clusters that cross,
one span in two clusters (``repeats``), predicted spans that only partly overlap the reference's,
documents without any cluster, predicted span groups missing (numbers with gaps) or empty
(``empty``), and span groups of other names that no coreference scorer reads.

A case is ``[{"words": [...], "reference": {name: [[start, end], ...]}, "predicted": {...}}, ...]``,
``end`` exclusive as spaCy's; span groups keep their order.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

Span = tuple[int, int]
Groups = dict[str, list[list[int]]]
Case = list[dict[str, Any]]

ROOT = Path(__file__).resolve().parents[2]
#: spacy-experimental's recorded scores of the cases (``record_spacy_experimental.py``).
FIXTURE = ROOT / "tests" / "data" / "spacy_experimental.json"
KEYS = ("coref_p", "coref_r", "coref_f")
#: The seeds of the recorded generated cases (each with and without spans in two clusters).
SEEDS = range(40)
#: Smallest cases of each rule (the docs show them).
SMALLEST: dict[str, Case] = {
    "a span in two predicted clusters": [
        {
            "words": ["John", "He"],
            "reference": {"coref_clusters_1": [[0, 1], [1, 2]]},
            "predicted": {"coref_clusters_1": [[0, 1], [1, 2]], "coref_clusters_2": [[1, 2]]},
        }
    ],
    "an empty predicted span group": [
        {
            "words": ["John", "He"],
            "reference": {"coref_clusters_1": [[0, 1], [1, 2]]},
            "predicted": {"coref_clusters_1": [[0, 1], [1, 2]], "coref_clusters_2": []},
        }
    ],
    "singletons": [
        {
            "words": ["John", "He", "Mary", "she"],
            "reference": {"coref_clusters_1": [[0, 1], [1, 2]], "coref_clusters_2": [[2, 3]]},
            "predicted": {"coref_clusters_1": [[0, 1], [1, 2]], "coref_clusters_2": [[3, 4]]},
        }
    ],
}

WORDS = ("John", "saw", "Mary", ".", "He", "said", "she", "was", "happy", "and", "the", "house", "left", ",")
#: Span groups that are not coreference clusters (spaCy's span categoriser, the coreference
#: component's head clusters, a name that starts as the clusters' but is not followed by a number):
#: both scorers leave them out.
OTHER_GROUPS = ("sc", "coref_head_clusters_1", "coref_clusters_gold")


def case(seed: int, repeats: bool = True, empty: bool = True) -> Case:
    """One seeded case of 1 to 4 documents."""
    rng = random.Random(seed)
    return [_document(rng, repeats, empty) for _ in range(rng.randint(1, 4))]


def _document(rng: random.Random, repeats: bool, empty: bool) -> dict[str, Any]:
    n = rng.randint(3, 30)
    words = [rng.choice(WORDS) for _ in range(n)]
    gold = [] if rng.random() < 0.15 else _clusters(rng, n, repeats)
    pred = _predicted(rng, gold, n, repeats)
    return {"words": words, "reference": _named(rng, gold, False), "predicted": _named(rng, pred, empty)}


def _clusters(rng: random.Random, n: int, repeats: bool) -> list[list[Span]]:
    """0 to 5 clusters of 1 to 4 spans; no two spans of one cluster cross (CoNLL-2012 cannot write
    them), spans of two clusters may; ``repeats``: a span may be in two clusters."""
    clusters: list[list[Span]] = []
    for _ in range(rng.randint(0, 5)):
        spans: list[Span] = []
        for _ in range(rng.randint(1, 4)):
            start = rng.randrange(n)
            _add(spans, (start, min(n, start + rng.randint(1, 3))))
        clusters.append(spans)
    if repeats and clusters and rng.random() < 0.4:
        source = rng.choice(clusters)
        _add(rng.choice(clusters), rng.choice(source))
    return _once(clusters) if not repeats else clusters


def _predicted(rng: random.Random, gold: list[list[Span]], n: int, repeats: bool) -> list[list[Span]]:
    """The reference's clusters kept, dropped, split, merged and with spans moved by a token (partly
    overlapping the reference's), and new ones added."""
    pred: list[list[Span]] = []
    for cluster in gold:
        roll = rng.random()
        if roll < 0.15:
            continue
        spans = [_moved(rng, s, n) if rng.random() < 0.2 else s for s in cluster]
        if roll < 0.3 and len(spans) > 1:
            cut = rng.randrange(1, len(spans))
            pred += [spans[:cut], spans[cut:]]
        elif roll < 0.45 and pred:
            for span in spans:
                _add(pred[-1], span)
        else:
            pred.append([])
            for span in spans:
                _add(pred[-1], span)
    pred += _clusters(rng, n, repeats)[: rng.randint(0, 2)]
    rng.shuffle(pred)
    pred = [c for c in pred if c]
    return _once(pred) if not repeats else pred


def _moved(rng: random.Random, span: Span, n: int) -> Span:
    start, end = span
    if rng.random() < 0.5:
        return (start, min(n, end + 1)) if end < n else (max(0, start - 1), end)
    return (start + 1, end) if end - start > 1 else (start, min(n, end + 1))


def _add(spans: list[Span], span: Span) -> None:
    """``span`` appended unless it is there already or crosses one of ``spans``."""
    start, end = span
    if span not in spans and not any(s < start < e < end or start < s < end < e for s, e in spans):
        spans.append(span)


def _once(clusters: list[list[Span]]) -> list[list[Span]]:
    """Each span in its first cluster only (clusters left empty dropped)."""
    seen: set[Span] = set()
    out = []
    for cluster in clusters:
        kept = [s for s in cluster if s not in seen]
        seen.update(cluster)
        if kept:
            out.append(kept)
    return out


def _named(rng: random.Random, clusters: list[list[Span]], empty: bool) -> Groups:
    """Span groups ``coref_clusters_N`` (sometimes numbered with gaps, as after a cluster was
    removed), an empty one where ``empty``, and one that is not a coreference cluster."""
    groups: Groups = {}
    number = 0
    for cluster in clusters:
        number += 2 if rng.random() < 0.2 else 1
        groups[f"coref_clusters_{number}"] = [list(s) for s in cluster]
    if empty and rng.random() < 0.1:
        groups[f"coref_clusters_{number + 1}"] = []
    if clusters and rng.random() < 0.3:
        groups[rng.choice(OTHER_GROUPS)] = [list(rng.choice(clusters)[0])]
    return groups


def has_empty_group(cases: Case) -> bool:
    """Whether a span group of the case is empty."""
    return any(not spans for d in cases for side in ("reference", "predicted") for spans in d[side].values())


def has_repeats(cases: Case) -> bool:
    """Whether a span is in two clusters of one side of a document."""
    for d in cases:
        for side in ("reference", "predicted"):
            spans = [tuple(s) for name, g in d[side].items() if is_cluster_group(name) for s in g]
            if len(spans) != len(set(spans)):
                return True
    return False


def is_cluster_group(name: str) -> bool:
    """Whether a span group is a coreference cluster: ``coref_clusters_`` and a number."""
    return name.startswith("coref_clusters_") and name[len("coref_clusters_") :].isdigit()


def examples(cases: Case, nlp: Any) -> list[Any]:
    """The case as spaCy ``Example`` objects (predicted, reference)."""
    from spacy.training import Example

    return [Example(_doc(d["words"], d["predicted"], nlp), _doc(d["words"], d["reference"], nlp)) for d in cases]


def _doc(words: list[str], groups: Groups, nlp: Any) -> Any:
    from spacy.tokens import Doc

    doc = Doc(nlp.vocab, words=words)
    for name, spans in groups.items():
        doc.spans[name] = [doc[s:e] for s, e in spans]
    return doc


def without_empty_groups(cases: Case) -> Case:
    """The case without its empty span groups."""
    return [
        {**d, **{side: {n: g for n, g in d[side].items() if g} for side in ("reference", "predicted")}} for d in cases
    ]


def in_reading_order(cases: Case, nlp: Any) -> Case:
    """The case with each side's coreference span groups in the order corefeval reads entities (as
    a CoNLL-2012 file of them opens them: by first mention), other span groups after them."""
    from corefeval.readers.spacy_docs import document_from_doc

    out = []
    for d in cases:
        sides = {}
        for side in ("reference", "predicted"):
            labels = document_from_doc(_doc(d["words"], d[side], nlp), "order").labels
            sides[side] = {**{n: d[side][n] for n in labels}, **d[side]}
        out.append({**d, **sides})
    return out
