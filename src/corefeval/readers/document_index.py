"""Where each document of a file is, found without parsing it, and one document read from there.

:func:`index_documents` gives a :class:`ByteRange` per document: CoNLL-2012 documents run from
``#begin document`` to ``#end document``; CorefUD documents from one ``# newdoc`` line to the next
(documents without a word or a mention are left out, as the reader leaves them out); a jsonlines
document (e2e-coref or a model's outputs) is one line, named by its ``doc_key``. :func:`read_range`
parses one range with the format's own reader and gives the document that reading the whole file
gives, with the same line numbers in its diagnostics. The Dask documents engine
(:mod:`corefeval.scoring.distributed.documents`) sends each worker its documents' ranges this way.

A file is indexed in blocks of whole lines, so the index holds one block and the ranges, never the
whole file. Ranges are read back from the file, so it must be a regular, uncompressed file:
:func:`require_regular_file` refuses a pipe, a device or a gzip file in one line.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..core.diagnostics import Diagnostic, InputError
from ..core.model import Corpus, Document
from . import _model_output, sniff_format
from .conll2012 import read_conll2012
from .corefud import EntityKey
from .json_values import parse
from .sources import BLOCK_SIZE, input_blocks

_BOM = b"\xef\xbb\xbf"
_GZIP = b"\x1f\x8b"
_CONLL_MARK = re.compile(rb"(?m)^#[ \t]*(begin|end) document([^\n]*)$")
#: CorefUD comment lines that may start a document or name the bracket fields (checked exactly later).
_COREFUD_MARK = re.compile(rb"(?m)^(\xef\xbb\xbf)?#[^\n=]*?(?:newdoc|global\.Entity)[^\n]*")
_COREFUD_WORD = re.compile(rb"(?m)^\d+\t")
#: A jsonlines line whose first key is ``doc_key`` with a plain string value.
_FIRST_KEY = re.compile(rb'[ \t\r]*\{[ \t\r]*"doc_key"[ \t\r]*:[ \t\r]*"((?:[^"\\\n]|\\[^\n])*)"')
#: A ``\u`` escape of a letter or ``_``: a key spelled with one could repeat ``doc_key``.
_ESCAPED_LETTER = re.compile(rb"\\u00[4-7][0-9a-fA-F]")


@dataclass(frozen=True)
class ByteRange:
    """Where one document's lines are in a file (bytes ``[start, end)``, first line number).

    ``closed`` is false for a CoNLL-2012 document ended by the next ``#begin document``; ``header``
    is the CorefUD ``# global.Entity`` line in force where the range starts (it is read first).
    """

    name: str
    start: int
    end: int
    first_line: int
    closed: bool = True
    format: str = "conll2012"
    header: str = ""


def require_regular_file(path: str) -> None:
    """Refuse, in one line, a file whose documents cannot be read back from their byte ranges: a
    pipe or a device (it can be read only once) or a gzip-compressed file."""
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        raise InputError(path, 0, f"cannot read the file: {err.strerror or err}") from None
    if not stat.S_ISREG(mode):
        raise InputError(
            path,
            0,
            "documents are read back from their byte ranges, so this needs a regular file, not a pipe or device",
        )
    with open(path, "rb") as fh:
        if fh.read(2) == _GZIP:
            raise InputError(path, 1, "documents cannot be split out of a gzip-compressed file; decompress it first")


def index_documents(
    path: str, fmt: str = "auto", block_size: int = BLOCK_SIZE
) -> tuple[list[ByteRange], list[Diagnostic]]:
    """Find every document of a file (``fmt`` as the readers take it) without parsing it.

    The file is walked in blocks of whole lines of about ``block_size`` bytes
    (:func:`~corefeval.readers.sources.input_blocks`), so the index needs memory for one block
    and the ranges, not for the file. The warnings are those
    of the file's structure (unclosed CoNLL-2012 documents); errors in the documents themselves are
    found when a range is read.
    """
    require_regular_file(path)
    found = fmt if fmt != "auto" else sniff_format(path)
    if (
        found == "jsonlines"
        and fmt == "auto"
        and _model_output(_first_line(path).decode("utf-8", "replace")) == "predictions"
    ):
        found = "predictions"
    blocks = _offset_blocks(path, block_size)
    if found == "corefud":
        return _corefud_ranges(path, blocks), []
    if found in ("jsonlines", "predictions"):
        return _jsonlines_ranges(path, blocks, found), []
    return _conll_ranges(path, blocks)


#: A block of whole lines with its offset in the file and the number of its first line.
Block = tuple[bytes, int, int]


def _offset_blocks(path: str, block_size: int = BLOCK_SIZE) -> Iterator[Block]:
    offset, line = 0, 1
    for block, _ in input_blocks(path, block_size):
        yield block, offset, line
        offset += len(block)
        line += block.count(b"\n")


def _first_line(path: str) -> bytes:
    """The file's first line that is not blank (a byte-order mark cut), as the reader sees it."""
    for block, offset, _ in _offset_blocks(path):
        text = block[len(_BOM) :] if offset == 0 and block.startswith(_BOM) else block
        text = text.lstrip(b" \t\r\n\f\v")
        if text:
            return text.split(b"\n", 1)[0]
    return b""


