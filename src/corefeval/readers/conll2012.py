"""Reader for CoNLL-2011/2012 coreference files.

Documents run from ``#begin document NAME`` to ``#end document``; every other non-blank line inside
a document is a token whose last column holds the coreference parts (``(N``, ``N)``, ``(N)``, ``-``,
``_``, joined by ``|`` or back to back). Unlike the reference scorer this reader tokenises the line
by columns, treats ``#`` lines as comments, reads ``N)(N`` as "close then open", stops a document at
the next ``#begin document``, and refuses unclosed mentions; each of these is reported. Entity and
mention order follow the reference (see the model's docstring), because they decide which copy of a
repeated span is kept.

Lines are classified column-wise with numpy over the raw bytes (blank, ``#``, token without a
mention, token with a mention), so Python only visits ``#`` lines and lines that carry a mention.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..diagnostics import Diagnostic, InputError
from ..model import Corpus, Document
from .conll_mentions import DANGLING, EVENTS, FIELD, ONE_PART, Mentions, bare_numbers, document_mentions, unreadable

_BEGIN = re.compile(r"#\s*begin document( ?)(.*)$")
_END = re.compile(r"#\s*end document")
_WHITESPACE = np.zeros(256, dtype=bool)
_WHITESPACE[[9, 10, 11, 12, 13, 32]] = True

BLANK, HASH, TOKEN, MENTION = 0, 1, 2, 3
_BACKWARDS = 32  # bytes searched back from a line's end for its last column, for all lines at once


def read_bytes(path: str) -> bytes:
    """A file's bytes; an unreadable or empty file is a located :class:`InputError`."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as err:
        raise InputError(path, 0, f"cannot read the file: {err.strerror or err}") from None
    if not data.strip():
        raise InputError(path, 1, "the file is empty")
    return data


def read_text(path: str) -> str:
    """Read a file as UTF-8, turning every failure into a located :class:`InputError`."""
    return decode(path, read_bytes(path))


