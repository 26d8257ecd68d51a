"""Many documents on Dask: each partition scores its documents with the local scorer; rows are summed once.

CoNLL-2012, CorefUD, jsonlines and model-output files are split at their document boundaries (the
byte-range index of :mod:`corefeval.readers.document_index`, built block by block), so a worker reads only
its own documents; every run option applies, the rows come back in key-file order and the result is
the one :func:`corefeval.score` gives. Files of any format can also be given as shards (lists or
globs of key and response files, paired in sorted order): each pair is scored by a task and the
results are merged.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from ...core.diagnostics import Diagnostic, UsageError
from ...core.model import Corpus
from ...core.options import Options
from ...core.pairing import pair_names, pairing_warnings
from ...core.progress import progress
from ...core.warning_summary import warn
from ...matching.word_check import word_diagnostics
from ...readers.corefud import EntityKey
from ...readers.document_index import ByteRange, index_documents, read_range_corpus
from ..batch import document_digest
from ..pipeline import (
    assemble,
    counted_metrics,
    earliest_head_warnings,
    head_warnings,
    preparation,
    score_pair,
    score_with,
    ua_setting,
)
from ..results import ScoreResult, merge
from .entity_order import Firsts, reorderings

_TASKS_PER_PARTITION = 64  # documents per Dask task: large enough that scheduling costs little

#: Where a task's documents are in their files, and the first mentions of their entity ids in the
#: documents before them (CorefUD: udapi orders the entities of a whole file; see :mod:`.entity_order`).
Place = tuple[int, int, dict[str, EntityKey] | None, dict[str, EntityKey] | None]
#: A task: key file and range, response file and range (``None``: missing), the options, whether the
#: pair is scored (else its ranges are only read, as the whole-file reader reads every document: for
#: its errors and warnings), and its place.
Task = tuple[str, "ByteRange | None", str, "ByteRange | None", Options, bool, Place]
#: A task's count row, key digest, diagnostics, and its documents' entity ids with their first mentions.
Row = tuple[list[float], bytes, list[Diagnostic], tuple[Firsts | None, Firsts | None]]


def score_task(task: Task) -> Row:
    """One task's count row, key digest and diagnostics (what a worker runs)."""
    key_path, kspan, response_path, rspan, options, scored, place = task
    kindex, rindex, kearlier, rearlier = place
    kcorpus, notes = Corpus(key_path, []), []
    if kspan is not None:
        tokens = rspan is not None and rspan.format == "predictions" and kspan.format != "predictions"
        kcorpus = read_range_corpus(
            key_path,
            kspan,
            lenient=options.lenient,
            keep_tokens=tokens,
            heads=options.heads,
            index=kindex,
            earlier=kearlier,
        )
        notes += kcorpus.warnings + head_warnings(kcorpus, options)
    rdoc, rcorpus = None, Corpus(response_path, [])
    if rspan is not None:
        rcorpus = read_range_corpus(
            response_path,
            rspan,
            lenient=options.lenient,
            role="response",
            key=kcorpus,
            heads=options.heads,
            index=rindex,
            earlier=rearlier,
        )
        rdoc = rcorpus.documents[0]
        notes += rcorpus.warnings + head_warnings(rcorpus, options)
    firsts = (_firsts(kcorpus), _firsts(rcorpus))
    if not scored:
        return [], b"", notes, firsts
    kdoc = kcorpus.documents[0]
    notes += word_diagnostics([(kdoc, rdoc)], kcorpus, rcorpus, options.words)
    prepare = preparation(options, kcorpus, rcorpus)
    objects = counted_metrics(options.metrics, options.blanc, ua_setting(options, key_path, options.key_format))
    row, more = score_pair(kdoc, rdoc, objects, key_path, response_path, options.pad_key, prepare, options.repeats)
    return row, document_digest(kdoc), notes + more, firsts