def _conll_ranges(path: str, blocks: Iterable[Block]) -> tuple[list[ByteRange], list[Diagnostic]]:
    spans: list[ByteRange] = []
    warnings: list[Diagnostic] = []
    open_doc: tuple[str, int, int] | None = None
    size = 0
    for data, offset, line in blocks:
        pos = 0
        size = offset + len(data)
        for m in _CONLL_MARK.finditer(data):
            line += data.count(b"\n", pos, m.start())
            pos = m.start()
            if m.group(1) == b"begin":
                rest = m.group(2).rstrip(b"\r")
                name = (rest[1:] if rest.startswith(b" ") else rest).decode("utf-8", "replace")
                if open_doc is not None:
                    warnings.append(
                        Diagnostic(
                            path,
                            line,
                            f"'#begin document' while document '{open_doc[0]}' is "
                            "open (missing '#end document'); the open document ends here",
                        )
                    )
                    spans.append(ByteRange(open_doc[0], open_doc[1], offset + m.start(), open_doc[2], False))
                open_doc = (name, offset + m.start(), line)
            elif open_doc is None:
                warnings.append(Diagnostic(path, line, "'#end document' with no document open; ignored"))
            else:
                spans.append(ByteRange(open_doc[0], open_doc[1], offset + m.end(), open_doc[2], True))
                open_doc = None
    if open_doc is not None:
        spans.append(ByteRange(open_doc[0], open_doc[1], size, open_doc[2], True))
    if not spans:
        raise InputError(path, 1, "no document found (expected a '#begin document NAME' line)")
    return spans, warnings


def _corefud_ranges(path: str, blocks: Iterable[Block]) -> list[ByteRange]:
    """CorefUD documents: from each ``# newdoc`` line to the next; nodes before the first one are a
    document named ''. The ``# global.Entity`` line in force at each start goes with the range."""
    from .corefud import comment, entity_fields

    newdocs: list[tuple[int, int, str, str]] = []  # offset, line, name, header of each newdoc line
    headers: list[tuple[int, str]] = []  # offset and text of each global.Entity line
    words = [False]  # whether the lead (before the first newdoc), then each newdoc's range, has a word line
    lead: tuple[int, int] | None = None
    size = 0
    for data, offset, first in blocks:
        line, pos, cut = first, 0, 0  # cut: where the current range's part of this block starts
        size = offset + len(data)
        for m in _COREFUD_MARK.finditer(data):
            if m.group(1) and offset + m.start() != 0:
                continue  # a byte-order mark inside the file: the line is not a comment
            line += data.count(b"\n", pos, m.start())
            pos = m.start()
            text = m.group()[len(m.group(1) or b"") :].decode("utf-8", "replace").rstrip("\r")
            kind, value = comment(text)
            if kind == "newdoc":
                if not newdocs and lead is None:  # nodes before the first newdoc, in an earlier block or this one
                    lead = _first_node(data, offset, first, cut, m.start())
                words[-1] = words[-1] or bool(_COREFUD_WORD.search(data, cut, m.start()))
                cut = m.start() + len(m.group(1) or b"")
                newdocs.append((offset + cut, line, value, headers[-1][1] if headers else ""))
                words.append(False)
            elif kind == "global.Entity":
                entity_fields(path, line, value)
                headers.append((offset + m.start(), text))
        if not newdocs and lead is None:
            lead = _first_node(data, offset, first, cut, len(data))
        words[-1] = words[-1] or bool(_COREFUD_WORD.search(data, cut))
    spans: list[tuple[ByteRange, bool]] = []
    first_newdoc = newdocs[0][0] if newdocs else size
    if lead is not None:
        header = next((text for at, text in reversed(headers) if at < lead[0]), "")
        spans.append((ByteRange("", lead[0], first_newdoc, lead[1], format="corefud", header=header), words[0]))
    ends = [at for at, *_ in newdocs[1:]] + [size]
    for (at, first, name, header), end, has_words in zip(newdocs, ends, words[1:]):
        spans.append((ByteRange(name, at, end, first, format="corefud", header=header), has_words))
    kept = [s for s, has_words in spans if has_words or _has_document(path, s)]
    if not kept:
        raise InputError(path, 1, "no document found (expected CoNLL-U word lines)")
    return kept


def _first_node(data: bytes, offset: int, first_line: int, start: int, stop: int) -> tuple[int, int] | None:
    """Where the reader starts a document before any ``# newdoc``, if in ``data[start:stop]`` (a
    block at ``offset`` in the file, beginning line ``first_line``): the first line that is not
    blank, not a comment and not a multiword token (offset in the file, line number)."""
    pos = len(_BOM) if offset == 0 and start == 0 and data.startswith(_BOM) else start
    while pos < stop:
        end = data.find(b"\n", pos, stop)
        end = stop if end < 0 else end
        text = data[pos:end].decode("utf-8", "replace").rstrip("\r")
        if text.strip() and not text.startswith("#"):
            columns = text.split("\t")
            if len(columns) != 10 or "-" not in columns[0]:
                # a node, or a line the reader refuses (it does, when the range is read)
                return offset + pos, first_line + data.count(b"\n", 0, pos)
        pos = end + 1
    return None


