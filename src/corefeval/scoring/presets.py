"""Named evaluation settings of the CRAC shared tasks: the variants each year's results tables give.

A preset is a tuple of :class:`Variant` (the first is the primary one, by which systems were
ranked) and a BLANC variant. Only years whose results tables and scorer defaults could be checked
are here:

* ``crac2023``: CorefUD scorer 1.1 (head match by default; zeros matched by their position, the
  only method then); CoNLL F1 macro-averaged over datasets in four variants: head, partial and
  exact match without singletons, head match with singletons; systems are ranked by the first (the
  results table's order, and the scorer's default that year).
* ``crac2024``: the same four variants, head match without singletons named the primary metric,
  with CorefUD scorer 1.2, which matches zeros by their dependencies first.

Both read CorefUD files as every run does by default (``heads="first"``): a mention whose file gives
no ``head`` field is headed by its first node, as udapi (and so the CorefUD scorer) takes it.

* ``crac2022``: the primary score only, as the CorefUD scorer's documentation gives it: CoNLL F1
  with partial match, without singletons; zeros by their position (gold empty nodes were given).
  The other columns of that year's results tables could not be confirmed, so they are not guessed.

The 2025 task is left out: its results tables could not be confirmed.

The settings of the tasks scored with the Universal Anaphora scorer (``crac18``, ``craft19``,
``codicrac22ar``, ``codicrac22dd``, ``codicrac22br``; :mod:`corefeval.scoring.presets_ua`) are presets too:
on ``corefeval score`` they choose the UA measures the task reported (``ua-muc``... and
``non-referring`` or the bridging measures), scored in the task's setting, with the UA scorer's
BLANC; they apply to Universal Anaphora keys only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..core.dataclass_methods import field_eq, field_hash, field_repr, refuse_delattr, refuse_setattr
from ..core.diagnostics import UsageError
from ..core.preset_names import NAMES, check_preset
from .presets_ua import UA_PRESETS

if TYPE_CHECKING:  # options.py checks preset names here: this module must not import it back
    from ..core.options import Options


@dataclass(init=False, repr=False, eq=False)
class Variant:
    """One column of a leaderboard: a name and the mention options it scores with."""

    name: str
    match: str
    singletons: str
    zeros: str

    def __init__(
        self,
        name: str,
        match: str,
        singletons: str,
        zeros: str,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.__dict__.update(
            name=name,
            match=match,
            singletons=singletons,
            zeros=zeros,
        )

    __repr__ = field_repr
    __eq__ = field_eq
    __hash__ = field_hash
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr

    def options(self, base: Options) -> Options:
        """``base`` with this variant's mention options."""
        return replace(base, match=self.match, singletons=self.singletons, zeros=self.zeros)


def _crac(zeros: str) -> tuple[Variant, ...]:
    return (
        Variant("head", "head", "remove", zeros),
        Variant("partial", "partial", "remove", zeros),
        Variant("exact", "exact", "remove", zeros),
        Variant("head+singletons", "head", "keep", zeros),
    )


#: Each preset: its variants (the primary one first) and its BLANC variant.
PRESETS: dict[str, tuple[tuple[Variant, ...], str]] = {
    "crac2022": ((Variant("partial", "partial", "remove", "include"),), "ua"),
    "crac2023": (_crac("include"), "ua"),
    "crac2024": (_crac("dependent"), "ua"),
}

#: Every combination of ``--match``, ``--singletons`` and ``--zeros`` (include or dependent).
ALL_MODES: tuple[Variant, ...] = tuple(
    Variant(f"{match}/{singletons}/{zeros}", match, singletons, zeros)
    for match in ("exact", "partial", "head")
    for singletons in ("keep", "remove")
    for zeros in ("include", "dependent")
)


#: The measures of the UA scorer by their names as metrics of ``corefeval score``.
_UA_METRICS = {"muc": "ua-muc", "bcub": "ua-bcub", "ceafe": "ua-ceafe"}


def preset(name: str) -> tuple[tuple[Variant, ...], str]:
    """The variants and BLANC variant of the preset ``name``; an unknown name is a usage error."""
    if name not in PRESETS:
        known = NAMES if name in UA_PRESETS else PRESETS
        raise UsageError(f"unknown preset '{name}' (choose from {', '.join(known)})")
    return PRESETS[name]


def preset_options(name: str, base: Options, metrics_given: bool = False) -> Options:
    """``base`` set as the preset's primary variant (what ``corefeval score --preset`` scores). A UA
    scorer's setting also chooses the measures its task reported, unless ``metrics_given``."""
    check_preset(name)
    if name in UA_PRESETS:
        chosen = UA_PRESETS[name]
        metrics = base.metrics if metrics_given else tuple(_UA_METRICS.get(m, m) for m in chosen.metrics)
        return replace(
            base, metrics=metrics, match="exact", singletons="keep", zeros="include", blanc="ua", preset=name
        )
    variants, blanc = preset(name)
    return replace(variants[0].options(base), blanc=blanc, preset=name)
