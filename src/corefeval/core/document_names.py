"""Document names in messages: the shorter names a user may give, and the names closest to a
wanted one (or the closest pairs of two files' names), found quickly in a large corpus."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from functools import cache

#: A CoNLL-2012 name ``(X); part N`` and a jsonlines ``doc_key`` ``X_N``: ``X`` is the bare name.
_PARTED = cache(lambda: re.compile(r"^\((.*)\); part \d+$|^(.*)_\d+$"))  # compiled on first use
#: Names listed in an error message, at most.
LISTED = 5
#: Neighbours taken on each side of a name in the sorted names and in the sorted reversed names (a
#: typo leaves a long common beginning or end), for difflib to choose from: the error stays quick
#: in a large corpus.
_NEIGHBOURS = 25
#: For the closest pairs of two files' names: neighbours of each name of one file among the other's,
#: and at most this many names of the first file looked at (spread over it).
_PAIR_NEIGHBOURS = 3
_PAIR_NAMES = 5000


def bare_names(name: str) -> tuple[str, ...]:
    """The shorter names a user may give for ``name``: ``X`` of ``(X); part 000`` or ``X_0``, and the
    last ``/`` component of ``X`` (``cctv_0000`` of ``(bc/cctv/00/cctv_0000); part 000``)."""
    m = _PARTED().match(name)
    if m is None:
        return ()
    bare = m.group(1) if m.group(1) is not None else m.group(2)
    last = bare.rsplit("/", 1)[-1]
    return (bare,) if last == bare else (bare, last)


def listed(names: Sequence[str]) -> str:
    """``'a', 'b'``: at most :data:`LISTED` names, then how many more."""
    more = f" and {len(names) - LISTED} more" if len(names) > LISTED else ""
    return ", ".join(f"'{n}'" for n in names[:LISTED]) + more


def _neighbours(wanted: str, keys: Sequence[str], width: int) -> Iterable[str]:
    """The ``width`` items of the sorted ``keys`` on each side of where ``wanted`` would go."""
    at = bisect.bisect_left(keys, wanted)
    return keys[max(0, at - width) : at + width]


def closest(wanted: str, names: Sequence[str], n: int = 3) -> list[str]:
    """The ``n`` of ``names`` most like ``wanted`` (or whose :func:`bare_names` are), most alike first:
    always some names when there are any, however unlike (the sorted neighbours when nothing is
    alike), never the first ones of the file."""
    import difflib

    full: dict[str, str] = {}
    for name in names:
        full.setdefault(name, name)
        for bare in bare_names(name):
            full.setdefault(bare, name)
    shortlist: set[str] = set()
    for flip in (False, True):
        order = {k[::-1] if flip else k: k for k in full}
        shortlist.update(order[k] for k in _neighbours(wanted[::-1] if flip else wanted, sorted(order), _NEIGHBOURS))
    matcher = difflib.SequenceMatcher(b=wanted, autojunk=False)
    scored = []
    for k in shortlist:
        matcher.set_seq1(k)
        scored.append((-matcher.ratio(), k))
    return list(dict.fromkeys(full[k] for _, k in sorted(scored)))[:n]


def closest_pairs(first: Sequence[str], second: Sequence[str], n: int = 3) -> list[tuple[str, str]]:
    """The ``n`` pairs of a name of ``first`` and a name of ``second`` that are most alike, most alike
    first (each name of ``first`` against its sorted neighbours in ``second``, forwards and
    backwards, so that the time stays linear in the names)."""
    import difflib

    if not first or not second:
        return []
    step = max(1, len(first) // _PAIR_NAMES)
    forward = sorted(set(second))
    backward = sorted({s[::-1] for s in second})
    scored: dict[tuple[str, str], float] = {}
    for a in first[::step]:
        matcher = difflib.SequenceMatcher(b=a, autojunk=False)
        candidates = set(_neighbours(a, forward, _PAIR_NEIGHBOURS))
        candidates.update(s[::-1] for s in _neighbours(a[::-1], backward, _PAIR_NEIGHBOURS))
        for b in candidates:
            matcher.set_seq1(b)
            scored[(a, b)] = matcher.ratio()
    return sorted(scored, key=lambda pair: (-scored[pair], pair))[:n]
