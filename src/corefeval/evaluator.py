"""Score documents held in memory, one at a time: the accumulator for training and validation loops.

>>> from corefeval import Evaluator
>>> ev = Evaluator(["muc", "bcub", "ceafe", "conll"])
>>> ev.update([[(0, 1), (5, 5)], [(3, 3)]], [[(0, 1), (5, 5), (3, 3)]])
>>> round(ev.result().corpus["muc"].f1, 4)
0.6667

``update`` only checks one document and encodes it as compact arrays; the documents added since
the last count are counted together, in one corpus-wide pass (:mod:`corefeval.scoring.batch`), when a
result, a state or a merge needs their rows. The rows are those of the file scorer's alignment and
metric objects, so ``result()`` is the :class:`~corefeval.scoring.results.ScoreResult` that
:func:`corefeval.score` gives for the same documents written to files. Once counted, only the
count rows, names and key digests are kept; evaluators on disjoint documents merge by stacking rows.
"""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import chain, starmap
from numbers import Number
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .core.diagnostics import Diagnostic, UsageError
from .core.mention_values import lists_as_tuples
from .core.model import Document
from .core.options import MEMORY, Options
from .core.reading_order import in_reading_order, reading_order
from .core.warning_summary import warn
from .metrics.base import Metric
from .scoring.batch import Stacked, document_digests, stacked_digests
from .scoring.pipeline import assemble, counted_metrics, counted_rows
from .scoring.results import ScoreResult

if TYPE_CHECKING:
    from .studies.breakdowns import Breakdown

#: The format name in the signature of results built in memory.
#: Columns of ``state()`` after the counts: the 32 bytes of each document's key digest.
DIGEST_BYTES = 32

Clusters = Iterable[Iterable[Hashable]]
_SEQUENCES = {list, tuple}


