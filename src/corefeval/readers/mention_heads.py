"""The head of a response mention as the CRAC LLM pipeline moves it (udapi's ``corefud.MoveHead``).

A mention's head starts as its first node and is moved, for a mention of several nodes, to:

1. the one node whose basic parent is outside the mention (empty nodes have none), if one;
2. else, among those, the one none of whose enhanced parents is in the mention (a word whose
   DEPS is ``_`` has its basic parent as enhanced parent; an empty node the word it follows) or,
   if there is none such, the ones not all of whose enhanced parents are in it (none: the head
   stays), if one;
3. else the top of the smallest subtree that holds those candidates' words (an empty candidate
   standing for the word it follows), if that top is a candidate;
4. else the head it has, if that is a candidate; else the first candidate.

The mention's nodes are in the order of their numbers within a sentence (``w`` and ``w.k``); a
mention that crosses a sentence break (a zero after a sentence's last word is cleaned with the next
sentence) has its nodes in that order too, the sentence ignored, and the subtree search keys nodes
by their numbers alone, as the pipeline does.
"""

from __future__ import annotations

from collections.abc import Sequence

from .llm_clean import PipelineFailure
from .llm_key import KeyTree
from .llm_nodes import Node

_SURE = object()


class Trees:
    """The parents of a response's nodes: the key's trees, and the word each empty node follows."""

    def __init__(self, trees: Sequence[KeyTree]) -> None:
        self.trees = trees

    def parent(self, node: Node) -> Node | None:
        """The basic parent (the sentence's root for a word attached to it); ``None`` for an empty
        node and for the root."""
        s, w, k = node
        if k or not w:
            return None
        return (s, self.trees[s].parents[w - 1], 0)

    def enhanced(self, node: Node) -> list[Node]:
        s, w, k = node
        if k:
            return [(s, w, 0)]
        more = self.trees[s].enhanced[w - 1]
        if more is None:
            parent = self.parent(node)
            return [parent] if parent is not None else []
        return [(s, p, 0) for p in more]


def moved_head(words: list[Node], head: Node, trees: Trees) -> Node:
    """The head of the mention of ``words`` (in the order above) whose head is ``head``."""
    if len(words) < 2:
        return head
    inside = set(words)
    basic = [w for w in words if trees.parent(w) not in inside]
    if len(basic) == 1:
        return basic[0]
    candidates = [w for w in basic if not any(p in inside for p in trees.enhanced(w))]
    if not candidates:
        candidates = [w for w in basic if not all(p in inside for p in trees.enhanced(w))]
        if not candidates:
            return head
    if len(candidates) == 1:
        return candidates[0]
    tops = [w for w in candidates if not w[2]]
    if len(tops) < len(candidates):
        for w in candidates:
            if w[2] and (w[0], w[1], 0) not in tops:
                tops.append((w[0], w[1], 0))
        tops.sort(key=_number)
    highest = _common_top(tops, trees)
    if highest in candidates:
        return highest
    return head if head in candidates else candidates[0]


def _number(node: Node) -> tuple[int, int]:
    """A node's number within its sentence (``w``, ``w.k``; the root is 0)."""
    return node[1], node[2]


def _common_top(nodes: list[Node], trees: Trees) -> Node:
    """The top of the smallest subtree holding ``nodes`` (words), found by climbing from all of them
    at once; nodes are told apart by their numbers alone (so words of two sentences may be taken for
    one another, as in the pipeline). A climb that loses its way is a pipeline failure."""
    queue = list(nodes)
    seen: dict[tuple[int, int], object] = {_number(n): _SURE for n in queue}
    added: dict[tuple[int, int], Node] = {}
    highest: Node | None = None
    while len(queue) > 1:
        node = queue.pop(0)
        parent = trees.parent(node)
        if parent is None:
            highest = node
        elif seen.get(_number(parent)):
            seen[_number(parent)] = _SURE
        else:
            added[_number(parent)] = parent
            seen[_number(parent)] = node
            queue.append(parent)
    top = highest or queue[0]
    child = seen[_number(top)]
    while child is not _SURE:
        if _number(top) not in added:
            raise PipelineFailure("the head search of a mention across a sentence break fails")
        del added[_number(top)]
        top = child  # type: ignore[assignment]
        child = seen[_number(top)]
    return top
