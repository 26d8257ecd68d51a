"""The order in which CPython lists sets of mentions hashed by their nodes.

The CorefUD scorer keeps a document's mentions in Python sets and sorts them (by first node, last
node, number of nodes) before its one assignment; two distinct mentions equal under that sort stay
in the order the set lists them, and the set's order follows from the mentions' hashes and the
sequence of set operations. Both are deterministic: a node hashes as the tuple ``(sentence number in
the file, 1-based; its id in the sentence)`` (an int for a word, a float such as ``2.1`` for an empty
node), a mention as the frozenset of its nodes (under head matching, with the frozenset of its head),
and int, float and tuple hashes do not depend on ``PYTHONHASHSEED``. :class:`MentionSets` makes
stand-ins with those hashes and repeats the scorer's set operations on them, so that only documents
where such a tie exists pay for it. Frozenset hashes are computed from each node's hash as CPython
combines them (checked against ``hash(frozenset(...))`` by the tests), so that a long mention costs
two lookups rather than one hash per word.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from ..core.empty_nodes import empty_id, is_empty

_MASK = (1 << 64) - 1

#: A mention's words: an inclusive ``(start, end)`` run of words, or the set of its positions when
#: they are not one run (discontinuous mentions, empty nodes). Runs are never expanded, so that
#: long mentions cost what short ones do.
Words = tuple[int, int] | frozenset[int]


def _shuffled(h: int) -> int:
    """One element's contribution to a frozenset's hash (CPython's ``_shuffle_bits``)."""
    h &= _MASK
    return (((h ^ 89869747) ^ (h << 16)) * 3644798167) & _MASK


def frozenset_hash(xor: int, size: int) -> int:
    """``hash(frozenset(s))`` from the XOR of :func:`_shuffled` over the hashes of ``s``'s ``size``
    elements, as CPython finishes it."""
    h = xor ^ (((size + 1) * 1927868237) & _MASK)
    h ^= (h >> 11) ^ (h >> 25)
    h = (h * 69069 + 907133923) & _MASK
    if h == _MASK:
        h = 590923713
    return h - (1 << 64) if h >> 63 else h


class NodeHashes:
    """The hashes of a document's nodes as the CorefUD scorer's mentions hash them, from the number
    of words of each of its sentences and the number of sentences before it in its file."""

    def __init__(self, sentence_lengths: Sequence[int], sentences_before: int) -> None:
        self.before = sentences_before
        self.starts = [0]
        prefix = [0]
        for s, length in enumerate(sentence_lengths):
            number = sentences_before + s + 1
            for word in range(1, length + 1):
                prefix.append(prefix[-1] ^ _shuffled(hash((number, word))))
            self.starts.append(self.starts[-1] + length)
        self.prefix = prefix  # XOR of the shuffled hashes of the words before each position

    def node(self, position: int) -> int:
        """The hash of the node at ``position`` (a word, or an empty node ``w.k``)."""
        if is_empty(position):
            sentence, word, k = empty_id(position)
            return hash((self.before + sentence + 1, float(f"{word}.{k}")))
        sentence = bisect_right(self.starts, position) - 1
        return hash((self.before + sentence + 1, position - self.starts[sentence] + 1))

    def words(self, words: Words) -> int:
        """The hash of the frozenset of a mention's nodes."""
        if isinstance(words, tuple):
            start, end = words
            return frozenset_hash(self.prefix[end + 1] ^ self.prefix[start], end - start + 1)
        xor = 0
        for position in words:
            xor ^= _shuffled(self.node(position))
        return frozenset_hash(xor, len(words))


class _Hash:
    """An object with a given hash (a part of a tuple whose hash CPython computes)."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def __hash__(self) -> int:
        return self.value


class Member:
    """A stand-in for one of the scorer's mentions: its row, the identity mentions are equal by,
    the scorer's hash, and whether it is a zero (headed by an empty node)."""

    __slots__ = ("row", "identity", "hash", "zero")

    def __init__(self, row: int, identity: object, hash_value: int, zero: bool) -> None:
        self.row = row
        self.identity = identity
        self.hash = hash_value
        self.zero = zero

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Member) and self.identity == other.identity


def mention_hash(nodes: NodeHashes, words: Words, head: int | None) -> int:
    """The scorer's hash of a mention: of the frozenset of its nodes, and with ``head`` (head
    matching) of the pair of that and the frozenset of its head."""
    h = nodes.words(words)
    if head is None:
        return h
    return hash((_Hash(h), _Hash(frozenset_hash(_shuffled(nodes.node(head)), 1))))


class MentionSets:
    """The key's and the response's mentions (:class:`Member`, each side's distinct mentions in the
    order of their entities) as the scorer's sets, and the order those sets list them in at each
    step where it sorts them."""

    def __init__(self, key: list[Member], response: list[Member]) -> None:
        self.key, self.response = set(key), set(response)
        self.by_row = ({m.row: m for m in key}, {m.row: m for m in response})

    def zero_orders(self) -> tuple[list[int], list[int]]:
        """The rows of each side's zeros, in the order of the set of them."""
        return [m.row for m in {m for m in self.key if m.zero}], [m.row for m in {m for m in self.response if m.zero}]

    def rest_orders(self, zero_pairs: list[tuple[int, int]] | None) -> tuple[list[int], list[int]]:
        """The rows left after the zeros paired first (``zero_pairs``, ``None``: no such step) and
        the mentions found on both sides, in the order of the sets of them."""
        key, response = self.key.copy(), self.response.copy()
        if zero_pairs is not None:
            key = key - {self.by_row[0][k] for k, _ in zero_pairs}
            response = response - {self.by_row[1][r] for _, r in zero_pairs}
        both_key = {m: m for m in key if m in response}
        both_response = {m: m for m in response if m in key}
        key = key - set(both_key.values())
        response = response - set(both_response.values())
        key, response = {m for m in key}, {m for m in response}  # the scorer filters them into new sets
        return [m.row for m in key], [m.row for m in response]
