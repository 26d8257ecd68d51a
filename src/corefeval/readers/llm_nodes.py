"""The nodes and mentions of the response the CRAC LLM pipeline converts cleaned markup into.

The conversion (text2text-coref's ``text2conllu``, and ``json2conllu`` for the JSON variant) starts
from the key's trees without their empty nodes and adds one empty node for each ``##`` word: the
``k``-th after key word ``w`` is node ``w.k`` of ``w``'s sentence, whose enhanced parent is ``w``. The
words and zeros must then be as many as the nodes. A mention is the slice of the document's nodes,
empty ones included, from its first to its last: in the text format, marks are paired per entity
over the whole document, the latest opening first; in the JSON variant, offsets ``[start, end]``
slice the nodes as a Python list does (``nodes[start:end + 1]``). Entity ids are the written ones
(``e1``, ``e2`` ... per cluster in the JSON variant).

A node is ``(sentence, word, k)``: ``k = 0`` is the word, ``k >= 1`` the empty node ``word.k``, and
``(sentence, 0, 0)`` the sentence's root.
"""

from __future__ import annotations

from collections import defaultdict

from .corefud import HELD_PER_NODE, MAX_HELD
from .llm_clean import PipelineFailure
from .llm_key import KeyDocument

Node = tuple[int, int, int]
#: A mention as the conversion creates it: its entity and its slice of nodes, in document order.
Created = tuple[str, list[Node]]
#: The most empty nodes the conversion numbers after one word (a tenth stops it).
MOST_ZEROS = 9


class TooManyNodes(Exception):
    """The mentions of a document cover more nodes in all than corefeval follows in a document that
    long (:data:`~.corefud.MAX_HELD`, or :data:`~.corefud.HELD_PER_NODE` a node): the answer to
    markup that repeats long mentions is this, not quadratic time."""

    def __init__(self, most: int) -> None:
        super().__init__(
            f"its mentions cover more than {most} nodes in all, more than corefeval follows in a document this long"
        )


def _most_held(nodes: list[Node]) -> int:
    return max(MAX_HELD, HELD_PER_NODE * len(nodes))


def response_nodes(tokens: list[str], key: KeyDocument) -> list[Node]:
    """The response's nodes in document order: the key's words, each followed by the empty nodes
    for the ``##`` words after it (the first token counts as a word, whatever it is)."""
    zeros = [0] * len(key.words)
    j = 1
    for i in range(len(key.words)):
        while j < len(tokens) and tokens[j].startswith("##"):
            zeros[i] += 1
            j += 1
        j += 1
    if max(zeros, default=0) > MOST_ZEROS:
        raise PipelineFailure(f"the conversion cannot number more than {MOST_ZEROS} empty nodes after one word")
    nodes: list[Node] = []
    i = 0
    for s, tree in enumerate(key.trees):
        for w in range(1, len(tree.parents) + 1):
            nodes.append((s, w, 0))
            nodes.extend((s, w, k) for k in range(1, zeros[i] + 1))
            i += 1
    if len(nodes) != len(tokens):
        raise PipelineFailure(
            f"the conversion needs as many words and zeros as the key's skeleton then has nodes: "
            f"{len(tokens)} against {len(nodes)}"
        )
    return nodes


def marked_mentions(tokens: list[str], nodes: list[Node]) -> tuple[list[str], list[Created]]:
    """The entities (in the order their ids first appear) and the mentions the marks of the cleaned
    document make, in the order they close."""
    entities: dict[str, None] = {}
    opened: dict[str, list[int]] = defaultdict(list)
    mentions: list[Created] = []
    held, most = 0, _most_held(nodes)
    for i, token in enumerate(tokens):
        if "|" not in token:
            continue
        for mark in token.split("|")[1].replace("-", ",").split(","):
            eid = mark.replace("[", "").replace("]", "")
            if not eid:
                continue
            entities.setdefault(eid)
            if mark.startswith("["):
                opened[eid].append(i)
            if mark.endswith("]") and opened[eid]:
                start = opened[eid].pop()
                held += i + 1 - start
                if held > most:
                    raise TooManyNodes(most)
                mentions.append((eid, nodes[start : i + 1]))
    return list(entities), mentions


def offset_mentions(clusters: list[object], nodes: list[Node]) -> tuple[list[str], list[Created]]:
    """The entities ``e1``, ``e2`` ... (one a cluster) and mentions of the JSON variant's clusters of
    ``[start, end]`` token offsets."""
    entities: list[str] = []
    mentions: list[Created] = []
    held, most = 0, _most_held(nodes)
    for c, cluster in enumerate(clusters):
        eid = f"e{c + 1}"
        entities.append(eid)
        if not isinstance(cluster, list):
            raise PipelineFailure(f"cluster {c} is not a list of [start, end] offsets")
        for offsets in cluster:
            ok = isinstance(offsets, list) and len(offsets) >= 2 and all(isinstance(v, int) for v in offsets[:2])
            if not ok:
                raise PipelineFailure(f"{str(offsets)[:40]} in cluster {c} is not [start, end] (two integers)")
            start, end = offsets[0], offsets[1]
            held += len(range(len(nodes))[start : end + 1])
            if held > most:
                raise TooManyNodes(most)
            words = nodes[start : end + 1]
            if not words:
                raise PipelineFailure(f"[{start}, {end}] in cluster {c} slices no token of the {len(nodes)}")
            mentions.append((eid, words))
    return entities, mentions
