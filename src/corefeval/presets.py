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

Both read CorefUD files with ``heads="first"``: a mention whose file gives no ``head`` field is
headed by its first node, as udapi (and so the CorefUD scorer) takes it.

* ``crac2022``: the primary score only, as the CorefUD scorer's documentation gives it: CoNLL F1
  with partial match, without singletons; zeros by their position (gold empty nodes were given).
  The other columns of that year's results tables could not be confirmed, so they are not guessed.

The 2025 task is left out: its results tables could not be confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .diagnostics import UsageError

if TYPE_CHECKING:  # options.py checks preset names here: this module must not import it back
    from .options import Options


@dataclass(frozen=True)
class Variant:
    """One column of a leaderboard: a name and the mention options it scores with (``heads``, when
    given, is the head source of CorefUD files it reads; ``None`` keeps the base options' one)."""

    name: str
    match: str
    singletons: str
    zeros: str
    heads: str | None = None

    def options(self, base: Options) -> Options:
        """``base`` with this variant's mention options."""
        heads = base.heads if self.heads is None else self.heads
        return replace(base, match=self.match, singletons=self.singletons, zeros=self.zeros, heads=heads)


def _crac(zeros: str) -> tuple[Variant, ...]:
    return (
        Variant("head", "head", "remove", zeros, "first"),
        Variant("partial", "partial", "remove", zeros, "first"),
        Variant("exact", "exact", "remove", zeros, "first"),
        Variant("head+singletons", "head", "keep", zeros, "first"),
    )


#: Each preset: its variants (the primary one first) and its BLANC variant.
PRESETS: dict[str, tuple[tuple[Variant, ...], str]] = {
    "crac2022": ((Variant("partial", "partial", "remove", "include", "first"),), "paper"),
    "crac2023": (_crac("include"), "paper"),
    "crac2024": (_crac("dependent"), "paper"),
}

#: Every combination of ``--match``, ``--singletons`` and ``--zeros`` (include or dependent).
ALL_MODES: tuple[Variant, ...] = tuple(
    Variant(f"{match}/{singletons}/{zeros}", match, singletons, zeros)
    for match in ("exact", "partial", "head")
    for singletons in ("keep", "remove")
    for zeros in ("include", "dependent")
)


def preset(name: str) -> tuple[tuple[Variant, ...], str]:
    """The variants and BLANC variant of the preset ``name``; an unknown name is a usage error."""
    if name not in PRESETS:
        raise UsageError(f"unknown preset '{name}' (choose from {', '.join(PRESETS)})")
    return PRESETS[name]


def preset_options(name: str, base: Options) -> Options:
    """``base`` set as the preset's primary variant (what ``corefeval score --preset`` scores)."""
    variants, blanc = preset(name)
    return replace(variants[0].options(base), blanc=blanc, preset=name)
