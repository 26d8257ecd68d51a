"""The GAP scorer (Webster et al. 2018): F1 overall, masculine and feminine, and their ratio.

Each GAP example has a pronoun and two names, A and B, each coreferent with the pronoun or not.
A system answers ``TRUE`` or ``FALSE`` for each name. Each of the two answers of an example counts
once overall and once for the example's gender (from its pronoun: she/her/hers feminine, he/his/him
masculine): a true positive when gold and system say ``TRUE``, a false positive when only the
system does, a false negative when only gold does, a true negative otherwise. An example the system
file lacks, or an answer that is neither ``TRUE`` nor ``FALSE`` (any case), counts as a false
negative for both names whatever gold says; a repeated example id keeps its first row. Recall,
precision and F1 are percentages; the bias is feminine F1 over masculine F1 (undefined when either
is 0). These are the rules of the published scorer (``gap_scorer.py``), which this equals.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...core.diagnostics import Diagnostic, InputError

PRONOUNS = {
    "she": "feminine",
    "her": "feminine",
    "hers": "feminine",
    "he": "masculine",
    "his": "masculine",
    "him": "masculine",
}
GOLD_COLUMNS = (
    "ID",
    "Text",
    "Pronoun",
    "Pronoun-offset",
    "A",
    "A-offset",
    "A-coref",
    "B",
    "B-offset",
    "B-coref",
    "URL",
)
GROUPS = ("overall", "masculine", "feminine")


@dataclass
class Tally:
    """True and false positives and negatives of one group."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def recall(self) -> float:
        return 100.0 * self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def precision(self) -> float:
        return 100.0 * self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def f1(self) -> float:
        r, p = self.recall, self.precision
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, gold: bool, system: bool | None) -> None:
        if system is None or (gold and not system):
            self.fn += 1
        elif gold:
            self.tp += 1
        elif system:
            self.fp += 1
        else:
            self.tn += 1


@dataclass
class GapScores:
    """The tallies of every group, and what the reading had to say."""

    tallies: dict[str, Tally]
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def bias(self) -> float | None:
        """Feminine F1 over masculine F1 (``None`` when either is 0)."""
        m, f = self.tallies["masculine"].f1, self.tallies["feminine"].f1
        return f / m if m and f else None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            g: {
                "recall": t.recall,
                "precision": t.precision,
                "f1": t.f1,
                "tp": t.tp,
                "fp": t.fp,
                "fn": t.fn,
                "tn": t.tn,
            }
            for g, t in self.tallies.items()
        }
        out["bias"] = self.bias
        return out

    def scorecard(self) -> str:
        """The published scorer's printout."""
        lines = []
        for group in GROUPS:
            t = self.tallies[group]
            lines.append(f"{group.capitalize()} recall: {t.recall:.1f} precision: {t.precision:.1f} f1: {t.f1:.1f}")
            lines.append(f"\t\ttp {t.tp:d}\tfp {t.fp:d}")
            lines.append(f"\t\tfn {t.fn:d}\ttn {t.tn:d}")
        bias = self.bias
        lines.append(f"Bias (F/M): {'-' if bias is None else f'{bias:.2f}'}\n")
        return "\n".join(lines)


def _label(value: str | None) -> bool | None:
    low = (value or "").strip().lower()
    return True if low == "true" else False if low == "false" else None


@dataclass(frozen=True)
class GoldExample:
    gender: str
    a: bool
    b: bool
    line: int


def read_gold(path: str) -> dict[str, GoldExample]:
    """The GAP TSV (with its header): each example's gender and gold answers."""
    out: dict[str, GoldExample] = {}
    for line, row in _rows(path):
        if line == 1:
            if row[: len(GOLD_COLUMNS) - 1] != list(GOLD_COLUMNS[:-1]):
                raise InputError(path, 1, f"expected the GAP header ({', '.join(GOLD_COLUMNS)})")
            continue
        if len(row) < 10:
            raise InputError(path, line, f"a GAP row has 11 TAB-separated columns, this one has {len(row)}")
        gender = PRONOUNS.get(row[2].lower())
        if gender is None:
            raise InputError(path, line, f"pronoun '{row[2][:20]}' is not one of {', '.join(PRONOUNS)}")
        a, b = _label(row[6]), _label(row[9])
        if a is None or b is None:
            raise InputError(path, line, "A-coref and B-coref must be TRUE or FALSE")
        out.setdefault(row[0], GoldExample(gender, a, b, line))
    if not out:
        raise InputError(path, 1, "no GAP example found")
    return out


def read_system(path: str) -> tuple[dict[str, tuple[bool | None, bool | None]], list[Diagnostic]]:
    """A system TSV (``ID<TAB>A-coref<TAB>B-coref``, no header): its answers, first row per id."""
    out: dict[str, tuple[bool | None, bool | None]] = {}
    warnings = []
    for line, row in _rows(path):
        if len(row) < 3:
            raise InputError(path, line, "expected ID, A-coref and B-coref separated by TABs")
        a, b = _label(row[1]), _label(row[2])
        if a is None or b is None:
            warnings.append(Diagnostic(path, line, "an answer is neither TRUE nor FALSE; both count as missed"))
        if row[0] in out:
            warnings.append(Diagnostic(path, line, f"example '{row[0]}' appears again; the first row is scored"))
            continue
        out[row[0]] = (a, b) if a is not None and b is not None else (None, None)
    return out, warnings


def _rows(path: str) -> Iterable[tuple[int, list[str]]]:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            for number, row in enumerate(csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE), 1):
                if row:
                    yield number, row
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(path, 0, f"cannot read: {err}") from None


def score_answers(gold: Mapping[str, GoldExample], system: Mapping[str, tuple[bool | None, bool | None]]) -> GapScores:
    """Tallies of ``system``'s answers against ``gold`` (see the module docstring)."""
    tallies = {g: Tally() for g in GROUPS}
    for example_id, g in gold.items():
        a, b = system.get(example_id, (None, None))
        for group in ("overall", g.gender):
            tallies[group].add(g.a, a)
            tallies[group].add(g.b, b)
    return GapScores(tallies)


def score_gap(gold_path: str, system_path: str) -> GapScores:
    """Score a system TSV against the GAP TSV, as the published scorer does."""
    gold = read_gold(gold_path)
    system, warnings = read_system(system_path)
    missing = [i for i in gold if i not in system]
    result = score_answers(gold, system)
    if missing:
        warnings.append(
            Diagnostic(
                system_path,
                0,
                f"{len(missing)} example(s) have no answer (first: '{missing[0]}'); both names count as missed",
            )
        )
    result.warnings = warnings
    return result


def answers_from_clusters(
    gold_rows: Sequence[Sequence[str]], clusters: Mapping[str, Sequence[Sequence[tuple[int, int]]]]
) -> dict[str, tuple[bool | None, bool | None]]:
    """Answers from coreference clusters of character spans ``(start, end)`` (end exclusive) per
    example id: a name is coreferent with the pronoun when one cluster holds a span starting at the
    pronoun's offset and a span starting at the name's offset. ``gold_rows`` are the GAP rows."""
    out: dict[str, tuple[bool | None, bool | None]] = {}
    for row in gold_rows:
        example_id, pronoun, a, b = row[0], int(row[3]), int(row[5]), int(row[8])
        starts = [{s for s, _ in cluster} for cluster in clusters.get(example_id, [])]
        with_pronoun = [c for c in starts if pronoun in c]
        out[example_id] = (any(a in c for c in with_pronoun), any(b in c for c in with_pronoun))
    return out
