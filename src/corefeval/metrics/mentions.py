"""Mention detection: distinct key spans found exactly in the response."""

from __future__ import annotations

from ..alignment import Alignment
from .base import Metric


class Mentions(Metric):
    name = "mentions"
    title = "Mentions"

    def counts(self, alignment: Alignment) -> tuple[float, ...]:
        found = float(alignment.n_matched)
        return found, float(alignment.n_key_ids), found, float(alignment.n_response_ids)