class Evaluator:
    """Accumulate per-document counts of the chosen metrics over documents given as clusters.

    A cluster is an iterable of hashable mentions (``(start, end)`` token offsets, inclusive, span
    objects, strings...). Mentions of ``(start, end)`` pairs of non-negative integers are token spans
    (a file would hold the same spans); anything else is compared by equality within the document.
    Token spans are taken in the order of the same clusters written as CoNLL-2012
    (:mod:`corefeval.core.reading_order`), and repeated mentions are scored as the reference scorer
    scores that file: a repeated key mention counts twice; a response mention that matches the key
    is kept in the entity the file opens first; repeated twinless response mentions are all kept.
    Other mentions are taken in the given order. Empty clusters are ignored. Repeated mentions are
    said as a file's are: in the result's ``warnings``, and once through Python's warnings as
    :class:`~corefeval.core.diagnostics.CorefevalWarning` when the documents are counted.
    """

    def __init__(self, metrics: Iterable[str] | str | None = None, *, blanc: str = "reference") -> None:
        self.options = Options.make(None, metrics, blanc=blanc).for_key(MEMORY)
        self.metrics = self.options.metrics
        self.blanc = self.options.blanc
        self._objects = counted_metrics(self.metrics, self.blanc)
        self.width = sum(len(m.fields) for m in self._objects)
        self._rows = np.zeros((0, self.width))
        self._digests: list[bytes] = []
        self._names: list[str] = []
        self._known: set[str] = set()
        self._pending: list[IntPairs | Encoded] = []
        self._warnings: list[Diagnostic] = []

    def __len__(self) -> int:
        return len(self._names)

    def update(
        self, key_clusters: Clusters, response_clusters: Clusters, name: str | None = None, *, replace: bool = False
    ) -> None:
        """Add one document (``name`` defaults to its position, ``"0"``, ``"1"``, ...).

        A name added before is refused (a sampler that pads a batch by repeating documents would
        count them twice); ``replace=True`` puts this document in the earlier one's place instead."""
        doc_name = str(len(self._names)) if name is None else str(name)
        if doc_name in self._known:
            if not replace:
                raise UsageError(
                    f"document '{doc_name}' was added already: each document is counted once; pass replace=True "
                    "to put this one in its place (a sampler that pads batches repeats documents)"
                )
            self._replace([doc_name], *_counted_alone(self, key_clusters, response_clusters, doc_name))
            return
        pairs = _int_pairs(key_clusters, response_clusters)
        self._pending.append(encode(key_clusters, response_clusters, doc_name) if pairs is None else pairs)
        self._names.append(doc_name)
        self._known.add(doc_name)

    def update_many(
        self,
        pairs: Iterable[tuple[Clusters, Clusters]] | Iterable[tuple[Clusters, Clusters, str]],
        *,
        replace: bool = False,
    ) -> None:
        """Add documents given as ``(key_clusters, response_clusters)`` or ``(key, response, name)``
        (``replace``: as :meth:`update` takes it)."""
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) not in (2, 3):
                raise UsageError("update_many takes (key_clusters, response_clusters[, name]) tuples")
            self.update(*pair, replace=replace)

    def reset(self) -> None:
        """Forget every document (the metrics and options stay)."""
        self._rows, self._digests, self._names, self._pending = np.zeros((0, self.width)), [], [], []
        self._known = set()
        self._warnings = []

    def _replace(
        self, names: list[str], rows: np.ndarray, digests: list[bytes], notes: Sequence[Diagnostic] = ()
    ) -> None:
        """Put the count rows and digests of ``names`` (documents held already) in their places, with
        their warnings ``notes`` in place of the old ones."""
        self._counted()
        self._warnings = _about(self._warnings, set(names), False) + list(notes)
        at = {n: i for i, n in enumerate(self._names)}
        for name, row, digest in zip(names, rows, digests):
            self._rows[at[name]] = row
            self._digests[at[name]] = digest

    def _counted(self) -> tuple[np.ndarray, list[bytes]]:
        """Every document's count row and key digest: the documents added since the last call are
        counted now, together, by the file scorer's counting path (:func:`corefeval.scoring.pipeline.counted_rows`)."""
        if self._pending:
            names = self._names[len(self._names) - len(self._pending) :]
            raw = [p for p in self._pending if isinstance(p, IntPairs)]
            if len(raw) == len(self._pending):  # the common case: no document object until one is needed
                key, response = _stack(raw)
                pairs: Sequence[tuple[Document, Document]] = _StackedPairs(key, response, names)
                rows, notes = counted_rows(
                    pairs, self._objects, MEMORY, MEMORY, rule=self.options.repeats, sides=(key, response)
                )
                digests = stacked_digests(names, key)
            else:
                pairs = _encode_pending(self._pending, names)
                rows, notes = counted_rows(pairs, self._objects, MEMORY, MEMORY, rule=self.options.repeats)
                digests = document_digests([k for k, _ in pairs])
            self._rows = np.concatenate([self._rows, rows])
            self._digests += digests
            self._pending = []
            if notes:  # repeated mentions, as a file's are: said once, when counted, and kept
                self._warnings += notes
                warn(notes, stacklevel=3)
        return self._rows, self._digests

    def result(self) -> ScoreResult:
        """Corpus and per-document scores of the documents added so far."""
        rows, digests = self._counted()
        settings = dataclasses.replace(self.options, key_format=MEMORY, response_format=MEMORY)
        return assemble(
            MEMORY, MEMORY, list(self._names), list(self._objects), rows.copy(), list(digests), self._warnings, settings
        )

    def breakdown(self, by: str | Mapping[str, str]) -> Breakdown:
        """The result by document group: ``genre``, a regex on the document names (its first group,
        else its match), or a mapping of names to groups (others: ``(other)``). Mention and entity
        groupings need the documents' mentions, which an evaluator does not keep: score files."""
        from .studies.breakdowns import DOCUMENT_KINDS, KINDS, breakdown, by_manifest

        if not isinstance(by, str):
            return by_manifest(self.result(), by)
        if by in KINDS and by not in DOCUMENT_KINDS or by == "length":
            raise UsageError(f"an Evaluator keeps count rows, not documents: the '{by}' breakdown needs files")
        return breakdown(self.result(), by)

    def merge(self, other: Evaluator, *, replace: bool = False) -> Evaluator:
        """A new evaluator holding this one's documents, then ``other``'s (same metrics and options).

        A document both hold is refused (it would count twice); ``replace=True`` keeps ``other``'s
        copy, in this one's place."""
        if not isinstance(other, Evaluator):
            raise UsageError(f"cannot merge an Evaluator with {type(other).__name__}")
        if (other.metrics, other.blanc) != (self.metrics, self.blanc):
            raise UsageError("cannot merge evaluators with different metrics or BLANC variants")
        both = [n for n in other._names if n in self._known]
        if both and not replace:
            names = ", ".join(f"'{n}'" for n in both[:5]) + (f" and {len(both) - 5} more" if len(both) > 5 else "")
            raise UsageError(
                f"both evaluators hold {len(both)} of the same documents ({names}), which would count twice: give "
                "each document to one evaluator (name them with update(..., name=...)), or merge(other, "
                "replace=True) to keep the other's copies"
            )
        out = Evaluator(self.metrics, blanc=self.blanc)
        (rows, digests), (other_rows, other_digests) = self._counted(), other._counted()
        new = np.array([n not in self._known for n in other._names], dtype=bool)
        out._rows = np.concatenate([rows, other_rows[new]])
        out._names = self._names + [n for n, keep in zip(other._names, new) if keep]
        out._digests = digests + [d for d, keep in zip(other_digests, new) if keep]
        out._known = set(out._names)
        out._warnings = self._warnings + _about(other._warnings, set(other._names) - set(both), True)
        if both:
            at = {n: i for i, n in enumerate(other._names)}
            notes = _about(other._warnings, set(both), True)
            out._replace(both, other_rows[[at[n] for n in both]], [other_digests[at[n]] for n in both], notes)
        return out

    def __add__(self, other: Evaluator) -> Evaluator:
        """``a.merge(b)``: a document both hold is refused."""
        return self.merge(other)

    def state(self) -> tuple[np.ndarray, list[str]]:
        """One float array (a row per document: the counts, then the key digest's 32 bytes) and the
        document names. Rows are additive: a worker's rows for documents it did not see can be
        zeros, so summing the arrays of all workers gives every document's row."""
        rows, digests = self._counted()
        array = np.zeros((len(rows), self.width + DIGEST_BYTES))
        if digests:
            array[:, : self.width] = rows
            array[:, self.width :] = np.frombuffer(b"".join(digests), dtype=np.uint8).reshape(-1, DIGEST_BYTES)
        return array, list(self._names)

    @classmethod
    def from_state(
        cls,
        array: Any,
        names: Sequence[str],
        metrics: Iterable[str] | str | None = None,
        *,
        blanc: str = "reference",
    ) -> Evaluator:
        """The evaluator whose ``state()`` is ``(array, names)``, for the given metrics and options."""
        out = cls(metrics, blanc=blanc)
        try:
            a = np.asarray(array, dtype=float)
        except (TypeError, ValueError):
            raise UsageError("state array is not numeric") from None
        names = [str(n) for n in names]
        expected = (len(names), out.width + DIGEST_BYTES)
        if a.shape != expected:
            raise UsageError(
                f"state array has shape {a.shape}, expected {expected} "
                f"({len(names)} documents x {out.width} counts + {DIGEST_BYTES} digest bytes)"
            )
        _check_state(a, out._objects, names)
        if len(set(names)) < len(names):
            twice = next(n for i, n in enumerate(names) if n in names[:i])
            raise UsageError(f"state names document '{twice}' twice: each document has one row")
        digest = a[:, out.width :]
        out._rows = a[:, : out.width].copy()
        out._names = names
        out._known = set(names)
        out._digests = [bytes(row) for row in digest.astype(np.uint8)]
        return out


