"""The parse column of CoNLL-2012 files, and the small tree coval builds for one mention from it.

OntoNotes CoNLL-2012 lines carry a constituency tree spread over the tokens: the sixth column is a
bit such as ``(TOP(S(NP*`` or ``*))`` in which ``*`` stands for the token. Only the options that
need trees read this column (:func:`read_parses`, a second plain pass over the key file), so the
usual reading is untouched.

:func:`mention_tree` rebuilds the tree that coval (the scorer of Moosavi and Strube) builds for a
mention from the bits of the mention's own tokens only: brackets opened before the mention are
unseen, words between brackets form one leaf (a *chunk* of several words when no bracket separates
them), and a leaf is indexed by the token at which it is closed. Minimum spans
(:mod:`corefeval.matching.minspans`) and ``NP_only`` are defined on that tree, so it is reproduced rule for
rule. Everything here is iterative and linear in the bits read: a hostile bit of a hundred
thousand brackets costs what its length costs.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from ..core.diagnostics import InputError
from .sources import read_input

_BEGIN = re.compile(r"#\s*begin document ?(.*)$")
_END = re.compile(r"#\s*end document")
#: A parse bit: brackets, letters (and the odd ``-``, ``$`` or digit of a label) around one ``*``.
_BIT = re.compile(r"[^*\s]*\*[^*\s]*")
#: Columns a token line needs: document, part, number, word, POS, parse bit, ..., coreference.
_COLUMNS = 7


@dataclass
class DocumentParse:
    """One document's words, POS tags and parse bits, and where each sentence starts (token offsets)."""

    words: list[str] = field(default_factory=list)
    pos: list[str] = field(default_factory=list)
    bits: list[str] = field(default_factory=list)
    sentence_starts: list[int] = field(default_factory=list)

    def sentence_of(self, token: int) -> int:
        """The number of the sentence holding ``token`` (0 for the first)."""
        return bisect_right(self.sentence_starts, token) - 1


def read_parses(path: str, data: bytes | None = None, option: str = "--match min") -> dict[str, DocumentParse]:
    """The parse columns of every document of the CoNLL-2012 file ``path`` (its bytes ``data`` when
    given), by document name (the last of a repeated name wins, as in scoring).

    A token line without a parse column, a ``-`` parse bit, a bit that is not one ``*`` with brackets
    around it, and brackets that do not balance within a sentence are :class:`InputError` naming
    the line and ``option``, the option that needs the trees.
    """
    raw = read_input(path) if data is None else data
    text = raw.decode("utf-8", errors="replace")
    docs: dict[str, DocumentParse] = {}
    doc: DocumentParse | None = None
    depth = 0
    opened_at = 0
    in_sentence = False
    number = 0

    def close_sentence(line: int) -> None:
        nonlocal depth, in_sentence
        if in_sentence and depth != 0:
            raise InputError(
                path,
                opened_at,
                f"{option} needs parse trees, and the brackets of the parse column of the sentence "
                f"starting here do not balance ({depth:+d} at line {line})",
            )
        depth, in_sentence = 0, False

    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        stripped = line.strip()
        begin = _BEGIN.match(line)
        if begin:
            close_sentence(number)
            doc = docs[begin.group(1)] = DocumentParse()
            continue
        if _END.match(stripped):
            close_sentence(number)
            doc = None
            continue
        if doc is None or stripped.startswith("#"):
            continue
        if not stripped:
            close_sentence(number)
            continue
        columns = stripped.split()
        if len(columns) < _COLUMNS:
            raise InputError(
                path,
                number,
                f"{option} needs the parse column (6th of at least {_COLUMNS}, e.g. '(TOP(S(NP*'); "
                f"this token line has {len(columns)} columns",
            )
        bit = columns[5]
        if not _BIT.fullmatch(bit):
            raise InputError(
                path,
                number,
                f"{option} needs parse trees; the parse bit '{bit[:40]}' is not brackets around one '*' "
                "(a '-' means the file has no trees)",
            )
        if not in_sentence:
            doc.sentence_starts.append(len(doc.words))
            in_sentence, opened_at = True, number
        depth += bit.count("(") - bit.count(")")
        if depth < 0:
            raise InputError(path, number, f"{option} needs parse trees; this parse bit closes a bracket never opened")
        doc.words.append(columns[3])
        doc.pos.append(columns[4])
        doc.bits.append(bit)
    close_sentence(number)
    return docs


class Node:
    """A node of a mention's tree: a label and children, or a leaf (``terminal``) whose ``tag`` is
    its words joined by spaces, with their POS tags and the token ``index`` (in the sentence) at
    which the leaf was closed."""

    __slots__ = ("children", "index", "pos", "tag", "terminal")

    def __init__(self, tag: str, pos: list[str], index: int, terminal: bool) -> None:
        self.tag = tag
        self.pos = pos
        self.index = index
        self.terminal = terminal
        self.children: list[Node] = []


def _has_word(words: list[str]) -> bool:
    """Whether some word is all letters or all digits (coval keeps a leaf met at an opening
    bracket only then: commas, quotes and words such as ``Mr.`` are left out there)."""
    return any(w.isalpha() for w in words) or any(w.isdigit() for w in words)


def mention_tree(parse: DocumentParse, sentence_start: int, start: int, end: int) -> Node | None:
    """The tree coval builds for the mention ``[start, end]`` (token offsets in the document) from
    the parse bits of its own tokens; ``None`` when the bits give no node. Leaves are indexed within
    the sentence starting at ``sentence_start``."""
    stack: list[Node] = []
    roots: list[Node] = []
    root: Node | None = None
    label: list[str] = []
    labelled = False  # an opening bracket whose label is still being read
    words: list[str] = []
    tags: list[str] = []

    def attach(node: Node) -> None:
        if stack:
            stack[-1].children.append(node)
        else:
            stack.append(node)

    last = end
    for token in range(start, end + 1):
        index = token - sentence_start
        bit = parse.bits[token]
        final = len(bit) - 1
        for j, c in enumerate(bit):
            if c == "(":
                if labelled:
                    node = Node("".join(label), tags, index, False)
                    if stack:
                        stack[-1].children.append(node)
                    stack.append(node)
                    label = []
                if words:
                    if _has_word(words):
                        attach(Node(" ".join(words), tags, index, True))
                    words, tags = [], []
                labelled = True
            elif c == "*":
                words.append(parse.words[token])
                tags.append(parse.pos[token])
                node = Node("".join(label), [], index, False)
                if labelled:
                    if stack:
                        stack[-1].children.append(node)
                    stack.append(node)
                    label = []
                    labelled = False
                elif label:
                    roots.append(node)
            elif c == ")":
                if words:
                    attach(Node(" ".join(words), tags, index, True))
                    words, tags = [], []
                if stack:
                    root = stack.pop()
                    if not stack:
                        roots.append(root)
                labelled = False
            elif c.isalpha():
                label.append(c)
            if token == last and j == final and words:
                attach(Node(" ".join(words), tags, index, True))
                words, tags = [], []
    while stack:
        root = stack.pop()
        if not stack:
            roots.append(root)
    if len(roots) > 1:
        top = Node("NP", [], start - sentence_start, False)
        top.children.extend(roots)
        return top
    return root
