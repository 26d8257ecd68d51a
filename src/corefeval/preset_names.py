"""The names of the presets, known without building them: the command line lists them and every
run asks whether its options name a UA scorer's setting, while building the presets' records
(:mod:`corefeval.presets`, :mod:`corefeval.presets_ua`) costs start-up."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .options import Options
    from .presets_ua import UAPreset

#: The CRAC shared tasks' presets (:data:`corefeval.presets.PRESETS`), in their order.
CRAC_NAMES: tuple[str, ...] = ("crac2022", "crac2023", "crac2024")
#: The UA scorer's settings (:data:`corefeval.presets_ua.UA_PRESETS`), in their order.
UA_NAMES: tuple[str, ...] = ("crac18", "craft19", "codicrac22ar", "codicrac22dd", "codicrac22br")
#: Every preset ``corefeval score --preset`` takes: the CRAC tasks', then the UA scorer's.
NAMES: tuple[str, ...] = (*CRAC_NAMES, *UA_NAMES)


def ua_preset_of(options: Options) -> UAPreset | None:
    """The UA scorer's setting the options were made from, if any (its measures score with it)."""
    if options.preset not in UA_NAMES:
        return None
    from .presets_ua import UA_PRESETS

    return UA_PRESETS[options.preset]
