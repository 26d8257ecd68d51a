"""The ``Entity=`` brackets of a response's mentions, in the order the CRAC LLM pipeline writes them.

The pipeline's writer (udapi's ``store_coref_to_misc``) takes the mentions in order: by first node,
a longer mention first, then by last node, then by entity id; a mention's nodes are ordered by their
numbers within a sentence (``w``, ``w.k``). A mention of several nodes writes its opening bracket
(``(e1``, with the key's ``# global.Entity`` fields: the id, the head's 1-based place among its
nodes when the fields have ``head``, nothing for the others, trailing empty fields left out) after
what its first node holds, and ``e1)`` before what its last node holds. A one-node mention ``(e1)``
goes after what the node holds when that does not end with ``)`` or when it holds an opening not
closed on it; before it otherwise.
"""

from __future__ import annotations

import re

from .llm_clean import PipelineFailure
from .llm_nodes import Node

#: A mention as written: its entity, its nodes (in the writer's order) and its head.
Written = tuple[str, list[Node], Node]
_CHUNKS = re.compile(r"(\([^()]+\)?|[^()]+\))")
_DOCUMENT_PREFIX = re.compile(r"^d\d+\.")


def writer_order(nodes: list[Node]) -> list[Node]:
    """A mention's nodes in the writer's order: by their numbers within a sentence. Two nodes of one
    number (a mention across a sentence break) have no order the pipeline decides: a failure."""
    ordered = sorted(nodes, key=lambda n: (n[1], n[2]))
    for a, b in zip(ordered, ordered[1:]):
        if (a[1], a[2]) == (b[1], b[2]):
            raise PipelineFailure(
                "a mention across a sentence break has two nodes numbered alike, which the pipeline orders arbitrarily"
            )
    return ordered


def entity_values(entities: list[str], mentions: list[Written], fields: tuple[str, ...]) -> dict[Node, str]:
    """The ``Entity=`` value of every node that holds a bracket."""
    rank = {eid: k for k, eid in enumerate(entities)}
    grouped = sorted(mentions, key=lambda m: rank[m[0]])  # the writer's starting order: entity by entity
    values: dict[Node, str] = {}
    for eid, words, head in sorted(grouped, key=lambda m: (m[1][0], -len(m[1]), m[1][-1], m[0])):
        opening = _opening(eid, words, head, fields)
        first = words[0]
        held = values.get(first, "")
        if len(words) > 1:
            values[first] = held + opening
            values[words[-1]] = _closing(eid, fields) + values.get(words[-1], "")
        elif not held or held[-1] != ")":
            values[first] = held + opening + ")"
        elif "(" not in held:
            values[first] = opening + ")" + held
        elif any(c and c[0] == "(" and c[-1] != ")" for c in _CHUNKS.split(held)):
            values[first] = held + opening + ")"
        else:
            values[first] = opening + ")" + held
    return values


def _opening(eid: str, words: list[Node], head: Node, fields: tuple[str, ...]) -> str:
    values = []
    for name in fields:
        if name == "eid":
            values.append(eid)
        elif name == "GRP":
            values.append(_DOCUMENT_PREFIX.sub("", eid))
        elif name == "head":
            values.append(str(words.index(head) + 1))
        else:
            values.append("")
    while values and values[-1] == "":
        values.pop()
    return "(" + "-".join(values)


def _closing(eid: str, fields: tuple[str, ...]) -> str:
    return (_DOCUMENT_PREFIX.sub("", eid) if "GRP" in fields else eid) + ")"
