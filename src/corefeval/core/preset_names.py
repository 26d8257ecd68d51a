"""The names of the presets, known without building them: the command line lists them and every
run asks whether its options name a UA scorer's setting, while building the presets' records
(:mod:`corefeval.scoring.presets`, :mod:`corefeval.scoring.presets_ua`) costs start-up."""

from __future__ import annotations

from .diagnostics import UsageError

#: The CRAC shared tasks' presets (:data:`corefeval.scoring.presets.PRESETS`), in their order.
CRAC_NAMES: tuple[str, ...] = ("crac2022", "crac2023", "crac2024")
#: The UA scorer's settings (:data:`corefeval.scoring.presets_ua.UA_PRESETS`), in their order.
UA_NAMES: tuple[str, ...] = ("crac18", "craft19", "codicrac22ar", "codicrac22dd", "codicrac22br")
#: Every preset ``corefeval score --preset`` takes: the CRAC tasks', then the UA scorer's.
NAMES: tuple[str, ...] = (*CRAC_NAMES, *UA_NAMES)


def check_preset(name: str) -> None:
    """An unknown preset name is a usage error."""
    if name not in NAMES:
        raise UsageError(f"unknown preset '{name}' (choose from {', '.join(NAMES)})")
