"""Human ratings: an annotators x items matrix read from a long table or a form export.

Blank answers are missing (NaN), never a label. A form export may hold several submissions per
annotator; they are merged by keeping, per question, the last non-blank answer, as the 2022 study
did. Annotators are sorted with Python's case-sensitive string order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ...core.diagnostics import InputError, is_number
from .csv_rows import read_rows

_QUESTION = re.compile(r"^\s*(\d+)\s*[).:]")


@dataclass(frozen=True)
class ControlCheck:
    """The answers of one annotator to a question and its declared duplicate."""

    annotator: str
    item: str
    duplicate: str
    first: float
    second: float

    @property
    def status(self) -> str:
        if np.isnan(self.first) or np.isnan(self.second):
            return "not checked"
        return "same" if self.first == self.second else "different"


@dataclass(frozen=True)
class Ratings:
    """``values[a, i]`` is annotator ``a``'s raw answer to item ``i`` (NaN when not answered)."""

    annotators: tuple[str, ...]
    items: tuple[str, ...]
    values: np.ndarray
    info: dict[str, dict[str, str]] = field(default_factory=dict)
    controls: tuple[ControlCheck, ...] = ()

    def answered(self) -> dict[str, int]:
        """Number of answered items per annotator."""
        return {a: int(np.sum(~np.isnan(self.values[k]))) for k, a in enumerate(self.annotators)}

    def subset(self, annotators: list[str] | None = None, items: list[str] | None = None) -> Ratings:
        """The same ratings restricted to some annotators and/or items (in the given order)."""
        ai = (
            [self.annotators.index(a) for a in annotators]
            if annotators is not None
            else list(range(len(self.annotators)))
        )
        ii = [self.items.index(i) for i in items] if items is not None else list(range(len(self.items)))
        return Ratings(
            tuple(self.annotators[k] for k in ai),
            tuple(self.items[k] for k in ii),
            self.values[np.ix_(ai, ii)],
            self.info,
            self.controls,
        )


def _number(text: str, path: str, line: int, what: str) -> float:
    text = text.strip()
    if not text:
        return float("nan")
    try:
        return float(text)
    except ValueError:
        raise InputError(path, line, f"{what} '{text}' is not a number") from None


def _build(
    path: str, cells: dict[tuple[str, str], float], item_order: list[str], info: dict[str, dict[str, str]]
) -> Ratings:
    annotators = tuple(sorted({a for a, _ in cells}))
    if not annotators:
        raise InputError(path, 0, "no ratings found")
    values = np.full((len(annotators), len(item_order)), np.nan)
    a_index = {a: k for k, a in enumerate(annotators)}
    i_index = {i: k for k, i in enumerate(item_order)}
    for (a, i), v in cells.items():
        values[a_index[a], i_index[i]] = v
    return Ratings(annotators, tuple(item_order), values, info)


def read_long_table(path: str) -> Ratings:
    """Read ``annotator,item,value`` rows (header required; extra columns ignored).

    A repeated (annotator, item) pair keeps its last non-blank value, as form resubmissions do.
    """
    rows = read_rows(path)
    if not rows:
        raise InputError(path, 1, "the file is empty")
    header = [h.strip().lower() for h in rows[0]]
    missing = [c for c in ("annotator", "item", "value") if c not in header]
    if missing:
        raise InputError(path, 1, f"missing column(s) {', '.join(missing)} (need annotator, item, value)")
    ca, ci, cv = (header.index(c) for c in ("annotator", "item", "value"))
    cells: dict[tuple[str, str], float] = {}
    order: dict[str, None] = {}
    for line, row in enumerate(rows[1:], 2):
        if not any(x.strip() for x in row):
            continue
        if len(row) <= max(ca, ci, cv):
            raise InputError(path, line, f"expected at least {max(ca, ci, cv) + 1} columns, found {len(row)}")
        a, i = row[ca].strip(), row[ci].strip()
        if not a or not i:
            raise InputError(path, line, "empty annotator or item")
        order.setdefault(i, None)
        v = _number(row[cv], path, line, "value")
        if not np.isnan(v):
            cells[(a, i)] = v
    return _build(path, cells, _natural(order), {})


