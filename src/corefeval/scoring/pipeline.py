"""Score a response corpus against a key corpus: pair documents, align them, count, sum.

Every metric turns one aligned document into a row of additive counts; the corpus score divides
the column sums (a micro average, as the reference scorer does). Everything downstream (per-document
tables, resampling, parallel runs) works on that count matrix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import chain, repeat
from operator import attrgetter, is_not, itemgetter
from typing import TYPE_CHECKING, TypeGuard, cast

import numpy as np

from ..core.diagnostics import CountingError, Diagnostic, InputError, plural
from ..core.model import Corpus, Document
from ..core.options import Options
from ..core.pairing import pair_names, pairing_warnings
from ..core.progress import counter
from ..core.warning_summary import warn
from ..matching.alignment import Alignment, align
from ..matching.cells import Stacked
from ..matching.repeat_rules import repeat_rule, repeat_warnings
from ..matching.word_check import word_diagnostics
from ..metrics import REGISTRY, build
from ..metrics.base import Metric
from ..readers.validate import crossing_summary
from .batch import alignment_rows, count_rows, crossing_documents, document_counts, document_digests
from .results import ScoreResult

if TYPE_CHECKING:
    from .batch.heads import HeadMatching


def empty_like(doc: Document) -> Document:
    """A document with the same name and tokens and no mentions (and no heads, which the
    dependency-based pairing of zeros expects to find)."""
    z = np.zeros(0, dtype=np.int64)
    return Document(doc.name, z, z, z, (), doc.n_tokens, z, 0, heads=z)


def pad_key(key: Document, response: Document) -> Document:
    """Add every response mention missing from the key to the key as a singleton entity.

    This reproduces the scorch 0.2 command line, with which published per-passage scores of some
    studies were made; it is not the reference's behaviour and inflates B-cubed, CEAF, BLANC and LEA.
    """
    key_spans = set(zip(key.starts.tolist(), key.ends.tolist()))
    extra: list[tuple[int, int]] = []
    for span in zip(response.starts.tolist(), response.ends.tolist()):
        if span not in key_spans:
            key_spans.add(span)
            extra.append(span)
    if not extra:
        return key
    n = key.n_entities
    starts = np.concatenate([key.starts, np.array([s for s, _ in extra], dtype=np.int64)])
    ends = np.concatenate([key.ends, np.array([e for _, e in extra], dtype=np.int64)])
    ents = np.concatenate([key.entities, np.arange(n, n + len(extra), dtype=np.int64)])
    labels = key.labels + tuple(f"padded{i}" for i in range(len(extra)))
    return Document(key.name, starts, ends, ents, labels, key.n_tokens, None, key.begin_line)


def load_corpus(corpus: Corpus | str, options: Options, role: str = "key", key: Corpus | None = None) -> Corpus:
    """``corpus`` itself, or the file it names read as ``options`` say (:func:`corefeval.readers.read_with`)."""
    if isinstance(corpus, Corpus):
        return corpus
    from ..readers import read_with

    return read_with(str(corpus), options, role, key)


def head_warnings(corpus: Corpus, options: Options) -> list[Diagnostic]:
    """One warning for a CorefUD corpus some of whose mentions of several nodes have no ``head``
    field, when a head can change a number (head and partial matching, zeros aligned by their
    dependencies, the zero score): their heads are a choice (``heads``).

    Given from the whole corpus, so that a file read whole or document by document warns alike."""
    line = getattr(corpus, "headless_line", 0)
    if not line or (options.match not in ("head", "partial") and not _zeros_use_heads(corpus, options)):
        return []
    return [Diagnostic(corpus.path, line, _head_message(options.heads))]


def _zeros_use_heads(corpus: Corpus, options: Options) -> bool:
    """Whether the options ask which mentions are zeros (headed by an empty node) of a corpus that
    has empty nodes in mentions: aligning zeros by their dependencies, or the zero score."""
    if options.zeros != "dependent" and "zero" not in options.metrics:
        return False
    from ..core.empty_nodes import is_empty

    return any(is_empty(p) for d in corpus.documents for nodes in d.parts.values() for p in nodes)


def earliest_head_warnings(warnings: list[Diagnostic], options: Options) -> list[Diagnostic]:
    """``warnings`` with only the first head warning (:func:`head_warnings`) of each file, for
    runs that read a file document by document, each document warning on its own."""
    message = _head_message(options.heads)
    first: dict[str, int] = {}
    for w in warnings:
        if w.message == message:
            first[w.path] = min(first.get(w.path, w.line), w.line)
    return [w for w in warnings if w.message != message or w.line == first[w.path]]


def _head_message(heads: str) -> str:
    if heads == "tree":
        taken = (
            "mention heads are taken from the tree (--heads tree; by default, as in the CorefUD scorer, "
            "a head is the first node)"
        )
    else:
        taken = (
            "mention heads are their first node, as the CorefUD scorer takes them "
            "(--heads tree takes the syntactic head)"
        )
    return f"the file gives no 'head' field in '# global.Entity' for this mention; {taken}"


Prepare = Callable[[Document, Document], tuple[Alignment, Document, Document]]
#: A pair ready to count, with what to warn about it.
Checked = tuple[Document, Document, Sequence[Diagnostic]]


def preparation(options: Options, key_corpus: Corpus, response_corpus: Corpus) -> Prepare | None:
    """Apply the zeros and singleton options to both documents, then match mentions; the returned
    function also gives the documents whose rows the alignment's row numbers refer to. ``None`` when
    the options keep every mention and match exact spans (plain alignment)."""
    if options.syntactic:
        from ..matching.syntactic_filters import coval_preparation

        return coval_preparation(options, key_corpus, response_corpus)
    if options.default_selection:
        return None  # plain alignment, under the run's rule for repeated spans (see aligned_pair)
    if options.zeros == "dependent" and key_corpus.format == "ua":
        raise InputError(
            key_corpus.path,
            0,
            "--zeros dependent aligns zeros by their dependencies (DEPS), which Universal Anaphora files do not "
            "give: use --zeros include (by position) or exclude",
        )
    if options.match == "craft" and key_corpus.format != "ua":
        raise InputError(
            key_corpus.path,
            0,
            f"--match craft is the partial matching of Universal Anaphora files (CRAFT 2019); this key is "
            f"{key_corpus.format}: use --match partial or head",
        )
    from ..matching.head_and_partial import match_alignment
    from ..matching.selection import exclude_zeros, select, with_head_copies

    def selected(doc: Document) -> Document:
        if options.match == "head":
            doc = with_head_copies(doc)
        if options.zeros == "exclude" and key_corpus.format == "ua":
            # the UA scorer (ufal/corefud-scorer's copy) leaves zeros out after removing singletons
            return exclude_zeros(select(doc, "include", options.singletons))
        return select(doc, options.zeros, options.singletons)

    def prepare(kdoc: Document, rdoc: Document) -> tuple[Alignment, Document, Document]:
        kdoc, rdoc = selected(kdoc), selected(rdoc)
        deps = None
        if options.zeros == "dependent":
            deps = (
                getattr(key_corpus, "empty_deps", {}).get(kdoc.name, {}),
                getattr(response_corpus, "empty_deps", {}).get(rdoc.name, {}),
            )
        rule = repeat_rule(kdoc, options.repeats)
        kp, rp = places
        sentences = None
        if kp is not None and rp is not None and kdoc.name in kp and rdoc.name in rp:
            sentences = kp[kdoc.name], rp[rdoc.name]
        a = match_alignment(kdoc, rdoc, options.match, key_corpus.path, response_corpus.path, deps, rule, sentences)
        return a, kdoc, rdoc

    places = sentence_places(key_corpus), sentence_places(response_corpus)
    if options.match == "head":
        from .batch.heads import HeadMatching

        return HeadMatching(prepare, options.singletons == "remove")
    return prepare


def sentence_places(corpus: Corpus) -> dict[str, tuple[list[int], int]] | None:
    """Each document's sentences in a CorefUD corpus: the number of words of each, and the number of
    sentences before it in its file (which tied mentions are ordered by, see :func:`match_alignment`);
    ``None`` for other formats."""
    lengths: dict[str, list[int]] | None = getattr(corpus, "sentences", None)
    if corpus.format != "corefud" or lengths is None:
        return None
    out: dict[str, tuple[list[int], int]] = {}
    before = 0
    for doc in corpus.documents:
        own = lengths.get(doc.name, [])
        out[doc.name] = (own, before)
        before += len(own)
    return out


def score_pair(
    kdoc: Document,
    rdoc: Document | None,
    objects: list[Metric],
    key_path: str,
    response_path: str,
    pad_key_mentions: bool = False,
    prepare: Prepare | None = None,
    rule: str = "auto",
) -> tuple[list[float], list[Diagnostic]]:
    """One key document's count row against its response document (``None``: missing, which
    :func:`corefeval.core.pairing.pairing_warnings` warns of), with warnings; ``rule``: the rule for
    repeated response spans where ``prepare`` is ``None`` (see :func:`aligned_pair`)."""
    kdoc, rdoc, warnings = checked_pair(kdoc, rdoc, key_path, response_path)
    row, more = counted_pair(kdoc, rdoc, objects, key_path, response_path, pad_key_mentions, prepare, rule)
    return row, warnings + more


def checked_pair(
    kdoc: Document,
    rdoc: Document | None,
    key_path: str,
    response_path: str,
    crossings: tuple[bool, bool] = (True, True),
) -> tuple[Document, Document, list[Diagnostic]]:
    """The pair to count (a missing response is an empty one) and what to warn about it; a response
    with other tokens than the key is an error. ``crossings``: whether to look for crossing
    mentions in the key and in the response (``False`` where they are known to have none)."""
    warnings: list[Diagnostic] = []
    if rdoc is None:
        rdoc = empty_like(kdoc)
    elif rdoc.n_tokens != kdoc.n_tokens and rdoc.n_tokens and kdoc.n_tokens:
        raise InputError(
            response_path,
            rdoc.begin_line,
            f"document '{kdoc.name}' has {plural(rdoc.n_tokens, 'token')} "
            f"but the key ({key_path}:{kdoc.begin_line}) has {kdoc.n_tokens}",
        )
    if crossings[0]:
        warnings += crossing_summary(key_path, kdoc)
    if crossings[1]:
        warnings += crossing_summary(response_path, rdoc)
    return kdoc, rdoc, warnings


def aligned_pair(
    kdoc: Document,
    rdoc: Document,
    key_path: str,
    response_path: str,
    pad_key_mentions: bool = False,
    prepare: Prepare | None = None,
    rule: str = "auto",
) -> tuple[Alignment, Document, Document, list[Diagnostic]]:
    """A checked pair aligned on its own, the documents its rows refer to, and warnings about
    repeated mentions; without ``prepare``, a response span repeated in two entities follows
    ``rule`` (the run's ``repeats``; ``auto``: the key document's kind decides)."""
    if pad_key_mentions:
        kdoc = pad_key(kdoc, rdoc)
    if prepare is not None:
        a, kdoc, rdoc = prepare(kdoc, rdoc)
    else:
        a = align(kdoc, rdoc, repeat_rule(kdoc, rule))
    warnings = repeat_warnings(key_path, response_path, kdoc, rdoc, a) if a.repeats or a.dropped_rows.size else []
    warnings += [Diagnostic(response_path, rdoc.begin_line, f"document '{rdoc.name}': {note}") for note in a.notes]
    return a, kdoc, rdoc, warnings


def counted_pair(
    kdoc: Document,
    rdoc: Document,
    objects: list[Metric],
    key_path: str,
    response_path: str,
    pad_key_mentions: bool = False,
    prepare: Prepare | None = None,
    rule: str = "auto",
) -> tuple[list[float], list[Diagnostic]]:
    """A checked pair's count row, aligned on its own, with warnings about repeated mentions."""
    a, kdoc, rdoc, warnings = aligned_pair(kdoc, rdoc, key_path, response_path, pad_key_mentions, prepare, rule)
    try:
        return document_counts(objects, a, (kdoc, rdoc)), warnings
    except CountingError as err:
        raise err.located(key_path, kdoc.begin_line) from None


