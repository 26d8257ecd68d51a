"""Which rule decides a span that a response repeats in two entities (see
:func:`corefeval.alignment.align`): ``corefud``, the CorefUD scorer's (each copy is kept, and a
mention is looked up in the other side's last entity holding its words), or ``reference``, the
CoNLL-2012 reference scorer's (a copy after one that matched the key is ignored). The run option
``repeats`` chooses (``--repeats``); by default (``auto``) the key's format decides: the CorefUD
scorer's for a CorefUD or a Universal Anaphora key (whose scorers share the CorefUD scorer's
mention code), the reference's otherwise."""

from __future__ import annotations

from .anaphora.model import AnaphoraDocument
from .model import Document
from .readers.corefud import CorefUDDocument


def repeat_rule(key: Document, chosen: str = "auto") -> str:
    """``chosen`` where it names a rule, else the one ``key``'s kind of document decides."""
    if chosen != "auto":
        return chosen
    return "corefud" if isinstance(key, (CorefUDDocument, AnaphoraDocument)) else "reference"
