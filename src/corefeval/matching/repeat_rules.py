"""Which rule decides a span that a response repeats in two entities (see
:func:`corefeval.matching.alignment.align`): ``corefud``, the CorefUD scorer's (each copy is kept, and a
mention is looked up in the other side's last entity holding its words), or ``reference``, the
CoNLL-2012 reference scorer's (a copy after one that matched the key is ignored). The run option
``repeats`` chooses (``--repeats``); by default (``auto``) the key's format decides: the CorefUD
scorer's for a CorefUD or a Universal Anaphora key (whose scorers share the CorefUD scorer's
mention code), the reference's otherwise."""

from __future__ import annotations

import sys
from collections.abc import Callable

from ..core.diagnostics import Diagnostic
from ..core.model import Document
from .alignment import Alignment

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


def _line(doc: Document, row: int) -> int:
    return int(doc.lines[row]) if doc.lines is not None and doc.lines.size > row else doc.begin_line


#: How a warning names a mention: by its document's row.
MentionName = Callable[[Document, int], str]


def span_name(doc: Document, row: int) -> str:
    """A mention named by its span, ``(start,end)``."""
    return f"({doc.starts[row]},{doc.ends[row]})"


def repeat_warnings(
    path_key: str,
    path_response: str,
    key: Document,
    response: Document,
    a: Alignment,
    mention: MentionName = span_name,
) -> list[Diagnostic]:
    """Say which repeated spans were kept or dropped, as the reference would score them (a document
    without a name is not named)."""

    def said(doc: Document, text: str) -> str:
        return f"document '{doc.name}': {text}" if doc.name else text

    out = [
        Diagnostic(
            path_key,
            _line(key, row),
            said(
                key,
                f"key mention {mention(key, row)} is repeated; both copies are scored, as the reference scorer does",
            ),
        )
        for row in a.repeated_key_rows.tolist()
    ]
    rules = (
        (a.dropped_rows, "this copy is ignored, as the reference scorer does (--repeats reference)"),
        (a.shared_rows, "every copy is scored, as the CorefUD scorer does (--repeats corefud)"),
    )
    for rows, rule in rules:
        out += [
            Diagnostic(
                path_response,
                _line(response, row),
                said(
                    response,
                    f"response mention {mention(response, row)} repeats a mention that matched the key; {rule}",
                ),
            )
            for row in rows.tolist()
        ]
    if a.repeats and not a.repeated_key_rows.size and not a.shared_rows.size:
        out.append(
            Diagnostic(
                path_response,
                response.begin_line,
                said(
                    response,
                    "a response mention that is not in the key occurs more than once; every copy is scored, "
                    "as the reference scorer does",
                ),
            )
        )
    return out
