"""Documents read for the vectorised pass (:mod:`corefeval.anaphora.ua_spans`): entities as spans,
those joined to a split antecedent as items counted by the literal definitions; the counts are the
literal definitions' of the whole document."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.anaphora import ua_sides
from corefeval.anaphora.model import Markable, UADocument
from corefeval.anaphora.ua_sides import Pair, UASettings
from corefeval.anaphora.ua_spans import spans_pair, spans_pairs
from corefeval.core.items import Mention, Split
from corefeval.metrics.blanc import Outside
from corefeval.metrics.ua import scores as ua_scores
from corefeval.metrics.ua_identity import COLUMNS, _outside, identity_rows
from corefeval.readers.ua import read_ua

from .generator import pair


def _read(seed: int, distinct: bool) -> tuple[list[UADocument], list[UADocument]]:
    key, response = pair(seed, 10, distinct=distinct)
    return read_ua("k", key).anaphora, read_ua("r", response).anaphora


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.booleans(), st.booleans())
def test_documents_read_as_spans_have_the_literal_counts(
    seed: int, distinct: bool, singletons: bool, non_referring: bool
) -> None:
    keys, responses = _read(seed, distinct)
    options = UASettings(keep_singletons=singletons, keep_non_referring=non_referring)
    rows, counted = identity_rows(spans_pairs(keys, responses, options), min_spans=False)
    for i, whole in enumerate(ua_sides.pairs(keys, responses, options)):
        literal = ua_scores.document_counts(whole)
        for name, at in COLUMNS.items():
            assert rows[i, at : at + 4].tolist() == pytest.approx(literal[name].tolist(), rel=1e-12, abs=1e-12), name
        if i in counted:  # split antecedents' own counts, non-referring markables and bridging: the whole's
            for name, counts in literal.items():
                assert counted[i][name].tolist() == pytest.approx(counts.tolist(), rel=1e-12, abs=1e-12), name


def test_generated_documents_are_read_in_two_parts() -> None:
    """The test above reaches documents with entities on both paths, on both sides."""
    paired = [p for seed in range(12) for p in spans_pairs(*_read(seed, False), UASettings())]
    both = [p for p in paired if p.key.spans is not None and p.key.clusters and p.key.spans.starts.size]
    assert len(both) >= 10


def _doc(name: str, markables: list[tuple[str, int, tuple[str, ...]]]) -> UADocument:
    """A document of one-word markables ``(entity, position, ElementOf)``."""
    made = tuple(Markable(f"m{i}", e, w, w, i + 1, element_of=of) for i, (e, w, of) in enumerate(markables))
    return UADocument(name, 5, made)


def test_the_entities_joined_to_a_split_antecedent_are_items_the_others_spans() -> None:
    """A key entity with a split antecedent, the response entity sharing a mention with it and the
    key entity sharing another mention with that one are items; the rest are spans."""
    key = _doc("d", [("p", 0, ()), ("x", 1, ()), ("x", 2, ()), ("y", 3, ("p",)), ("z", 4, ("p",))])
    response = _doc("d", [("r1", 0, ()), ("r1", 1, ()), ("r2", 2, ()), ("r3", 3, ()), ("r3", 4, ())])
    read = spans_pair("d", key, response, UASettings())
    d, e = Mention(3, 3), Mention(4, 4)
    assert [set(c) for c in read.key.clusters] == [{Mention(0, 0), Split({(d,), (e,)})}, {Mention(1, 1), Mention(2, 2)}]
    assert [set(c) for c in read.response.clusters] == [{Mention(0, 0), Mention(1, 1)}, {Mention(2, 2)}]
    assert read.key.spans is not None and read.response.spans is not None
    assert read.key.spans.starts.tolist() == [3, 4] and read.key.spans.entities.tolist() == [0, 1]
    assert read.response.spans.starts.tolist() == [3, 4] and read.response.spans.entities.tolist() == [0, 0]
    assert _outside(read.key, read.response) == Outside(found=2, key=2, response=2)


def test_a_span_repeated_on_a_side_makes_both_sides_items() -> None:
    key = _doc("d", [("p", 0, ()), ("x", 1, ("p",)), ("y", 1, ())])
    read = spans_pair("d", key, _doc("d", [("r", 0, ()), ("r", 1, ())]), UASettings())
    assert read.key.spans is None and read.response.spans is None and len(read.key.clusters) == 3


def test_a_plural_entity_of_one_markable_is_kept_without_singletons() -> None:
    """Its split antecedent is a second item, as the literal definitions count it."""
    key = _doc("d", [("p", 0, ()), ("x", 1, ("p",)), ("x", 2, ()), ("y", 3, ("p",)), ("y", 4, ())])
    response = _doc("d", [("r", 0, ()), ("r", 1, ())])
    options = UASettings(keep_singletons=False)
    read, whole = spans_pair("d", key, response, options), ua_sides.pairs([key], [response], options)[0]
    assert sum(any(type(m) is Split for m in c) for c in read.key.clusters) == 1  # p, with x joined through r
    rows, _ = identity_rows([read], min_spans=False)
    literal = ua_scores.document_counts(whole)
    for name, at in COLUMNS.items():
        assert rows[0, at : at + 4].tolist() == pytest.approx(literal[name].tolist()), name


def test_min_spans_read_items() -> None:
    keys, responses = _read(1, False)
    read = spans_pairs(keys, responses, UASettings(min_spans=True))
    assert all(p.key.spans is None and p.response.spans is None for p in read)
    assert [p.name for p in read] == [p.name for p in ua_sides.pairs(keys, responses, UASettings(min_spans=True))]


def test_pairs_keep_the_key_order_and_skip_documents_the_response_lacks() -> None:
    keys, responses = _read(2, True)
    read = spans_pairs(keys, responses[1:], UASettings())
    assert [p.name for p in read] == [d.name for d in keys[1:]]
    assert isinstance(read[0], Pair)


def test_a_chain_of_entities_sharing_spans_is_joined_whole() -> None:
    """Key entity i holds words 2i and 2i+1, response entity i words 2i+1 and 2i+2: every entity
    is joined to the plural entity at the start (found in time linear in the pairs)."""
    n = 20_000
    key = [(f"k{i}", w, ()) for i in range(n) for w in (2 * i, 2 * i + 1)] + [("k0", 2 * n + 5, ())]
    key[0] = ("k0", 0, ())
    key.append((f"k{n}", 2 * n + 6, ("k0",)))
    response = [(f"r{i}", w, ()) for i in range(n) for w in (2 * i + 1, 2 * i + 2)]
    read = spans_pair("d", _doc("d", key), _doc("d", response), UASettings())
    assert read.key.spans is not None and read.response.spans is not None
    assert len(read.key.clusters) == n and len(read.response.clusters) == n
    assert read.key.spans.starts.tolist() == [2 * n + 6]


def test_non_referring_entities_are_found_by_their_ending() -> None:
    from corefeval.anaphora.ua_spans import _ending

    names = ["a-Pseudo", "b", "-Pseudo", "x-Pseudo-Pseudo", "y-Pseudox", "Pseudo", "z"]
    assert _ending(names, "-Pseudo") == [i for i, n in enumerate(names) if n.endswith("-Pseudo")] == [0, 2, 3]
    many = [f"e{i}-Pseudo" if i % 3 else f"e{i}" for i in range(300_000)]  # linear, not quadratic
    assert _ending(many, "-Pseudo") == [i for i in range(300_000) if i % 3]