def _has_document(path: str, span: ByteRange) -> bool:
    """Whether a CorefUD range without a word line still holds a document (a mention on empty
    nodes); the reader leaves out a document with neither words nor mentions."""
    try:
        read_range_corpus(path, span)
    except InputError as err:
        if err.diagnostic.message.startswith("no document found"):
            return False
        raise
    return True


def _jsonlines_ranges(path: str, blocks: Iterable[Block], fmt: str) -> list[ByteRange]:
    """One range per non-blank line, named by its ``doc_key`` (read from the line's start when it is
    the first key, else by parsing the line)."""
    spans: list[ByteRange] = []
    for data, offset, line in blocks:
        pos = len(_BOM) if offset == 0 and data.startswith(_BOM) else 0
        while pos < len(data) or (pos == len(data) and not data.endswith(b"\n")):
            end = data.find(b"\n", pos)
            end = len(data) if end < 0 else end
            name = _doc_key(path, data, offset, pos, end, line, fmt)
            if name is not None:
                spans.append(ByteRange(name, offset + pos, offset + end, line, format=fmt))
            pos, line = end + 1, line + 1
    if not spans:
        raise InputError(path, 1, "no document found (expected one JSON object per line)")
    return spans


def _doc_key(path: str, data: bytes, offset: int, start: int, end: int, line: int, fmt: str) -> str | None:
    """A line's ``doc_key`` (the line is ``data[start:end]``, ``data`` at ``offset`` in the file);
    ``None`` for a blank line; the reader's error for a line without one."""
    m = _FIRST_KEY.match(data, start, end)
    if m and data.count(b'"doc_key"', start, end) == 1 and not _ESCAPED_LETTER.search(data, start, end):
        try:
            return str(json.loads(b'"' + m.group(1) + b'"'))
        except (json.JSONDecodeError, UnicodeDecodeError):
            pass  # parsed below, where the error is reported as the reader reports it
    text = data[start:end].decode("utf-8", "replace")
    if not text.strip():
        return None
    try:
        obj = parse(text)
    except (json.JSONDecodeError, RecursionError):
        obj = None
    if isinstance(obj, dict) and isinstance(obj.get("doc_key"), str):
        return str(obj["doc_key"])
    read_range_corpus(path, ByteRange("", offset + start, offset + end, line, format=fmt))  # the reader's error
    raise InputError(path, line, "expected a JSON object with a 'doc_key' string")


def read_range_corpus(
    path: str,
    span: ByteRange,
    *,
    lenient: bool = False,
    role: str = "key",
    keep_tokens: bool = False,
    key: Corpus | None = None,
    heads: str = "first",
    index: int = 0,
    earlier: dict[str, EntityKey] | None = None,
) -> Corpus:
    """Parse one document from its byte range, as a corpus of that document (with the reader's
    per-document extras, such as CorefUD's empty-node dependencies).

    A CorefUD document is the file's ``index``-th, and ``earlier`` gives the first mention of the
    entity ids of the documents before it (udapi orders the entities of a whole file; see
    :func:`corefeval.readers.corefud.read_corefud`).

    ``role`` is the jsonlines side (``response`` reads ``predicted_clusters``); ``key`` holds the
    key document a model's character offsets are mapped onto; ``lenient`` is the CoNLL-2012 option,
    ``heads`` the CorefUD one.
    """
    with open(path, "rb") as fh:
        fh.seek(span.start)
        raw = fh.read(span.end - span.start)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = span.first_line + raw.count(b"\n", 0, err.start)
        col = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        message = f"byte 0x{raw[err.start]:02x} at column {col} is not UTF-8 (the file must be UTF-8)"
        raise InputError(path, line, message) from None
    if span.format == "corefud":
        from .corefud import read_corefud

        if span.header:
            text, first = f"{span.header}\n{text}", span.first_line - 1
        else:
            first = span.first_line
        return read_corefud(path, text, keep_tokens, first, heads, earlier, index)
    if span.format == "jsonlines":
        from .jsonlines import read_jsonlines

        return read_jsonlines(path, text, keep_tokens, role, span.first_line)
    if span.format == "predictions":
        from .predictions import read_predictions

        return read_predictions(path, text, key, span.first_line)
    if not span.closed:  # ended by the next '#begin document': the index has said so already
        text = text.rstrip("\n") + "\n#end document\n"
    return read_conll2012(path, text, keep_tokens, first_line=span.first_line, lenient=lenient)


def read_range(path: str, span: ByteRange, lenient: bool = False) -> tuple[Document, list[Diagnostic]]:
    """Parse one document from its byte range."""
    corpus = read_range_corpus(path, span, lenient=lenient)
    return corpus.documents[0], corpus.warnings
