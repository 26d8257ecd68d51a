"""Checks of coreference files: everything that is wrong or suspicious, located as ``PATH:LINE``.

A file that cannot be read (unbalanced brackets, unreadable labels, broken JSON) yields the
reader's error; a readable file is checked document by document for repeated mentions, crossing
mentions (overlapping without nesting), documents that appear twice and documents without tokens;
given a key, the response's documents must have the key's tokens. Scoring runs the same document
checks and warns; it refuses only a tokenisation mismatch.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .diagnostics import Diagnostic, InputError
from .model import Corpus, Document


def crossing_pairs(starts: np.ndarray, ends: np.ndarray) -> list[tuple[int, int]]:
    """Rows ``(i, j)`` with ``start_i < start_j <= end_i < end_j``: one partner (the longest-reaching)
    for every row that has one. Vectorised with a sparse table of range maxima, O(n log n)."""
    n = starts.size
    if n < 2:
        return []
    order = np.lexsort((-ends, starts))
    s, e = starts[order], ends[order]
    # table[k][x] = index (into order) of the max end among positions x .. x + 2**k - 1
    table = [np.arange(n)]
    k = 1
    while (1 << k) <= n:
        prev, half = table[-1], 1 << (k - 1)
        left, right = prev[: n - (1 << k) + 1], prev[half: half + n - (1 << k) + 1]
        table.append(np.where(e[left] >= e[right], left, right))
        k += 1
    lo = np.searchsorted(s, s, side="right")          # first mention starting after s_i
    hi = np.searchsorted(s, e, side="right")          # past the last starting at or before e_i
    has = lo < hi
    out: list[tuple[int, int]] = []
    for i in np.flatnonzero(has).tolist():
        a, b = int(lo[i]), int(hi[i])
        level = (b - a).bit_length() - 1
        x, y = table[level][a], table[level][b - (1 << level)]
        j = int(x if e[x] >= e[y] else y)
        if e[j] > e[i]:
            out.append((int(order[i]), int(order[j])))
    return out


def _line(doc: Document, row: int) -> int:
    return int(doc.lines[row]) if doc.lines is not None and doc.lines.size > row else doc.begin_line


def _describe(doc: Document, row: int) -> str:
    words = doc.parts.get(row)
    if words is not None:
        return "words " + ",".join(map(str, words))
    return f"({doc.starts[row]},{doc.ends[row]})"


def check_document(path: str, doc: Document) -> list[Diagnostic]:
    """Repeated and crossing mentions, and no tokens, in one document."""
    out: list[Diagnostic] = []
    if doc.n_tokens == 0 and not doc.n_mentions:
        out.append(Diagnostic(path, doc.begin_line, f"document '{doc.name}' is empty (no tokens)", "error"))
        return out
    first: dict[object, int] = {}
    for row, key in enumerate(doc.mention_keys()):
        if key in first:
            other = first[key]
            same = doc.entities[row] == doc.entities[other]
            out.append(Diagnostic(path, _line(doc, row), f"document '{doc.name}': mention {_describe(doc, row)} "
                                  f"appears twice ({'same entity' if same else 'another entity'}, line "
                                  f"{_line(doc, other)})", "error"))
        else:
            first[key] = row
    plain = np.ones(doc.n_mentions, dtype=bool)
    plain[list(doc.parts)] = False
    rows = np.flatnonzero(plain)
    for i, j in crossing_pairs(doc.starts[rows], doc.ends[rows]):
        a, b = int(rows[i]), int(rows[j])
        out.append(Diagnostic(path, _line(doc, b), f"document '{doc.name}': mention {_describe(doc, b)} crosses "
                              f"mention {_describe(doc, a)} (line {_line(doc, a)}): they overlap without one "
                              "containing the other", "error"))
    return out


def check_corpus(corpus: Corpus) -> list[Diagnostic]:
    """The reader's warnings, then the document checks of every document."""
    out = [Diagnostic(w.path, w.line, w.message, "error") for w in corpus.warnings]
    for doc in corpus.documents:
        out += check_document(corpus.path, doc)
    return out


def check_tokens(key: Corpus, response: Corpus) -> list[Diagnostic]:
    """Documents of ``response`` whose tokens differ from the key's (count, then words when known)."""
    out: list[Diagnostic] = []
    key_docs = key.by_name()
    for doc in response.documents:
        kdoc = key_docs.get(doc.name)
        if kdoc is None:
            out.append(Diagnostic(response.path, doc.begin_line, f"document '{doc.name}' is not in the key "
                                  f"{key.path}", "error"))
            continue
        if kdoc.n_tokens != doc.n_tokens:
            out.append(Diagnostic(response.path, doc.begin_line, f"document '{doc.name}' has {doc.n_tokens} "
                                  f"tokens but the key ({key.path}:{kdoc.begin_line}) has {kdoc.n_tokens}", "error"))
        elif kdoc.tokens is not None and doc.tokens is not None:
            known = [i for i, (a, b) in enumerate(zip(kdoc.tokens, doc.tokens))
                     if a != b and a not in ("_", "") and b not in ("_", "")]
            if known:
                i = known[0]
                out.append(Diagnostic(response.path, doc.begin_line, f"document '{doc.name}': token {i} is "
                                      f"'{doc.tokens[i]}' but '{kdoc.tokens[i]}' in the key ({len(known)} tokens "
                                      "differ)", "error"))
    for name, kdoc in key_docs.items():
        if name not in response.by_name():
            out.append(Diagnostic(key.path, kdoc.begin_line, f"document '{name}' is missing from "
                                  f"{response.path}", "error"))
    return out


def validate(paths: Iterable[str], fmt: str = "auto", key: str | None = None) -> list[Diagnostic]:
    """Every problem of every file (and, given ``key``, of each file against it)."""
    from .readers import read

    problems: list[Diagnostic] = []
    key_corpus: Corpus | None = None
    if key is not None:
        try:
            key_corpus = read(key, fmt, keep_tokens=True)
        except InputError as err:
            return [err.diagnostic]
    for path in paths:
        try:
            corpus = read(path, fmt, keep_tokens=True, role="response" if key else "key")
        except InputError as err:
            problems.append(err.diagnostic)
            continue
        problems += check_corpus(corpus)
        if key_corpus is not None:
            problems += check_tokens(key_corpus, corpus)
    return problems
