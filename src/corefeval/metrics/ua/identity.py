"""The Universal Anaphora scorer's identity metrics of one document (MUC, B-cubed, CEAFe, CEAFm,
LEA, BLANC) by its names, as numerators and denominators given the alignment of split
antecedents: each metric's split-antecedent form is in that metric's own module (``item_counts``
in :mod:`~corefeval.metrics.muc` ...); this module only chooses among them and counts the
entities without a split antecedent in one pass (:func:`plain_identity_counts`)."""

from __future__ import annotations

from ...core.assignment import cell_matching
from ...core.items import Clusters, Item
from ...matching.item_lookups import Aligned, Found, Lookups, OnePass, assignments, overlaps
from ..bcubed import item_counts as bcubed_items
from ..blanc import Outside, coreference_item_counts, non_coreference_item_counts
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
    outside: Outside | None = None,
) -> tuple[float, float, float, float]:
    """``(precision_num, precision_den, recall_num, recall_den)`` of one identity metric (the UA
    scorer's order), given the alignment of split antecedents by recall, precision and F1
    (``lookups``: those of ``key`` and ``response``, when the caller shares them; ``one_pass``:
    the entities without split antecedents counted from :meth:`Lookups.one_pass`; ``outside``:
    the rest of the document, when ``key`` and ``response`` are a part of it, for BLANC's
    non-coreference links)."""
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
        pn, pd, rn, rd = non_coreference_item_counts(response, key, to_response, f_al, k1, outside)
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


def split_member_counts(
    key: Clusters,
    response: Clusters,
    to_key: dict[Item, int] | None = None,
    to_response: dict[Item, int] | None = None,
) -> dict[str, tuple[float, float, float, float]]:
    """:func:`plain_identity_counts` of two split antecedents' members as the alignment counts them
    (to the last bit: the same sums in the same order), without its lookups and dispatch, which
    dominate on the few mentions of members: every member is an entity of mentions weighing 1,
    so MUC, B-cubed and LEA of a side are read from its :class:`Found` counts in one loop
    (``to_key``, ``to_response``: :func:`assignments` of the sides, when the caller keeps them)."""
    to_key = assignments(key) if to_key is None else to_key
    to_response = assignments(response) if to_response is None else to_response
    key_found, response_found = Found.of(key, to_response), Found.of(response, to_key)
    pm, pb, pl = _member_sides(response, key, to_key, response_found)
    rm, rb, rl = _member_sides(key, response, to_response, key_found)
    if len(to_response) == sum(map(len, response)) and not any(m.min_span for c in key for m in c):
        # every response mention in one member once: the overlaps are the key's counts (see Lookups)
        cells = {(i, j): float(n) for i, where in enumerate(key_found.where) for j, n in where.items()}
    else:
        cells = overlaps(key, response, {})
    entity = {(i, j): 2 * o / float(len(key[i]) + len(response[j])) for (i, j), o in cells.items()}
    ce, cm = cell_matching(entity), cell_matching(cells)
    links = float(sum(key_found.links))
    key_links = sum(len(c) * (len(c) - 1) / 2 for c in key)
    response_links = sum(len(c) * (len(c) - 1) / 2 for c in response)
    n_key, n_response = sum(len(c) for c in key), sum(len(c) for c in response)
    plain = OnePass(key_found, frozenset())
    blancn = non_coreference_item_counts(response, key, to_response, {}, plain)
    return {
        "lea": (pl[0], pl[1], rl[0], rl[1]),
        "muc": (pm[0], pm[1], rm[0], rm[1]),
        "bcub": (pb[0], pb[1], rb[0], rb[1]),
        "ceafe": (ce, float(len(response)), ce, float(len(key))),
        "ceafm": (cm, float(n_response), cm, float(n_key)),
        "blancc": (links, float(response_links), links, float(key_links)),
        "blancn": tuple(map(float, blancn)),  # type: ignore[dict-item]
    }


def _member_sides(
    clusters: Clusters, others: Clusters, to_other: dict[Item, int], found: Found
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    """MUC (singletons counted), B-cubed and LEA of one side of split antecedents' members, each
    ``(numerator, denominator)``, as their ``item_counts`` add them entity by entity."""
    muc_tp = muc_p = bcub_num = bcub_den = lea_num = lea_den = 0.0
    for i, c in enumerate(clusters):
        n = len(c)
        bcub_num += found.squares[i] / n
        bcub_den += n
        if n == 1:
            single = c[0] in to_other and len(others[to_other[c[0]]]) == 1
            muc_p += 1
            if single:
                muc_tp += 1
            lea_num += n * (1.0 if single else 0.0) / 1.0
        else:
            muc_p += n - 1
            muc_tp += found.found[i] - found.spread[i]
            lea_num += n * float(found.links[i]) / (n * (n - 1) / 2.0)
        lea_den += n
    return (muc_tp, muc_p), (bcub_num, bcub_den), (lea_num, lea_den)


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