def _counted_alone(
    ev: Evaluator, key: Clusters, response: Clusters, name: str
) -> tuple[np.ndarray, list[bytes], list[Diagnostic]]:
    """The count row, key digest and warnings of one document, as ``ev`` counts it."""
    alone = Evaluator(ev.metrics, blanc=ev.blanc)
    alone.update(key, response, name)
    rows, digests = alone._counted()
    return rows, digests, alone._warnings


def _about(notes: Sequence[Diagnostic], names: set[str], keep: bool) -> list[Diagnostic]:
    """The warnings about the documents ``names`` (``keep``), or about the others: every warning of
    a document names it first (``document 'NAME': ...``)."""
    prefixes = tuple(f"document '{n}': " for n in names)
    return [d for d in notes if d.message.startswith(prefixes) == keep]


def _check_state(a: np.ndarray, objects: Sequence[Metric], names: Sequence[str]) -> None:
    """Refuse, in one line naming the first bad cell's row and column, a state array that no
    evaluator gives: a count that is not finite, is negative, is not a whole number where it always
    is one, or a numerator above its denominator (which would print a recall of -3.5 or an F1 of
    1.17), and digest columns that are not bytes."""
    columns = [(f"{m.name} {f}", f in m.fractional_fields) for m in objects for f in m.fields]
    width = len(columns)
    whole = np.array([not fractional for _, fractional in columns] + [True] * DIGEST_BYTES)
    high = np.full(a.shape[1], np.inf)
    high[width:] = 255
    bad = ~np.isfinite(a) | (a < 0) | (a > high) | (whole & (a != np.floor(a)))
    j = 0
    for m in objects:  # each numerator against its denominator (fractional sums: up to rounding)
        for k, f in enumerate(m.fields):
            if m.bounded and f.endswith("_num") and f[:-4] + "_den" in m.fields:
                den = a[:, j + m.fields.index(f[:-4] + "_den")]
                slack = 1e-9 * (den + 1) if f in m.fractional_fields else 0
                bad[:, j + k] |= a[:, j + k] > den + slack
        j += len(m.fields)
    if bad.any():
        row, col = (int(x) for x in np.argwhere(bad)[0])
        what = columns[col][0] if col < width else f"digest byte {col - width}"
        raise UsageError(
            f"state array row {row} (document '{names[row]}'), column {col} ({what}): {float(a[row, col])!r} is not "
            "a count this evaluator gives (finite, >= 0, whole where counts are, numerators <= denominators "
            "but CEAF's, digest bytes 0 to 255; arrays of different evaluators summed?)"
        )


