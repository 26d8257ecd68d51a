"""Reader for CoNLL-2011/2012 coreference files.

Documents run from ``#begin document NAME`` to ``#end document``; every other non-blank line inside
a document is a token whose last column holds the coreference parts (``(N``, ``N)``, ``(N)``, ``-``,
``_``, joined by ``|`` or back to back). Unlike the reference scorer this reader tokenises the line
by columns, treats ``#`` lines as comments, reads ``N)(N`` as "close then open", stops a document at
the next ``#begin document``, and refuses unclosed mentions; each of these is reported. Entity and
mention order follow the reference (see the model's docstring), because they decide which copy of a
repeated span is kept.

The file is read in blocks of bytes and each block's lines are classified column-wise with numpy
(blank, ``#``, token without a mention, token with a mention; see :mod:`.conll_blocks`), keeping only
the ``#`` lines, the coreference fields of mention-carrying lines and token counts: reading needs
memory in proportion to the mentions, not to the file. Python only visits ``#`` lines, and the
fields are read column-wise too (:mod:`.conll_mentions`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property
from itertools import repeat

import numpy as np

from ..core.dataclass_methods import FACTORY, field_eq, field_hash, field_repr, refuse_delattr, refuse_setattr
from ..core.diagnostics import Diagnostic, InputError
from ..core.model import Columns, Corpus, Document, ViewDocument, from_fields
from .conll_blocks import BLOCK_SIZE, Summary, scan_blocks, scan_bytes, scan_file
from .conll_mentions import (
    CLOSE,
    DANGLING,
    EVENTS,
    FIELD,
    ONE_PART,
    OPEN,
    Found,
    Mentions,
    bare_numbers,
    compiled,
    document_mentions,
    token_order_note,
    unreadable,
)
from .sources import read_input
from .utf8 import decode

#: The ``#begin``/``#end`` lines the reference recognises beyond the usual forms (checked with re's
#: own cache of compiled patterns, on the first line in another form).
_BEGIN = r"#\s*begin document( ?)(.*)$"
_END = r"#\s*end document"

#: A document's place in the file: its name and ``#begin`` line, its first line and the line it stops
#: before (0-based), the tokens before it and before its end, its end line number and how it ends.
Segment = tuple[str, int, int, int, int, int, int, str]


@dataclasses.dataclass(init=False, repr=False, eq=False)
class Segments:
    """The places of a file's documents (see :data:`Segment`), column by column: a file may have a
    million documents, and the reader takes each column whole. Frozen; its methods are written out,
    not generated (see :mod:`corefeval.core.dataclass_methods`)."""

    names: list[str]
    begin_lines: list[int]
    firsts: list[int]
    stops: list[int]
    bases: list[int]
    token_stops: list[int]
    end_lines: list[int]
    hows: list[str]

    def __init__(
        self,
        names: list[str],
        begin_lines: list[int],
        firsts: list[int],
        stops: list[int],
        bases: list[int],
        token_stops: list[int],
        end_lines: list[int],
        hows: list[str],
    ) -> None:
        self.__dict__.update(
            names=names,
            begin_lines=begin_lines,
            firsts=firsts,
            stops=stops,
            bases=bases,
            token_stops=token_stops,
            end_lines=end_lines,
            hows=hows,
        )

    __repr__ = field_repr
    __eq__ = field_eq
    __hash__ = field_hash
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr

    @classmethod
    def of(cls, rows: list[Segment]) -> Segments:
        """The columns of ``rows``."""
        columns = [list(column) for column in zip(*rows)] if rows else [[] for _ in dataclasses.fields(cls)]
        return cls(*columns)

    def __len__(self) -> int:
        return len(self.names)

    def row(self, d: int) -> Segment:
        """Document ``d``'s place."""
        return (
            self.names[d],
            self.begin_lines[d],
            self.firsts[d],
            self.stops[d],
            self.bases[d],
            self.token_stops[d],
            self.end_lines[d],
            self.hows[d],
        )