def counted_pairs(
    checked: list[Checked],
    objects: list[Metric],
    key_path: str,
    response_path: str,
    pad_key_mentions: bool = False,
    prepare: Prepare | None = None,
    rule: str = "auto",
    sides: tuple[Stacked, Stacked] | None = None,
) -> tuple[np.ndarray, list[Diagnostic]]:
    """The count rows of checked pairs and every warning, in document order (``sides``: the pairs'
    documents stacked, when they are at hand), by :func:`counted_rows`; a document a metric refuses
    to count is an error at its place in the key."""
    pairs = [(k, r) for k, r, _ in checked]
    try:
        return counted_rows(pairs, objects, key_path, response_path, pad_key_mentions, prepare, rule, sides, checked)
    except CountingError as err:
        line = next((k.begin_line for k, _, _ in checked if k.name == err.document), 0)
        raise err.located(key_path, line) from None


def counted_rows(
    pairs: Sequence[tuple[Document, Document]],
    objects: list[Metric],
    key_path: str,
    response_path: str,
    pad_key_mentions: bool = False,
    prepare: Prepare | None = None,
    rule: str = "auto",
    sides: tuple[Stacked, Stacked] | None = None,
    checked: Sequence[Checked] | None = None,
) -> tuple[np.ndarray, list[Diagnostic]]:
    """The count rows of document pairs and every warning (``checked``: the pairs with what their
    checks warn of), in document order: the one counting path of every door. With the default
    options, documents are matched and counted together (:func:`corefeval.scoring.batch.count_rows`; for
    one document, only when ``sides``, its stacked form, is given); the ones it leaves (repeated
    mentions, discontinuous mentions) and every document under other options are aligned one at a
    time, then counted together (:func:`corefeval.scoring.batch.alignment_rows`). ``pairs`` may build its
    documents when indexed: only those aligned alone, or read by a metric, are."""
    width = sum(len(m.fields) for m in objects)
    warnings: list[Diagnostic] = []
    together = len(pairs) > 1 or sides is not None
    with counter("scoring", len(pairs), "doc") as advance:  # the bar covers the batch and the rest
        if prepare is None and not pad_key_mentions and together:
            rows, alone = count_rows(pairs, objects, sides)
        elif _batched(prepare) and not pad_key_mentions and len(pairs) > 1:
            rows, alone = prepare.rows(list(pairs), objects, width)
        else:
            rows, alone = np.zeros((len(pairs), width)), np.ones(len(pairs), dtype=bool)
        advance(int(np.count_nonzero(~alone)))
        if not alone.any():  # every pair counted together: only the checks' warnings, in document order
            return rows, list(chain.from_iterable(map(itemgetter(2), checked or ())))
        aligned: list[Alignment] = []
        aligned_docs: list[tuple[Document, Document]] = []
        visited = range(len(pairs)) if checked is not None else np.flatnonzero(alone).tolist()
        for i in visited:
            if checked is not None:
                warnings.extend(checked[i][2])
            if alone[i]:
                kdoc, rdoc = pairs[i]
                a, k, r, more = aligned_pair(kdoc, rdoc, key_path, response_path, pad_key_mentions, prepare, rule)
                aligned.append(a)
                aligned_docs.append((k, r))
                warnings.extend(more)
                advance(1)
        rows[alone] = alignment_rows(objects, aligned, aligned_docs)
    return rows, warnings


