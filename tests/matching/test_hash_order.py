"""The hashes of :mod:`corefeval.matching.hash_order` are CPython's: a frozenset's from its elements' hashes,
a mention's (its nodes as ``(sentence number in the file, id)``, and under head matching its head)
from a document's sentences."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.matching.hash_order import NodeHashes, frozenset_hash, mention_hash
from corefeval.readers.corefud_notation import empty_position

_NODES = st.tuples(
    st.integers(1, 10**6),
    st.one_of(st.integers(1, 500), st.builds(lambda w, k: w + k / 10, st.integers(0, 99), st.integers(1, 9))),
)


@settings(deadline=None)
@given(st.frozensets(_NODES, max_size=40))
def test_a_frozensets_hash_from_its_elements_hashes(nodes: frozenset[tuple[int, float]]) -> None:
    xor = 0
    for node in nodes:
        h = hash(node) & ((1 << 64) - 1)
        xor ^= (((h ^ 89869747) ^ (h << 16)) * 3644798167) & ((1 << 64) - 1)
    assert frozenset_hash(xor, len(nodes)) == hash(frozenset(nodes))


@settings(deadline=None)
@given(
    st.lists(st.integers(1, 12), min_size=1, max_size=5),
    st.integers(0, 10**5),
    st.data(),
)
def test_a_mentions_hash_is_that_of_its_nodes_numbered_in_the_file(
    lengths: list[int], before: int, data: st.DataObject
) -> None:
    nodes = NodeHashes(lengths, before)
    n = sum(lengths)
    start = data.draw(st.integers(0, n - 1))
    end = data.draw(st.integers(start, n - 1))
    sentence_of = [s for s, length in enumerate(lengths) for _ in range(length)]
    ids = [(before + sentence_of[p] + 1, p - sum(lengths[: sentence_of[p]]) + 1) for p in range(n)]
    run = frozenset(ids[start : end + 1])
    assert mention_hash(nodes, (start, end), None) == hash(run)
    head = data.draw(st.integers(start, end))
    assert mention_hash(nodes, (start, end), head) == hash((run, frozenset({ids[head]})))
    # the same words with an empty node w.k of the last sentence, as a set of positions
    s, w, k = len(lengths) - 1, data.draw(st.integers(0, lengths[-1])), data.draw(st.integers(1, 9))
    zero = empty_position(s, w, k)
    with_zero = run | {(before + s + 1, float(f"{w}.{k}"))}
    assert mention_hash(nodes, frozenset(range(start, end + 1)) | {zero}, None) == hash(with_zero)
    assert mention_hash(nodes, frozenset({zero}), zero) == hash(
        (frozenset(with_zero - run), frozenset(with_zero - run))
    )
