"""A document with split antecedents cut in two: the entities joined to one holding a split
antecedent through the items they share with the other side (and so on, on both sides), and the
rest.

Every identity count of a document is a sum over its entities of what each adds, and what an
entity adds depends only on the entities of the other side holding its items: on those of its
part. CEAF's best matching pairs entities only within a part (any other pair shares nothing), and
split antecedents are aligned among themselves, all in the first part. So the first part is
counted by the literal definitions, the rest as a document without split antecedents (by the
vectorised pass), and the two added; BLANC's non-coreference links between the parts are counted
with the first, given the rest's sizes (:class:`~corefeval.metrics.blanc.Outside`). The sums are
the literal definitions' up to the order of float sums.
"""

from __future__ import annotations

from typing import NamedTuple

from ...anaphora.ua_sides import Pair, Side
from ...core.items import Clusters, Item, Split
from ...matching.item_lookups import assignments
from ..blanc import Outside


class Parts(NamedTuple):
    """A document's two parts (their entities only: non-referring markables and bridging are the
    whole document's): its entities joined to split antecedents, the others, and what the others
    add to the first's BLANC non-coreference links."""

    split: Pair
    plain: Pair
    outside: Outside


def split_parts(pair: Pair) -> Parts | None:
    """``pair`` cut in two (see the module); None when an item is in two entities of one side (a
    document counted whole by the literal definitions)."""
    key, response = pair.key.clusters, pair.response.clusters
    to_key, to_response = assignments(key), assignments(response)
    n_key, n_response = sum(map(len, key)), sum(map(len, response))
    if len(to_key) != n_key or len(to_response) != n_response:
        return None
    key_in, response_in = _joined(key, response, to_key, to_response)
    split_key, plain_key = _cut(key, key_in)
    split_response, plain_response = _cut(response, response_in)
    found_here = sum(m in to_response for c in split_key for m in c)
    rest = Outside(
        len(to_key.keys() & to_response.keys()) - found_here,
        sum(map(len, plain_key)),
        sum(map(len, plain_response)),
    )
    split = Pair(pair.name, Side(split_key, [], {}), Side(split_response, [], {}))
    plain = Pair(pair.name, Side(plain_key, [], {}), Side(plain_response, [], {}))
    return Parts(split, plain, rest)


def _joined(
    key: Clusters, response: Clusters, to_key: dict[Item, int], to_response: dict[Item, int]
) -> tuple[set[int], set[int]]:
    """The key and response entities joined to an entity holding a split antecedent (an item of
    one side found in an entity of the other joins the two)."""
    key_in = {i for i, c in enumerate(key) if any(type(m) is Split for m in c)}
    response_in = {j for j, c in enumerate(response) if any(type(m) is Split for m in c)}
    key_new, response_new = set(key_in), set(response_in)
    while key_new or response_new:
        reached_response = {to_response[m] for i in key_new for m in key[i] if m in to_response} - response_in
        reached_key = {to_key[m] for j in response_new for m in response[j] if m in to_key} - key_in
        key_in |= reached_key
        response_in |= reached_response
        key_new, response_new = reached_key, reached_response
    return key_in, response_in


def _cut(clusters: Clusters, chosen: set[int]) -> tuple[Clusters, Clusters]:
    """The entities of ``chosen`` and the others, each in their order."""
    return [c for i, c in enumerate(clusters) if i in chosen], [c for i, c in enumerate(clusters) if i not in chosen]
