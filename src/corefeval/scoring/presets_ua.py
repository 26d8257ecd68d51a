"""Named settings of the shared tasks scored with the Universal Anaphora scorer.

The settings are those the UA scorer's copy in ufal/corefud-scorer (v1.2) names with
``-t/--shared-task`` (where its command line fails: each setting replaces every option, so the
ones a setting leaves out are missing); an option a setting does not name takes that scorer's
default (singletons and split antecedents removed):

* ``crac18``: the CRAC 2018 task on ARRAU: identity with singletons, no split antecedents, and the
  identification of non-referring markables;
* ``craft19``: the CRAFT 2019 task: identity with singletons, no split antecedents, CRAFT's
  partial matching (the response markable within the key markable and covering its minimum span);
* ``codicrac22ar``: CODI-CRAC 2022, anaphora resolution: identity with singletons and split antecedents;
* ``codicrac22dd``: CODI-CRAC 2022, discourse deixis: the DISCOURSE_DEIXIS layer, singletons and
  split antecedents kept;
* ``codicrac22br``: CODI-CRAC 2022, bridging: the three bridging measures, singletons kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.dataclass_methods import field_eq, field_hash, field_repr, refuse_delattr, refuse_setattr
from ..core.diagnostics import UsageError

if TYPE_CHECKING:  # the measures' module (numpy) is loaded when a setting is used, not to list them
    from ..anaphora.ua_sides import UASettings


@dataclass(init=False, repr=False, eq=False)
class UAPreset:
    """A shared task's setting: what it reproduces, the measures it reports, the options
    (:class:`~corefeval.anaphora.ua_sides.UASettings` made from ``settings``)."""

    name: str
    task: str
    metrics: tuple[str, ...]
    settings: tuple[tuple[str, Any], ...] = ()

    def __init__(
        self,
        name: str,
        task: str,
        metrics: tuple[str, ...],
        settings: tuple[tuple[str, Any], ...] = (),
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.__dict__.update(
            name=name,
            task=task,
            metrics=metrics,
            settings=settings,
        )

    __repr__ = field_repr
    __eq__ = field_eq
    __hash__ = field_hash
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr

    @property
    def options(self) -> UASettings:
        from ..anaphora.ua_sides import UASettings

        return UASettings(**dict(self.settings))


_CONLL = ("muc", "bcub", "ceafe")
_BRIDGING = ("bridging-ar", "bridging-fbm", "bridging-fbe")
_NO_SPLIT = (("keep_singletons", True), ("keep_split_antecedents", False))

UA_PRESETS: dict[str, UAPreset] = {
    p.name: p
    for p in (
        UAPreset("crac18", "CRAC 2018 (ARRAU)", (*_CONLL, "non-referring"), (*_NO_SPLIT, ("keep_non_referring", True))),
        UAPreset("craft19", "CRAFT 2019 shared task", _CONLL, (*_NO_SPLIT, ("min_spans", True))),
        UAPreset("codicrac22ar", "CODI-CRAC 2022, anaphora resolution", _CONLL, (("keep_singletons", True),)),
        UAPreset("codicrac22dd", "CODI-CRAC 2022, discourse deixis", _CONLL, (("layer", "deixis"),)),
        UAPreset("codicrac22br", "CODI-CRAC 2022, bridging", _BRIDGING, _NO_SPLIT),
    )
}


def ua_preset(name: str) -> UAPreset:
    """The setting named ``name``; an unknown name is a usage error."""
    if name not in UA_PRESETS:
        raise UsageError(f"unknown preset '{name}' (choose from {', '.join(UA_PRESETS)})")
    return UA_PRESETS[name]
