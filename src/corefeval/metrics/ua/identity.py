"""The Universal Anaphora scorer's identity metrics of one document (MUC, B-cubed, CEAFe, CEAFm,
LEA, BLANC) by its names, as numerators and denominators given the alignment of split
antecedents: each metric's split-antecedent form is in that metric's own module (``item_counts``
in :mod:`~corefeval.metrics.muc` ...); this module only chooses among them and counts the
entities without a split antecedent in one pass (:func:`plain_identity_counts`)."""

from __future__ import annotations

from ...core.items import Clusters
from ...matching.item_lookups import Aligned, Lookups
from ..bcubed import item_counts as bcubed_items
from ..blanc import coreference_item_counts, non_coreference_item_counts
from ..ceaf import item_counts as ceaf_items
from ..lea import item_counts as lea_items
from ..muc import item_counts as muc_items

#: The identity metrics, by the UA scorer's names, in its reporting order.
IDENTITY_METRICS = ("lea", "muc", "bcub", "ceafe", "ceafm", "blancc", "blancn")


def metric_counts(
    name: str,
    key: Clusters,
    response: Clusters,
    key_aligned_r: Aligned | None = None,
    response_aligned_p: Aligned | None = None,
    key_aligned_f: Aligned | None = None,
    split_alignment: bool = False,
    lookups: Lookups | None = None,
    one_pass: bool = False,
) -> tuple[float, float, float, float]:
    """``(precision_num, precision_den, recall_num, recall_den)`` of one identity metric (the UA
    scorer's order), given the alignment of split antecedents by recall, precision and F1
    (``lookups``: those of ``key`` and ``response``, when the caller shares them; ``one_pass``:
    the entities without split antecedents counted from :meth:`Lookups.one_pass`)."""
    r_al, p_al, f_al = key_aligned_r or {}, response_aligned_p or {}, key_aligned_f or {}
    lookups = lookups or Lookups(key, response)
    # each side's lookups are read only for the other side's items (none: not made)
    to_key = lookups.to_key if response else {}
    to_response = lookups.to_response if key else {}
    k1, r1 = lookups.one_pass() if one_pass else (None, None)
    if name in ("ceafe", "ceafm"):
        pn, pd, rn, rd = ceaf_items(response, key, f_al, name == "ceafe", lookups, one_pass)
    elif name == "blancc":
        pn, pd, rn, rd = coreference_item_counts(response, key, to_response, f_al, k1)
    elif name == "blancn":
        pn, pd, rn, rd = non_coreference_item_counts(response, key, to_response, f_al, k1)
    elif name == "lea":
        pn, pd = lea_items(response, key, to_key, p_al, r1)
        rn, rd = lea_items(key, response, to_response, r_al, k1)
    elif name == "muc":
        pn, pd = muc_items(response, key, to_key, p_al, split_alignment, r1)
        rn, rd = muc_items(key, response, to_response, r_al, split_alignment, k1)
    elif name == "bcub":
        pn, pd = bcubed_items(response, to_key, p_al, r1)
        rn, rd = bcubed_items(key, to_response, r_al, k1)
    else:
        raise ValueError(f"unknown UA identity metric '{name}'")
    return float(pn), float(pd), float(rn), float(rd)


def f1(pn: float, pd: float, rn: float, rd: float) -> float:
    p = 0.0 if pd == 0 else pn / pd
    r = 0.0 if rd == 0 else rn / rd
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def plain_identity_counts(
    lookups: Lookups, split_alignment: bool = False
) -> dict[str, tuple[float, float, float, float]]:
    """``(precision_num, precision_den, recall_num, recall_den)`` of every identity metric of
    entities without split antecedents, counted in one pass (``split_alignment``: MUC as the
    alignment of split antecedents counts it, singletons too)."""
    key, response = lookups.key, lookups.response
    return {
        name: metric_counts(name, key, response, split_alignment=split_alignment, lookups=lookups, one_pass=True)
        for name in IDENTITY_METRICS
    }


def split_member_counts(key: Clusters, response: Clusters) -> dict[str, tuple[float, float, float, float]]:
    """:func:`plain_identity_counts` of two split antecedents' members as the alignment counts them."""
    return plain_identity_counts(Lookups(key, response), split_alignment=True)


#: :func:`split_member_counts` of a split antecedent's members against none, by the side and the
#: sizes of its member entities, which are all those counts depend on (no item is found).
_ALONE: dict[tuple[bool, tuple[int, ...]], dict[str, tuple[float, float, float, float]]] = {}
_ALONE_LIMIT = 4096  # entries kept at most (the cache is emptied when full)


def alone_member_counts(key: Clusters, response: Clusters) -> dict[str, tuple[float, float, float, float]]:
    """:func:`split_member_counts` of one side's members against none (``key`` or ``response`` is
    empty), remembered by the sizes of the members."""
    clusters = key or response
    sizes = (bool(key), tuple(map(len, clusters)))
    counts = _ALONE.get(sizes)
    if counts is None:
        if len(_ALONE) >= _ALONE_LIMIT:
            _ALONE.clear()
        counts = _ALONE[sizes] = split_member_counts(key, response)
    return counts