def _batched(prepare: Prepare | None) -> TypeGuard[HeadMatching]:
    """Whether ``prepare`` also counts many documents at once (head matching: see
    :mod:`corefeval.scoring.batch.heads`, imported only where a preparation is)."""
    if prepare is None:
        return False
    from .batch.heads import HeadMatching

    return isinstance(prepare, HeadMatching)


def score(
    key: Corpus | str,
    response: Corpus | str,
    metrics: Iterable[str] | None = None,
    *,
    options: Options | None = None,
    doc: str | None = None,
    blanc: str | None = None,
    pad_key_mentions: bool | None = None,
    key_format: str | None = None,
    response_format: str | None = None,
    lenient: bool | None = None,
    singletons: str | None = None,
    match: str | None = None,
    zeros: str | None = None,
    np_only: bool | None = None,
    remove_nested: bool | None = None,
    heads: str | None = None,
    llm_marks: str | None = None,
    max_edits: float | None = None,
    repeats: str | None = None,
    words: str | None = None,
) -> ScoreResult:
    """Score ``response`` against ``key`` (corpora or file paths) as ``options`` say.

    ``metrics`` and the other keyword arguments are a convenience, spelt as the fields of
    :class:`~corefeval.core.options.Options`: each one given (not ``None``)
    is put over ``options`` (default :class:`~corefeval.core.options.Options`), so
    ``score(k, r, ["muc"], singletons="remove")`` is ``score(k, r, options=Options(("muc",),
    singletons="remove"))``; ``pad_key_mentions`` is ``Options.pad_key``.

    Documents are those of the key, in key-file order; a key document missing from the response is
    scored against an empty response, and a response document missing from the key is ignored
    (both with a warning); a response that shares no document with the key is an
    :class:`~corefeval.core.diagnostics.InputError`. ``doc`` restricts scoring to one document name. A
    jsonlines ``response`` is read from ``predicted_clusters``.

    Warnings are kept in ``result.warnings`` and given through Python's :mod:`warnings` as
    :class:`~corefeval.core.diagnostics.CorefevalWarning` (past three of one kind, one counts the rest).
    """
    opts = Options.make(
        options,
        metrics,
        blanc=blanc,
        pad_key=pad_key_mentions,
        key_format=key_format,
        response_format=response_format,
        lenient=lenient,
        singletons=singletons,
        match=match,
        zeros=zeros,
        np_only=np_only,
        remove_nested=remove_nested,
        heads=heads,
        llm_marks=llm_marks,
        max_edits=max_edits,
        repeats=repeats,
        words=words,
    )
    result = score_with(key, response, opts, doc)
    warn(result.warnings)
    return result


