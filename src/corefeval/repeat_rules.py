"""Which rule decides a span that a response repeats in two entities (see
:func:`corefeval.alignment.align`): the CorefUD scorer's when both documents are CorefUD, the
CoNLL-2012 reference's otherwise."""

from __future__ import annotations

from .model import Document
from .readers.corefud import CorefUDDocument


def repeat_rule(key: Document, response: Document) -> str:
    """``"corefud"`` when both documents were read from CorefUD files, else ``"reference"``."""
    both = isinstance(key, CorefUDDocument) and isinstance(response, CorefUDDocument)
    return "corefud" if both else "reference"
