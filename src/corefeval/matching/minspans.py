"""Minimum spans (MINA) as coval computes them from a mention's tree (:mod:`corefeval.readers.parse_trees`).

A mention's minimum span is a set of ``(words, index)`` leaves of its tree: the shallowest leaves
holding a content word (not only punctuation, brackets, or a CC, DT or IN word), searched breadth
first through the phrases of the mention's kind (noun phrases: NP, NML, QP, NX; verb phrases: VP).
Each top-level phrase of a coordination gets its own. When nothing qualifies, the mention's words
with their positions *within the mention* are its minimum span (coval's fallback; two such
mentions of one sentence with the same words are the same mention). A mention whose tree is empty
has no minimum span and is compared by its span. Two mentions of one sentence match when their
minimum spans are equal; leaves are compared with their words, so a leaf of several words (words
that no bracket separates, such as ``the big man``) is one unit.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Sequence

from ..readers.parse_trees import Node

Leaf = tuple[str, int]
NP_TAGS = ("NP", "NM", "QP", "NX")
VP_TAGS = ("VP",)
#: POS tags of words that never make a minimum span (conjunctions, determiners, prepositions).
_FUNCTION_POS = ("CC", "DT", "IN")


def content_leaf(tag: str, pos: Sequence[str]) -> bool:
    """Whether a leaf (its words ``tag`` and their POS tags ``pos``) holds a content word."""
    words = tag.split()
    if len(words) != 1:
        return any(content_leaf(w, [p]) for w, p in zip(words, pos))
    return (
        (any(c.isalpha() or c.isdigit() for c in tag) or tag == "%")
        and tag not in ("-LRB-", "-RRB-")
        and pos[0] not in _FUNCTION_POS
    )


def _kind(root: Node) -> tuple[str, ...] | None:
    """The phrase labels searched: the root's kind, else that of its children (nouns first)."""
    head = root.tag[:2]
    if head == "VP":
        return VP_TAGS
    if head in ("NP", "NM"):
        return NP_TAGS
    if not root.children:
        return None
    heads = {child.tag[:2] for child in root.children}
    if "NP" in heads or "NM" in heads:
        return NP_TAGS
    return VP_TAGS if "VP" in heads else NP_TAGS


def _search(root: Node, found: set[Leaf], tags: tuple[str, ...] | None, discover: bool) -> None:
    """Breadth-first search for the shallowest content leaves under ``root``, into ``found``; with
    ``discover`` the labels are those of the first NP or VP met (for trees whose top has none)."""
    shortest = float("inf")
    queue: deque[tuple[Node, int]] = deque([(root, 0)])
    while queue:
        node, depth = queue.popleft()
        if discover and not tags:
            head = node.tag[:2]
            tags = NP_TAGS if head in ("NP", "NM") else VP_TAGS if head == "VP" else None
        if node.terminal and depth <= shortest:
            if content_leaf(node.tag, node.pos):
                found.add((node.tag, node.index))
                shortest = min(shortest, depth)
        elif (not found or depth < shortest) and node.children and (depth == 0 or not tags or node.tag[:2] in tags):
            inside = bool(tags) and node.tag[:2] in (tags or ())
            queue.extend((child, depth + 1) for child in node.children if inside or not child.terminal)


def min_span(tree: Node | None, words: Sequence[str]) -> frozenset[Leaf]:
    """The minimum span of a mention with this tree and these words (empty when ``tree`` is None)."""
    if tree is None:
        return frozenset()
    found: set[Leaf] = set()
    tags = _kind(tree)
    if tree.terminal and content_leaf(tree.tag, tree.pos):
        found.add((tree.tag, tree.index))
    elif tree.children:
        found.update((c.tag, c.index) for c in tree.children if c.terminal and content_leaf(c.tag, c.pos))
    if found:
        return frozenset(found)
    phrases = [c for c in tree.children if c.children and c.tag[:2] in (tags or ())]
    if phrases:
        for phrase in phrases:  # one search per conjunct, sharing what was found
            _search(phrase, found, tags, False)
    else:
        _search(tree, found, None, True)
    return frozenset(found) if found else frozenset((w, i) for i, w in enumerate(words))


def identity(tree: Node | None, words: Sequence[str], sentence: int, start: int, end: int) -> Hashable:
    """What decides whether two mentions match under minimum-span matching: the sentence and the
    minimum span, or the span itself when the mention has no tree."""
    spans = min_span(tree, words)
    return ("min", sentence, spans) if spans else ("span", start, end)