def score_with(key: Corpus | str, response: Corpus | str, options: Options, doc: str | None = None) -> ScoreResult:
    """:func:`score` with its options in one object."""
    names = options.metrics
    key_corpus = load_corpus(key, options, "key")
    response_corpus = load_corpus(response, options, "response", key_corpus)
    options = options.for_key(key_corpus.format)
    warnings = list(key_corpus.warnings) + list(response_corpus.warnings)
    warnings += head_warnings(key_corpus, options) + head_warnings(response_corpus, options)

    objects = counted_metrics(names, options.blanc, ua_setting(options, key_corpus.path, key_corpus.format))
    key_docs = key_corpus.by_name()
    response_docs = response_corpus.by_name()
    if doc is not None:
        from ..matching.selection import pick_document

        doc = pick_document(doc, list(key_docs), key_corpus.path)
    paired = pair_names(key_docs, response_docs, response_corpus.format != key_corpus.format)
    warnings += pairing_warnings(
        key_corpus.path, _lines(key_docs), response_corpus.path, _lines(response_docs), paired, doc
    )
    if doc is not None:
        key_docs = {doc: key_docs[doc]}
    pairs = list(zip(key_docs.values(), _responses(key_docs, response_docs, paired, doc is None)))
    warnings += word_diagnostics(pairs, key_corpus, response_corpus, options.words)
    rows, notes, sides = count_pairs(pairs, objects, options, key_corpus, response_corpus)
    digests = document_digests([kdoc for kdoc, _ in pairs], sides[0] if sides else None)
    warnings.extend(notes)
    settings = replace(options, key_format=key_corpus.format, response_format=response_corpus.format)
    total = getattr(response_corpus, "total", None)
    if total is not None:  # language-model markup aligned to the key's words: what the alignment did
        settings = replace(settings, aligned=total.signature())
    result = assemble(key_corpus.path, response_corpus.path, list(key_docs), objects, rows, digests, warnings, settings)
    figures = getattr(response_corpus, "figures", None)
    if figures:
        result.alignment = {name: f.as_dict() for name, f in figures.items()}
    return result


