"""How sure is a score: bootstrap intervals and paired tests, all computed from per-document counts.

Every resample is a weighted sum of the rows of ``ScoreResult.counts``; nothing is re-scored.
"""

from __future__ import annotations

from .confidence import ConfidenceIntervals, Interval, confidence_intervals
from .holm import holm
from .paired import PairedTests

__all__ = ["ConfidenceIntervals", "Interval", "PairedTests", "confidence_intervals", "holm"]