def _firsts(corpus: Corpus) -> Firsts | None:
    """The entity ids of a corpus of one CorefUD document, with their first mentions in it."""
    found = getattr(corpus, "first_mentions", None)
    return found[0] if found else None


def map_tasks(tasks: list[Task]) -> Iterable[Row]:
    """The tasks' rows, computed here one after another."""
    return map(score_task, tasks)


def _bag_map(tasks: list[Task]) -> list[Row]:
    import dask.bag as db

    if not tasks:
        return []
    n = max(1, -(-len(tasks) // _TASKS_PER_PARTITION))
    return list(db.from_sequence(tasks, npartitions=n).map(score_task).compute())


def score_documents(
    key: str,
    response: str,
    metrics: Iterable[str] | None = None,
    *,
    options: Options | None = None,
    blanc: str | None = None,
    pad_key_mentions: bool | None = None,
) -> ScoreResult:
    """Score two files document by document on Dask (the active client, or Dask's default), with
    ``options`` as :func:`corefeval.score` takes them (``metrics``, ``blanc`` and
    ``pad_key_mentions`` put over them). spaCy files have no document index: they are scored here.
    Both files must be regular, uncompressed files (a worker reads its documents' byte ranges)."""
    from .cluster import require_dask

    require_dask()
    opts = Options.make(options, metrics, blanc=blanc, pad_key=pad_key_mentions)
    result = score_by_documents(key, response, opts, _bag_map)
    warn(result.warnings)
    return result


def _is_spacy(path: str, given: str) -> bool:
    return given == "spacy" or (given == "auto" and path.endswith(".spacy"))


def score_by_documents(
    key: str, response: str, options: Options, mapper: Callable[[list[Task]], Iterable[Row]] = map_tasks
) -> ScoreResult:
    """Score two files as tasks of one document pair each, run by ``mapper`` (which returns the rows
    in task order: on Dask, :func:`_bag_map`; by default, here).

    Gives the result of :func:`corefeval.score` with the same ``options``. Documents that are not
    scored (earlier copies of a repeated name, response documents not in the key) are read too, for
    the reader's errors and warnings. spaCy files are read whole and scored as :func:`corefeval.score`
    does.
    """
    if _is_spacy(key, options.key_format) or _is_spacy(response, options.response_format):
        return score_with(key, response, options)
    key_spans, warnings = index_documents(key, options.key_format)
    response_spans, more = index_documents(response, options.response_format)
    warnings += more
    key_format, response_format = key_spans[0].format, response_spans[0].format
    opts = replace(options, key_format=key_format, response_format=response_format).for_key(key_format)
    objects = counted_metrics(opts.metrics, opts.blanc, ua_setting(opts, key, key_format))
    keys = _last_by_name(key_spans, key, warnings)
    responses = _last_by_name(response_spans, response, warnings)
    paired = pair_names(keys, responses, key_format != response_format)
    warnings += pairing_warnings(key, _lines(keys), response, _lines(responses), paired)
    tasks = _tasks(key, key_spans, keys, response, response_spans, responses, paired, opts)
    done = _in_file_order(tasks, list(progress(mapper(tasks), "scoring", len(tasks), "doc")), mapper)
    rows: list[list[float]] = []
    digests: list[bytes] = []
    for task, (row, digest, notes, _) in zip(tasks, done):
        if task[5]:
            rows.append(row)
            digests.append(digest)
        warnings.extend(notes)
    return assemble(key, response, list(keys), objects, rows, digests, earliest_head_warnings(warnings, opts), opts)


def _lines(spans: dict[str, ByteRange]) -> dict[str, int]:
    return {name: span.first_line for name, span in spans.items()}


def _tasks(
    key: str,
    key_spans: list[ByteRange],
    keys: dict[str, ByteRange],
    response: str,
    response_spans: list[ByteRange],
    responses: dict[str, ByteRange],
    paired: dict[str, str],
    opts: Options,
) -> list[Task]:
    """A task per key document (with its response's range, ``None`` when missing), then one per range
    that no pair scores (earlier copies of a repeated name, response documents not in the key), read
    so that their errors and warnings are the whole-file reader's."""
    at = {id(s): i for spans in (key_spans, response_spans) for i, s in enumerate(spans)}

    def place(kspan: ByteRange | None, rspan: ByteRange | None) -> Place:
        return (at[id(kspan)] if kspan else 0, at[id(rspan)] if rspan else 0, None, None)

    tasks: list[Task] = []
    for name, span in keys.items():
        rspan = responses[paired[name]] if name in paired else None
        tasks.append((key, span, response, rspan, opts, True, place(span, rspan)))
    key_of = {r: keys[k] for k, r in paired.items()}  # response name -> its key document's range
    tasks += [(key, s, response, None, opts, False, place(s, None)) for s in key_spans if s is not keys[s.name]]
    for s in response_spans:
        if s is not responses[s.name] or s.name not in key_of:
            kspan = key_of.get(s.name) if s.format == "predictions" else None
            tasks.append((key, kspan, response, s, opts, False, place(kspan, s)))
    return tasks


def _in_file_order(tasks: list[Task], done: list[Row], mapper: Callable[[list[Task]], Iterable[Row]]) -> list[Row]:
    """``done`` with the scored tasks whose CorefUD documents an earlier document of their file orders
    otherwise (:mod:`.entity_order`) run again, told the first mentions of their entity ids there."""
    sides: list[list[Firsts | None]] = [[], []]
    for task, row in zip(tasks, done):
        kindex, rindex = task[6][0], task[6][1]
        for side, span, firsts, index in ((0, task[1], row[3][0], kindex), (1, task[3], row[3][1], rindex)):
            if span is None or firsts is None:
                continue
            sides[side] += [None] * (index + 1 - len(sides[side]))
            sides[side][index] = firsts
    key_order, response_order = reorderings(sides[0]), reorderings(sides[1])
    again = [
        i
        for i, task in enumerate(tasks)
        if task[5]
        and (task[1] is not None and task[6][0] in key_order or task[3] is not None and task[6][1] in response_order)
    ]
    if not again:
        return done
    redo: list[Task] = []
    for i in again:
        kindex, rindex, _, _ = tasks[i][6]
        redo.append((*tasks[i][:6], (kindex, rindex, key_order.get(kindex), response_order.get(rindex))))
    out = list(done)
    for i, row in zip(again, mapper(redo)):
        out[i] = row
    return out


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


def expand(paths: str | Sequence[str]) -> list[str]:
    """Paths and globs, expanded and sorted (each pattern in turn)."""
    out: list[str] = []
    for p in [paths] if isinstance(paths, str) else paths:
        found = sorted(glob.glob(p))
        out.extend(found if found else [p])
    return out


def score_shards(keys: str | Sequence[str], responses: str | Sequence[str], **options: Any) -> ScoreResult:
    """Score pairs of shard files of any format (``keys[i]`` against ``responses[i]``) on Dask and merge
    the results; ``options`` are those of :func:`corefeval.score`."""
    from .cluster import require_dask

    require_dask()
    import dask.bag as db

    key_files, response_files = expand(keys), expand(responses)
    if len(key_files) != len(response_files) or not key_files:
        raise UsageError(f"{len(key_files)} key shards but {len(response_files)} response shards")
    pairs = list(zip(key_files, response_files))
    results = db.from_sequence(pairs, npartitions=len(pairs)).map(_score_pair, options).compute()
    merged = merge(list(results))
    warn(merged.warnings)
    return merged


def _score_pair(pair: tuple[str, str], options: dict[str, Any]) -> ScoreResult:
    """One shard pair scored as :func:`corefeval.score` scores it, its warnings only kept (they are
    given once the shards are merged)."""
    import warnings

    from ...core.diagnostics import CorefevalWarning
    from ..pipeline import score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorefevalWarning)
        return score(pair[0], pair[1], **options)
