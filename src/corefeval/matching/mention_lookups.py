"""How each side finds the other side's mentions after matching, as the CorefUD scorer finds them.

The CorefUD scorer keeps the pairs of its mention matching in one dictionary keyed by a mention's
words (under head matching, its words and head): for every pair of different words it maps the key
mention's words to the response mention, then the response mention's words to the key mention, the
second entry replacing the first where the words are the same. Each metric then looks a key mention
up in the response (and a response mention in the key) through that dictionary, by its words. Where
a key mention has the words of a response mention paired with another key mention (zeros paired by
their dependencies before mentions of the same words are), the dictionary sends it elsewhere, and
recall and precision no longer see one shared pairing.

:func:`lookup_views` finds such documents and gives, for them, two alignments: one in which each key
mention carries the id of what the dictionary looks it up as (the recall side of every metric, and
both sides of CEAF and BLANC, which the scorer counts over the key's entities only), one in which each
response mention does (the precision side). Elsewhere the one shared alignment is the same thing.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace

import numpy as np

from .alignment import Alignment, dense_sorted

Identity = Hashable


def _translations(
    pairs: Sequence[tuple[int, int]], key_ids: Sequence[Identity], response_ids: Sequence[Identity]
) -> dict[Identity, Identity]:
    """The scorer's dictionary over identities: key words to response words, then response words
    to key words (replacing), for the pairs whose identities differ."""
    moved = [(key_ids[k], response_ids[r]) for k, r in pairs if key_ids[k] != response_ids[r]]
    out: dict[Identity, Identity] = {k: r for k, r in moved}
    out.update({r: k for k, r in moved})
    return out


def _conflicting(
    pairs: Sequence[tuple[int, int]], key_ids: Sequence[Identity], response_ids: Sequence[Identity]
) -> bool:
    """Whether the dictionary sends some mention elsewhere than its partner (or itself): an identity
    it holds that a mention of the other side also has, or that two pairs share."""
    key_side = {key_ids[k] for k, r in pairs if key_ids[k] != response_ids[r]}
    response_side = {response_ids[r] for k, r in pairs if key_ids[k] != response_ids[r]}
    if key_side & response_side:
        return True
    return any(i in key_side for i in response_ids) or any(i in response_side for i in key_ids)


def lookup_views(
    alignment: Alignment,
    key_entities: np.ndarray,
    response_entities: np.ndarray,
    pairs: Sequence[tuple[int, int]],
    key_ids: Sequence[Identity],
    response_ids: Sequence[Identity],
) -> Alignment:
    """``alignment`` itself when the scorer's dictionary finds every mention's partner; otherwise
    ``alignment`` with its :attr:`~corefeval.matching.alignment.Alignment.views`: the recall view (key
    mentions carrying the ids they are looked up as) and the precision view (response mentions).
    ``key_ids``/``response_ids``: each row's identity (words, and the head under head matching)."""
    table = _translations(pairs, key_ids, response_ids)
    if not table or not _conflicting(pairs, key_ids, response_ids):
        return alignment
    codes: dict[Identity, int] = {}
    own_key = [codes.setdefault(i, len(codes)) for i in key_ids]
    own_response = [codes.setdefault(i, len(codes)) for i in response_ids]
    looked_key = [codes.setdefault(table.get(i, i), len(codes)) for i in key_ids]
    looked_response = [codes.setdefault(table.get(i, i), len(codes)) for i in response_ids]
    recall = _view(alignment, key_entities, response_entities, looked_key, own_response)
    precision = _view(alignment, key_entities, response_entities, own_key, looked_response)
    return replace(alignment, repeats=True, views=(recall, precision))


def _view(
    alignment: Alignment, key_entities: np.ndarray, response_entities: np.ndarray, key: list[int], response: list[int]
) -> Alignment:
    """An alignment of the rows with the given ids (entities in order, rows in order within each)."""
    korder = np.argsort(key_entities, kind="stable")
    rorder = np.argsort(response_entities, kind="stable")
    key_id = np.asarray(key, dtype=np.int64)[korder]
    response_id = np.asarray(response, dtype=np.int64)[rorder]
    shared = np.intersect1d(key_id, response_id)
    return replace(
        alignment,
        key_entity=dense_sorted(key_entities[korder]),
        key_id=key_id,
        response_entity=dense_sorted(response_entities[rorder]),
        response_id=response_id,
        n_key_ids=int(np.unique(key_id).size),
        n_response_ids=int(np.unique(response_id).size),
        n_matched=int(shared.size),
        repeats=True,
        last_chain=True,
    )
