"""Reader for Universal Anaphora CoNLL-U-Plus files (CODI-CRAC, ARRAU, UA-format GUM).

A file is a CoNLL-U file with more columns, named by its ``# global.columns`` header (IDENTITY,
BRIDGING, DISCOURSE_DEIXIS...; without a header, the Universal Anaphora scorer's positions 11, 12
and 13 are taken). Documents start at ``# newdoc id = NAME``; every word line (empty nodes and
multiword tokens included, as the scorer counts them) is one position of the document.

An IDENTITY or DISCOURSE_DEIXIS cell is ``_`` or closing brackets followed by openings
``(EntityID=1|MarkableID=m1|Min=3,4|SemType=dn|ElementOf=5`` (``)`` at the end: a one-word
markable); openings on one word may be joined by ``@``. A closing bracket closes the markable
opened last, or the one it names (``m1)``: crossing markables, as ufal/corefud-scorer writes
them). ``Min`` is a 1-based position in the document, or two (``3,4`` or ``3-4``). A BRIDGING cell
holds ``MarkableID=m2|Rel=poss|MentionAnchor=m1|EntityAnchor=1`` with or without brackets,
several joined by ``(`` or ``@``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..anaphora.model import UADocument
from ..core.diagnostics import InputError
from ..core.model import Corpus, Document
from .collector import collector_paused
from .ua_markup import (
    DEFAULT_COLUMNS,
    Markup,
    UALayers,
    bridging_cell,
    document_name,
    finish,
    header_columns,
    layout,
    markable_cell,
    zero_position,
)
from .word_prints import of_words


@dataclass
class UACorpus(Corpus):
    """A corpus read from a Universal Anaphora file: ``documents`` are the identity layers (what
    every coreference metric scores), ``anaphora`` the documents with all their layers."""

    anaphora: list[UADocument] = field(default_factory=list)
    #: Each document's sentence lengths in words, zeros left out (the writers keep the sentences).
    sentences: dict[str, list[int]] = field(default_factory=dict)
    #: Each document's zero lines (ids ``W.K``): line position -> position as an empty node.
    zero_lines: dict[str, dict[int, int]] = field(default_factory=dict)

    @property
    def split_antecedents(self) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
        """Per document, each plural entity with its element entities (as CorefUD's ``SplitAnte``)."""
        out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for doc in self.anaphora:
            plurals = [(p, tuple(dict.fromkeys(e))) for p, e in doc.split_antecedents().items()]
            if plurals:
                out[doc.name] = plurals
        return out


def read_ua(path: str, text: str, keep_tokens: bool = False) -> UACorpus:
    """Read a Universal Anaphora file; malformed markup is a one-line ``PATH:LINE: error``."""
    documents, sentences, zero_lines, warnings, _ = read_ua_documents(path, text, keep_tokens)
    identity = [_on_words(d.layer(), zero_lines[d.name]) if d.name in zero_lines else d.layer() for d in documents]
    return UACorpus(path, identity, "ua", warnings, anaphora=documents, sentences=sentences, zero_lines=zero_lines)


#: The size (in characters) from which a regular file is read column-wise: below it, the fixed cost
#: of the numpy passes (about 0.6 ms) is more than reading line by line (a file of 40,000 characters
#: takes about as long either way; ``benchmarks/bench_ua_reader.py``).
COLUMN_WISE_FROM = 64 * 1024


def read_ua_documents(path: str, text: str, keep_tokens: bool = False) -> UALayers:
    """Read a Universal Anaphora file as :func:`read_ua` does, without its identity layers as
    documents, the cyclic collector paused (see :mod:`.collector`): column-wise if the file is
    regular (:mod:`.ua_columns`) and of :data:`COLUMN_WISE_FROM` characters or more, else, or to
    locate an error, line by line."""
    text = text.lstrip("\ufeff")
    with collector_paused():
        layers = _column_wise(path, text, keep_tokens) if len(text) >= COLUMN_WISE_FROM else None
        return layers if layers is not None else _read_lines(path, text, keep_tokens)


def _column_wise(path: str, text: str, keep_tokens: bool) -> UALayers | None:
    """:func:`.ua_columns.read_regular` (imported when a file is large enough: a small file never
    loads it), None where it finds an error."""
    from .ua_columns import read_regular

    try:
        return read_regular(path, text, keep_tokens)
    except InputError:
        return None


def _read_lines(path: str, text: str, keep_tokens: bool) -> UALayers:
    """:func:`read_ua_documents`, line by line (any file; :mod:`.ua_columns` reads the regular ones)."""
    out = UALayers([], {}, {}, [], keep_tokens)
    zeros: dict[int, dict[int, int]] = {}  # per document (by index): each zero line's position as an empty node
    name: str | None = None
    begin = 0  # the line of the current document's '# newdoc'
    n_words = 0
    words: list[str] = []
    lengths: list[int] = []  # the words of each sentence before the current one
    sentence_start = 0  # the position of the current sentence's first word (zeros left out)
    markup = Markup()
    in_sentence = False
    lineno = 0
    needed, layers = layout(DEFAULT_COLUMNS)
    at_identity, at_deixis, at_bridging, first_layer, second_layer, third_layer = layers
    for lineno, raw in enumerate(text.lstrip("\ufeff").split("\n"), 1):
        cells = raw.split()
        if not cells:
            if in_sentence:
                lengths.append(n_words - sentence_start)
                in_sentence = False
            continue
        first = cells[0]
        if first[0] == "#":
            line = raw.strip()
            if line.startswith("# global.columns"):
                needed, layers = layout(header_columns(line))
                at_identity, at_deixis, at_bridging, first_layer, second_layer, third_layer = layers
            elif line.startswith("# newdoc"):
                if in_sentence:
                    lengths.append(n_words - sentence_start)
                if name is not None and n_words:
                    finish(path, out, (name, begin), lengths, markup, _words(words, keep_tokens), lineno)
                name = document_name(line)
                begin = lineno
                n_words, words, lengths, markup, in_sentence = 0, [], [], Markup(), False
            continue
        if len(cells) <= needed or name is None:
            if name is None:
                raise InputError(path, lineno, "expected '# newdoc id = NAME' before the first word line")
            raise InputError(path, lineno, f"expected at least {needed + 1} columns, found {len(cells)}")
        if not in_sentence:
            sentence_start = n_words
            in_sentence = True
        if "." in first:
            zeros.setdefault(len(out.documents), {})[n_words] = zero_position(path, lineno, first, len(lengths))
            sentence_start += 1  # a zero is no word of its sentence
        words.append(cells[1])
        if cells[first_layer] != "_" or cells[second_layer] != "_" or cells[third_layer] != "_":
            if at_identity >= 0 and cells[at_identity] != "_":
                markable_cell(path, lineno, cells[at_identity], markup.identity, n_words)
            if at_deixis >= 0 and cells[at_deixis] != "_":
                markable_cell(path, lineno, cells[at_deixis], markup.deixis, n_words)
            if at_bridging >= 0 and cells[at_bridging] != "_":
                markup.bridges.extend(bridging_cell(path, lineno, cells[at_bridging]))
        n_words += 1
    if in_sentence:
        lengths.append(n_words - sentence_start)
    if name is not None and n_words:
        finish(path, out, (name, begin), lengths, markup, _words(words, keep_tokens), lineno + 1)
    out.zero_lines.update((out.documents[i].name, z) for i, z in zeros.items())
    return out


def _words(words: list[str], keep_tokens: bool) -> tuple[np.ndarray, tuple[str, ...]]:
    """A document's word fingerprints, and its words if kept."""
    return of_words(words), tuple(words) if keep_tokens else ()


def _on_words(doc: Document, zeros: dict[int, int]) -> Document:
    """An identity layer whose zero lines (``zeros``: line position -> empty node) are empty nodes,
    as in CorefUD documents and in ufal/corefud-scorer's copy of the UA scorer: words are numbered
    without them, a markable of one zero is a zero mention (its node in ``parts``), and a markable of
    several lines keeps its words only. The UA scorer 2.0 numbers every line, and so do the
    anaphora measures (``doc.anaphora``)."""
    n = doc.n_tokens
    is_zero = np.zeros(n + 1, dtype=bool)
    is_zero[list(zeros)] = True
    words_before = np.concatenate([[0], np.cumsum(~is_zero[:n])])  # words on lines before each line
    starts, ends = doc.starts.copy(), doc.ends.copy()
    parts: dict[int, tuple[int, ...]] = {}
    for row in np.flatnonzero(is_zero[starts] | is_zero[ends]).tolist():
        s, e = int(starts[row]), int(ends[row])
        if words_before[e + 1] == words_before[s]:  # zeros only
            parts[row] = tuple(zeros[p] for p in range(s, e + 1))
    new_starts = words_before[starts]
    new_ends = words_before[ends + 1] - 1
    for row, nodes in parts.items():
        new_starts[row] = new_ends[row] = nodes[0]
    tokens = tuple(t for t, zero in zip(doc.tokens, is_zero.tolist()) if not zero) if doc.tokens else doc.tokens
    forms = doc.forms[~is_zero[:n]] if doc.forms is not None and doc.forms.size == n else doc.forms
    return replace(
        doc, starts=new_starts, ends=new_ends, parts=parts, n_tokens=int(words_before[n]), tokens=tokens, forms=forms
    )
