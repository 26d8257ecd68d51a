"""Mention detection: distinct key spans found exactly in the response."""

from __future__ import annotations

import numpy as np

from ..matching.alignment import Alignment
from ..matching.cells import Cells
from .base import Metric


class Mentions(Metric):
    name = "mentions"
    title = "Mentions"

    def columns(self, cells: Cells) -> list[np.ndarray]:
        return [cells.matched, cells.key_mentions, cells.matched, cells.response_mentions]

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Distinct ids of the key, of the response, and of both."""
        key_ids = {i for chain in key for i in chain}
        response_ids = {i for chain in response for i in chain}
        found = float(len(key_ids & response_ids))
        return found, float(len(key_ids)), found, float(len(response_ids))

    def repeated_counts(self, alignment: Alignment) -> tuple[float, ...]:
        if alignment.views is not None:  # each side's distinct mentions as it looks them up
            recall_view, precision_view = alignment.views
            recall = self.literal_counts(recall_view.key_chains(), recall_view.response_chains())
            precision = self.literal_counts(precision_view.key_chains(), precision_view.response_chains())
            return recall[:2] + precision[2:]
        found = float(alignment.n_matched)
        return found, float(alignment.n_key_ids), found, float(alignment.n_response_ids)
