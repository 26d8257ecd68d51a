"""Rating scales: mappings from the raw answer to a coded value, and normalisation to [0, 1].

The study's four scales are built in: the standard 0-7 Likert answer, the reduced 0-4 scale,
gravity (significant / insignificant / no error) and importance (error on a key element /
on a peripheral element / no error). Importance is nominal: it has no order and is not normalised.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...core.diagnostics import UsageError


@dataclass(frozen=True)
class Scale:
    """``mapping`` sends a raw answer to a code; ordered scales normalise by ``code / top``."""

    name: str
    mapping: Mapping[float, float]
    labels: Mapping[float, str]
    ordered: bool = True

    @property
    def top(self) -> float:
        return max(self.mapping.values())

    def code(self, raw: np.ndarray) -> np.ndarray:
        """Map raw answers (NaN = missing) to codes; an answer with no mapping is an error."""
        out = np.full(raw.shape, np.nan)
        present = ~np.isnan(raw)
        for value in np.unique(raw[present]):
            if float(value) not in self.mapping:
                raise UsageError(f"answer {value:g} has no value on the scale '{self.name}'")
            out[raw == value] = self.mapping[float(value)]
        return out

    def normalise(self, coded: np.ndarray) -> np.ndarray:
        """Codes divided by the top code, so that 1 means "no error"."""
        if not self.ordered:
            raise UsageError(f"the scale '{self.name}' is nominal and cannot be normalised")
        return coded / self.top


def _scale(name: str, groups: list[tuple[list[int], str]], ordered: bool = True) -> Scale:
    mapping: dict[float, float] = {}
    labels: dict[float, str] = {}
    codes: dict[str, float] = {}
    for raws, label in groups:
        code = codes.setdefault(label, float(len(codes)))
        labels[code] = label
        for r in raws:
            mapping[float(r)] = code
    return Scale(name, mapping, labels, ordered)


STANDARD = _scale("standard", [([k], str(k)) for k in range(8)])
REDUCED = _scale("reduced", [([0], "0"), ([1, 2], "1"), ([3, 4], "2"), ([5, 6], "3"), ([7], "4")])
GRAVITY = _scale(
    "gravity", [([0, 1, 2], "significant error"), ([3, 4, 5, 6], "insignificant error"), ([7], "no error")]
)
IMPORTANCE = _scale(
    "importance",
    [([0, 3, 4], "error on a key element"), ([1, 2, 5, 6], "error on a peripheral element"), ([7], "no error")],
    ordered=False,
)
BUILTIN = {s.name: s for s in (STANDARD, REDUCED, GRAVITY, IMPORTANCE)}


def parse_scale(text: str) -> Scale:
    """A user scale ``NAME:RAW=CODE,RAW=CODE,...`` (codes numeric, ordered; e.g. ``two:0=0,1=0,2=1``)."""
    name, sep, body = text.partition(":")
    if not sep or not name.strip():
        raise UsageError(f"scale '{text}' is not NAME:RAW=CODE,...")
    mapping: dict[float, float] = {}
    for part in filter(None, (p.strip() for p in body.split(","))):
        raw, eq, code = part.partition("=")
        try:
            mapping[float(raw)] = float(code)
        except ValueError:
            raise UsageError(f"scale '{name}': '{part}' is not RAW=CODE with numbers") from None
        if not eq:
            raise UsageError(f"scale '{name}': '{part}' is not RAW=CODE")
    if not mapping or max(mapping.values()) <= 0:
        raise UsageError(f"scale '{name}' needs at least one positive code")
    return Scale(name.strip(), mapping, {c: f"{c:g}" for c in mapping.values()})
