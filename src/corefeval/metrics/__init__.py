"""The metrics, by name, and plain functions on in-memory clusters.

>>> from corefeval.metrics import muc
>>> muc([["a", "b", "c"]], [["a", "b"], ["c"]]).recall
0.5

Names, titles, aliases and each metric's class are in :mod:`corefeval.core.registry` (re-exported
here), which the command line's parser reads without importing the metric code.
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable, Iterable

import numpy as np

from ..core.mention_values import as_hashable
from ..core.model import Document
from ..core.reading_order import reading_order
from ..core.registry import ALL, BY_NAME, CONLL_PARTS, COUNTED, REGISTRY, TITLES, MetricInfo, resolve
from ..core.warning_summary import warn
from ..matching.alignment import align
from ..matching.repeat_rules import repeat_warnings
from .base import Metric, Score, conll_mean

# The built-in metrics' modules, loaded before the functions below take their names (loading a
# module later would set the package's attribute of the same name to the module).
from .bcubed import BCubed
from .blanc import BLANC, BlancScore
from .ceaf import CEAFe, CEAFm
from .lea import LEA
from .mentions import Mentions
from .muc import MUC


def metric_class(info: MetricInfo) -> type[Metric]:
    """The class a registry entry names (``"module:Class"``; a module name starting with a dot is in
    this package), its module imported now."""
    module, _, name = info.implementation.partition(":")
    cls: type[Metric] = getattr(importlib.import_module(module, __name__), name)
    return cls


def build(name: str, blanc: str = "reference", ua: object = None) -> Metric:
    """A metric object by name (``blanc``: the BLANC variant, ``reference``, ``paper`` or ``ua``;
    ``ua``: the setting of the Universal Anaphora scorer's measures, an
    :class:`~corefeval.anaphora.ua_sides.UASettings`, when a preset chooses one)."""
    cls = metric_class(BY_NAME[name])
    if cls is BLANC:
        return BLANC(blanc)
    if ua is not None and getattr(cls, "ua_setting", False):
        return cls(ua)  # type: ignore[call-arg]  # the UA measures take their setting
    return cls()


#: The path warnings about clusters given in memory name.
CLUSTERS = "<clusters>"


def clusters_to_documents(
    key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]]
) -> tuple[Document, Document]:
    """Encode two clusterings of hashable mentions as documents over shared mention codes. Where
    every mention is a token span ``(start, end)``, each side is taken in reading order first (as
    every door that builds documents from clusters takes it: :mod:`corefeval.core.reading_order`),
    so that a span in two entities scores as the same clusters written as CoNLL-2012."""
    kd, rd, _ = _encoded(key, response)
    return kd, rd


def _encoded(
    key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]]
) -> tuple[Document, Document, list[Hashable]]:
    """:func:`clusters_to_documents`, and the mention each code stands for."""
    key_rows, response_rows = _rows(key), _rows(response)
    spans = all(_is_span(m) for rows in (key_rows, response_rows) for m in rows[0])
    codes: dict[Hashable, int] = {}

    def encode(rows: tuple[list[Hashable], list[int], int]) -> Document:
        mentions, entities, count = rows
        ents = np.asarray(entities, dtype=np.int64)
        labels = tuple(map(str, range(count)))
        if spans and mentions:
            starts = np.array([int(m[0]) for m in mentions], dtype=np.int64)  # type: ignore[index]
            ends = np.array([int(m[1]) for m in mentions], dtype=np.int64)  # type: ignore[index]
            order, ents = reading_order(starts, ends, ents)
            if order is not None:
                mentions = [mentions[i] for i in order.tolist()]
        arr = np.fromiter((codes.setdefault(as_hashable(m), len(codes)) for m in mentions), dtype=np.int64)
        return Document("", arr, arr, ents, labels)

    kd, rd = encode(key_rows), encode(response_rows)
    n = len(codes)
    return (
        Document(kd.name, kd.starts, kd.ends, kd.entities, kd.labels, n),
        Document(rd.name, rd.starts, rd.ends, rd.entities, rd.labels, n),
        list(codes),
    )


def _rows(clusters: Iterable[Iterable[Hashable]]) -> tuple[list[Hashable], list[int], int]:
    """The mentions of ``clusters``, each one's cluster, and how many clusters (empty ones too)."""
    mentions: list[Hashable] = []
    entities: list[int] = []
    k = -1
    for k, cluster in enumerate(clusters):
        for m in cluster:
            mentions.append(m)
            entities.append(k)
    return mentions, entities, k + 1


