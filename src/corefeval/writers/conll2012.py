"""Write CoNLL-2012: one token per line, coreference brackets in the last column."""

from __future__ import annotations

import re
from operator import itemgetter

import numpy as np

from ..core.diagnostics import Diagnostic
from ..core.model import Corpus, Document
from ..readers.validate import crossing_pairs
from .common import plain_spans, sentence_lengths, word_notes, words

_NAME = re.compile(r"^\((.*)\); part (\d+)$")


def entity_numbers(doc: Document) -> list[str]:
    """Entity numbers for the brackets: the labels when they are (or are ``e`` + ) distinct integers."""

    def number(label: str) -> str:
        return label[1:] if label[:1] == "e" and label[1:].isascii() and label[1:].isdigit() else label

    numbers = [number(label) for label in doc.labels]
    if (
        len(doc.labels) == doc.n_entities
        and all(n.isascii() and n.isdigit() for n in numbers)
        and len(set(numbers)) == len(numbers)
    ):
        return numbers
    return [str(k) for k in range(doc.n_entities)]


def brackets(n_tokens: int, spans: list[tuple[int, int, int]], numbers: list[str]) -> list[str]:
    """The coreference column: closings (innermost first), one-token mentions, openings (longest first);
    brackets of one span in the order of ``spans`` (a document's rows: entity after entity), so that
    entities opening on one span read back in their order (``(2`` before ``(10``).

    Closings come first so that a token that ends one mention of an entity and starts the next reads
    back as written (``1)|(1``); the other order (``(1|1)``) would read as a one-token mention.
    """
    opens: list[list[tuple[int, str]]] = [[] for _ in range(n_tokens)]
    singles: list[list[str]] = [[] for _ in range(n_tokens)]
    closes: list[list[tuple[int, str]]] = [[] for _ in range(n_tokens)]
    for s, e, k in spans:
        if s == e:
            singles[s].append(f"({numbers[k]})")
        else:
            opens[s].append((-e, f"({numbers[k]}"))
            closes[e].append((-s, f"{numbers[k]})"))
    out = []
    for t in range(n_tokens):
        parts = [p for _, p in sorted(closes[t], key=itemgetter(0))] + singles[t]
        parts += [p for _, p in sorted(opens[t], key=itemgetter(0))]
        out.append("|".join(parts) if parts else "-")
    return out


def _crossing_note(corpus: Corpus, doc: Document, spans: list[tuple[int, int, int]]) -> list[Diagnostic]:
    """Crossing mentions of one entity: the bracket notation pairs them differently when read back."""
    if not spans:
        return []
    s, e, k = (np.asarray(x, dtype=np.int64) for x in zip(*spans, strict=False))
    order = np.argsort(k, kind="stable")
    bounds = np.flatnonzero(np.diff(k[order])) + 1
    same = sum(len(crossing_pairs(s[rows], e[rows])) for rows in np.split(order, bounds) if rows.size > 1)
    if not same:
        return []
    return [
        Diagnostic(
            corpus.path,
            doc.begin_line,
            f"document '{doc.name}': {same} mention(s) crossing another mention "
            "of one entity cannot be written in CoNLL-2012 (they read back as other spans)",
        )
    ]


def write_conll2012(corpus: Corpus) -> tuple[str, list[Diagnostic]]:
    lines: list[str] = []
    notes: list[Diagnostic] = []
    for doc in corpus.documents:
        spans, doc_notes = plain_spans(corpus, doc, "CoNLL-2012")
        notes += doc_notes + _crossing_note(corpus, doc, spans) + word_notes(corpus, doc)
        m = _NAME.match(doc.name)
        doc_id, part = (m.group(1), int(m.group(2))) if m else (re.sub(r"\s+", "_", doc.name) or "-", 0)
        lengths = sentence_lengths(corpus, doc)
        column = brackets(doc.n_tokens, spans, entity_numbers(doc))
        forms = words(doc)
        lines.append(f"#begin document {doc.name}")
        t = 0
        for length in lengths:
            for i in range(length):
                lines.append(
                    "\t".join([doc_id, str(part), str(i), forms[t], "-", "-", "-", "-", "-", "-", "*", column[t]])
                )
                t += 1
            lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + "\n", notes
