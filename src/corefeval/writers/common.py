"""What every writer needs: sentence lengths, words and the mentions a format can hold."""

from __future__ import annotations

import re

from ..core.diagnostics import Diagnostic, InputError
from ..core.empty_nodes import is_empty
from ..core.model import Corpus, Document
from ..readers.validate import unwritable


def sentence_lengths(corpus: Corpus, doc: Document) -> list[int]:
    """The document's sentence lengths when the reader knew them, else one sentence; a document
    that cannot be written (:func:`~corefeval.readers.validate.unwritable`) is refused before anything is
    allocated per token."""
    problem = unwritable(corpus.path, doc)
    if problem is not None:
        raise InputError(problem.path, problem.line, problem.message)
    known = getattr(corpus, "sentences", {}).get(doc.name)
    if known and sum(known) == doc.n_tokens:
        return list(known)
    return [doc.n_tokens] if doc.n_tokens else []


#: Characters that would end a line or a column of a line-based file: tabs, line breaks, other controls.
_BREAKS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def words(doc: Document) -> list[str]:
    """The document's words, ``_`` where the reader kept none; in each word, a tab, line break or
    other control character is written ``_`` (it would split the line or its columns)."""
    if doc.tokens is not None and len(doc.tokens) == doc.n_tokens:
        return [_BREAKS.sub("_", w) if w and not w.isspace() else "_" for w in doc.tokens]
    return ["_"] * doc.n_tokens


def word_notes(corpus: Corpus, doc: Document) -> list[Diagnostic]:
    """The note that some of the document's words had characters :func:`words` writes ``_``."""
    changed = sum(1 for w in doc.tokens or () if _BREAKS.search(w))
    if not changed:
        return []
    return [
        Diagnostic(
            corpus.path,
            doc.begin_line,
            f"document '{doc.name}': {changed} word(s) with tabs, line breaks or control characters "
            "written with '_' in their place",
        )
    ]


def plain_spans(corpus: Corpus, doc: Document, fmt: str) -> tuple[list[tuple[int, int, int]], list[Diagnostic]]:
    """Rows as ``(start, end, entity)`` for span-only formats; zeros left out, discontinuous
    mentions widened to their covering span, each reported once per document."""
    out: list[tuple[int, int, int]] = []
    zeros = widened = 0
    for row, (s, e, k) in enumerate(zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist(), strict=False)):
        positions = doc.parts.get(row)
        if positions is not None:
            kept = [p for p in positions if not is_empty(p)]
            if not kept:
                zeros += 1
                continue
            if len(kept) != max(kept) - min(kept) + 1:
                widened += 1
        out.append((s, e, k))
    notes = []
    if zeros:
        notes.append(
            Diagnostic(
                corpus.path,
                doc.begin_line,
                f"document '{doc.name}': {zeros} mention(s) of empty nodes only left out ({fmt} has no empty nodes)",
            )
        )
    if widened:
        notes.append(
            Diagnostic(
                corpus.path,
                doc.begin_line,
                f"document '{doc.name}': {widened} discontinuous "
                f"mention(s) written as their covering span ({fmt} has no discontinuous "
                "mentions)",
            )
        )
    return out, notes