def encode(key: Clusters, response: Clusters, name: str = "") -> tuple[Document, Document]:
    """Both clusterings of one document as documents over shared mention codes.

    Token spans ``(start, end)`` keep their offsets (so digests equal those of the same spans read
    from a file) and are put in the order a CoNLL-2012 file gives them (:mod:`corefeval.core.reading_order`:
    rows and entity numbers); other mentions get a code per distinct mention, in the given order,
    as :func:`corefeval.metrics.clusters_to_documents` gives them.
    """
    kmentions, kents = _flatten(key, "key", name)
    rmentions, rents = _flatten(response, "response", name)
    kmentions, rmentions = lists_as_tuples(kmentions), lists_as_tuples(rmentions)
    _refuse_bad_pairs(kmentions, "key", name)
    _refuse_bad_pairs(rmentions, "response", name)
    spans = _spans(kmentions + rmentions)
    if spans is not None:
        starts, ends = spans
        n = len(kmentions)
        n_tokens = int(ends.max()) + 1 if ends.size else 0
        return (
            in_reading_order(Document(name, starts[:n], ends[:n], kents, n_tokens=n_tokens)),
            in_reading_order(Document(name, starts[n:], ends[n:], rents, n_tokens=n_tokens)),
        )
    codes: dict[Hashable, int] = {}
    try:
        kc = np.fromiter((codes.setdefault(m, len(codes)) for m in kmentions), dtype=np.int64, count=len(kmentions))
        rc = np.fromiter((codes.setdefault(m, len(codes)) for m in rmentions), dtype=np.int64, count=len(rmentions))
    except TypeError:
        bad = next(m for m in kmentions + rmentions if not _hashable(m))
        raise UsageError(f"document '{name}': mention {bad!r} is not hashable") from None
    return (
        Document(name, kc, kc, kents, n_tokens=len(codes)),
        Document(name, rc, rc, rents, n_tokens=len(codes)),
    )


def _flatten(clusters: Clusters, side: str, name: str) -> tuple[list[Any], np.ndarray]:
    """The mentions of all clusters in order, and each one's cluster number (empty clusters dropped,
    numbers kept dense)."""
    if isinstance(clusters, (str, bytes)) or not hasattr(clusters, "__iter__"):
        raise UsageError(f"document '{name}': {side} clusters must be an iterable of clusters, not {clusters!r}")
    if type(clusters) in _SEQUENCES and set(map(type, clusters)) <= _SEQUENCES:
        # Lists or tuples of lists or tuples (the common case): no Python step per cluster.
        lengths = np.fromiter(map(len, clusters), dtype=np.int64, count=len(clusters))  # type: ignore[arg-type]
        lengths = lengths[lengths > 0]
        return list(chain.from_iterable(clusters)), np.repeat(np.arange(lengths.size, dtype=np.int64), lengths)
    mentions: list[Any] = []
    sizes: list[int] = []
    for i, cluster in enumerate(clusters):
        before = len(mentions)
        try:
            if isinstance(cluster, (str, bytes)):
                raise TypeError
            mentions.extend(cluster)
        except TypeError:
            raise UsageError(
                f"document '{name}': {side} cluster {i} is not an iterable of mentions: {cluster!r}"
            ) from None
        if len(mentions) > before:
            sizes.append(len(mentions) - before)
    return mentions, np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)


