"""The lines of a CoNLL-U source (CorefUD or Universal Anaphora), for a writer that keeps every
column and line the source has (comments, multiword tokens, empty nodes, every column).

A document runs from its ``# newdoc`` line to the next (text before the first ``# newdoc``: a
document named ``""``); one without node lines is none, as the readers skip it. A node line is
any line but comments and blank lines: a word (``5``), a multiword token (``5-6``) or an empty
node (``5.1``), in the order Universal Anaphora numbers its positions.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property

from ..core.empty_nodes import empty_position, is_empty
from ..readers.corefud import comment


@dataclass
class SourceDocument:
    """One document's lines (its ``# newdoc`` and ``# global.`` lines left out) and where its nodes
    are: ``nodes[i]`` the line of node ``i``; ``words[p]`` the node of word ``p`` (the CorefUD
    reader's positions); ``empties`` the node of each empty node, by its CorefUD position."""

    name: str
    lines: list[str] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    words: list[int] = field(default_factory=list)
    empties: dict[int, int] = field(default_factory=dict)

    def place(self, position: int) -> int | None:
        """The node of a CorefUD position (a word's or an empty node's); None if there is none."""
        if is_empty(position):
            return self.empties.get(position)
        return self.words[position] if 0 <= position < len(self.words) else None

    @cached_property
    def _content(self) -> list[int]:
        return sorted([*self.words, *self.empties.values()])

    def content_between(self, first: int, last: int) -> int:
        """How many words and empty nodes (not multiword tokens) nodes ``first..last`` hold."""
        return bisect_right(self._content, last) - bisect_left(self._content, first)


def source_documents(text: str) -> list[SourceDocument]:
    """The documents of a CoNLL-U text, in file order (see the module docstring)."""
    out = [SourceDocument("")]
    sentence = 0  # the sentences with words so far, as the CorefUD reader numbers them
    words_in_sentence = 0
    for raw in text.lstrip("\ufeff").split("\n"):
        line = raw.rstrip("\r")
        doc = out[-1]
        if line.startswith("#"):
            kind, name = comment(line)
            if kind == "newdoc":
                out.append(SourceDocument(name))
                sentence = words_in_sentence = 0
            elif not line[1:].lstrip().startswith("global."):
                doc.lines.append(line)
            continue
        if not line.strip():
            sentence += 1 if words_in_sentence else 0
            words_in_sentence = 0
            doc.lines.append("")
            continue
        ident = line.split("\t", 1)[0]
        doc.nodes.append(len(doc.lines))
        doc.lines.append(line)
        if "." in ident:
            word, _, k = ident.partition(".")
            if word.isdigit() and k.isdigit() and int(k) > 0:
                doc.empties[empty_position(sentence, int(word), int(k))] = len(doc.nodes) - 1
        elif "-" not in ident:
            doc.words.append(len(doc.nodes) - 1)
            words_in_sentence += 1
    for doc in out:
        while doc.lines and not doc.lines[-1]:
            doc.lines.pop()  # the blank lines ending the document: the writer ends each with one
    return [d for d in out if d.nodes]
