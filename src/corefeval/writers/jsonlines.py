"""Write jsonlines (e2e-coref style): ``doc_key``, ``sentences``, ``clusters`` of inclusive word spans."""

from __future__ import annotations

import json

from ..core.diagnostics import Diagnostic
from ..core.model import Corpus
from .common import plain_spans, sentence_lengths, word_notes, words


def write_jsonlines(corpus: Corpus) -> tuple[str, list[Diagnostic]]:
    lines: list[str] = []
    notes: list[Diagnostic] = []
    for doc in corpus.documents:
        spans, doc_notes = plain_spans(corpus, doc, "jsonlines")
        notes += doc_notes + word_notes(corpus, doc)
        lengths = sentence_lengths(corpus, doc)
        forms = words(doc)
        sentences, t = [], 0
        for length in lengths:
            sentences.append(forms[t : t + length])
            t += length
        clusters: list[list[list[int]]] = [[] for _ in range(doc.n_entities)]
        for s, e, k in spans:
            clusters[k].append([s, e])
        record = {"doc_key": doc.name, "sentences": sentences, "clusters": [c for c in clusters if c]}
        lines.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(lines) + "\n", notes
