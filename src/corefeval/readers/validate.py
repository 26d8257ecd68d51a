"""Checks of coreference files: everything that is wrong or suspicious, located as ``PATH:LINE``.

A file that cannot be read (unbalanced brackets, unreadable labels, broken JSON) yields the
reader's error; a readable file is checked document by document for repeated mentions, crossing
mentions (overlapping without nesting), documents that appear twice, documents without tokens and
documents that cannot be written as a file (:func:`unwritable`);
given a key, the response's documents must have the key's tokens. Scoring warns about repeated and
crossing mentions, documents that appear twice or are missing, and refuses a tokenisation mismatch.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..core.diagnostics import Diagnostic, InputError, plural
from ..core.model import Corpus, Document
from ..core.pairing import by_other_name


def crossing_pairs(starts: np.ndarray, ends: np.ndarray) -> list[tuple[int, int]]:
    """Rows ``(i, j)`` with ``start_i < start_j <= end_i < end_j``: one partner (the longest-reaching)
    for every row that has one. Sorted by start, the mentions starting inside mention ``i`` are one
    slice, so one ``maximum.reduceat`` finds, for all rows at once, the farthest end among them."""
    n = starts.size
    if n < 2:
        return []
    order = np.lexsort((-ends, starts))
    s, e = starts[order], ends[order]
    lo = np.searchsorted(s, s, side="right")  # first row starting after start_i
    hi = np.searchsorted(s, e, side="right")  # past the last row starting at or before end_i
    rows = np.flatnonzero(lo < hi)
    if not rows.size:
        return []
    bounds = np.empty(2 * rows.size, dtype=np.int64)
    bounds[0::2], bounds[1::2] = lo[rows], hi[rows]
    farthest = np.maximum.reduceat(np.append(e, e.min()), bounds)[0::2]
    out = []
    for i in rows[farthest > e[rows]].tolist():
        j = int(lo[i] + np.argmax(e[lo[i] : hi[i]]))
        out.append((int(order[i]), int(order[j])))
    return out


def _line(doc: Document, row: int) -> int:
    return int(doc.lines[row]) if doc.lines is not None and doc.lines.size > row else doc.begin_line


def _describe(doc: Document, row: int) -> str:
    words = doc.parts.get(row)
    if words is not None:
        return "words " + ",".join(map(str, words))
    return f"({doc.starts[row]},{doc.ends[row]})"


#: Tokens a writer invents (``_``) for a document whose words the input does not give, at most: such a
#: document's length is where its last mention ends, and a 60-byte file can put that at 10**9.
MAX_PLACEHOLDERS = 1 << 20
#: What ends a line for some reader (``str.splitlines``): a document name cannot hold it.
LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def unwritable(path: str, doc: Document) -> Diagnostic | None:
    """Why a document that can be scored cannot be written as a file, or ``None``: a name with a
    line break (it would end the line that names the document), or no words and more than
    :data:`MAX_PLACEHOLDERS` tokens (a writer would invent one line or entry per token)."""
    if LINE_BREAKS.intersection(doc.name):
        message = f"document {doc.name!r}: a document name cannot hold a line break"
    elif (doc.tokens is None or len(doc.tokens) != doc.n_tokens) and doc.n_tokens > MAX_PLACEHOLDERS:
        message = (
            f"document '{doc.name}': the input gives no words and a mention ends at token {doc.n_tokens - 1}; "
            f"writing it would take as many placeholder tokens (at most {MAX_PLACEHOLDERS} are written)"
        )
    else:
        return None
    return Diagnostic(path, doc.begin_line, message, "error")


def check_document(path: str, doc: Document) -> list[Diagnostic]:
    """Repeated and crossing mentions, no tokens, and what cannot be written (:func:`unwritable`), in one document."""
    out: list[Diagnostic] = []
    if doc.n_tokens == 0 and not doc.n_mentions:
        out.append(Diagnostic(path, doc.begin_line, f"document '{doc.name}' is empty (no tokens)", "error"))
        return out
    problem = unwritable(path, doc)
    if problem is not None:
        out.append(problem)
    first: dict[object, int] = {}
    for row, key in enumerate(doc.mention_keys()):
        if key in first:
            other = first[key]
            same = doc.entities[row] == doc.entities[other]
            out.append(
                Diagnostic(
                    path,
                    _line(doc, row),
                    f"document '{doc.name}': mention {_describe(doc, row)} "
                    f"appears twice ({'same entity' if same else 'another entity'}, line "
                    f"{_line(doc, other)})",
                    "error",
                )
            )
        else:
            first[key] = row
    return out + crossing(path, doc, "error")


def _crossing_rows(doc: Document) -> list[tuple[int, int]]:
    """Pairs of rows that overlap without nesting (discontinuous mentions aside)."""
    if not doc.parts:
        return crossing_pairs(doc.starts, doc.ends)
    plain = np.ones(doc.n_mentions, dtype=bool)
    plain[list(doc.parts)] = False
    rows = np.flatnonzero(plain)
    return [(int(rows[i]), int(rows[j])) for i, j in crossing_pairs(doc.starts[rows], doc.ends[rows])]


def _crossing_message(doc: Document, a: int, b: int) -> str:
    return (
        f"document '{doc.name}': mention {_describe(doc, b)} crosses mention {_describe(doc, a)} (line "
        f"{_line(doc, a)}): they overlap without one containing the other"
    )


def crossing(path: str, doc: Document, severity: str = "warning") -> list[Diagnostic]:
    """Every mention that crosses another one."""
    return [Diagnostic(path, _line(doc, b), _crossing_message(doc, a, b), severity) for a, b in _crossing_rows(doc)]


def crossing_summary(path: str, doc: Document) -> list[Diagnostic]:
    """At most one warning per document: the first crossing mention and how many there are."""
    pairs = _crossing_rows(doc)
    if not pairs:
        return []
    a, b = min(pairs, key=lambda p: _line(doc, p[1]))
    more = f" ({len(pairs)} mentions cross another; 'corefeval validate' lists them)" if len(pairs) > 1 else ""
    return [Diagnostic(path, _line(doc, b), _crossing_message(doc, a, b) + more)]


def check_corpus(corpus: Corpus) -> list[Diagnostic]:
    """The reader's warnings, then the document checks of every document."""
    out = [Diagnostic(w.path, w.line, w.message, "error") for w in corpus.warnings]
    for doc in corpus.documents:
        out += check_document(corpus.path, doc)
    return out


