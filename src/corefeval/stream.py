"""Score large inputs a document at a time: streaming from byte ranges, and parallel processes.

The files are indexed first (where each document's lines start and end, found without parsing:
see :mod:`corefeval.document_index`), then each key document and its response document are read
from their byte ranges, scored, and reduced to a row of counts. So at most one document of each
file is held in memory per process, and ``jobs`` processes can score documents independently; the
corpus is the sum of the rows, exactly as in :func:`corefeval.score`. CoNLL-2012, CorefUD,
jsonlines and model-output files are split by documents; spaCy files are read whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from .diagnostics import Diagnostic
from .document_index import ByteRange, index_documents, read_range, read_range_corpus
from .model import Corpus
from .options import Options
from .progress import progress
from .results import ScoreResult
from .scoring import _by_other_name, assemble, counted_metrics, document_digest, preparation, score_pair, score_with

__all__ = ["ByteRange", "index_documents", "read_range", "score_streaming"]

#: A task: key file and range, response file and range (``None``: missing), the options, the response
#: names (for the hint of a missing document), and whether the pair is scored (else its ranges are
#: only read, as the whole-file reader reads every document: for its errors and warnings).
Task = tuple[str, "ByteRange | None", str, "ByteRange | None", Options, tuple[str, ...], bool]
Row = tuple[list[float], bytes, list[Diagnostic]]


def _score_task(task: Task) -> Row:
    key_path, kspan, response_path, rspan, options, response_names, scored = task
    kcorpus, notes = Corpus(key_path, []), []
    if kspan is not None:
        tokens = rspan is not None and rspan.format == "predictions" and kspan.format != "predictions"
        kcorpus = read_range_corpus(key_path, kspan, lenient=options.lenient, keep_tokens=tokens)
        notes += kcorpus.warnings
    rdoc, rcorpus = None, Corpus(response_path, [])
    if rspan is not None:
        rcorpus = read_range_corpus(response_path, rspan, lenient=options.lenient, role="response", key=kcorpus)
        rdoc = rcorpus.documents[0]
        notes += rcorpus.warnings
    if not scored:
        return [], b"", notes
    kdoc = kcorpus.documents[0]
    prepare = preparation(options, kcorpus, rcorpus)
    objects = counted_metrics(options.metrics, options.blanc)
    row, more = score_pair(kdoc, rdoc, objects, key_path, response_path, response_names, options.pad_key, prepare)
    return row, document_digest(kdoc), notes + more


def _is_spacy(path: str, given: str) -> bool:
    return given == "spacy" or (given == "auto" and path.endswith(".spacy"))


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
    """Score two files document by document (``jobs`` > 1: in that many processes).

    Gives the same numbers as :func:`corefeval.score` with the same ``options`` (``metrics``,
    ``blanc`` and ``pad_key_mentions`` are put over them, as there); memory grows with the largest
    document, not with the corpus. Documents that are not scored (earlier copies of a repeated
    name, response documents not in the key) are read too, for the reader's errors and warnings.
    spaCy files are read whole and scored as :func:`corefeval.score` does. ``mapper`` runs the
    document tasks elsewhere (a Dask cluster), returning the rows in task order.
    """
    opts = Options.make(options, metrics, blanc=blanc, pad_key=pad_key_mentions)
    if _is_spacy(key, opts.key_format) or _is_spacy(response, opts.response_format):
        return score_with(key, response, opts)
    key_spans, warnings = index_documents(key, opts.key_format)
    response_spans, more = index_documents(response, opts.response_format)
    warnings += more
    key_format, response_format = key_spans[0].format, response_spans[0].format
    opts = replace(opts, key_format=key_format, response_format=response_format)
    objects = counted_metrics(opts.metrics, opts.blanc)
    keys = _last_by_name(key_spans, key, warnings)
    responses = _last_by_name(response_spans, response, warnings)
    tasks: list[Task] = []
    paired: dict[str, ByteRange] = {}  # response name -> its key document's range
    for name, span in keys.items():
        rspan = responses.get(name)
        if rspan is None and key_format != response_format:
            rspan = _by_other_name(name, responses)
        if rspan is not None:
            paired[rspan.name] = span
        tasks.append((key, span, response, rspan, opts, tuple(responses) if rspan is None else (), True))
    # The ranges no pair scores (earlier copies of a repeated name, response documents not in the
    # key) are read too, so that their errors and warnings are those of the whole-file reader.
    tasks += [(key, s, response, None, opts, (), False) for s in key_spans if s is not keys[s.name]]
    tasks += [
        (key, paired.get(s.name) if s.format == "predictions" else None, response, s, opts, (), False)
        for s in response_spans
        if s is not responses[s.name] or s.name not in paired
    ]
    rows: list[list[float]] = []
    digests: list[bytes] = []
    rows_of_tasks = mapper(tasks) if mapper is not None else _map(tasks, jobs)
    for task, (row, digest, notes) in zip(tasks, progress(rows_of_tasks, "scoring", len(tasks), "doc")):
        if task[-1]:
            rows.append(row)
            digests.append(digest)
        warnings.extend(notes)
    matched = set(keys) | set(paired)
    for name, span in responses.items():
        if name not in matched:
            warnings.append(
                Diagnostic(response, span.first_line, f"document '{name}' is not in the key; it is ignored")
            )
    return assemble(key, response, list(keys), objects, rows, digests, warnings, opts)


def _last_by_name(spans: list[ByteRange], path: str, warnings: list[Diagnostic]) -> dict[str, ByteRange]:
    """Ranges by document name, the last occurrence winning, with the reader's warning for a repeat."""
    out: dict[str, ByteRange] = {}
    first: dict[str, int] = {}
    for span in spans:
        if span.name in out:
            note = _repeat_note(span, first[span.name])
            if note:
                warnings.append(Diagnostic(path, span.first_line, note))
        else:
            first[span.name] = span.first_line
        out[span.name] = span
    return out


def _repeat_note(span: ByteRange, first_line: int) -> str:
    """What the format's reader says of a repeated document name (model outputs say nothing)."""
    said = f"document '{span.name}' appears again (first at line {first_line}); the last occurrence is scored"
    return {"conll2012": f"{said}, as the reference scorer does", "predictions": ""}.get(span.format, said)


def _map(tasks: list[Task], jobs: int) -> Iterator[Row]:
    if jobs <= 1 or len(tasks) <= 1:
        yield from map(_score_task, tasks)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_score_task, tasks, chunksize=max(1, len(tasks) // (jobs * 8)))
