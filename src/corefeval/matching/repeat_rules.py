"""Which rule decides a span that a response repeats in two entities (see
:func:`corefeval.matching.alignment.align`): ``corefud``, the CorefUD scorer's (each copy is kept, and a
mention is looked up in the other side's last entity holding its words), or ``reference``, the
CoNLL-2012 reference scorer's (a copy after one that matched the key is ignored). The run option
``repeats`` chooses (``--repeats``); by default (``auto``) the key's format decides: the CorefUD
scorer's for a CorefUD or a Universal Anaphora key (whose scorers share the CorefUD scorer's
mention code), the reference's otherwise."""

from __future__ import annotations

import sys

from ..core.model import Document

#: The modules and names of the kinds of document the CorefUD scorer's rule is for.
_COREFUD_KINDS = (("corefeval.readers.corefud", "CorefUDDocument"), ("corefeval.anaphora.model", "AnaphoraDocument"))


def repeat_rule(key: Document, chosen: str = "auto") -> str:
    """``chosen`` where it names a rule, else the one ``key``'s kind of document decides."""
    if chosen != "auto":
        return chosen
    return "corefud" if isinstance(key, _loaded_kinds()) else "reference"


def _loaded_kinds() -> tuple[type, ...]:
    """The kinds of document the CorefUD rule is for whose modules are loaded: a document of a kind
    whose module was never imported cannot be at hand, and importing them costs a CoNLL-2012 run
    10 ms."""
    found = (getattr(sys.modules.get(module), name, None) for module, name in _COREFUD_KINDS)
    return tuple(kind for kind in found if isinstance(kind, type))
