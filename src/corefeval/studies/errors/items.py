"""One counted error, and the edits that would repair it.

An error item says what is wrong (type, the rule that fired, the spans and chains involved, a
sentence for people) and how to repair it: edits on the response that remove exactly this error.
Repairing all items of one type and re-scoring tells what that type costs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.model import Span

#: The six types of the 2022 human-judgment study, in its column order.
TYPES = ("border", "type", "noise", "silence", "irrelevant", "absence")
#: Kummerfeld & Klein's (2013) categories, as operations turning the response into the key.
KK_TYPES = (
    "span_error",
    "extra_mention",
    "extra_entity",
    "missing_mention",
    "missing_entity",
    "conflated_entities",
    "divided_entity",
)


@dataclass(frozen=True)
class Edit:
    """One change to the response.

    ``span``: give response mention ``mention`` the boundaries ``span``; ``remove``: delete response
    mention ``mention``; ``place``: put response mention ``mention`` (or, when ``mention`` is -1, a
    new mention ``span``) into the chain named by ``target``: ``("key", k)`` is the response chain
    paired with key entity ``k`` (a new chain if there is none), ``("chain", r)`` response chain
    ``r``, ``("new", ...)`` a new chain named by the rest of the tuple.
    """

    kind: str
    mention: int = -1
    span: Span = (0, 0)
    target: tuple[Any, ...] = ("new",)


@dataclass(frozen=True)
class ErrorItem:
    """One counted error: ``count`` units of ``type`` (mentions for most types, one per chain for
    irrelevant/absence, one per operation for K&K), found by ``rule``."""

    document: str
    type: str
    rule: str
    explanation: str
    key_spans: tuple[Span, ...] = ()
    response_spans: tuple[Span, ...] = ()
    key_chain: str | None = None
    response_chain: str | None = None
    count: int = 1
    mentions: int = 1
    repair: tuple[Edit, ...] = field(default=(), compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-lines record of this item (without the repair edits)."""
        return {
            "document": self.document,
            "type": self.type,
            "rule": self.rule,
            "count": self.count,
            "mentions": self.mentions,
            "key_spans": [list(s) for s in self.key_spans],
            "response_spans": [list(s) for s in self.response_spans],
            "key_chain": self.key_chain,
            "response_chain": self.response_chain,
            "explanation": self.explanation,
        }
