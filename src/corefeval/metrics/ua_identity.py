"""The Universal Anaphora scorer's identity metrics, split antecedents included, as metrics:
``ua-muc``, ``ua-bcub``, ``ua-ceafe``, ``ua-ceafm``, ``ua-lea`` and ``ua-blanc``.

They score a document with the definitions of :mod:`corefeval.metrics.ua.scores` under the UA
scorer's default setting (singletons and split antecedents kept, exact spans): from the Universal
Anaphora document an identity layer carries (:class:`~corefeval.anaphora.model.AnaphoraDocument`),
or, for a document of another format, from its entities (no split antecedents). ``corefeval
anaphora`` scores the other settings.

Without split antecedents every item weighs 1 and is a mention equal to another by its span, so
the UA scorer's MUC, B-cubed, CEAFe, CEAFm, LEA and BLANC of a document are corefeval's metrics
over the contingency cells of its entities (BLANC as its ``ua`` variant): such documents are
counted in one vectorised pass (:func:`identity_rows`). So are the entities of a document with
split antecedents that no item joins to one (:mod:`corefeval.anaphora.ua_spans`); the others,
and every entity of a document matched by minimum spans or with a span in two entities of one
side, are counted by the literal definitions. The six metrics of one run share one count of
their documents.
"""

from __future__ import annotations

import weakref

import numpy as np

from ..anaphora.model import AnaphoraDocument
from ..anaphora.ua_sides import Clusters, Mention, Pair, Side, Spans, UASettings, has_splits, side
from ..anaphora.ua_spans import spans_pair
from ..core.model import Document
from ..matching.cells import Cells, Stacked, stacked_cells
from .base import Metric
from .bcubed import BCubed
from .blanc import BLANC, Outside
from .ceaf import CEAFe, CEAFm
from .lea import LEA
from .muc import MUC
from .ua.alignment import identity_counts
from .ua.identity import IDENTITY_METRICS
from .ua.scores import document_counts

#: The UA scorer's default setting (singletons and split antecedents kept, exact spans).
DEFAULT = UASettings()

#: The metrics of the vectorised pass, and where each UA identity metric's counts are in a row of
#: :func:`identity_rows` (as ``recall_num, recall_den, precision_num, precision_den``); the row's
#: last column is BLANC's unshared mentions, which the UA scorer does not count.
_METRICS = (MUC(), BCubed(), CEAFe(), CEAFm(), LEA(), BLANC("ua"))
COLUMNS = {"muc": 0, "bcub": 4, "ceafe": 8, "ceafm": 12, "lea": 16, "blancc": 20, "blancn": 24}
WIDTH = 29


def _stacked(sides: list[Side]) -> Stacked:
    """The entities of one side of many documents, stacked (entities numbered per document)."""
    parts = [side.spans if side.spans is not None else _spans(side.clusters) for side in sides]
    if not parts:
        return Stacked(*(np.zeros(0, dtype=np.int64) for _ in range(4)))
    return Stacked(
        np.concatenate([p.starts for p in parts]),
        np.concatenate([p.ends for p in parts]),
        np.concatenate([p.entities for p in parts]),
        np.array([p.starts.size for p in parts], dtype=np.int64),
    )


def _spans(clusters: Clusters) -> Spans:
    """Entities of mentions as :class:`Spans`."""
    n = sum(map(len, clusters))
    return Spans(
        np.fromiter((m.start for c in clusters for m in c), dtype=np.int64, count=n),
        np.fromiter((m.end for c in clusters for m in c), dtype=np.int64, count=n),
        np.fromiter((e for e, c in enumerate(clusters) for _ in c), dtype=np.int64, count=n),
    )


def vector_rows(plain: list[Pair]) -> tuple[np.ndarray, np.ndarray]:
    """The rows of documents without split antecedents, and a mask of those the pass does not
    cover (a span in two entities of one side), whose rows are zeros."""
    key = _stacked([p.key for p in plain])
    response = _stacked([p.response for p in plain])
    cells, alone = stacked_cells(key, response, np.zeros(len(plain), dtype=bool))
    rows = np.stack([column for metric in _METRICS for column in metric.columns(cells)], axis=1)
    rows[alone] = 0.0
    return rows, alone


def identity_rows(paired: list[Pair], min_spans: bool) -> tuple[np.ndarray, dict[int, dict[str, np.ndarray]]]:
    """Every document's UA identity counts, a row each in :data:`COLUMNS`' layout: without
    ``min_spans``, the entities read as spans (:mod:`corefeval.anaphora.ua_spans`) and those of
    documents without split antecedents from one vectorised pass, the others by the literal
    definitions, split antecedents aligned; and, by their place in ``paired``, the
    :func:`~corefeval.metrics.ua.scores.document_counts` of the documents with a literal part."""
    rows = np.zeros((len(paired), WIDTH))
    whole: set[int] = set()
    cut: dict[int, tuple[Pair, Outside]] = {}
    plain: list[tuple[int, Pair]] = []
    for i, pair in enumerate(paired):
        key, response = pair.key, pair.response
        if min_spans or (key.spans is None and _has_splits(pair)):
            whole.add(i)
            continue
        plain.append((i, pair))
        if key.spans is not None and (key.clusters or response.clusters):
            literal = Pair(pair.name, Side(key.clusters, [], {}), Side(response.clusters, [], {}))
            cut[i] = (literal, _outside(key, response))
    if plain:
        vector, alone = vector_rows([p for _, p in plain])
        vector[:, WIDTH - 1] = 0.0
        for (i, pair), row, skipped in zip(plain, vector, alone.tolist()):
            if skipped and pair.key.spans is not None:  # spans_pair reads no side with a repeated span as spans
                raise RuntimeError(f"document {pair.name!r}: a span repeated in its spans")
            if skipped:
                whole.add(i)
            else:
                rows[i] = row
    counted = {i: document_counts(paired[i]) for i in sorted(whole)}
    for i, (literal, outside) in cut.items():
        counted[i] = document_counts(literal, outside=outside)
        counted[i].update(document_counts(paired[i], metrics=()))  # non-referring, bridging: the whole's
    for i, counts in counted.items():
        for name in IDENTITY_METRICS:
            at = COLUMNS[name]
            if i in cut:
                counts[name] = counts[name] + rows[i, at : at + 4]
            rows[i, at : at + 4] = counts[name]
    return rows, counted


