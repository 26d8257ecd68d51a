"""The words and dependency trees of a CorefUD key, read in one pass over its word lines.

Language-model markup is aligned to the key's words, and its mentions get heads from the key's
tree; reading the key a second time with the CorefUD reader would cost more than both.
"""

from __future__ import annotations

from ..core.diagnostics import InputError, is_number
from ..core.empty_nodes import NO_PARENT
from ..core.model import Corpus
from .corefud import MAX_DIGITS
from .sources import read_binary


def key_columns(key: Corpus) -> dict[str, tuple[list[str], list[int]]] | None:
    """Per key document, its words (FORM, spaces as ``_``) and the parent position of each (-1: the
    root), read in one pass over a CorefUD key's word lines (numbered as the CorefUD reader numbers
    them); ``None`` for other keys (no trees) and a key that cannot be read again."""
    if key.format != "corefud":
        return None
    try:
        text = read_binary(key.path).decode("utf-8", "replace")
    except (OSError, InputError):
        return None
    return text_columns(key, text)


def text_columns(key: Corpus, text: str) -> dict[str, tuple[list[str], list[int]]] | None:
    """:func:`key_columns` of a CorefUD key whose text is at hand (``None`` if its documents are not
    those of ``key``)."""
    out: list[tuple[list[str], list[int]]] = []
    words: list[str] = []
    parents: list[int] = []
    sentence_start = 0
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        if line.startswith("# newdoc") and (words or out):
            out.append((words, parents))
            words, parents = [], []
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 7 or not is_number(cols[0], MAX_DIGITS):
            continue
        if cols[0] == "1":
            sentence_start = len(words)
        head = cols[6]
        if not is_number(head, MAX_DIGITS):
            parents.append(NO_PARENT)
        else:
            parents.append(-1 if head == "0" else sentence_start + int(head) - 1)
        words.append(cols[1].replace(" ", "_"))
    out.append((words, parents))
    if len(out) != len(key.documents):
        return None
    return {doc.name: columns for doc, columns in zip(key.documents, out)}
