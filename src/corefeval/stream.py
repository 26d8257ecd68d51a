"""Score large inputs a document at a time: streaming from byte ranges, and parallel processes.

The files are indexed first (where each document's lines start and end, found by scanning for
``#begin document``/``#end document`` lines without parsing anything), then each key document and
its response document are read from their byte ranges, scored, and reduced to a row of counts. So at
most one document of each file is held in memory per process, and ``jobs`` processes can score
documents independently; the corpus is the sum of the rows, exactly as in :func:`corefeval.score`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from .diagnostics import Diagnostic, InputError
from .model import Corpus, Document
from .options import Options
from .progress import progress
from .readers import detect_format
from .readers.conll2012 import read_bytes, read_conll2012
from .results import ScoreResult
from .scoring import assemble, counted_metrics, document_digest, preparation, score_pair, score_with

_MARK = re.compile(rb"(?m)^#[ \t]*(begin|end) document([^\n]*)$")


@dataclass(frozen=True)
class ByteRange:
    """Where one document's lines are in a file (bytes ``[start, end)``, first line number)."""

    name: str
    start: int
    end: int
    first_line: int
    closed: bool


def index_documents(path: str) -> tuple[list[ByteRange], list[Diagnostic]]:
    """Find every document of a CoNLL-2012 file without parsing it."""
    data = read_bytes(path)
    spans: list[ByteRange] = []
    warnings: list[Diagnostic] = []
    open_doc: tuple[str, int, int] | None = None
    line, pos = 1, 0
    for m in _MARK.finditer(data):
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
                spans.append(ByteRange(open_doc[0], open_doc[1], m.start(), open_doc[2], False))
            open_doc = (name, m.start(), line)
        elif open_doc is None:
            warnings.append(Diagnostic(path, line, "'#end document' with no document open; ignored"))
        else:
            spans.append(ByteRange(open_doc[0], open_doc[1], m.end(), open_doc[2], True))
            open_doc = None
    if open_doc is not None:
        spans.append(ByteRange(open_doc[0], open_doc[1], len(data), open_doc[2], True))
    if not spans:
        raise InputError(path, 1, "no document found (expected a '#begin document NAME' line)")
    return spans, warnings


def read_range(path: str, span: ByteRange, lenient: bool = False) -> tuple[Document, list[Diagnostic]]:
    """Parse one document from its byte range."""
    with open(path, "rb") as fh:
        fh.seek(span.start)
        raw = fh.read(span.end - span.start)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = span.first_line + raw.count(b"\n", 0, err.start)
        raise InputError(path, line, f"byte 0x{raw[err.start]:02x} is not UTF-8 (the file must be UTF-8)") from None
    if not span.closed:  # ended by the next '#begin document': the index has said so already
        text = text.rstrip("\n") + "\n#end document\n"
    corpus = read_conll2012(path, text, first_line=span.first_line, lenient=lenient)
    return corpus.documents[0], corpus.warnings


Task = tuple[str, ByteRange, str, "ByteRange | None", Options, tuple[str, ...]]
Row = tuple[list[float], bytes, list[Diagnostic]]


def _score_task(task: Task) -> Row:
    key_path, kspan, response_path, rspan, options, response_names = task
    kdoc, notes = read_range(key_path, kspan, options.lenient)
    rdoc = None
    if rspan is not None:
        rdoc, more = read_range(response_path, rspan, options.lenient)
        notes += more
    prepare = preparation(options, Corpus(key_path, []), Corpus(response_path, []))
    objects = counted_metrics(options.metrics, options.blanc)
    row, more = score_pair(kdoc, rdoc, objects, key_path, response_path, response_names, options.pad_key, prepare)
    return row, document_digest(kdoc), notes + more


def _format(path: str, given: str) -> str:
    """The format of a file, sniffed from its beginning when ``given`` is ``auto``."""
    if given != "auto" or path.endswith(".spacy"):
        return given if given != "auto" else "spacy"
    try:
        with open(path, "rb") as fh:
            head = fh.read(1 << 16)
    except OSError:
        return "conll2012"  # the index reports the unreadable file with its path
    return detect_format(path, head.decode("utf-8", "replace"))


def score_streaming(
    key: str,
    response: str,
    metrics: Iterable[str] | None = None,
    *,
    options: Options | None = None,
    jobs: int = 1,
    blanc: str | None = None,
    pad_key_mentions: bool | None = None,
    mapper: Callable[[list[Task]], Iterable[Row]] | None = None,
) -> ScoreResult:
    """Score CoNLL-2012 files document by document (``jobs`` > 1: in that many processes).

    Gives the same numbers as :func:`corefeval.score` with the same ``options`` (``metrics``,
    ``blanc`` and ``pad_key_mentions`` are put over them, as there); memory grows with the largest
    document, not with the corpus. CorefUD and jsonlines files have no byte-range index: they are
    read whole and scored as :func:`corefeval.score` does. ``mapper`` runs the document tasks
    elsewhere (a Dask cluster), returning the rows in task order.
    """
    opts = Options.make(options, metrics, blanc=blanc, pad_key=pad_key_mentions)
    if {_format(key, opts.key_format), _format(response, opts.response_format)} != {"conll2012"}:
        return score_with(key, response, opts)
    opts = replace(opts, key_format="conll2012", response_format="conll2012")
    objects = counted_metrics(opts.metrics, opts.blanc)
    key_spans, warnings = index_documents(key)
    response_spans, more = index_documents(response)
    warnings += more
    keys = _last_by_name(key_spans, key, warnings)
    responses = _last_by_name(response_spans, response, warnings)
    tasks: list[Task] = [
        (key, span, response, responses.get(name), opts, tuple(responses) if name not in responses else ())
        for name, span in keys.items()
    ]
    rows: list[list[float]] = []
    digests: list[bytes] = []
    rows_of_tasks = mapper(tasks) if mapper is not None else _map(tasks, jobs)
    for row, digest, notes in progress(rows_of_tasks, "scoring", len(tasks), "doc"):
        rows.append(row)
        digests.append(digest)
        warnings.extend(notes)
    for name, span in responses.items():
        if name not in keys:
            warnings.append(
                Diagnostic(response, span.first_line, f"document '{name}' is not in the key; it is ignored")
            )
    return assemble(key, response, list(keys), objects, rows, digests, warnings, opts)


def _last_by_name(spans: list[ByteRange], path: str, warnings: list[Diagnostic]) -> dict[str, ByteRange]:
    out: dict[str, ByteRange] = {}
    for span in spans:
        if span.name in out:
            warnings.append(
                Diagnostic(
                    path,
                    span.first_line,
                    f"document '{span.name}' appears again (first at "
                    f"line {out[span.name].first_line}); the last occurrence is scored, as the "
                    "reference scorer does",
                )
            )
        out[span.name] = span
    return out


def _map(tasks: list[Task], jobs: int) -> Iterator[Row]:
    if jobs <= 1 or len(tasks) <= 1:
        yield from map(_score_task, tasks)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_score_task, tasks, chunksize=max(1, len(tasks) // (jobs * 8)))
