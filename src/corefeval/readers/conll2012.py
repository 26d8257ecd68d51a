"""Reader for CoNLL-2011/2012 coreference files.

Documents run from ``#begin document NAME`` to ``#end document``; every other non-blank line inside
a document is a token whose last column holds the coreference parts (``(N``, ``N)``, ``(N)``, ``-``,
``_``, joined by ``|`` or back to back). Unlike the reference scorer this reader tokenises the line
by columns, treats ``#`` lines as comments, reads ``N)(N`` as "close then open", stops a document at
the next ``#begin document``, and refuses unclosed mentions; each of these is reported. Entity and
mention order follow the reference (see the model's docstring), because they decide which copy of a
repeated span is kept.
"""

from __future__ import annotations

import re

import numpy as np

from ..diagnostics import Diagnostic, InputError
from ..model import Corpus, Document

_BEGIN = re.compile(r"#\s*begin document(?: (.*)|(\(.*))?$")
_END = re.compile(r"#\s*end document")
_PART = re.compile(r"\(\d+\+\d\)|\((\d+)\)|\((\d+)|(\d+)\)|\||(\d+)")
_LABEL_HELP = "expected '-', '_' or parts '(N', 'N)', '(N)' with N a non-negative integer"


def read_text(path: str) -> str:
    """Read a file as UTF-8, turning every failure into a located :class:`InputError`."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as err:
        raise InputError(path, 0, f"cannot read the file: {err.strerror or err}") from None
    if not data.strip():
        raise InputError(path, 1, "the file is empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputError(
            path, line, f"byte 0x{data[err.start]:02x} at column {col} is not UTF-8 (the file must be UTF-8)"
        ) from None


class _DocumentBuilder:
    """Collects one document's tokens and mentions while its lines are read."""

    def __init__(self, path: str, name: str, line: int) -> None:
        self.path = path
        self.name = name
        self.begin_line = line
        self.n_tokens = 0
        self.label_index: dict[str, int] = {}
        self.open: dict[str, list[tuple[int, int]]] = {}
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.entities: list[int] = []
        self.lines: list[int] = []
        self.words: list[str] | None = None
        self.bare_line = 0

    def _entity(self, label: str) -> int:
        k = self.label_index.get(label)
        if k is None:
            k = self.label_index[label] = len(self.label_index)
        return k

    def _add(self, start: int, end: int, label: str, line: int) -> None:
        self.starts.append(start)
        self.ends.append(end)
        self.entities.append(self.label_index[label])
        self.lines.append(line)

    def token(self, field: str, line: int) -> None:
        """Record one token line whose coreference field is ``field``."""
        t = self.n_tokens
        self.n_tokens += 1
        if field == "-" or field == "_":
            return
        singles: list[str] = []
        opens: list[str] = []
        closes: list[tuple[str, int]] = []
        pos = 0
        for m in _PART.finditer(field):
            if m.start() != pos:
                break
            pos = m.end()
            single, opening, closing, bare = m.groups()
            if bare is not None and not self.bare_line:
                self.bare_line = line
            if single is not None:
                singles.append(single)
            elif opening is not None:
                opens.append(opening)
                self.open.setdefault(opening, []).append((t, line))
            elif closing is not None:
                stack = self.open.get(closing)
                if not stack:
                    raise InputError(self.path, line, f"'{closing})' closes a mention of entity {closing} "
                                     "that was never opened")
                closes.append((closing, stack.pop()[0]))
        if pos != len(field):
            raise InputError(self.path, line, f"cannot read coreference field '{field}': {_LABEL_HELP}")
        # Reference order: one-token mentions, then openings, then closings, each in text order.
        for label in singles:
            self._entity(label)
            self._add(t, t, label, line)
        for label in opens:
            self._entity(label)
        for label, start in closes:
            self._entity(label)
            self._add(start, t, label, line)

    def finish(self, end_line: int, how: str) -> Document:
        for label, stack in self.open.items():
            if stack:
                start_line = stack[0][1]
                raise InputError(self.path, start_line, f"mention '({label}' opened here is not closed before {how} "
                                 f"at line {end_line}")
        return Document(
            name=self.name,
            starts=np.asarray(self.starts, dtype=np.int64),
            ends=np.asarray(self.ends, dtype=np.int64),
            entities=np.asarray(self.entities, dtype=np.int64),
            labels=tuple(self.label_index),
            n_tokens=self.n_tokens,
            lines=np.asarray(self.lines, dtype=np.int64),
            begin_line=self.begin_line,
            tokens=tuple(self.words) if self.words is not None else None,
        )


