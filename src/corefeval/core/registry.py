"""The metrics by name: where each is implemented, its title, and where it is printed and averaged.

Command-line choices, :func:`resolve`, report titles, the reference-format selection and
:func:`corefeval.metrics.build` all come from :data:`REGISTRY`, so a metric is described in one
line. Each entry names its class as ``"module:Class"``, imported only when the metric is built: the
command line's parser reads names and titles without importing numpy or the metric code.

A metric defined elsewhere joins with :func:`register` (before the command line is imported, if it
should be one of its choices).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .diagnostics import UsageError


class MetricInfo(NamedTuple):
    """One metric: its name, its title in tables, its class, and how it takes part in a run."""

    name: str
    title: str
    #: ``"module:Class"`` of its :class:`~corefeval.metrics.base.Metric`, a module name starting with
    #: a dot being in :mod:`corefeval.metrics` (empty: no counts of its own).
    implementation: str = ""
    #: Printed by the reference scorer (LEA as its ``LEA-scorer`` branch does).
    reference: bool = False
    #: One of the reference scorer's ``all`` (LEA is not).
    reference_all: bool = False
    #: One of the three F1 whose mean is the CoNLL score.
    conll_part: bool = False
    aliases: tuple[str, ...] = ()
    #: Part of ``all`` (the default); the others are scored when asked for by name.
    in_all: bool = True

    @property
    def counted(self) -> bool:
        """Has counts of its own (``conll`` is computed from the F1 of its parts)."""
        return bool(self.implementation)


#: Every metric, in reporting order.
REGISTRY: list[MetricInfo] = [
    MetricInfo("mentions", "mentions", ".mentions:Mentions", aliases=("mention", "md")),
    MetricInfo("muc", "MUC", ".muc:MUC", reference=True, reference_all=True, conll_part=True),
    MetricInfo(
        "bcub",
        "B-cubed",
        ".bcubed:BCubed",
        reference=True,
        reference_all=True,
        conll_part=True,
        aliases=("bcubed", "b3"),
    ),
    MetricInfo("ceafm", "CEAFm", ".ceaf:CEAFm", reference=True, reference_all=True, aliases=("ceaf_m",)),
    MetricInfo(
        "ceafe", "CEAFe", ".ceaf:CEAFe", reference=True, reference_all=True, conll_part=True, aliases=("ceaf_e",)
    ),
    MetricInfo("blanc", "BLANC", ".blanc:BLANC", reference=True, reference_all=True),
    MetricInfo("lea", "LEA", ".lea:LEA", reference=True),
    MetricInfo("mor", "MOR", ".mor:MOR", reference=True, in_all=False),
    MetricInfo("zero", "zeros", ".anaphors:ZeroScore", reference=True, in_all=False, aliases=("zeros",)),
    MetricInfo("non-referring", "non-referring", ".anaphora_layers:NonReferring", in_all=False, aliases=("nonref",)),
    MetricInfo("bridging-ar", "bridging anaphors", ".anaphora_layers:BridgingRecognition", in_all=False),
    MetricInfo("bridging-fbm", "bridging (markable)", ".anaphora_layers:BridgingMarkable", in_all=False),
    MetricInfo("bridging-fbe", "bridging (entity)", ".anaphora_layers:BridgingEntity", in_all=False),
    MetricInfo("ua-muc", "MUC (UA)", ".ua_identity:UAMUC", in_all=False),
    MetricInfo("ua-bcub", "B-cubed (UA)", ".ua_identity:UABCubed", in_all=False),
    MetricInfo("ua-ceafe", "CEAFe (UA)", ".ua_identity:UACEAFe", in_all=False),
    MetricInfo("ua-ceafm", "CEAFm (UA)", ".ua_identity:UACEAFm", in_all=False),
    MetricInfo("ua-lea", "LEA (UA)", ".ua_identity:UALEA", in_all=False),
    MetricInfo("ua-blanc", "BLANC (UA)", ".ua_identity:UABLANC", in_all=False),
    MetricInfo("conll", "CoNLL", aliases=("avg",)),
]
BY_NAME: dict[str, MetricInfo] = {}
TITLES: dict[str, str] = {}
ALIASES: dict[str, str] = {}
#: Metrics with counts of their own, in the order they are reported.
COUNTED: tuple[str, ...] = ()
#: Every metric name the command line accepts; ``conll`` is the mean of MUC, B-cubed and CEAFe F1.
ALL: tuple[str, ...] = ()
CONLL_PARTS: tuple[str, ...] = ()
#: Metrics the reference scorer prints, and those its ``all`` means.
REFERENCE: tuple[str, ...] = ()
REFERENCE_ALL: tuple[str, ...] = ()


def _derive() -> None:
    """The lookups above, from :data:`REGISTRY` (dictionaries in place, tuples anew)."""
    global COUNTED, ALL, CONLL_PARTS, REFERENCE, REFERENCE_ALL
    BY_NAME.clear()
    BY_NAME.update((m.name, m) for m in REGISTRY)
    TITLES.clear()
    TITLES.update((m.name, m.title) for m in REGISTRY)
    ALIASES.clear()
    ALIASES.update((alias, m.name) for m in REGISTRY for alias in m.aliases)
    COUNTED = tuple(m.name for m in REGISTRY if m.counted)
    ALL = tuple(m.name for m in REGISTRY)
    CONLL_PARTS = tuple(m.name for m in REGISTRY if m.conll_part)
    REFERENCE = tuple(m.name for m in REGISTRY if m.reference)
    REFERENCE_ALL = tuple(m.name for m in REGISTRY if m.reference_all)


_derive()


def register(info: MetricInfo) -> None:
    """Add a metric (reported after the others with counts, before the CoNLL average)."""
    if info.name in BY_NAME or info.name in ALIASES or info.name == "all":
        raise ValueError(f"a metric named '{info.name}' exists already")
    at = next((i for i, m in enumerate(REGISTRY) if not m.counted), len(REGISTRY))
    REGISTRY.insert(at, info)
    _derive()


def unregister(name: str) -> None:
    """Remove a metric added with :func:`register`."""
    REGISTRY.remove(BY_NAME[name])
    _derive()


def resolve(names: Iterable[str] | None) -> tuple[str, ...]:
    """Normalise requested metric names (``all``, comma lists, aliases), in reporting order."""
    wanted: set[str] = set()
    for raw in names or ("all",):
        for name in str(raw).lower().split(","):
            name = ALIASES.get(name.strip(), name.strip())
            if name == "all":
                wanted.update(m.name for m in REGISTRY if m.in_all)
            elif name in ALL:
                wanted.add(name)
            elif name:
                raise UsageError(f"unknown metric '{name}' (choose from all, {', '.join(ALL)})")
    return tuple(m for m in ALL if m in wanted)
