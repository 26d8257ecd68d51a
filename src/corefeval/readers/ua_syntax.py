"""The syntax of a Universal Anaphora key (its UPOS and HEAD columns), for ``--np-only`` on UA files.

coval's ``NP_only`` leaves out mentions whose constituent tree is a verb phrase; a UA file has no
constituent trees but, being CoNLL-U, may give each word's universal part of speech and syntactic
parent. A markable is taken as a verb phrase when its head is a verb: its head is its first word
whose parent lies outside it (as the CorefUD reader finds heads in the tree), and a verb is UPOS
``VERB``. Positions are those of the identity layer :func:`corefeval.readers.ua.read_ua` gives:
every word line but zeros (ids ``5.1``), multiword-token lines included (they have no parent).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.diagnostics import InputError
from .conll2012 import read_text

#: The UPOS of a head that makes a markable a verb phrase.
VERBAL = frozenset({"VERB"})
#: The parent of a word whose HEAD is ``0`` (the root), and of one whose HEAD is ``_`` (not given).
ROOT, UNKNOWN = -1, -2


@dataclass(frozen=True)
class Syntax:
    """One document's word lines: their UPOS, their parent's position (or ``ROOT``, ``UNKNOWN``),
    whether each is a multiword-token line (``1-2``: no word of its own), and its line (for messages)."""

    upos: list[str]
    parents: list[int]
    multiword: list[bool]
    lines: list[int]

    def verbal(self, path: str, start: int, end: int) -> bool:
        """Whether the markable ``start..end`` is a verb phrase (its head's UPOS is a verb); a
        markable whose words do not give their UPOS (or, for several words, their HEAD) cannot be
        told: a one-line error."""
        words = [w for w in range(start, end + 1) if not self.multiword[w]] or [start]
        for w in words:
            if self.upos[w] == "_" or (len(words) > 1 and self.parents[w] == UNKNOWN):
                raise InputError(
                    path,
                    self.lines[w],
                    "--np-only on a Universal Anaphora file needs the UPOS and HEAD columns of the key's "
                    "markables (a markable's head is its first word whose parent lies outside it); found '_'",
                )
        head = next((w for w in words if not start <= self.parents[w] <= end), words[0])
        return self.upos[head] in VERBAL


def read_syntax(path: str) -> dict[str, Syntax]:
    """Each document's :class:`Syntax`, read again from the key file ``path``."""
    out: dict[str, Syntax] = {}
    name: str | None = None
    upos: list[str] = []
    heads: list[tuple[int, str, str]] = []  # (sentence start position, word id, HEAD) per word line
    ids: dict[tuple[int, str], int] = {}  # (sentence start, word id) -> position
    lines: list[int] = []
    sentence = 0
    in_sentence = False

    def finish() -> None:
        if name is None:
            return
        parents = [_parent(ids, s, h) for s, _, h in heads]
        out[name] = Syntax(list(upos), parents, ["-" in i for _, i, _ in heads], list(lines))

    for lineno, raw in enumerate(read_text(path).lstrip("\ufeff").split("\n"), 1):
        line = raw.strip()
        if not line:
            in_sentence = False
            continue
        if line.startswith("#"):
            if line.startswith("# newdoc"):
                finish()
                name = line.split("=", 1)[1].strip() if "=" in line else ""
                upos, heads, ids, lines = [], [], {}, []
            continue
        cells = line.split() + ["_"] * 7
        if "." in cells[0]:
            continue  # zeros are not words of the identity layer
        if not in_sentence:
            sentence, in_sentence = len(upos), True
        ids[(sentence, cells[0])] = len(upos)
        upos.append(cells[3])
        heads.append((sentence, cells[0], cells[6]))
        lines.append(lineno)
    finish()
    return out


def _parent(ids: dict[tuple[int, str], int], sentence: int, head: str) -> int:
    if head == "0":
        return ROOT
    return ids.get((sentence, head), UNKNOWN)
