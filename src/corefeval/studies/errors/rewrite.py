"""Write a response as a copy of its CoNLL-2012 key file with only the coreference column changed.

Tokens, columns and comments stay exactly as in the key, so the two files align token for token.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...core.model import Document
from ...readers.conll2012 import read_text
from ...writers.conll2012 import brackets

_BEGIN = re.compile(r"#\s*begin document(?: (.*))?$")
_END = re.compile(r"#\s*end document")


def coreference_fields(doc: Document) -> list[str]:
    """The coreference column of each token ("" for none), numbering entities 0, 1, ..."""
    spans = list(zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist(), strict=True))
    fields = brackets(doc.n_tokens, spans, [str(k) for k in range(doc.n_entities)])
    return ["" if f == "-" else f for f in fields]


def _relabel(line: str, field: str) -> str:
    """``line`` with its last column set to ``field``; a token outside every mention keeps the key's
    own marker (``-``, ``_`` or an empty column)."""
    if "\t" in line:
        head, _, old = line.rpartition("\t")
        head += "\t"
    else:
        old = line.split()[-1]
        head = line.rstrip()[: len(line.rstrip()) - len(old)]
    if not field:
        field = old if old in ("-", "_", "") else "-"
    return head + field


def rewrite(key_path: str, documents: Mapping[str, Document]) -> str:
    """The text of ``key_path`` with each named document's coreference column taken from ``documents``."""
    out: list[str] = []
    fields: list[str] | None = None
    token = 0
    for raw in read_text(key_path).split("\n"):
        line = raw.rstrip()
        begin = _BEGIN.match(raw.rstrip("\r")) if line.startswith("#") else None
        if begin:
            doc = documents.get(begin.group(1) or "")
            fields, token = (coreference_fields(doc) if doc is not None else None), 0
        elif line.startswith("#") and _END.match(line):
            fields = None
        elif line and not line.startswith("#") and fields is not None:
            raw = _relabel(raw.rstrip("\r"), fields[token] if token < len(fields) else "")
            token += 1
        out.append(raw)
    return "\n".join(out)
