"""Agreement between automatic and hand error counts (e.g. a study's annotated counts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .items import TYPES


def agreement(
    auto: Sequence[Mapping[str, int]], hand: Sequence[Mapping[str, int | None]], types: Sequence[str] = TYPES
) -> dict[str, float]:
    """Per type, the share of items whose counts are equal (items with a blank hand count, None, are
    left out of that type); ``all`` is the share of items where every non-blank count is equal."""
    if len(auto) != len(hand):
        raise ValueError(f"{len(auto)} automatic rows but {len(hand)} hand rows")
    if not auto:
        raise ValueError("no item to compare")
    out: dict[str, float] = {}
    for t in types:
        pairs = [(a[t], h[t]) for a, h in zip(auto, hand, strict=True) if h.get(t) is not None]
        out[t] = sum(x == y for x, y in pairs) / len(pairs) if pairs else float("nan")
    out["all"] = sum(
        all(h.get(t) is None or a[t] == h[t] for t in types) for a, h in zip(auto, hand, strict=True)
    ) / len(auto)
    return out
