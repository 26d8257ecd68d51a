"""The metrics by name: titles, aliases, and where each is printed and averaged.

Command-line choices, :func:`resolve`, report titles and the reference-format selection all come
from :data:`REGISTRY`, so a metric is described in one place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .diagnostics import UsageError


@dataclass(frozen=True)
class MetricInfo:
    """One metric: its name, its title in tables, and how it takes part in a run."""

    name: str
    title: str
    #: Has counts of its own (``conll`` is computed from the F1 of its parts).
    counted: bool = True
    #: Printed by the reference scorer (LEA as its ``LEA-scorer`` branch does).
    reference: bool = True
    #: One of the reference scorer's ``all`` (LEA is not).
    reference_all: bool = True
    #: One of the three F1 whose mean is the CoNLL score.
    conll_part: bool = False
    aliases: tuple[str, ...] = ()


#: Every metric, in reporting order.
REGISTRY: tuple[MetricInfo, ...] = (
    MetricInfo("mentions", "mentions", reference=False, reference_all=False, aliases=("mention", "md")),
    MetricInfo("muc", "MUC", conll_part=True),
    MetricInfo("bcub", "B-cubed", conll_part=True, aliases=("bcubed", "b3")),
    MetricInfo("ceafm", "CEAFm", aliases=("ceaf_m",)),
    MetricInfo("ceafe", "CEAFe", conll_part=True, aliases=("ceaf_e",)),
    MetricInfo("blanc", "BLANC"),
    MetricInfo("lea", "LEA", reference_all=False),
    MetricInfo("conll", "CoNLL", counted=False, reference=False, reference_all=False, aliases=("avg",)),
)
BY_NAME = {m.name: m for m in REGISTRY}
TITLES = {m.name: m.title for m in REGISTRY}
#: Metrics with counts of their own, in the order they are reported.
COUNTED = tuple(m.name for m in REGISTRY if m.counted)
#: Every metric name the command line accepts; ``conll`` is the mean of MUC, B-cubed and CEAFe F1.
ALL = tuple(m.name for m in REGISTRY)
CONLL_PARTS = tuple(m.name for m in REGISTRY if m.conll_part)
#: Metrics the reference scorer prints, and those its ``all`` means.
REFERENCE = tuple(m.name for m in REGISTRY if m.reference)
REFERENCE_ALL = tuple(m.name for m in REGISTRY if m.reference_all)
ALIASES = {alias: m.name for m in REGISTRY for alias in m.aliases}


def resolve(names: Iterable[str] | None) -> tuple[str, ...]:
    """Normalise requested metric names (``all``, comma lists, aliases), in reporting order."""
    wanted: set[str] = set()
    for raw in names or ("all",):
        for name in str(raw).lower().split(","):
            name = ALIASES.get(name.strip(), name.strip())
            if name == "all":
                wanted.update(ALL)
            elif name in ALL:
                wanted.add(name)
            elif name:
                raise UsageError(f"unknown metric '{name}' (choose from all, {', '.join(ALL)})")
    return tuple(m for m in ALL if m in wanted)