def count_pairs(
    pairs: list[tuple[Document, Document | None]],
    objects: list[Metric],
    options: Options,
    key_corpus: Corpus,
    response_corpus: Corpus,
) -> tuple[np.ndarray, list[Diagnostic], tuple[Stacked, Stacked] | None]:
    """The count rows of paired key and response documents (``None``: a key document without a
    response) as :func:`score_with` counts them, ``options`` decided for the key
    (:meth:`~corefeval.core.options.Options.for_key`): checked, prepared and counted, all together;
    with the warnings about them, and both sides stacked when there are several pairs."""
    prepare = preparation(options, key_corpus, response_corpus)
    checked, sides = _checked_pairs(pairs, key_corpus.path, response_corpus.path)
    rows, notes = counted_pairs(
        checked, objects, key_corpus.path, response_corpus.path, options.pad_key, prepare, options.repeats, sides
    )
    return rows, notes, sides


def _responses(
    key_docs: dict[str, Document], response_docs: dict[str, Document], paired: dict[str, str], every_key: bool
) -> list[Document | None]:
    """Each key document's response (``None``: it has none), in key order; ``every_key``: the key
    documents are all those ``paired`` pairs (in their order), not one of them picked."""
    if every_key and len(paired) == len(key_docs):  # each has one: the pairing's order is the key's
        return list(map(response_docs.__getitem__, paired.values()))
    return [response_docs[paired[n]] if n in paired else None for n in key_docs]