def read_conll2012(path: str, text: str | None = None, keep_tokens: bool = False) -> Corpus:
    """Read a CoNLL-2011/2012 file into a :class:`Corpus` (documents in file order).

    With ``keep_tokens`` each document also keeps its words (the fourth column of lines with at
    least five columns, else an empty string), for reports that show the text.
    """
    if text is None:
        text = read_text(path)
    warnings: list[Diagnostic] = []

    def warn(line: int, message: str) -> None:
        warnings.append(Diagnostic(path, line, message))

    if text.startswith("\ufeff"):
        text = text[1:]
        warn(1, "byte-order mark ignored (the reference scorer would miss the first document)")
    documents: list[Document] = []
    first_seen: dict[str, int] = {}
    doc: _DocumentBuilder | None = None
    comment_reported = False
    lineno = 0

    def close(end_line: int, how: str) -> None:
        assert doc is not None
        if doc.name in first_seen:
            warn(doc.begin_line, f"document '{doc.name}' appears again (first at line {first_seen[doc.name]}); "
                 "the last occurrence is scored, as the reference scorer does")
        else:
            first_seen[doc.name] = doc.begin_line
        if doc.bare_line:
            warn(doc.bare_line, f"document '{doc.name}': entity numbers without brackets (inside a mention) "
                 "are ignored, as the reference scorer and coval do")
        documents.append(doc.finish(end_line, how))

    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip()
        if not line:
            continue
        if line[0] == "#":
            begin = _BEGIN.match(raw.rstrip("\r"))
            if begin:
                if doc is not None:
                    warn(lineno, f"'#begin document' while document '{doc.name}' is open (missing "
                         "'#end document'); the open document ends here")
                    close(lineno, "the next '#begin document'")
                name = begin.group(1)
                if begin.group(2) is not None:
                    name = begin.group(2)
                    warn(lineno, "'#begin document(' without a space: the reference scorer does not see this "
                         "document (coval does)")
                if name is None:
                    warn(lineno, "'#begin document' without a name; the document is named ''")
                    name = ""
                doc = _DocumentBuilder(path, name, lineno)
                if keep_tokens:
                    doc.words = []
            elif _END.match(line):
                if doc is None:
                    warn(lineno, "'#end document' with no document open; ignored")
                else:
                    close(lineno, "'#end document'")
                    doc = None
            elif doc is not None and not comment_reported:
                comment_reported = True
                warn(lineno, "comment line inside a document is not a token (the reference scorer counts "
                     "it as one, shifting later spans)")
            continue
        if doc is None:
            continue
        if "\t" in line:
            field = line.rpartition("\t")[2].strip()
        else:
            field = line.rsplit(None, 1)[-1]
        if doc.words is not None:
            cols = line.split("\t") if "\t" in line else line.split()
            doc.words.append(cols[3].strip() if len(cols) >= 5 else "")
        doc.token(field, lineno)
    if doc is not None:
        warn(lineno, f"document '{doc.name}' has no '#end document'; it ends at the end of the file")
        close(lineno, "the end of the file")
    if not documents:
        raise InputError(path, 1, "no document found (expected a '#begin document NAME' line)")
    return Corpus(path=path, documents=documents, format="conll2012", warnings=warnings)