#: Token offsets taken as spans: below this, their codes and reading order are exact in int64.
_SPAN_LIMIT = 2**62


def _is_span(m: object) -> bool:
    """Whether ``m`` is a token span: a pair of non-negative integers, start <= end."""
    if not isinstance(m, (tuple, list)) or len(m) != 2:
        return False
    s, e = m
    return bool(
        isinstance(s, (int, np.integer))
        and isinstance(e, (int, np.integer))
        and not isinstance(s, bool)
        and not isinstance(e, bool)
        and 0 <= s <= e < _SPAN_LIMIT
    )


def evaluate(
    name: str, key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]], blanc: str = "reference"
) -> Score:
    """Score one pair of clusterings (iterables of clusters of hashable mentions) with one metric.
    Repeated mentions are scored as the reference scorer scores them, with a
    :class:`~corefeval.core.diagnostics.CorefevalWarning` naming each."""
    kd, rd, mentions = _encoded(key, response)
    a = align(kd, rd)
    if a.repeats or a.dropped_rows.size:
        named = repeat_warnings(CLUSTERS, CLUSTERS, kd, rd, a, lambda doc, row: repr(mentions[doc.starts[row]]))
        warn(named, stacklevel=3)
    if name == "conll":
        f = conll_mean([build(m).score(build(m).counts(a)).f1 for m in CONLL_PARTS])
        return Score(f, f, f, f, 1.0, f, 1.0)
    metric = build(name, blanc)
    return metric.score(metric.counts(a, (kd, rd)))


def muc(key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]]) -> Score:
    """MUC of ``response`` clusters against ``key`` clusters."""
    return evaluate("muc", key, response)


def bcub(key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]]) -> Score:
    """B-cubed of ``response`` clusters against ``key`` clusters."""
    return evaluate("bcub", key, response)


def ceafm(key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]]) -> Score:
    """Mention-based CEAF."""
    return evaluate("ceafm", key, response)


def ceafe(key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]]) -> Score:
    """Entity-based CEAF."""
    return evaluate("ceafe", key, response)


def blanc(
    key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]], variant: str = "reference"
) -> Score:
    """BLANC (``variant``: ``reference`` or ``paper`` boundary cases)."""
    return evaluate("blanc", key, response, blanc=variant)


def lea(key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]]) -> Score:
    """LEA."""
    return evaluate("lea", key, response)


def mentions(key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]]) -> Score:
    """Mention detection (exact match)."""
    return evaluate("mentions", key, response)


def conll(key: Iterable[Iterable[Hashable]], response: Iterable[Iterable[Hashable]]) -> Score:
    """CoNLL score: the mean of MUC, B-cubed and CEAFe F1 (in every field of the result)."""
    return evaluate("conll", key, response)


__all__ = [
    "ALL",
    "COUNTED",
    "CONLL_PARTS",
    "BY_NAME",
    "REGISTRY",
    "TITLES",
    "MetricInfo",
    "Metric",
    "Score",
    "BCubed",
    "BLANC",
    "CEAFe",
    "CEAFm",
    "LEA",
    "MUC",
    "Mentions",
    "BlancScore",
    "resolve",
    "build",
    "metric_class",
    "evaluate",
    "muc",
    "bcub",
    "ceafm",
    "ceafe",
    "blanc",
    "lea",
    "mentions",
    "conll",
]
