"""The Universal Anaphora scorer's identity metrics, split antecedents included, as metrics:
``ua-muc``, ``ua-bcub``, ``ua-ceafe``, ``ua-ceafm``, ``ua-lea`` and ``ua-blanc``.

They score a document with the definitions of :mod:`corefeval.anaphora.ua_scores` under the UA
scorer's default setting (singletons and split antecedents kept, exact spans): from the Universal
Anaphora document an identity layer carries (:class:`~corefeval.anaphora.model.AnaphoraDocument`),
or, for a document of another format, from its entities (no split antecedents). ``corefeval
anaphora`` scores the other settings.
"""

from __future__ import annotations

import numpy as np

from ..anaphora.model import AnaphoraDocument
from ..anaphora.ua_alignment import check_split_table, identity_counts
from ..anaphora.ua_metrics import Lookups
from ..anaphora.ua_sides import Clusters, Mention, Options, side
from ..cells import Cells
from ..model import Document
from .base import Metric
from .blanc import BLANC

#: The UA scorer's default setting (singletons and split antecedents kept, exact spans).
DEFAULT = Options()


def clusters(doc: Document, key: bool, settings: Options = DEFAULT) -> Clusters:
    """A document's entities as the UA scorer holds them (``settings``: which markables, from a UA file)."""
    if isinstance(doc, AnaphoraDocument) and doc.anaphora is not None:
        return side(doc.anaphora, settings, key=key).clusters
    # each entity the list of a set, as the scorer makes them when split antecedents are kept
    return [list({Mention(s, e) for s, e in entity}) for entity in doc.clusters()]


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

    def __init__(self, settings: Options = DEFAULT) -> None:
        self.settings = settings

    def columns(self, cells: Cells) -> list[np.ndarray]:
        out = np.zeros((cells.n_docs, 4))
        for d in range(cells.n_docs):
            key, response = cells.documents(d)
            k, r = clusters(key, True, self.settings), clusters(response, False, self.settings)
            lookups = Lookups(k, r)
            check_split_table(key.name, lookups, not self.settings.min_spans)
            out[d] = identity_counts(self.ua_name, k, r, lookups)[0]
        return list(out.T)

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

    def __init__(self, settings: Options = DEFAULT) -> None:
        super().__init__("ua")
        self.settings = settings

    def columns(self, cells: Cells) -> list[np.ndarray]:
        out = np.zeros((cells.n_docs, 9))  # unshared mentions (the last field) play no part here
        for d in range(cells.n_docs):
            key, response = cells.documents(d)
            k, r = clusters(key, True, self.settings), clusters(response, False, self.settings)
            lookups = Lookups(k, r)
            check_split_table(key.name, lookups, not self.settings.min_spans)
            both = [identity_counts(name, k, r, lookups)[0] for name in ("blancc", "blancn")]
            out[d, :8] = np.concatenate(both)
        return list(out.T)

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        k, r = _chains(key), _chains(response)
        both = np.concatenate([identity_counts("blancc", k, r)[0], identity_counts("blancn", k, r)[0]])
        return (*(float(x) for x in both), 0.0)
