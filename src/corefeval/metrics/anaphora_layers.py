"""The Universal Anaphora layers beside identity, as metrics: non-referring markable
identification and bridging (anaphor recognition, full bridging at markable and at entity level).

They read the Universal Anaphora document each identity layer carries
(:class:`~corefeval.anaphora.model.AnaphoraDocument`); documents from other formats have no such
layers and count nothing. Markables match by exact span, singletons are kept (the UA scorer's
defaults); the definitions are those of :mod:`corefeval.metrics.ua.scores`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..anaphora.model import AnaphoraDocument
from ..anaphora.ua_sides import UASettings, side
from ..matching.cells import Cells
from .base import Metric
from .ua.scores import bridging_counts, non_referring_counts

_OPTIONS = UASettings(keep_non_referring=True)


def _layer_counts(cells: Cells, which: str, settings: UASettings = _OPTIONS) -> np.ndarray:
    """Per document: non-referring counts (4) or bridging counts (9), zeros without UA layers
    (``settings``: a preset's, non-referring markables kept)."""
    settings = replace(settings, keep_non_referring=True)
    out = np.zeros((cells.n_docs, 4 if which == "non-referring" else 9))
    for d in range(cells.n_docs):
        key, response = cells.documents(d)
        if not isinstance(key, AnaphoraDocument) or not isinstance(response, AnaphoraDocument):
            continue
        if key.anaphora is None or response.anaphora is None:
            continue
        k, r = side(key.anaphora, settings, key=True), side(response.anaphora, settings, key=False)
        out[d] = non_referring_counts(k, r, key.name) if which == "non-referring" else bridging_counts(k, r)
    return out


class NonReferring(Metric):
    """Non-referring markables found: recall over the key's, precision over the response's."""

    name = "non-referring"
    title = "non-referring"
    reads_mentions = True
    #: Scored in the setting a preset gives (see :func:`corefeval.metrics.build`).
    ua_setting = True

    def __init__(self, settings: UASettings = _OPTIONS) -> None:
        self.settings = settings

    def columns(self, cells: Cells) -> list[np.ndarray]:
        return list(_layer_counts(cells, "non-referring", self.settings).T)

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Chains of mention ids have no non-referring markables: nothing to count."""
        return 0.0, 0.0, 0.0, 0.0


class _Bridging(Metric):
    """One form of bridging: ``form`` is 0 (anaphor recognition), 1 (full bridging, the anchor
    markable right) or 2 (full bridging, the anchor in the right key entity)."""

    form = 0
    reads_mentions = True
    #: Scored in the setting a preset gives (see :func:`corefeval.metrics.build`).
    ua_setting = True

    def __init__(self, settings: UASettings = _OPTIONS) -> None:
        self.settings = settings

    def columns(self, cells: Cells) -> list[np.ndarray]:
        tp, fn, fp = _layer_counts(cells, "bridging", self.settings).reshape(cells.n_docs, 3, 3)[:, self.form, :].T
        return [tp, tp + fn, tp.copy(), tp + fp]

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Chains of mention ids have no bridging links: nothing to count."""
        return 0.0, 0.0, 0.0, 0.0


class BridgingRecognition(_Bridging):
    """Bridging anaphors found (whatever their anchor)."""

    name = "bridging-ar"
    title = "bridging anaphors"
    form = 0


class BridgingMarkable(_Bridging):
    """Bridging anaphors found with their key anchor markable."""

    name = "bridging-fbm"
    title = "bridging (markable)"
    form = 1


class BridgingEntity(_Bridging):
    """Bridging anaphors found with an anchor in their key anchor's entity."""

    name = "bridging-fbe"
    title = "bridging (entity)"
    form = 2