def _begin(line: str) -> tuple[bool, str] | None:
    """Whether a ``#begin document`` line has a space before its name, and the name (``None``: another
    line); the usual form is recognised without the regular expression (a file may have a million)."""
    if line.startswith("#begin document "):
        return True, line[16:]
    begin = re.match(_BEGIN, line) if "begin document" in line else None
    return (bool(begin.group(1)), begin.group(2)) if begin else None


def read_bytes(path: str) -> bytes:
    """The bytes of the input at ``path`` (a file, ``-``, a pipe; gzip or not: see :mod:`.sources`);
    an unreadable or empty input is a located :class:`InputError`."""
    return read_input(path)


def read_text(path: str) -> str:
    """Read a file as UTF-8, turning every failure into a located :class:`InputError`."""
    return decode(path, read_bytes(path))


class _DocumentBuilder:
    """Collects one document's mentions from its mention-carrying token lines."""

    def __init__(self, path: str, name: str, line: int, lenient: bool = False) -> None:
        self.path = path
        self.lenient = lenient
        self.warnings: list[Diagnostic] = []
        self.bare_line = 0
        self.name = name
        self.begin_line = line
        self.label_index: dict[str, int] = {}
        self.open: dict[str, list[tuple[int, int]]] = {}
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.entities: list[int] = []
        self.lines: list[int] = []
        #: Each entity's openings and closings (token, OPEN or CLOSE), in text order.
        self.brackets: dict[str, list[tuple[int, int]]] = {}
        #: Tokens that close a mention of an entity before opening another: (line, field, token, label).
        self.reopened: list[tuple[int, str, int, str]] = []

    def _entity(self, label: str) -> int:
        k = self.label_index.get(label)
        if k is None:
            k = self.label_index[label] = len(self.label_index)
        return k

    def _add(self, start: int, end: int, label: str, line: int) -> None:
        self.starts.append(start)
        self.ends.append(end)
        self.entities.append(self._entity(label))
        self.lines.append(line)

    def fields(self, fields: list[str], tokens: list[int], lines: list[int]) -> None:
        """Record the coreference fields of a document's mention-carrying tokens, in file order.

        A field with one part is recorded directly; a field with several parts goes through
        :meth:`_parts`, which keeps the reference's order within a token.
        """
        one = compiled(ONE_PART).fullmatch
        for field, t, line in zip(fields, tokens, lines):
            m = one(field)
            if m is None:
                self._parts(field, t, line)
                continue
            single, opening, closing = m.groups()
            if single is not None:
                self._add(t, t, single, line)
            elif opening is not None:
                self._entity(opening)
                self.open.setdefault(opening, []).append((t, line))
                self.brackets.setdefault(opening, []).append((t, OPEN))
            else:
                self._add(self._pop(closing, line), t, closing, line)
                self.brackets.setdefault(closing, []).append((t, CLOSE))

    def _pop(self, label: str, line: int) -> int:
        """Start of the most recently opened mention of ``label``."""
        stack = self.open.get(label)
        if not stack:
            raise InputError(self.path, line, f"'{label})' closes a mention of entity {label} that was never opened")
        return stack.pop()[0]

    def _parts(self, field: str, t: int, line: int) -> None:
        """A field of several parts: one-token mentions come first, then openings, then closings (the
        reference's order for numbering entities and mentions), while each closing pops the opening
        made most recently *before* it in the text."""
        if not compiled(FIELD).fullmatch(field) or compiled(DANGLING).search(field):
            message = unreadable(field)
            if not self.lenient:
                raise InputError(self.path, line, message)
            self.warnings.append(Diagnostic(self.path, line, message + "; read as '-'"))
            return
        singles: list[str] = []
        opens: list[str] = []
        closes: list[tuple[str, int]] = []
        closed_at: dict[str, int] = {}  # the label's last closing in this field, until it opens again
        reopened: list[tuple[int, str]] = []
        for at, (single, opening, closing, bare) in enumerate(compiled(EVENTS).findall(field)):
            if bare:  # an entity number without brackets, written on tokens inside a mention
                if not self.bare_line:
                    self.bare_line = line
                    self.warnings.append(Diagnostic(self.path, line, bare_numbers(self.name)))
            elif single:
                singles.append(single)
            elif opening:
                opens.append(opening)
                self.open.setdefault(opening, []).append((t, line))
                self.brackets.setdefault(opening, []).append((t, OPEN))
                if opening in closed_at:
                    reopened.append((closed_at.pop(opening), opening))
            elif closing:
                closes.append((closing, self._pop(closing, line)))
                self.brackets.setdefault(closing, []).append((t, CLOSE))
                closed_at[closing] = at
        self.reopened += [(line, field, t, label) for _, label in sorted(reopened)]
        for label in singles:
            self._add(t, t, label, line)
        for label in opens:
            self._entity(label)
        for label, start in closes:
            self._add(start, t, label, line)

    def _token_order_warning(self) -> None:
        """One warning for the first token that closes and reopens an entity and that the reference
        reads otherwise (see :func:`.conll_mentions.token_order_note`)."""
        tried: set[str] = set()
        for line, field, t, label in self.reopened:
            if label in tried:
                continue
            tried.add(label)
            tokens, phases = zip(*self.brackets[label], strict=True)
            note = token_order_note(self.name, label, field, t, list(tokens), list(phases), len(self.reopened) - 1)
            if note is not None:
                self.warnings.append(Diagnostic(self.path, line, note))
                return

    def finish(self, end_line: int, how: str) -> Mentions:
        """The document's mentions; an opened mention that is not closed is an :class:`InputError`."""
        for label, stack in self.open.items():
            if stack:
                raise InputError(
                    self.path,
                    stack[0][1],
                    f"mention '({label}' opened here is not closed before {how} at line {end_line}",
                )
        self._token_order_warning()
        return Mentions(
            starts=np.asarray(self.starts, dtype=np.int64),
            ends=np.asarray(self.ends, dtype=np.int64),
            entities=np.asarray(self.entities, dtype=np.int64),
            labels=tuple(self.label_index),
            lines=np.asarray(self.lines, dtype=np.int64),
        )