def _spans(mentions: list[Any]) -> tuple[np.ndarray, np.ndarray] | None:
    """Start and end arrays when every mention is a ``(start, end)`` pair (pairs that hold a number
    are token spans, checked by :func:`_refuse_bad_pairs`); ``None`` otherwise."""
    if not mentions:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if not all(map(_number_pair, mentions)):
        return None
    pairs = np.array([(int(s), int(e)) for s, e in mentions], dtype=np.int64)
    return pairs[:, 0].copy(), pairs[:, 1].copy()


#: The largest token offset: spans are kept as signed 64-bit integers.
MAX_OFFSET = 2**63 - 1


def _number_pair(m: Any) -> bool:
    """Whether ``m`` is a pair holding a number or ``None``: meant as a token span."""
    return (
        type(m) is tuple and len(m) == 2 and any(x is None or isinstance(x, (Number, np.number, np.bool_)) for x in m)
    )


def _offset(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _refuse_bad_pairs(mentions: list[Any], side: str, name: str) -> None:
    """A pair that holds a number is a token span ``(start, end)``: refuse one whose items are not
    integers (a float, a bool, ``None``) or not ``0 <= start <= end <= 2**63 - 1``, in one line,
    rather than compare it as an opaque value and give a number nobody asked for."""
    for m in mentions:
        if _number_pair(m) and not (_offset(m[0]) and _offset(m[1]) and 0 <= m[0] <= m[1] <= MAX_OFFSET):
            raise UsageError(
                f"document '{name}': {side} mention {m!r} is not a token span: expected (start, end), "
                "integers with 0 <= start <= end <= 2**63 - 1"
            )


class IntPairs(NamedTuple):
    """A document whose mentions are all pairs of integers: the offsets of its key mentions, then of
    its response mentions, flat (start, end, start, end, ...) as native 64-bit integers, and the
    sizes of its key clusters, then of its response clusters; stacked with the other pending
    documents when they are counted."""

    offsets: bytes
    sizes: list[int]
    key_clusters: int


Encoded = tuple[Document, Document]
_PACK_PAIR = struct.Struct("qq").pack


def _int_pairs(key: Clusters, response: Clusters) -> IntPairs | None:
    """The common case, checked and converted without a Python step per mention: lists or tuples of
    clusters that are lists or tuples of ``(start, end)`` pairs of integers (packing a pair takes
    exactly two integers, of at most 64 bits). ``None`` otherwise."""
    if type(key) not in _SEQUENCES or type(response) not in _SEQUENCES:
        return None
    if not set(map(type, key)) <= _SEQUENCES or not set(map(type, response)) <= _SEQUENCES:
        return None
    mentions: list[Any] = list(chain.from_iterable(key))
    mentions += chain.from_iterable(response)
    if mentions and not set(map(type, mentions)) <= _SEQUENCES:  # lists: spans as JSON gives them
        return None
    try:
        offsets = b"".join(starmap(_PACK_PAIR, mentions))
    except struct.error:
        return None  # not two integers of 64 bits: encoded (and refused) one mention at a time
    values = np.frombuffer(offsets, dtype=np.int64)
    if values.size:
        # A negative offset, a start after its end or a bool (packed as 0 or 1): the slow path says which.
        low = np.flatnonzero(values <= 1)
        if low.size and (values[low[0]] < 0 or any(type(mentions[i >> 1][i & 1]) is bool for i in low.tolist())):
            return None
        if bool((values[0::2] > values[1::2]).any()):
            return None
    sizes = list(map(len, key))  # type: ignore[arg-type]
    key_clusters = len(sizes)
    sizes += map(len, response)  # type: ignore[arg-type]
    return IntPairs(offsets, sizes, key_clusters)


def _encode_pending(pending: list[IntPairs | Encoded], names: list[str]) -> list[Encoded]:
    """Documents of the pending entries: those kept as int pairs are converted together
    (:func:`_stack`); one whose pairs are not spans is encoded as :func:`encode` would encode it."""
    raw = [(i, p) for i, p in enumerate(pending) if isinstance(p, IntPairs)]
    out: dict[int, Encoded] = {i: p for i, p in enumerate(pending) if not isinstance(p, IntPairs)}
    if raw:
        pairs = _StackedPairs(*_stack([p for _, p in raw]), [names[i] for i, _ in raw])
        for j, (i, _) in enumerate(raw):
            out[i] = pairs[j]
    return [out[i] for i in range(len(pending))]


class _StackedPairs(Sequence[tuple[Document, Document]]):
    """The documents of stacked key and response sides, each pair made when first asked for (only
    documents counted alone, or read by a metric, are): the same documents :func:`encode` gives."""

    def __init__(self, key: Stacked, response: Stacked, names: list[str]) -> None:
        self.key, self.response, self.names = key, response, names
        self.key_at, self.response_at = (np.concatenate([[0], np.cumsum(s.lengths)]).tolist() for s in (key, response))

    def __len__(self) -> int:
        return len(self.names)

    def __getitem__(self, j: int) -> tuple[Document, Document]:  # type: ignore[override]
        a, b, c, d = self.key_at[j], self.key_at[j + 1], self.response_at[j], self.response_at[j + 1]
        key, response, name = self.key, self.response, self.names[j]
        tokens = 1 + max(int(key.ends[a:b].max(initial=-1)), int(response.ends[c:d].max(initial=-1)))
        return (
            Document(name, key.starts[a:b], key.ends[a:b], key.entities[a:b], n_tokens=tokens),
            Document(name, response.starts[c:d], response.ends[c:d], response.entities[c:d], n_tokens=tokens),
        )


def _stack(raw: list[IntPairs]) -> tuple[Stacked, Stacked]:
    """Int-pair documents (token spans, checked by :func:`_int_pairs`) as stacked key and response sides."""
    n = len(raw)
    offsets = np.frombuffer(b"".join(map(attrgetter("offsets"), raw)), dtype=np.int64).reshape(-1, 2).T
    n_clusters = np.fromiter(map(len, map(attrgetter("sizes"), raw)), dtype=np.int64, count=n)
    sizes = np.fromiter(chain.from_iterable(map(attrgetter("sizes"), raw)), dtype=np.int64, count=int(n_clusters.sum()))
    k_clusters = np.fromiter(map(attrgetter("key_clusters"), raw), dtype=np.int64, count=n)
    r_clusters = n_clusters - k_clusters
    is_key = _sides(k_clusters, r_clusters)
    kent, klen = _entity_numbers(sizes[is_key], k_clusters)
    rent, rlen = _entity_numbers(sizes[~is_key], r_clusters)
    is_key = _sides(klen, rlen)
    ks, ke, rs, re_ = offsets[0][is_key], offsets[1][is_key], offsets[0][~is_key], offsets[1][~is_key]
    return _in_reading_order(ks, ke, kent, klen), _in_reading_order(rs, re_, rent, rlen)


def _in_reading_order(starts: np.ndarray, ends: np.ndarray, entities: np.ndarray, lengths: np.ndarray) -> Stacked:
    """One side of stacked documents in reading order, as :func:`encode` puts each document."""
    order, entities = reading_order(starts, ends, entities, lengths)
    if order is not None:
        starts, ends = starts[order], ends[order]
    return Stacked(starts, ends, entities, lengths, np.zeros(lengths.size, dtype=bool))  # spans: no parts


def _sides(key: np.ndarray, response: np.ndarray) -> np.ndarray:
    """Which items are the key's, when each document has ``key[d]`` key items, then
    ``response[d]`` response items."""
    return np.repeat(np.tile([True, False], key.size), np.column_stack([key, response]).ravel())


def _entity_numbers(sizes: np.ndarray, clusters: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's entity (the number of its cluster among its document's non-empty clusters) and
    each document's number of rows, from the cluster sizes of documents of ``clusters[d]`` clusters."""
    n = clusters.size
    full = sizes > 0
    per_doc = np.bincount(np.repeat(np.arange(n), clusters)[full], minlength=n)
    rank = np.arange(int(full.sum())) - np.repeat(np.cumsum(per_doc) - per_doc, per_doc)
    upto = np.concatenate([[0], np.cumsum(sizes)])[np.cumsum(clusters)]
    return np.repeat(rank, sizes[full]), np.diff(upto, prepend=0)


def _hashable(m: object) -> bool:
    try:
        hash(m)
    except TypeError:
        return False
    return True
