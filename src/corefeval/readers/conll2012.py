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

_BEGIN = re.compile(r"#\s*begin document( ?)(.*)$")
_END = re.compile(r"#\s*end document")
_ONE = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")
_EVENTS = re.compile(r"\(\d+\+\d\)|\((\d+)\)|\((\d+)|(\d+)\)|(\d+)|\||-|_")
_FIELDS = re.compile(r"(?:\(\d+\+\d\)|\(\d+\)|\(\d+|\d+\)|\d+|\||-|_)*")
#: A '|' that separates nothing: first, last, or next to another '|'.
_DANGLING = re.compile(r"^\||\|$|\|\|")
_LABEL_HELP = "expected '-', '_' or parts '(N', 'N)', '(N)' with N a non-negative integer, separated by single '|'"
_WHITESPACE = np.zeros(256, dtype=bool)
_WHITESPACE[[9, 10, 11, 12, 13, 32]] = True

BLANK, HASH, TOKEN, MENTION = 0, 1, 2, 3


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
    data = read_bytes(path)
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
        field = _last_column(arr, start, end)
        first = arr[np.minimum(start, max(arr.size - 1, 0))] if arr.size else np.zeros(0, dtype=np.uint8)
        kind = np.full(start.size, TOKEN, dtype=np.int8)
        kind[first == ord("#")] = HASH
        kind[end <= start] = BLANK
        one = (end - field == 1) & (
            (arr[np.minimum(field, arr.size - 1)] == ord("-")) | (arr[np.minimum(field, arr.size - 1)] == ord("_"))
        )
        kind[(kind == TOKEN) & ~one] = MENTION
        return cls(start, end, field, kind)


def _last_column(arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Start of each line's last column: after its last TAB, or after its last space if it has no TAB."""
    field = start.copy()
    for sep in (9, 32):
        pending = np.flatnonzero((field == start) & (end > start))
        if pending.size == 0:
            break
        pos = np.flatnonzero(arr == sep)
        if pos.size == 0:
            continue
        before = np.searchsorted(pos, end[pending]) - 1
        last = np.where(before >= 0, pos[np.maximum(before, 0)], -1)
        inside = last >= start[pending]
        field[pending[inside]] = last[inside] + 1
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
        one = _ONE.fullmatch
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
        if not _FIELDS.fullmatch(field) or _DANGLING.search(field):
            message = f"cannot read coreference field '{field}': {_LABEL_HELP}"
            if not self.lenient:
                raise InputError(self.path, line, message)
            self.warnings.append(Diagnostic(self.path, line, message + "; read as '-'"))
            return
        singles: list[str] = []
        opens: list[str] = []
        closes: list[tuple[str, int]] = []
        for single, opening, closing, bare in _EVENTS.findall(field):
            if bare:  # an entity number without brackets, written on tokens inside a mention
                if not self.bare_line:
                    self.bare_line = line
                    self.warnings.append(
                        Diagnostic(
                            self.path,
                            line,
                            f"document '{self.name}': entity numbers "
                            "without brackets are ignored, as the reference scorer and "
                            "coval do",
                        )
                    )
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

    def finish(self, n_tokens: int, end_line: int, how: str, words: tuple[str, ...] | None) -> Document:
        for label, stack in self.open.items():
            if stack:
                raise InputError(
                    self.path,
                    stack[0][1],
                    f"mention '({label}' opened here is not closed before {how} at line {end_line}",
                )
        return Document(
            name=self.name,
            starts=np.asarray(self.starts, dtype=np.int64),
            ends=np.asarray(self.ends, dtype=np.int64),
            entities=np.asarray(self.entities, dtype=np.int64),
            labels=tuple(self.label_index),
            n_tokens=n_tokens,
            lines=np.asarray(self.lines, dtype=np.int64),
            begin_line=self.begin_line,
            tokens=words,
        )


def _word(line: str) -> str:
    cols = line.split("\t") if "\t" in line else line.split()
    return cols[3].strip() if len(cols) >= 5 else ""


def read_conll2012(
    path: str, text: str | None = None, keep_tokens: bool = False, first_line: int = 1, lenient: bool = False
) -> Corpus:
    """Read a CoNLL-2011/2012 file into a :class:`Corpus` (documents in file order).

    With ``keep_tokens`` each document also keeps its words (the fourth column of lines with at
    least five columns, else an empty string), for reports that show the text. ``first_line`` is
    the line number of ``text``'s first line, when it is a part of a larger file. With ``lenient``
    an unreadable coreference field is a warning (the token carries no mention), not an error.
    """
    if text is None:
        text = read_text(path)
    warnings: list[Diagnostic] = []

    def warn(line: int, message: str) -> None:
        warnings.append(Diagnostic(path, line, message))

    if first_line == 1 and text.startswith("\ufeff"):
        text = text[1:]
        warn(1, "byte-order mark ignored (the reference scorer would miss the first document)")
    data = text.encode("utf-8")
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
    documents: list[Document] = []
    first_seen: dict[str, int] = {}
    for builder, first, stop, end_line, how in segments:
        base = int(tokens_before[first])
        lo, hi = np.searchsorted(mention_lines, [first, stop])
        rows = mention_lines[lo:hi]
        bounds = zip(table.field[rows].tolist(), table.end[rows].tolist())
        fields = [data[a:b].decode("utf-8").strip() for a, b in bounds]
        builder.fields(fields, (tokens_before[rows] - base).tolist(), (rows + first_line).tolist())
        warnings.extend(builder.warnings)
        words = None
        if keep_tokens:
            rows = np.flatnonzero(is_token[first:stop]) + first
            words = tuple(_word(data[table.start[i] : table.end[i]].decode("utf-8")) for i in rows.tolist())
        if builder.name in first_seen:
            warn(
                builder.begin_line,
                f"document '{builder.name}' appears again (first at line "
                f"{first_seen[builder.name]}); the last occurrence is scored, as the reference scorer does",
            )
        else:
            first_seen[builder.name] = builder.begin_line
        documents.append(builder.finish(int(tokens_before[stop]) - base, end_line, how, words))
    return Corpus(path=path, documents=documents, format="conll2012", warnings=warnings)