def read_conll2012(
    path: str,
    text: str | bytes | None = None,
    keep_tokens: bool = False,
    first_line: int = 1,
    lenient: bool = False,
    block_size: int = BLOCK_SIZE,
    blocks: Iterable[tuple[bytes, bool]] | None = None,
) -> Corpus:
    """Read a CoNLL-2011/2012 file into a :class:`Corpus` (documents in file order).

    ``text`` is the file's content, as text or as bytes already known to be UTF-8 (default: read
    ``path``, block by block). With ``keep_tokens`` each document also keeps its words (the fourth
    column of lines with at least five columns, else an empty string), for reports that show the
    text. ``first_line`` is the line number of ``text``'s first line, when it is a part of a larger
    file. With ``lenient`` an unreadable coreference field is a warning (the token carries no
    mention), not an error. ``block_size`` is the size of the blocks the lines are classified in
    (see :mod:`.conll_blocks`); it changes nothing but the memory and the time taken. ``blocks``,
    when given, are the input's blocks of whole lines, as :func:`.sources.input_blocks` gives them.
    """
    if blocks is not None:
        lines = scan_blocks(path, blocks, keep_tokens)
    elif text is None:
        lines = scan_file(path, keep_tokens, block_size)
    else:
        data = text.encode("utf-8") if isinstance(text, str) else text
        del text
        lines = scan_bytes(data, keep_tokens, first_line == 1, block_size)
        del data
    warnings: list[Diagnostic] = []
    if lines.bom:
        warnings.append(
            Diagnostic(path, 1, "byte-order mark ignored (the reference scorer would miss the first document)")
        )
    segments = _paired_segments(lines, first_line)
    if segments is None:
        segments = _segments(path, lines, first_line, warnings)
    if not segments:
        raise InputError(path, first_line, "no document found (expected a '#begin document NAME' line)")
    documents, sentences = _documents(path, lines, segments, first_line, lenient, warnings)
    return Conll2012Corpus(path=path, documents=documents, format="conll2012", warnings=warnings, sentences=sentences)