def _lines(docs: dict[str, Document]) -> Mapping[str, int]:
    return _FirstLines(docs)


class _FirstLines(Mapping[str, int]):
    """Each document's first line by name, looked up only when a warning names it (a corpus may
    have a million)."""

    def __init__(self, docs: dict[str, Document]) -> None:
        self.docs = docs

    def __getitem__(self, name: str) -> int:
        return self.docs[name].begin_line

    def __iter__(self) -> Iterator[str]:
        return iter(self.docs)

    def __len__(self) -> int:
        return len(self.docs)


def ua_setting(options: Options, key_path: str, key_format: str) -> object:
    """The setting of the UA scorer's measures that the options' preset gives, if any (an
    :class:`~corefeval.anaphora.ua_sides.UASettings`); such a preset on a key of another format is an
    error, as the setting names layers only UA files have."""
    from ..core.preset_names import UA_NAMES

    if options.preset not in UA_NAMES:
        return None
    from .presets_ua import UA_PRESETS

    chosen = UA_PRESETS[options.preset]
    if key_format != "ua":
        raise InputError(
            key_path,
            0,
            f"--preset {chosen.name} scores Universal Anaphora files ({chosen.task}); this key is "
            f"{key_format}: choose a CRAC preset (crac2022, crac2023, crac2024) or none",
        )
    return chosen.options


