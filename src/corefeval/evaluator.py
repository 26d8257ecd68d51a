"""Score documents held in memory, one at a time: the accumulator for training and validation loops.

>>> from corefeval import Evaluator
>>> ev = Evaluator(["muc", "bcub", "ceafe", "conll"])
>>> ev.update([[(0, 1), (5, 5)], [(3, 3)]], [[(0, 1), (5, 5), (3, 3)]])
>>> round(ev.result().corpus["muc"].f1, 4)
0.6667

Each ``update`` turns one document into its row of additive counts with the same alignment and
metric objects the file scorer uses, so ``result()`` is the :class:`~corefeval.results.ScoreResult`
that :func:`corefeval.score` gives for the same documents written to files. Only the count rows,
names and key digests are kept; evaluators on disjoint documents merge by stacking rows.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from .alignment import align
from .diagnostics import UsageError
from .model import Document
from .options import MEMORY, Options
from .results import ScoreResult
from .scoring import assemble, counted_metrics, document_counts, document_digest

#: The format name in the signature of results built in memory.
#: Columns of ``state()`` after the counts: the 32 bytes of each document's key digest.
DIGEST_BYTES = 32

Clusters = Iterable[Iterable[Hashable]]


class Evaluator:
    """Accumulate per-document counts of the chosen metrics over documents given as clusters.

    A cluster is an iterable of hashable mentions (``(start, end)`` token offsets, inclusive, span
    objects, strings...). Mentions of ``(start, end)`` pairs of non-negative integers are token spans
    (a file would hold the same spans); anything else is compared by equality within the document.
    Repeated mentions are scored as the reference scorer scores them: a repeated key mention counts
    twice; a response mention that matches the key is kept in its earliest cluster (the reference
    keeps the copy of the entity first seen in the file); repeated twinless response mentions are
    all kept. Empty clusters are ignored.
    """

    def __init__(self, metrics: Iterable[str] | str | None = None, *, blanc: str = "reference") -> None:
        self.options = Options.make(None, metrics, blanc=blanc)
        self.metrics = self.options.metrics
        self.blanc = blanc
        self._objects = counted_metrics(self.metrics, blanc)
        self.width = sum(len(m.fields) for m in self._objects)
        self._rows: list[list[float]] = []
        self._names: list[str] = []
        self._digests: list[bytes] = []

    def __len__(self) -> int:
        return len(self._rows)

    def update(self, key_clusters: Clusters, response_clusters: Clusters, name: str | None = None) -> None:
        """Add one document (``name`` defaults to its position, ``"0"``, ``"1"``, ...)."""
        doc_name = str(len(self._rows)) if name is None else str(name)
        kdoc, rdoc = encode(key_clusters, response_clusters, doc_name)
        self._rows.append(document_counts(self._objects, align(kdoc, rdoc)))
        self._names.append(doc_name)
        self._digests.append(document_digest(kdoc))

    def update_many(
        self, pairs: Iterable[tuple[Clusters, Clusters]] | Iterable[tuple[Clusters, Clusters, str]]
    ) -> None:
        """Add documents given as ``(key_clusters, response_clusters)`` or ``(key, response, name)``."""
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) not in (2, 3):
                raise UsageError("update_many takes (key_clusters, response_clusters[, name]) tuples")
            self.update(*pair)

    def reset(self) -> None:
        """Forget every document (the metrics and options stay)."""
        self._rows, self._names, self._digests = [], [], []

    def result(self) -> ScoreResult:
        """Corpus and per-document scores of the documents added so far."""
        settings = replace(self.options, key_format=MEMORY, response_format=MEMORY)
        return assemble(
            MEMORY, MEMORY, list(self._names), list(self._objects), self._rows, list(self._digests), [], settings
        )

    def merge(self, other: Evaluator) -> Evaluator:
        """A new evaluator holding this one's documents, then ``other``'s (same metrics and options)."""
        if not isinstance(other, Evaluator):
            raise UsageError(f"cannot merge an Evaluator with {type(other).__name__}")
        if (other.metrics, other.blanc) != (self.metrics, self.blanc):
            raise UsageError("cannot merge evaluators with different metrics or BLANC variants")
        out = Evaluator(self.metrics, blanc=self.blanc)
        out._rows = self._rows + other._rows
        out._names = self._names + other._names
        out._digests = self._digests + other._digests
        return out

    def __add__(self, other: Evaluator) -> Evaluator:
        return self.merge(other)

    def state(self) -> tuple[np.ndarray, list[str]]:
        """One float array (a row per document: the counts, then the key digest's 32 bytes) and the
        document names. Rows are additive: a worker's rows for documents it did not see can be
        zeros, so summing the arrays of all workers gives every document's row."""
        array = np.zeros((len(self._rows), self.width + DIGEST_BYTES))
        if self._rows:
            array[:, : self.width] = np.asarray(self._rows, dtype=float)
            array[:, self.width :] = np.frombuffer(b"".join(self._digests), dtype=np.uint8).reshape(-1, DIGEST_BYTES)
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
        digest = a[:, out.width :]
        if digest.size and (digest.min() < 0 or digest.max() > 255 or not np.all(digest == np.round(digest))):
            raise UsageError("state array's digest columns are not bytes (arrays of different evaluators summed?)")
        out._rows = a[:, : out.width].tolist()
        out._names = names
        out._digests = [bytes(row) for row in digest.astype(np.uint8)]
        return out


def encode(key: Clusters, response: Clusters, name: str = "") -> tuple[Document, Document]:
    """Both clusterings of one document as documents over shared mention codes.

    Token spans ``(start, end)`` keep their offsets (so digests equal those of the same spans read
    from a file); other mentions get a code per distinct mention, as
    :func:`corefeval.metrics.clusters_to_documents` gives them.
    """
    kmentions, kents = _flatten(key, "key", name)
    rmentions, rents = _flatten(response, "response", name)
    spans = _spans(kmentions + rmentions)
    if spans is not None:
        starts, ends = spans
        n = len(kmentions)
        n_tokens = int(ends.max()) + 1 if ends.size else 0
        return (
            _file_order(name, starts[:n], ends[:n], kents, n_tokens),
            _file_order(name, starts[n:], ends[n:], rents, n_tokens),
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


def _file_order(name: str, starts: np.ndarray, ends: np.ndarray, entities: np.ndarray, n_tokens: int) -> Document:
    """A document whose rows are in the order the reference reads a CoNLL-2012 file's mentions (by
    end token; at one token, one-token mentions first, then inner mentions before outer ones), so
    that the literal definitions, used when mentions repeat, add in the file scorer's order."""
    order = np.lexsort((-starts, starts != ends, ends))
    return Document(name, starts[order], ends[order], entities[order], n_tokens=n_tokens)


def _flatten(clusters: Clusters, side: str, name: str) -> tuple[list[Any], np.ndarray]:
    """The mentions of all clusters in order, and each one's cluster number (empty clusters dropped,
    numbers kept dense)."""
    if isinstance(clusters, (str, bytes)) or not hasattr(clusters, "__iter__"):
        raise UsageError(f"document '{name}': {side} clusters must be an iterable of clusters, not {clusters!r}")
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
    """Start and end arrays when every mention is a ``(start, end)`` pair of integers with
    ``0 <= start <= end``; ``None`` otherwise."""
    if not mentions:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if set(map(type, mentions)) != {tuple}:
        return None
    try:
        pairs = np.asarray(mentions)
    except (TypeError, ValueError):
        return None
    if pairs.dtype.kind not in "iu" or pairs.shape != (len(mentions), 2):
        return None
    starts, ends = pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)
    if starts.min() < 0 or bool(np.any(starts > ends)):
        return None
    return starts, ends


def _hashable(m: object) -> bool:
    try:
        hash(m)
    except TypeError:
        return False
    return True