def _paired_segments(lines: Summary, first_line: int) -> Segments | None:
    """The documents of a file whose only ``#`` lines are ``#begin document NAME`` and ``#end
    document`` in turn, found without a loop in Python (a file may have a million documents);
    ``None`` for any other file."""
    numbers, texts, tokens = lines.hash_lines, lines.hash_texts, lines.hash_tokens
    if not texts or len(texts) % 2:
        return None
    begins, ends = texts[0::2], texts[1::2]
    if not all(map(str.startswith, begins, repeat("#begin document "))):
        return None
    if not all(map(str.startswith, ends, repeat("#end document"))):
        return None
    names = [text[16:] for text in begins]
    if not all(names):
        return None  # a nameless document: the loop warns
    begin_lines, end_lines = np.asarray(numbers[0::2]), np.asarray(numbers[1::2])
    return Segments(
        names,
        (begin_lines + first_line).tolist(),
        (begin_lines + 1).tolist(),
        numbers[1::2],
        tokens[0::2],
        tokens[1::2],
        (end_lines + first_line).tolist(),
        ["'#end document'"] * len(names),
    )


def _segments(path: str, lines: Summary, first_line: int, warnings: list[Diagnostic]) -> Segments:
    """The documents of a file as its ``#`` lines give them, with a warning for every oddity."""

    def warn(line: int, message: str) -> None:
        warnings.append(Diagnostic(path, line, message))

    # (name, its line, first line, stop line, tokens before each, end line number, how it ends)
    segments: list[Segment] = []
    doc: tuple[str, int] | None = None  # the open document's name and line
    doc_first = doc_tokens = 0
    comment_reported = glued_reported = False
    for i, line, tokens in zip(lines.hash_lines, lines.hash_texts, lines.hash_tokens):
        begin = _begin(line)
        if begin is not None:
            if doc is not None:
                warn(
                    i + first_line,
                    f"'#begin document' while document '{doc[0]}' is open (missing "
                    "'#end document'); the open document ends here",
                )
                segments.append((*doc, doc_first, i, doc_tokens, tokens, i + first_line, "the next '#begin document'"))
            spaced, name = begin
            if not name:
                warn(i + first_line, "'#begin document' without a name; the document is named ''")
            elif not spaced and not glued_reported:
                glued_reported = True
                warn(
                    i + first_line,
                    f"'#begin document{name}' has no space before the name; read as document "
                    f"'{name}' (the reference scorer does not recognise it and scores nothing)",
                )
            doc, doc_first, doc_tokens = (name, i + first_line), i + 1, tokens
        elif line.startswith("#end document") or re.match(_END, line):
            if doc is None:
                warn(i + first_line, "'#end document' with no document open; ignored")
            else:
                segments.append((*doc, doc_first, i, doc_tokens, tokens, i + first_line, "'#end document'"))
                doc = None
        elif doc is not None and not comment_reported:
            comment_reported = True
            warn(
                i + first_line,
                "comment line inside a document is not a token (the reference scorer counts "
                "it as one, shifting later spans)",
            )
    if doc is not None:
        last = lines.last_nonblank + first_line if lines.last_nonblank >= 0 else first_line
        warn(last, f"document '{doc[0]}' has no '#end document'; it ends at the end of the file")
        segments.append((*doc, doc_first, lines.n_lines, doc_tokens, lines.n_tokens, last, "the end of the file"))
    return Segments.of(segments)


class SentenceLengths(Mapping[str, list[int]]):
    """Each document's sentence lengths by name (a repeated name: its last occurrence's), taken
    from the file's columns when asked for: a file may have a million documents, and scoring asks
    for none."""

    def __init__(self, names: list[str], lengths: np.ndarray, bounds: np.ndarray) -> None:
        self._names, self._lengths, self._bounds = names, lengths, bounds

    @cached_property
    def _index(self) -> dict[str, int]:
        return {name: d for d, name in enumerate(self._names)}

    def __getitem__(self, name: str) -> list[int]:
        d = self._index[name]
        lengths: list[int] = self._lengths[self._bounds[d] : self._bounds[d + 1]].tolist()
        return lengths

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


