"""Write a response as a copy of its CoNLL-2012 key file with only the coreference column changed.

Tokens, columns and comments stay exactly as in the key, so the two files align token for token.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..model import Document
from ..readers.conll2012 import read_text

_BEGIN = re.compile(r"#\s*begin document(?: (.*))?$")
_END = re.compile(r"#\s*end document")


def coreference_fields(doc: Document) -> list[str]:
    """The coreference column of each token (closings, one-token mentions, openings; "" for none)."""
    closes: list[list[str]] = [[] for _ in range(doc.n_tokens)]
    singles: list[list[str]] = [[] for _ in range(doc.n_tokens)]
    opens: list[list[str]] = [[] for _ in range(doc.n_tokens)]
    for s, e, k in zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist(), strict=True):
        if s == e:
            singles[s].append(f"({k})")
        else:
            opens[s].append(f"({k}")
            closes[e].append(f"{k})")
    return ["|".join(c + o + p) for c, o, p in zip(closes, singles, opens, strict=True)]


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