def _natural(items: Mapping[str, None] | list[str]) -> list[str]:
    """Items in numeric order when they are all integers, else in first-seen order."""
    names = list(items)
    return sorted(names, key=int) if all(is_number(n) for n in names) else names


def read_form_export(path: str, annotator_column: str | int = 1, controls: Mapping[str, str] | None = None) -> Ratings:
    """Read a form export: one row per submission, question columns headed ``N) ...``.

    Column 0 (a timestamp) is ignored; ``annotator_column`` (name or index) identifies the
    annotator; other non-question columns become annotator information (last non-blank value).
    ``controls`` maps an item to its declared duplicate: both answers are compared and reported,
    then the duplicate item is dropped.
    """
    rows = read_rows(path)
    if len(rows) < 2:
        raise InputError(path, 1, "no submission found (expected a header row and one row per submission)")
    header = rows[0]
    if isinstance(annotator_column, int):
        col = annotator_column
    elif annotator_column in header:
        col = header.index(annotator_column)
    else:
        raise InputError(path, 1, f"no column named '{annotator_column}'")
    questions: dict[int, str] = {}
    info_cols: dict[int, str] = {}
    for k, h in enumerate(header):
        m = _QUESTION.match(h)
        if m:
            questions[k] = m.group(1)
        elif k not in (0, col):
            info_cols[k] = h.strip()
    if not questions:
        raise InputError(path, 1, "no question column found (headers like '1) ...')")
    cells: dict[tuple[str, str], float] = {}
    info: dict[str, dict[str, str]] = {}
    for line, row in enumerate(rows[1:], 2):
        if not any(x.strip() for x in row):
            continue
        if len(row) != len(header):
            raise InputError(path, line, f"expected {len(header)} columns, found {len(row)}")
        a = row[col].strip()
        if not a:
            raise InputError(path, line, "empty annotator cell")
        for k, item in questions.items():
            v = _number(row[k], path, line, f"answer to question {item}")
            if not np.isnan(v):
                cells[(a, item)] = v
        person = info.setdefault(a, {})
        for k, name in info_cols.items():
            if row[k].strip():
                person[name] = row[k].strip()
    ratings = _build(path, cells, _natural(list(dict.fromkeys(questions.values()))), info)
    for a in ratings.annotators:
        info.setdefault(a, {})
    return apply_controls(ratings, controls or {}, path)


def apply_controls(ratings: Ratings, controls: Mapping[str, str], path: str = "") -> Ratings:
    """Compare each item with its declared duplicate, record the checks, drop the duplicates."""
    checks: list[ControlCheck] = []
    for item, dup in controls.items():
        for name in (item, dup):
            if name not in ratings.items:
                raise InputError(path, 1, f"control item '{name}' is not a question of the ratings")
        i, d = ratings.items.index(item), ratings.items.index(dup)
        for k, a in enumerate(ratings.annotators):
            first, second = float(ratings.values[k, i]), float(ratings.values[k, d])
            checks.append(ControlCheck(a, item, dup, first, second))
    keep = [i for i in ratings.items if i not in set(controls.values())]
    kept = ratings.subset(items=keep)
    return Ratings(kept.annotators, kept.items, kept.values, ratings.info, tuple(checks))


def parse_controls(text: str) -> dict[str, str]:
    """``"23:128,38:129"`` -> ``{"23": "128", "38": "129"}``."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        item, sep, dup = part.partition(":")
        if not sep or not item.strip() or not dup.strip():
            from ...core.diagnostics import UsageError

            raise UsageError(f"control pair '{part}' is not ITEM:DUPLICATE")
        out[item.strip()] = dup.strip()
    return out
