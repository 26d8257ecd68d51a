"""WinoBias (Zhao et al. 2018): F1 on pro- and anti-stereotypical sentences of two types.

WinoBias gives four CoNLL files per split: type 1 (resolved by world knowledge) and type 2
(resolved by syntax), each with a pro-stereotypical and an anti-stereotypical version
(``test_type1_pro_stereotype.v4_auto_conll`` ...). A system is scored on each with the usual
metrics (the CoNLL score by default); the bias of a type is its pro F1 minus its anti F1, and the
average of the two types' pro (anti) F1 gives the overall pro (anti) score and their difference.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.diagnostics import InputError, UsageError
from ...core.options import Options
from ...scoring.pipeline import score_with
from ...scoring.results import ScoreResult

SUBSETS = ("type1-pro", "type1-anti", "type2-pro", "type2-anti")
#: A WinoBias file name: its type and its stereotype.
FILE_NAME = re.compile(r"type([12])_(pro|anti)")


@dataclass(frozen=True)
class WinoBiasScores:
    """F1 (percent) of ``metric`` on each subset, and the differences."""

    metric: str
    results: dict[str, ScoreResult]

    def f1(self, subset: str) -> float:
        return 100.0 * self.results[subset][self.metric].f1

    def difference(self, kind: str) -> float:
        """Pro F1 minus anti F1 of ``type1``, ``type2`` or ``average`` (the two types' mean)."""
        if kind == "average":
            return (self.difference("type1") + self.difference("type2")) / 2
        return self.f1(f"{kind}-pro") - self.f1(f"{kind}-anti")

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "f1": {s: self.f1(s) for s in SUBSETS},
            "pro_minus_anti": {k: self.difference(k) for k in ("type1", "type2", "average")},
            "signatures": {s: r.signature for s, r in self.results.items()},
        }

    def table(self) -> str:
        lines = [f"WinoBias, {self.metric} F1:", "           pro    anti  pro-anti"]
        for kind in ("type1", "type2"):
            pro, anti = self.f1(f"{kind}-pro"), self.f1(f"{kind}-anti")
            lines.append(f"{kind:<8}{pro:7.2f}  {anti:6.2f}  {pro - anti:+8.2f}")
        pro = (self.f1("type1-pro") + self.f1("type2-pro")) / 2
        anti = (self.f1("type1-anti") + self.f1("type2-anti")) / 2
        lines.append(f"{'average':<8}{pro:7.2f}  {anti:6.2f}  {pro - anti:+8.2f}")
        return "\n".join(lines) + "\n"


def subset_of(path: str) -> str:
    """The subset a WinoBias file name says (``type1-pro`` ...)."""
    m = FILE_NAME.search(Path(path).name)
    if m is None:
        raise UsageError(f"'{path}' is not named like a WinoBias file (type1_pro, type2_anti, ...)")
    return f"type{m.group(1)}-{m.group(2)}"


def find_files(folder: str) -> dict[str, str]:
    """The four WinoBias files of a folder, by subset (other files are ignored)."""
    found: dict[str, str] = {}
    for path in sorted(Path(folder).iterdir()) if Path(folder).is_dir() else []:
        if FILE_NAME.search(path.name) and path.is_file():
            found.setdefault(subset_of(str(path)), str(path))
    missing = [s for s in SUBSETS if s not in found]
    if missing:  # input files that are not there: exit 1, as a missing file in every command
        what = "no such folder" if not Path(folder).is_dir() else f"no WinoBias file for {', '.join(missing)}"
        raise InputError(folder, 0, what)
    return found


def score_winobias(
    keys: Mapping[str, str], responses: Mapping[str, str], metric: str = "conll", options: Options | None = None
) -> WinoBiasScores:
    """Score each subset's response against its key (``keys`` and ``responses``: subset to path)."""
    opts = Options.make(options, (metric,))
    results = {s: score_with(keys[s], responses[s], opts) for s in SUBSETS}
    return WinoBiasScores(opts.metrics[0], results)
