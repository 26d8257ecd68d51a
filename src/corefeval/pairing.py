"""How a key document finds its response when the two files' formats name documents differently."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TypeVar

from .diagnostics import is_number

T = TypeVar("T")
_CONLL_NAME = re.compile(r"^\((.*)\); part (\d+)$")


def by_other_name(name: str, docs: Mapping[str, T]) -> T | None:
    """The document that another format names differently: CoNLL-2012 ``(X); part 000`` is the
    e2e-coref ``doc_key`` ``X_0``."""
    m = _CONLL_NAME.match(name)
    if m:
        return docs.get(f"{m.group(1)}_{int(m.group(2))}")
    head, sep, part = name.rpartition("_")
    if sep and is_number(part):
        for candidate in (f"({head}); part {int(part):03d}", f"({head}); part {int(part)}"):
            if candidate in docs:
                return docs[candidate]
    return None
