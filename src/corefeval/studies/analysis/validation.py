"""Checks of a study's inputs against each other: files, error counts, ratings.

Each finding names the item and what is inconsistent: a response equal to its key with non-zero
error counts, a response that differs from its key with no error counted, counts that the files
cannot support (silence without a missing mention, noise without an added one, border errors
without both), empty count cells, and items missing from one input.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...core.model import Document


@dataclass(frozen=True)
class Finding:
    item: str
    check: str
    message: str


def _partition(doc: Document) -> set[frozenset[tuple[int, int]]]:
    return {frozenset(c) for c in doc.clusters()}


def _spans(doc: Document) -> set[tuple[int, int]]:
    return set(zip(doc.starts.tolist(), doc.ends.tolist(), strict=True))


def validate(
    keys: dict[str, Document], responses: dict[str, Document], counts: pd.DataFrame, rated_items: tuple[str, ...] = ()
) -> list[Finding]:
    """All findings, item by item (items are the keys of ``keys``, e.g. "1".."127")."""
    out: list[Finding] = []
    for item in counts.index:
        if item not in keys:
            out.append(Finding(item, "unknown item", "has error counts but no key/response document"))
    for item in rated_items:
        if item not in keys:
            out.append(Finding(item, "unknown item", "has ratings but no key/response document"))
    for item, key in keys.items():
        response = responses[item]
        if item not in counts.index:
            out.append(Finding(item, "no counts", "has no row in the error-count table"))
            continue
        row = counts.loc[item]
        for column in row.index[row.isna()]:
            out.append(Finding(item, "empty cell", f"the '{column}' count is empty"))
        total = float(np.nansum(row.to_numpy(dtype=float)))
        same = _partition(key) == _partition(response)
        if same and total > 0:
            listed = ", ".join(f"{c} {row[c]:g}" for c in row.index if row[c] > 0)
            out.append(
                Finding(item, "response = key", f"the response equals the key but errors are counted ({listed})")
            )
        if not same and total == 0:
            out.append(
                Finding(item, "uncounted difference", "the response differs from the key but no error is counted")
            )
        key_only = _spans(key) - _spans(response)
        response_only = _spans(response) - _spans(key)
        if row.get("silence", 0) > 0 and not key_only:
            out.append(Finding(item, "count vs files", "silence is counted but every key mention is in the response"))
        if row.get("noise", 0) > 0 and not response_only:
            out.append(Finding(item, "count vs files", "noise is counted but every response mention is in the key"))
        if row.get("border", 0) > 0 and not (key_only and response_only):
            out.append(
                Finding(
                    item,
                    "count vs files",
                    "a border error is counted but no key mention is replaced by a different response span",
                )
            )
    return out


def findings_table(findings: list[Finding]) -> pd.DataFrame:
    return pd.DataFrame([f.__dict__ for f in findings], columns=["item", "check", "message"])