@dataclasses.dataclass(init=False, repr=False, eq=False)
class Conll2012Corpus(Corpus):
    """A corpus read from CoNLL-2011/2012; ``sentences[doc]`` are its sentence lengths in tokens
    (sentences end at blank lines)."""

    sentences: Mapping[str, list[int]] = dataclasses.field(default_factory=dict)

    def __init__(
        self,
        path: str,
        documents: list[Document],
        format: str = "conll2012",
        warnings: list[Diagnostic] = FACTORY,
        sentences: Mapping[str, list[int]] = FACTORY,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods); repr is Corpus's.
        super().__init__(path, documents, format, warnings)
        self.sentences = {} if sentences is FACTORY else sentences


def _sentence_lengths(breaks: np.ndarray, segments: Segments) -> tuple[np.ndarray, np.ndarray]:
    """Each document's sentence lengths: the tokens between its blank lines (several blank lines
    in a row end one sentence); document ``d``'s are ``lengths[bounds[d]:bounds[d + 1]]``.

    All documents at once: each one's edges (its first token, the blank lines after it up to its
    end, its end) are laid end to end, and the positive steps within a document are its sentences."""
    bases, stops = (np.asarray(column, dtype=np.int64) for column in (segments.bases, segments.token_stops))
    lo, hi = np.searchsorted(breaks, bases, side="right"), np.searchsorted(breaks, stops, side="right")
    inner = hi - lo  # the blank lines after a document's first token, up to its end
    size = inner + 2
    first = np.cumsum(size) - size
    edges = np.empty(int(size.sum()), dtype=np.int64)
    edges[first] = bases
    edges[first + size - 1] = stops
    doc = np.repeat(np.arange(len(segments)), inner)
    local = np.arange(doc.size) - (np.cumsum(inner) - inner)[doc]
    edges[first[doc] + 1 + local] = breaks[lo[doc] + local]
    steps = np.diff(edges)
    kept = steps > 0
    kept[first[1:] - 1] = False  # the step from one document's end to the next one's start
    within = np.concatenate(([0], np.cumsum(kept)))
    return steps[kept], np.append(within[first], within[-1])


def _found_mentions(
    path: str, lines: Summary, segments: Segments, first_line: int, lenient: bool
) -> tuple[Found, dict[int, list[Diagnostic]], np.ndarray]:
    """The mentions of every document of ``segments`` read column-wise, the warnings per document,
    and each document's mention-carrying lines (``[first, stop)`` in the summary's)."""
    firsts, stops, bases = (np.asarray(c, dtype=np.int64) for c in (segments.firsts, segments.stops, segments.bases))
    bounds = np.stack([np.searchsorted(lines.mention_lines, firsts), np.searchsorted(lines.mention_lines, stops)], 1)
    counts = bounds[:, 1] - bounds[:, 0]
    doc_of_row = np.repeat(np.arange(len(segments)), counts)
    inside = np.repeat(bounds[:, 0] - (np.cumsum(counts) - counts), counts) + np.arange(int(counts.sum()))

    def rows(column: np.ndarray) -> np.ndarray:
        """``column`` at the mention-carrying lines inside documents (a view for one document)."""
        if len(segments) == 1:
            return column[bounds[0, 0] : bounds[0, 1]]
        return column[inside]

    found, notes = document_mentions(
        lines.fields,
        rows(lines.field_bounds[:-1]),
        rows(lines.field_bounds[1:]),
        rows(lines.mention_tokens) - bases[doc_of_row],
        rows(lines.mention_lines) + first_line,
        doc_of_row,
        (path, segments.names, lenient),
    )
    return found, notes, bounds


