"""Scoring: options made by presets, the one counting path from documents to count rows
(:mod:`.pipeline`, :mod:`.batch`), results, the ``Evaluator`` fed incrementally, variants, and the Dask
engine (:mod:`.distributed`) as a caller of the same path."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """The names of the former module ``corefeval.scoring``, now :mod:`.pipeline`."""
    from .._moved import forwarded

    return forwarded(__name__, "pipeline", name)