def decode(path: str, data: bytes) -> str:
    """``data`` as UTF-8 text; a byte that is not UTF-8 is a located :class:`InputError`."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(
            path, line, f"byte 0x{data[err.start]:02x} at column {col} is not UTF-8 (the file must be UTF-8)"
        ) from None


@dataclass(frozen=True)
class LineTable:
    """Every line of a file, column-wise: where it starts, ends (trailing white space cut), where
    its last column starts, and its kind (blank, ``#`` line, token, token carrying a mention)."""

    start: np.ndarray
    end: np.ndarray
    field: np.ndarray
    kind: np.ndarray

    @classmethod
    def of(cls, data: bytes) -> LineTable:
        arr = np.frombuffer(data, dtype=np.uint8)
        newlines = np.flatnonzero(arr == 10)
        start = np.concatenate(([0], newlines + 1))
        end = np.concatenate((newlines, [arr.size]))
        trailing = (end > start) & _WHITESPACE[arr[np.maximum(end - 1, 0)]]
        while trailing.any():
            end = end - trailing
            trailing = (end > start) & _WHITESPACE[arr[np.maximum(end - 1, 0)]]
        field = _last_column(data, arr, start, end)
        first = arr[np.minimum(start, max(arr.size - 1, 0))] if arr.size else np.zeros(0, dtype=np.uint8)
        kind = np.full(start.size, TOKEN, dtype=np.int8)
        kind[first == ord("#")] = HASH
        kind[end <= start] = BLANK
        one = (end - field == 1) & (
            (arr[np.minimum(field, arr.size - 1)] == ord("-")) | (arr[np.minimum(field, arr.size - 1)] == ord("_"))
        )
        kind[(kind == TOKEN) & ~one] = MENTION
        return cls(start, end, field, kind)


def _last_column(data: bytes, arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Start of each line's last column: after its last TAB, or after its last space if it has no TAB.

    The last column is short, so all lines are searched backwards from their ends together, one
    byte position at a time (for a TAB, or in a file without TABs for a space); the few lines where
    that decides nothing within ``_BACKWARDS`` bytes are searched one by one.
    """
    field = start.copy()
    separator = 9 if b"\t" in data else 32
    pending = np.flatnonzero(end > start)
    undecided = []
    for back in range(1, _BACKWARDS + 1):
        if pending.size == 0:
            break
        at = end[pending] - back
        inside = at >= start[pending]
        hit = inside & (arr[np.maximum(at, 0)] == separator)
        field[pending[hit]] = at[hit] + 1
        if separator == 9:
            undecided.append(pending[~inside])  # no TAB on the line: its last space decides
        pending = pending[inside & ~hit]
    for i in np.concatenate([pending, *undecided]).tolist():
        line_start, line_end = int(start[i]), int(end[i])
        cut = data.rfind(b"\t", line_start, line_end)
        if cut < 0:
            cut = data.rfind(b" ", line_start, line_end)
        field[i] = cut + 1 if cut >= 0 else line_start
    return field


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
        one = ONE_PART.fullmatch
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
            else:
                self._add(self._pop(closing, line), t, closing, line)

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
        if not FIELD.fullmatch(field) or DANGLING.search(field):
            message = unreadable(field)
            if not self.lenient:
                raise InputError(self.path, line, message)
            self.warnings.append(Diagnostic(self.path, line, message + "; read as '-'"))
            return
        singles: list[str] = []
        opens: list[str] = []
        closes: list[tuple[str, int]] = []
        for single, opening, closing, bare in EVENTS.findall(field):
            if bare:  # an entity number without brackets, written on tokens inside a mention
                if not self.bare_line:
                    self.bare_line = line
                    self.warnings.append(Diagnostic(self.path, line, bare_numbers(self.name)))
            elif single:
                singles.append(single)
            elif opening:
                opens.append(opening)
                self.open.setdefault(opening, []).append((t, line))
            elif closing:
                closes.append((closing, self._pop(closing, line)))
        for label in singles:
            self._add(t, t, label, line)
        for label in opens:
            self._entity(label)
        for label, start in closes:
            self._add(start, t, label, line)

    def finish(self, end_line: int, how: str) -> Mentions:
        """The document's mentions; an opened mention that is not closed is an :class:`InputError`."""
        for label, stack in self.open.items():
            if stack:
                raise InputError(
                    self.path,
                    stack[0][1],
                    f"mention '({label}' opened here is not closed before {how} at line {end_line}",
                )
        return Mentions(
            starts=np.asarray(self.starts, dtype=np.int64),
            ends=np.asarray(self.ends, dtype=np.int64),
            entities=np.asarray(self.entities, dtype=np.int64),
            labels=tuple(self.label_index),
            lines=np.asarray(self.lines, dtype=np.int64),
        )


def _word(line: str) -> str:
    cols = line.split("\t") if "\t" in line else line.split()
    return cols[3].strip() if len(cols) >= 5 else ""


def read_conll2012(
    path: str, text: str | bytes | None = None, keep_tokens: bool = False, first_line: int = 1, lenient: bool = False
) -> Corpus:
    """Read a CoNLL-2011/2012 file into a :class:`Corpus` (documents in file order).

    ``text`` is the file's content, as text or as bytes already known to be UTF-8 (default: read
    ``path``). With ``keep_tokens`` each document also keeps its words (the fourth column of lines
    with at least five columns, else an empty string), for reports that show the text.
    ``first_line`` is the line number of ``text``'s first line, when it is a part of a larger file.
    With ``lenient`` an unreadable coreference field is a warning (the token carries no mention),
    not an error.
    """
    if text is None:
        text = read_text(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    del text
    warnings: list[Diagnostic] = []

    def warn(line: int, message: str) -> None:
        warnings.append(Diagnostic(path, line, message))

    if first_line == 1 and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        warn(1, "byte-order mark ignored (the reference scorer would miss the first document)")
    table = LineTable.of(data)
    is_token = table.kind >= TOKEN
    tokens_before = np.concatenate(([0], np.cumsum(is_token)))  # tokens on lines [0, i)

    # Document boundaries come from the '#' lines: (builder, first line index, end line index, how).
    segments: list[tuple[_DocumentBuilder, int, int, int, str]] = []
    doc: _DocumentBuilder | None = None
    doc_first = 0
    comment_reported = glued_reported = False
    for i in np.flatnonzero(table.kind == HASH).tolist():
        raw = data[table.start[i] : table.end[i] if i + 1 == table.start.size else table.start[i + 1] - 1]
        line = raw.decode("utf-8").rstrip("\r")
        begin = _BEGIN.match(line)
        if begin:
            if doc is not None:
                warn(
                    i + first_line,
                    f"'#begin document' while document '{doc.name}' is open (missing "
                    "'#end document'); the open document ends here",
                )
                segments.append((doc, doc_first, i, i + first_line, "the next '#begin document'"))
            name = begin.group(2)
            if not name:
                warn(i + first_line, "'#begin document' without a name; the document is named ''")
            elif not begin.group(1) and not glued_reported:
                glued_reported = True
                warn(
                    i + first_line,
                    f"'#begin document{name}' has no space before the name; read as document "
                    f"'{name}' (the reference scorer does not recognise it and scores nothing)",
                )
            doc, doc_first = _DocumentBuilder(path, name, i + first_line, lenient), i + 1
        elif _END.match(line):
            if doc is None:
                warn(i + first_line, "'#end document' with no document open; ignored")
            else:
                segments.append((doc, doc_first, i, i + first_line, "'#end document'"))
                doc = None
        elif doc is not None and not comment_reported:
            comment_reported = True
            warn(
                i + first_line,
                "comment line inside a document is not a token (the reference scorer counts "
                "it as one, shifting later spans)",
            )
    if doc is not None:
        last = int(np.flatnonzero(table.kind != BLANK)[-1]) + first_line if (table.kind != BLANK).any() else first_line
        warn(last, f"document '{doc.name}' has no '#end document'; it ends at the end of the file")
        segments.append((doc, doc_first, table.kind.size, last, "the end of the file"))
    if not segments:
        raise InputError(path, first_line, "no document found (expected a '#begin document NAME' line)")

    mention_lines = np.flatnonzero(table.kind == MENTION)
    bounds = np.searchsorted(mention_lines, [(first, stop) for _, first, stop, _, _ in segments])
    rows = np.concatenate([mention_lines[lo:hi] for lo, hi in bounds])
    doc_of_row = np.repeat(np.arange(len(segments)), bounds[:, 1] - bounds[:, 0])
    bases = tokens_before[[first for _, first, _, _, _ in segments]]
    found, notes = document_mentions(
        data,
        table.field[rows],
        table.end[rows],
        tokens_before[rows] - bases[doc_of_row],
        rows + first_line,
        doc_of_row,
        (path, [builder.name for builder, *_ in segments], lenient),
    )
    documents: list[Document] = []
    first_seen: dict[str, int] = {}
    for d, (builder, first, stop, end_line, how) in enumerate(segments):
        base = int(tokens_before[first])
        mentions = found[d]
        notes_here = notes.get(d, [])
        if mentions is None:  # something is wrong: the line-by-line reader says where
            lo, hi = bounds[d]
            rows_here = mention_lines[lo:hi]
            fields = [
                data[a:b].decode("utf-8").strip()
                for a, b in zip(table.field[rows_here].tolist(), table.end[rows_here].tolist())
            ]
            builder.fields(fields, (tokens_before[rows_here] - base).tolist(), (rows_here + first_line).tolist())
            mentions = builder.finish(end_line, how)
            notes_here = builder.warnings
        warnings.extend(notes_here)
        words = None
        if keep_tokens:
            token_rows = np.flatnonzero(is_token[first:stop]) + first
            words = tuple(_word(data[table.start[i] : table.end[i]].decode("utf-8")) for i in token_rows.tolist())
        if builder.name in first_seen:
            warn(
                builder.begin_line,
                f"document '{builder.name}' appears again (first at line "
                f"{first_seen[builder.name]}); the last occurrence is scored, as the reference scorer does",
            )
        else:
            first_seen[builder.name] = builder.begin_line
        documents.append(
            Document(
                name=builder.name,
                starts=mentions.starts,
                ends=mentions.ends,
                entities=mentions.entities,
                labels=mentions.labels,
                n_tokens=int(tokens_before[stop]) - base,
                lines=mentions.lines,
                begin_line=builder.begin_line,
                tokens=words,
            )
        )
    return Corpus(path=path, documents=documents, format="conll2012", warnings=warnings)