def _documents(
    path: str,
    lines: Summary,
    segments: Segments,
    first_line: int,
    lenient: bool,
    warnings: list[Diagnostic],
) -> tuple[list[Document], SentenceLengths]:
    """The documents of ``segments``, their mentions read column-wise (line by line for a document
    in which something is wrong), and their sentence lengths (a repeated document name keeps its
    last occurrence's, as scoring does); their warnings are added to ``warnings``."""
    found, notes, bounds = _found_mentions(path, lines, segments, first_line, lenient)
    names = segments.names
    labels, first_label, broken = found.labels, found.first_label, found.broken
    words, pos = lines.words, lines.pos
    columns = _columns(found, lines.prints, segments)
    documents: list[Document] = []
    again = _repeated_names(path, segments) if len(set(names)) < len(names) else {}
    places = zip(names, segments.begin_lines, segments.bases, segments.token_stops, first_label, first_label[1:])
    for d, (name, begin_line, base, stop_tokens, lo, hi) in enumerate(places):
        if broken[d]:  # something is wrong: the line-by-line reader says where
            mentions, more = _read_fields(path, lines, bounds[d], segments.row(d), first_line, lenient)
            warnings.extend(more)
            text = _text(words, pos, base, stop_tokens)
            text.update(forms=columns.view("forms", d), n_tokens=stop_tokens - base)
            documents.append(_whole_document(mentions, name, begin_line, text))
        else:
            if d in notes:
                warnings.extend(notes[d])
            values = {
                "name": name,
                "labels": tuple(labels[lo:hi]),
                "n_tokens": stop_tokens - base,
                "begin_line": begin_line,
                "parts": {},
                "_columns": columns,
                "_at": d,
            }
            if words is not None:
                values.update(_text(words, pos, base, stop_tokens))
            documents.append(from_fields(ViewDocument, values))  # a file may have a million
        if again and d in again:
            warnings.append(again[d])
    return documents, SentenceLengths(names, *_sentence_lengths(lines.sentence_breaks, segments))


def _text(words: list[str] | None, pos: list[str] | None, base: int, stop: int) -> dict[str, object]:
    """The fields of a document's words (``tokens`` and ``pos``, where they are kept): tokens
    ``base`` to ``stop`` of the file's."""
    text: dict[str, object] = {} if words is None else {"tokens": tuple(words[base:stop])}
    if pos is not None:
        text["pos"] = tuple(pos[base:stop])
    return text


def _repeated_names(path: str, segments: Segments) -> dict[int, Diagnostic]:
    """A warning for each document whose name an earlier one has, by its index."""
    out: dict[int, Diagnostic] = {}
    first_seen: dict[str, int] = {}
    for d, (name, begin_line) in enumerate(zip(segments.names, segments.begin_lines)):
        if name in first_seen:
            message = (
                f"document '{name}' appears again (first at line {first_seen[name]}); the last occurrence "
                "is scored, as the reference scorer does"
            )
            out[d] = Diagnostic(path, begin_line, message)
        else:
            first_seen[name] = begin_line
    return out


def _columns(found: Found, prints: np.ndarray, segments: Segments) -> Columns:
    """The mention columns and word fingerprints of every document, which its views show."""
    firsts, stops = (np.asarray(c, dtype=np.int64) for c in (segments.bases, segments.token_stops))
    return Columns(found.starts, found.ends, found.entities, found.lines, found.bounds, prints, firsts, stops)


def _whole_document(mentions: Mentions, name: str, begin_line: int, more: dict[str, object]) -> Document:
    """A document of its own columns (one read line by line); ``more``: its other fields."""
    values: dict[str, object] = {
        "name": name,
        "starts": mentions.starts,
        "ends": mentions.ends,
        "entities": mentions.entities,
        "labels": mentions.labels,
        "lines": mentions.lines,
        "begin_line": begin_line,
        "parts": {},
    }
    return from_fields(Document, {**values, **more})


def _read_fields(
    path: str, lines: Summary, bounds: np.ndarray, segment: Segment, first_line: int, lenient: bool
) -> tuple[Mentions, list[Diagnostic]]:
    """The mentions of a document read line by line (which says what is wrong, and where), and
    its warnings."""
    name, begin_line, _, _, base, _, end_line, how = segment
    builder = _DocumentBuilder(path, name, begin_line, lenient)
    lo, hi = bounds
    edges = lines.field_bounds[lo : hi + 1].tolist()
    fields = [lines.fields[a:b].decode("utf-8").strip() for a, b in zip(edges, edges[1:])]
    tokens = (lines.mention_tokens[lo:hi] - base).tolist()
    builder.fields(fields, tokens, (lines.mention_lines[lo:hi] + first_line).tolist())
    return builder.finish(end_line, how), builder.warnings