def _outside(key: Side, response: Side) -> Outside:
    """What a document's entities read as spans add to BLANC's non-coreference links of the others:
    their key mentions found in the response, their key and their response mentions."""
    k = key.spans if key.spans is not None else _spans([])
    r = response.spans if response.spans is not None else _spans([])
    width = int(max(k.ends.max(initial=0), r.ends.max(initial=0))) + 1
    found = np.intersect1d(k.starts * width + k.ends, r.starts * width + r.ends, assume_unique=True).size
    return Outside(found, k.starts.size, r.starts.size)


def _has_splits(pair: Pair) -> bool:
    return has_splits(pair.key.clusters) or has_splits(pair.response.clusters)


def _side(doc: Document, settings: UASettings, key: bool, shared: dict[tuple[int, int], Mention]) -> Side:
    """A document's side as the UA scorer holds it: from the Universal Anaphora document it carries
    (``settings``: which markables), or from its entities (each the list of a set, as the scorer
    makes them when split antecedents are kept)."""
    if isinstance(doc, AnaphoraDocument) and doc.anaphora is not None:
        return side(doc.anaphora, settings, key=key, shared=shared)
    return Side([list({Mention(s, e) for s, e in entity}) for entity in doc.clusters()], [], {})


#: The rows of the last cells counted (a weak reference to them, their setting, the rows): the six
#: metrics of a run ask for the same cells one after another.
_last: list[tuple[weakref.ref[Cells], UASettings, np.ndarray]] = []


def cells_rows(cells: Cells, settings: UASettings) -> np.ndarray:
    """:func:`identity_rows` of the documents of ``cells`` (shared by the metrics asking next)."""
    if _last and _last[0][0]() is cells and _last[0][1] == settings:
        return _last[0][2]
    paired = []
    for d in range(cells.n_docs):
        key, response = cells.documents(d)
        if (
            isinstance(key, AnaphoraDocument)
            and key.anaphora
            and isinstance(response, AnaphoraDocument)
            and response.anaphora
        ):
            paired.append(spans_pair(key.name, key.anaphora, response.anaphora, settings))
            continue
        shared: dict[tuple[int, int], Mention] = {}
        paired.append(Pair(key.name, _side(key, settings, True, shared), _side(response, settings, False, shared)))
    rows = identity_rows(paired, settings.min_spans)[0]
    _last[:] = [(weakref.ref(cells), settings, rows)]
    return rows


def _chains(chains: list[list[int]]) -> Clusters:
    """Chains of mention ids as entities of one-word mentions."""
    return [list({Mention(i, i): None for i in chain}) for chain in chains if chain]


class _UAIdentity(Metric):
    """One identity metric of the UA scorer (``ua_name`` in its terms), in the setting ``settings``
    (a preset's; the UA scorer's default when not given)."""

    ua_name = ""
    reads_mentions = True
    #: Scored in the setting a preset gives (see :func:`corefeval.metrics.build`).
    ua_setting = True
    fractional_fields = frozenset({"recall_num", "precision_num"})

    def __init__(self, settings: UASettings = DEFAULT) -> None:
        self.settings = settings

    def columns(self, cells: Cells) -> list[np.ndarray]:
        at = COLUMNS[self.ua_name]
        return list(cells_rows(cells, self.settings)[:, at : at + 4].T)

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        return tuple(float(x) for x in identity_counts(self.ua_name, _chains(key), _chains(response))[0])


class UAMUC(_UAIdentity):
    name, title, ua_name = "ua-muc", "MUC (UA)", "muc"


class UABCubed(_UAIdentity):
    name, title, ua_name = "ua-bcub", "B-cubed (UA)", "bcub"


class UACEAFe(_UAIdentity):
    name, title, ua_name = "ua-ceafe", "CEAFe (UA)", "ceafe"


class UACEAFm(_UAIdentity):
    name, title, ua_name = "ua-ceafm", "CEAFm (UA)", "ceafm"


class UALEA(_UAIdentity):
    name, title, ua_name = "ua-lea", "LEA (UA)", "lea"


class UABLANC(BLANC):
    """The UA scorer's BLANC: its coreference and non-coreference link counts with split
    antecedents, scored as the ``ua`` BLANC variant."""

    name = "ua-blanc"
    title = "BLANC (UA)"
    reads_mentions = True
    #: Scored in the setting a preset gives (see :func:`corefeval.metrics.build`).
    ua_setting = True

    def __init__(self, settings: UASettings = DEFAULT) -> None:
        super().__init__("ua")
        self.settings = settings

    def columns(self, cells: Cells) -> list[np.ndarray]:
        """The coreference and non-coreference counts, then 0 (unshared mentions play no part here)."""
        at = COLUMNS["blancc"]
        return list(cells_rows(cells, self.settings)[:, at:].T)

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        k, r = _chains(key), _chains(response)
        both = np.concatenate([identity_counts("blancc", k, r)[0], identity_counts("blancn", k, r)[0]])
        return (*(float(x) for x in both), 0.0)