def counted_metrics(names: tuple[str, ...], blanc: str, ua: object = None) -> list[Metric]:
    """The metric objects whose counts a run needs (mention counts always: nearly free, always shown);
    ``ua``: the setting of the Universal Anaphora scorer's measures a preset gives."""
    counted = [
        m.name
        for m in REGISTRY
        if m.counted and (m.name in names or m.name == "mentions" or (m.conll_part and "conll" in names))
    ]
    return [build(m, blanc, ua) for m in counted]


def assemble(
    key_path: str,
    response_path: str,
    names: list[str],
    objects: list[Metric],
    rows: list[list[float]] | np.ndarray,
    digests: list[bytes],
    warnings: list[Diagnostic],
    settings: Options,
) -> ScoreResult:
    """A result from per-document count rows."""
    width = sum(len(m.fields) for m in objects)
    return ScoreResult(
        key_path=key_path,
        response_path=response_path,
        document_names=names,
        metric_objects=tuple(objects),
        counts=np.asarray(rows, dtype=float).reshape(len(rows), width),
        settings=settings,
        document_digests=digests,
        warnings=_unique(warnings),
    )


def _checked_pairs(
    paired: list[tuple[Document, Document | None]], key_path: str, response_path: str
) -> tuple[list[Checked], tuple[Stacked, Stacked] | None]:
    """The pairs to count (see :func:`checked_pair`) and, for several, both sides stacked: once for
    the check of crossing mentions (all of them in one pass), the digests and the counts. A pair
    with nothing to check or say (both present, with as many tokens, no crossing mention possible)
    is passed on as it is, and the others are found column-wise (a corpus may have a million)."""
    n = len(paired)
    if n < 2:
        return [checked_pair(k, r, key_path, response_path) for k, r in paired], None
    keys, responses = [k for k, _ in paired], [r for _, r in paired]
    key_side = Stacked.of(keys)
    key_crossing = crossing_documents(keys, key_side)
    there = np.fromiter(map(is_not, responses, repeat(None)), dtype=bool, count=n)
    present = [r for r in responses if r is not None]
    present_side = Stacked.of(present)
    response_crossing = np.zeros(n, dtype=bool)
    response_crossing[there] = crossing_documents(present, present_side)
    alike = _alike_tokens(keys, present, there)
    checked = cast("list[Checked]", list(zip(keys, responses, repeat(()))))  # a missing one is replaced below
    for i in np.flatnonzero(~there | key_crossing | response_crossing | ~alike).tolist():
        crossings = (bool(key_crossing[i]), bool(response_crossing[i]))
        checked[i] = checked_pair(keys[i], responses[i], key_path, response_path, crossings)
    response_side = present_side if len(present) == n else Stacked.of([r for _, r, _ in checked])
    return checked, (key_side, response_side)


def _alike_tokens(keys: list[Document], present: list[Document], there: np.ndarray) -> np.ndarray:
    """Whether each key document and its response (``present``: those there are, where ``there``)
    have as many tokens, or one side does not say (no response: alike)."""
    n = len(keys)
    try:
        key_tokens = np.fromiter(map(_tokens_of, keys), dtype=np.int64, count=n)
        response_tokens = np.zeros(n, dtype=np.int64)
        response_tokens[there] = np.fromiter(map(_tokens_of, present), dtype=np.int64, count=len(present))
    except OverflowError:  # offsets past 64 bits (hostile input): compared as Python integers
        found = iter(present)
        responses = [next(found) if t else None for t in there.tolist()]
        return np.fromiter(
            (r is None or r.n_tokens in (k.n_tokens, 0) or not k.n_tokens for k, r in zip(keys, responses)), bool, n
        )
    return (key_tokens == response_tokens) | (key_tokens == 0) | (response_tokens == 0)


_tokens_of = attrgetter("n_tokens")


def _unique(items: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[Diagnostic] = set()
    out = []
    for d in items:
        if d not in seen:
            seen.add(d)
            out.append(d)
    return out