def check_tokens(key: Corpus, response: Corpus) -> list[Diagnostic]:
    """Documents of ``response`` whose tokens differ from the key's (count, then words when known),
    paired by name as scoring pairs them (the CoNLL-2012 ``(X); part 000`` is the ``doc_key`` ``X_0``)."""
    out: list[Diagnostic] = []
    key_docs = key.by_name()
    response_docs = response.by_name()
    for doc in response.documents:
        kdoc = key_docs.get(doc.name) or by_other_name(doc.name, key_docs)
        if kdoc is None:
            out.append(
                Diagnostic(
                    response.path,
                    doc.begin_line,
                    f"document '{doc.name}' is not in the key {key.path}",
                    "error",
                )
            )
            continue
        if kdoc.n_tokens != doc.n_tokens:
            out.append(
                Diagnostic(
                    response.path,
                    doc.begin_line,
                    f"document '{doc.name}' has {plural(doc.n_tokens, 'token')} "
                    f"but the key ({key.path}:{kdoc.begin_line}) has {kdoc.n_tokens}",
                    "error",
                )
            )
        elif kdoc.tokens is not None and doc.tokens is not None:
            known = [
                i
                for i, (a, b) in enumerate(zip(kdoc.tokens, doc.tokens, strict=False))
                if a != b and a not in ("_", "") and b not in ("_", "")
            ]
            if known:
                i = known[0]
                out.append(
                    Diagnostic(
                        response.path,
                        doc.begin_line,
                        f"document '{doc.name}': token {i} is "
                        f"'{doc.tokens[i]}' but '{kdoc.tokens[i]}' in the key ({len(known)} tokens "
                        "differ)",
                        "error",
                    )
                )
    for name, kdoc in key_docs.items():
        if name not in response_docs and by_other_name(name, response_docs) is None:
            out.append(
                Diagnostic(key.path, kdoc.begin_line, f"document '{name}' is missing from {response.path}", "error")
            )
    return out


def validate(paths: Iterable[str], fmt: str = "auto", key: str | None = None) -> list[Diagnostic]:
    """Every problem of every file (and, given ``key``, of each file against it)."""
    from . import read

    problems: list[Diagnostic] = []
    key_corpus: Corpus | None = None
    if key is not None:
        try:
            key_corpus = read(key, fmt, keep_tokens=True)
        except InputError as err:
            return [err.diagnostic]
    for path in paths:
        try:
            corpus = read(path, fmt, keep_tokens=True, role="response" if key else "key", key=key_corpus)
        except InputError as err:
            problems.append(err.diagnostic)
            continue
        problems += check_corpus(corpus)
        if key_corpus is not None:
            problems += check_tokens(key_corpus, corpus)
    return problems
