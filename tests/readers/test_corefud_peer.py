"""corefeval's counts equal the CorefUD scorer's (ufal/corefud-scorer 1.2) on CorefUD files, per
document, for every metric, in all 12 modes (--match x --singletons x --zeros include|dependent).

Live: generated pairs (spans in several entities, entity ids shared by documents, ties included)
are scored by both (skipped where the CorefUD scorer is not installed), every document compared.
Recorded: pairs generated with fixed seeds and the CorefUD scorer's counts for them
(``tests/data/corefud_peer.json``, written by ``tests/readers/record_corefud_peer.py``), checked
everywhere. The scorer's ways that docs/formats.md describes (its one assignment over a document,
its one dictionary of pairs, its order of entities over a whole file, mentions told apart by their
heads) are tested on their smallest cases, live and with their recorded numbers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import corefeval
from corefeval.readers.corefud import read_corefud
from tests.corefud_generator import Pair, corefud_pairs, seeded_pair

from .corefud_peer import MODES, Peer, differences, our_counts, peer_paths

PEER = peer_paths()
needs_peer = pytest.mark.skipif(
    PEER is None,
    reason="the CorefUD scorer is not installed (it is not on PyPI): set COREFUD_SCORER to its "
    "corefud-scorer.py and COREFUD_PYTHON to a Python with udapi",
)
FIXTURE = Path(__file__).parents[1] / "data" / "corefud_peer.json"
#: Pairs of files with the CorefUD scorer's MOR and zero-score counts of each document.
FOLDER = Path(__file__).parents[1] / "data" / "corefud_peer"


@pytest.fixture(scope="module")
def peer() -> Iterator[Peer]:
    assert PEER is not None
    running = Peer(*PEER)
    yield running
    running.close()


def _write(directory: Path, key: str, response: str) -> tuple[str, str]:
    k, r = directory / "key.conllu", directory / "response.conllu"
    k.write_text(key, encoding="utf-8")
    r.write_text(response, encoding="utf-8")
    return str(k), str(r)


@needs_peer
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=corefud_pairs())
def test_counts_equal_the_corefud_scorer_in_every_mode(
    peer: Peer, tmp_path_factory: pytest.TempPathFactory, pair: Pair
) -> None:
    key, response = _write(tmp_path_factory.mktemp("pair"), *pair.texts())
    for mode in MODES:
        theirs = peer.counts(key, response, mode, every=True)
        ours = our_counts(key, response, *mode)
        if isinstance(theirs, str):  # udapi cannot read a discontinuous mention without a head
            assert not pair.head_field and "NoneType" in theirs, theirs
            continue
        assert differences(ours, theirs) == [], mode


def test_counts_equal_the_recorded_corefud_scorer_counts(tmp_path: Path) -> None:
    cases = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert len(cases) >= 60
    compared = 0
    for case in cases:
        assert seeded_pair(case["seed"]).texts() == (case["key"], case["response"])
        key, response = _write(tmp_path, case["key"], case["response"])
        for mode in MODES:
            theirs = case["counts"][" ".join(mode)]
            if isinstance(theirs, str):
                continue  # the CorefUD scorer failed; corefeval scored it
            assert differences(our_counts(key, response, *mode), theirs) == [], (case["seed"], mode)
            compared += len(theirs)
    assert compared > 12 * len(cases)


def test_mor_and_zero_counts_equal_the_recorded_ones_of_the_folder() -> None:
    recorded = json.loads((FOLDER / "counts.json").read_text(encoding="utf-8"))
    assert len(recorded) >= 6
    for n, by_mode in recorded.items():
        key, response = str(FOLDER / f"key{n}.conllu"), str(FOLDER / f"response{n}.conllu")
        for mode, docs in by_mode.items():
            ours = our_counts(key, response, *mode.split("/"))
            for doc, counts in docs.items():
                assert all(ours[doc][metric] == counts[metric] for metric in ("mor", "zero")), (n, mode, doc)


def test_the_recorded_counts_have_zeros_of_every_outcome() -> None:
    folder = json.loads((FOLDER / "counts.json").read_text(encoding="utf-8"))
    rows = [d for by_mode in folder.values() for docs in by_mode.values() for d in docs.values()]
    rows += [
        d
        for case in json.loads(FIXTURE.read_text(encoding="utf-8"))
        for docs in case["counts"].values()
        if not isinstance(docs, str)
        for d in docs.values()
    ]
    zero = [r["zero"] for r in rows]
    assert any(r[0] > 0 for r in zero)  # true positives
    assert any(r[1] > r[0] for r in zero) and any(r[3] > r[0] for r in zero)  # misses and inventions
    assert any(0 < r["mor"][0] < min(r["mor"][1], r["mor"][3]) for r in rows)


SENTENCE = "1\tw1\tw1\tX\t_\t_\t2\tdep\t_\t{}\n2\tw2\tw2\tX\t_\t_\t0\troot\t_\t{}\n3\tw3\tw3\tX\t_\t_\t2\tdep\t_\t{}\n"


def corefud(fields: str, *misc: str, empty: str = "") -> str:
    """A one-sentence document of three words (w2 the root), ``misc`` their MISC, ``empty`` the
    line of an empty node after w1."""
    lines = SENTENCE.format(*misc).splitlines(keepends=True)
    return (
        f"# newdoc id = d\n# global.Entity = {fields}\n# sent_id = 1\n" + lines[0] + empty + "".join(lines[1:]) + "\n"
    )


def muc(key: str, response: str, tmp_path: Path, **options: str) -> tuple[float, float, float, float]:
    k, r = _write(tmp_path, key, response)
    corpora = [read_corefud(p, Path(p).read_text(), heads="first") for p in (k, r)]
    s = corefeval.score(*corpora, ["muc"], **options)["muc"]
    return s.recall_num, s.recall_den, s.precision_num, s.precision_den


def test_a_repeat_within_an_entity_is_one_mention(tmp_path: Path) -> None:
    key = corefud("eid-etype-head-other", "Entity=(e1-x-1)", "_", "Entity=(e1-x-1)")
    # the response repeats w1 in entity e1: read once, as udapi does, so e1 has two mentions, not three
    response = corefud("eid-etype-head-other", "Entity=(e1-x-1)(e1-x-1)", "_", "Entity=(e1-x-1)")
    assert muc(key, response, tmp_path) == (1, 1, 1, 1)
    k, r = _write(tmp_path, key, response)
    warnings = [str(w) for w in read_corefud(r, Path(r).read_text()).warnings]
    assert any("1 mention(s) repeat the words of a mention of their own entity" in w for w in warnings)


def test_without_a_head_field_heads_are_first_nodes_by_default(tmp_path: Path) -> None:
    # key mention w1-w3 headed by w2 in the tree; the response mention w1 matches it by head only
    # when heads are first nodes (as udapi, the CorefUD scorer and the official numbers take them)
    key = corefud("eid-etype", "Entity=(e1-x", "Entity=(e1-x)", "Entity=e1)")
    response = corefud("eid-etype", "Entity=(e1-x)", "Entity=(e1-x)", "_")
    k, r = _write(tmp_path, key, response)
    tree = [read_corefud(p, Path(p).read_text(), heads="tree") for p in (k, r)]
    first = [read_corefud(p, Path(p).read_text()) for p in (k, r)]
    assert tree[0].documents[0].heads.tolist() == [1, 1]  # w1-w3 headed by w2 (position 1), then w2
    assert first[0].documents[0].heads.tolist() == [0, 1]
    by_tree = corefeval.score(*tree, ["muc"], match="head")["muc"]
    by_first = corefeval.score(*first, ["muc"], match="head")["muc"]
    assert (by_tree.recall_num, by_first.recall_num) == (0, 1)
    assert corefeval.score(k, r, ["muc"], match="head")["muc"].recall_num == 1


def test_a_discontinuous_mention_without_head_is_scored(tmp_path: Path) -> None:
    # udapi raises on it (so the CorefUD scorer cannot score the file); corefeval reads it
    key = corefud("eid-etype", "Entity=(e1[1/2]-x)", "Entity=(e2-x)", "Entity=(e1[2/2]-x)(e1-x)")
    assert muc(key, key, tmp_path, match="head") == (1, 1, 1, 1)


# key: zero 1.1 and mention w1+1.1 (head w1) in one entity; response: the same two mentions, but
# w1+1.1 headed by the zero. Dependency matching pairs the key zero with the response's w1+1.1 (a
# tie, and it starts first); the CorefUD scorer's one dictionary of pairs, keyed by words, then also
# sends the key's w1+1.1 (the words of that response mention) to the key zero's words, which the
# response has: the link is found (MUC 1/1). Each mention keeping its own partner gives 0/1.
ZERO = "1.1\tz1\t_\tPRON\t_\t_\t_\t_\t2:nsubj\t{}\n"
ALIAS_KEY = corefud("eid-etype-head-other", "Entity=(e1-x-1", "_", "_", empty=ZERO.format("Entity=e1)(e1-x-1)"))
ALIAS_RESPONSE = corefud("eid-etype-head-other", "Entity=(e1-x-2", "_", "_", empty=ZERO.format("Entity=e1)(e1-x-1)"))


def test_zeros_paired_by_dependencies_are_looked_up_through_one_dictionary(tmp_path: Path) -> None:
    assert muc(ALIAS_KEY, ALIAS_RESPONSE, tmp_path, zeros="dependent") == (1, 1, 1, 1)
    assert muc(ALIAS_KEY, ALIAS_KEY, tmp_path, zeros="dependent") == (1, 1, 1, 1)


def words(*misc: str) -> str:
    """A one-sentence document whose words (w2 the root) have ``misc`` as MISC."""
    lines = [
        f"{i}\tw{i}\tw{i}\tX\t_\t_\t{0 if i == 2 else 2}\t{'root' if i == 2 else 'dep'}\t_\t{m}"
        for i, m in enumerate(misc, 1)
    ]
    return "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n" + "\n".join(lines) + "\n\n"


# key: e1 = {w1 w2 + w5} (discontinuous) and {w6}; e2 = {w2 w3 w4}; both e1's first mention and e2's
# are headed by w2, and a response {w2} covers a third of each: a tie, won by the mention that
# starts first (e1's), though e2's closes first.
TIE_KEY = words(
    "Entity=(e1[1/2]-x-2", "Entity=e1[1/2])(e2-x-1", "_", "Entity=e2)", "Entity=(e1[2/2]-x-2)", "Entity=(e1-x-1)"
)
TIE_RESPONSE = words("_", "Entity=(e1-x-1)", "_", "_", "_", "Entity=(e1-x-1)")


def test_a_head_tie_goes_to_the_mention_that_starts_first(tmp_path: Path) -> None:
    assert muc(TIE_KEY, TIE_RESPONSE, tmp_path, match="head") == (1, 1, 1, 1)
    assert muc(TIE_KEY, TIE_RESPONSE, tmp_path, match="partial") == (1, 1, 1, 1)


@needs_peer
def test_the_smallest_cases_against_the_corefud_scorer(peer: Peer, tmp_path: Path) -> None:
    key, response = _write(tmp_path, TIE_KEY, TIE_RESPONSE)
    theirs = peer.counts(key, response, ("head", "keep", "include"))
    assert not isinstance(theirs, str) and theirs["d"]["muc"] == [1.0, 1.0, 1.0, 1.0]
    link_less = corefud("eid-etype-head-other", "Entity=(e1-x-1)", "_", "_")
    key, response = _write(tmp_path, link_less, link_less)
    theirs = peer.counts(key, response, ("exact", "keep", "include"))
    assert not isinstance(theirs, str)
    # no link of either kind: the CorefUD scorer's BLANC averages no link kind and gives 0
    assert theirs["d"]["blanc_coref"] == theirs["d"]["blanc_noncoref"] == [0.0, 0.0, 0.0, 0.0]


def test_blanc_without_any_link_is_the_corefud_scorers_and_the_paper_on_request(tmp_path: Path) -> None:
    link_less = corefud("eid-etype-head-other", "Entity=(e1-x-1)", "_", "_")
    k, r = _write(tmp_path, link_less, link_less)
    assert corefeval.score(k, r, ["blanc"])["blanc"].f1 == 0.0  # a CorefUD key: the CorefUD scorer's BLANC
    assert corefeval.score(k, r, ["blanc"], blanc="paper")["blanc"].f1 == 1.0


# key: e1 = {w1, w2}; the response repeats w1 in e2 = {w1, w3}. The CorefUD scorer keeps both copies
# and finds w1 in the later entity, e2: the key link w1-w2 is missed, and e2's link is not found.
# The CoNLL-2012 reference would drop the response's second w1 (MUC 1/1 both ways).
TWICE_KEY = corefud("eid-etype-head-other", "Entity=(e1-x-1)", "Entity=(e1-x-1)", "_")
TWICE_RESPONSE = corefud("eid-etype-head-other", "Entity=(e1-x-1)(e2-x-1)", "Entity=(e1-x-1)", "Entity=(e2-x-1)")


def test_a_span_in_two_entities_is_found_in_the_later_one(tmp_path: Path) -> None:
    assert muc(TWICE_KEY, TWICE_RESPONSE, tmp_path) == (0, 1, 1, 2)
    k, r = _write(tmp_path, TWICE_KEY, TWICE_RESPONSE)
    corpora = [read_corefud(p, Path(p).read_text(), heads="first") for p in (k, r)]
    s = corefeval.score(*corpora, ["bcub", "blanc"])
    # B-cubed recall: key w1 and w2 fall in two response entities, 1/2 each
    assert (s["bcub"].recall_num, s["bcub"].recall_den) == (1.0, 2.0)
    coref = s["blanc"].coref
    assert coref is not None and (coref.recall_num, coref.recall_den, coref.precision_den) == (0.0, 1.0, 2.0)
    assert any("every copy is scored, as the CorefUD scorer does" in str(w) for w in s.warnings)


@needs_peer
def test_a_span_in_two_entities_against_the_corefud_scorer(peer: Peer, tmp_path: Path) -> None:
    key, response = _write(tmp_path, TWICE_KEY, TWICE_RESPONSE)
    for mode in MODES:
        theirs = peer.counts(key, response, mode)
        assert not isinstance(theirs, str)
        assert theirs["d"]["muc"] == [0.0, 1.0, 1.0, 2.0], mode
        assert differences(our_counts(key, response, *mode), theirs) == [], mode


def words_of(doc: str, *misc: str) -> str:
    """:func:`words` as document ``doc`` (its sentence ``doc-1``)."""
    return words(*misc).replace("id = d\n", f"id = {doc}\n").replace("sent_id = 1", f"sent_id = {doc}-1")


# udapi orders the entities of a whole file by their first mention in the file, and the CorefUD
# scorer keeps that order in each document. Document b is TWICE's, but the response's e2 has a
# mention in document a, so e2 comes before e1 in b, and w1 (in both) is found in e1, the later
# one: the key link w1-w2 is found (MUC 1/1). Document b alone gives 0/1.
ORDER_KEY = words_of("a", "_", "_", "_") + words_of("b", "Entity=(e1-x-1)", "Entity=(e1-x-1)", "_")
ORDER_RESPONSE = words_of("a", "_", "Entity=(e2-x-1)", "_") + words_of(
    "b", "Entity=(e1-x-1)(e2-x-1)", "Entity=(e1-x-1)", "Entity=(e2-x-1)"
)


def test_entities_are_in_the_order_of_their_first_mention_in_the_file(tmp_path: Path) -> None:
    assert muc(ORDER_KEY, ORDER_RESPONSE, tmp_path) == (1, 1, 1, 2)
    assert muc(ORDER_KEY.split("\n\n", 1)[1], ORDER_RESPONSE.split("\n\n", 1)[1], tmp_path) == (0, 1, 1, 2)


# key: e1 = {w1 w2 headed by w1, w3}, e2 = {w1 w2 headed by w2}; the response has w1 w2 headed by w1
# in both entities. Under head matching the key's two copies are two mentions (the CorefUD scorer's
# mentions are equal when their words and heads are): the response's w1 w2 is found in its later
# entity, e2, so the key link is missed, and the response's link is found in key e1. Under exact
# matching the key's w1 w2 is one mention found in e2 both ways.
HEADS_KEY = words("Entity=(e1-x-1(e2-x-2", "Entity=e2)e1)", "Entity=(e1-x-1)")
HEADS_RESPONSE = words("Entity=(e1-x-1(e2-x-1", "Entity=e2)e1)", "Entity=(e1-x-1)")


def test_a_span_with_two_heads_is_two_mentions_under_head_matching(tmp_path: Path) -> None:
    assert muc(HEADS_KEY, HEADS_RESPONSE, tmp_path, match="head") == (0, 1, 1, 1)
    assert muc(HEADS_KEY, HEADS_RESPONSE, tmp_path, match="exact") == (0, 1, 0, 1)


# The same words twice in one entity with two heads: one mention under exact and partial matching,
# so e1 is a singleton; head matching tells mentions apart by their heads too, so it keeps two
# mentions and scores a link of w1 w2 to itself (MUC 1/1), as the CorefUD scorer does.
HEADS_TWICE = words("Entity=(e1-x-1(e1-x-2", "Entity=e1)e1)", "_")


def test_heads_twice_in_one_entity(tmp_path: Path) -> None:
    assert muc(HEADS_TWICE, HEADS_TWICE, tmp_path, match="head") == (1, 1, 1, 1)
    assert muc(HEADS_TWICE, HEADS_TWICE, tmp_path, match="exact") == (0, 0, 0, 0)
    k, _ = _write(tmp_path, HEADS_TWICE, HEADS_TWICE)
    doc = read_corefud(k, HEADS_TWICE).documents[0]
    assert doc.n_mentions == 1 and doc.head_copies == {0: ((1, 4),)}


# key: e1 = {w1-w3 headed by w1}, e2 = {w2, w4}; response: e1 = {w1 w2 headed by w2, w4}, e2 = {w2 w3
# headed by w2}. Both response mentions cover the key's w2 by its head, equally well. The CorefUD
# scorer's stated rule would give it the one that starts first, w1 w2 (the key link w2-w4 found);
# its one assignment over the document has w1-w3 (no candidate) first, and its solver then gives
# w2 to w2 w3: MUC recall 0, which is the number corefeval gives.
LATE_TIE_KEY = words("Entity=(e1-x-1", "Entity=(e2-x-1)", "Entity=e1)", "Entity=(e2-x-1)")
LATE_TIE_RESPONSE = words("Entity=(e1-x-2", "Entity=e1)(e2-x-1", "Entity=e2)", "Entity=(e1-x-1)")


def test_a_tie_goes_where_the_one_assignment_over_the_document_sends_it(tmp_path: Path) -> None:
    assert muc(LATE_TIE_KEY, LATE_TIE_RESPONSE, tmp_path, match="head")[0] == 0


def zeros_after_words(first_deps: str, second_deps: str) -> str:
    """Words w1-w3 (w2 the root), zero 2.1 with DEPS ``first_deps`` and zero 3.1 with ``second_deps``,
    both in entity e1."""
    lines = [
        "1\tw1\tw1\tX\t_\t_\t2\tdep\t_\t_",
        "2\tw2\tw2\tX\t_\t_\t0\troot\t_\t_",
        f"2.1\tz\t_\tPRON\t_\t_\t_\t_\t{first_deps}\tEntity=(e1-x-1)",
        "3\tw3\tw3\tX\t_\t_\t2\tdep\t_\t_",
        f"3.1\tz\t_\tPRON\t_\t_\t_\t_\t{second_deps}\tEntity=(e1-x-1)",
    ]
    return "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n" + "\n".join(lines) + "\n\n"


# The same with zeros paired by dependencies: the key's 3.1 fits both response zeros (DEPS 2:nsubj),
# its 2.1 (DEPS 1:nsubj) neither. The stated rule would give the key's 3.1 the response's 2.1, which
# starts first (mentions 1/2, MUC 0); the CorefUD scorer's assignment, with the key's 2.1 listed
# first, gives it the response's 3.1, then pairs the two 2.1 by their words (2/2, MUC 1/1).
ZERO_TIE_KEY = zeros_after_words("1:nsubj", "2:nsubj")
ZERO_TIE_RESPONSE = zeros_after_words("2:nsubj", "2:nsubj")


def test_a_zero_tie_goes_where_the_one_assignment_sends_it(tmp_path: Path) -> None:
    k, r = _write(tmp_path, ZERO_TIE_KEY, ZERO_TIE_RESPONSE)
    corpora = [read_corefud(p, Path(p).read_text()) for p in (k, r)]
    s = corefeval.score(*corpora, ["mentions", "muc"], zeros="dependent")
    assert (s["mentions"].recall_num, s["mentions"].recall_den) == (2, 2)
    assert (s["muc"].recall_num, s["muc"].precision_num) == (1, 1)


@needs_peer
def test_the_order_and_head_cases_against_the_corefud_scorer(peer: Peer, tmp_path: Path) -> None:
    key, response = _write(tmp_path, HEADS_KEY, HEADS_RESPONSE)
    for mode in MODES:
        theirs = peer.counts(key, response, mode)
        assert not isinstance(theirs, str)
        assert differences(our_counts(key, response, *mode), theirs) == [], mode
    for key_text, response_text in (
        (ORDER_KEY, ORDER_RESPONSE),
        (HEADS_TWICE, HEADS_TWICE),
        (LATE_TIE_KEY, LATE_TIE_RESPONSE),
        (ZERO_TIE_KEY, ZERO_TIE_RESPONSE),
        (ALIAS_KEY, ALIAS_RESPONSE),
        (ZERO_TWICE_KEY, ZERO_TWICE_RESPONSE),
    ):
        key, response = _write(tmp_path, key_text, response_text)
        for mode in MODES:
            theirs = peer.counts(key, response, mode, every=True)
            assert not isinstance(theirs, str)
            assert differences(our_counts(key, response, *mode), theirs) == [], mode
    key, response = _write(tmp_path, ORDER_KEY, ORDER_RESPONSE)
    theirs = peer.counts(key, response, ("exact", "keep", "include"))
    assert not isinstance(theirs, str) and theirs["b"]["muc"] == [1.0, 1.0, 1.0, 2.0]
    key, response = _write(tmp_path, HEADS_TWICE, HEADS_TWICE)
    theirs = peer.counts(key, response, ("head", "keep", "include"))
    assert not isinstance(theirs, str) and theirs["d"]["muc"] == [1.0, 1.0, 1.0, 1.0]
    key, response = _write(tmp_path, LATE_TIE_KEY, LATE_TIE_RESPONSE)
    theirs = peer.counts(key, response, ("head", "keep", "include"))
    assert not isinstance(theirs, str) and theirs["d"]["muc"][0] == 0.0
    key, response = _write(tmp_path, ZERO_TIE_KEY, ZERO_TIE_RESPONSE)
    theirs = peer.counts(key, response, ("exact", "keep", "dependent"))
    assert not isinstance(theirs, str) and theirs["d"]["muc"] == [1.0, 1.0, 1.0, 1.0]


# The response writes w2 and zero 1.1 twice: in e1 headed by the zero (after w1), in e2 headed by w2
# (its first mention). Under head matching e1's copy, a zero that is not first of its entity and no
# key zero's counterpart, is a false positive of the zero score; under exact and partial matching it
# is the same mention as e2's first one (the same words) and is left out, as the CorefUD scorer does.
ZERO_TWICE_KEY = corefud(
    "eid-etype-head-other",
    "Entity=(e1-x-1)",
    "_",
    "Entity=(e1-x-1)",
    empty="1.1\tz1\t_\tPRON\t_\t_\t_\t_\t2:nsubj\t_\n",
)
ZERO_TWICE_RESPONSE = corefud(
    "eid-etype-head-other",
    "Entity=(e1-x-1)",
    "Entity=e2)e1)",
    "Entity=(e2-x-1)",
    empty="1.1\tz1\t_\tPRON\t_\t_\t_\t_\t2:nsubj\tEntity=(e1-x-1(e2-x-2\n",
)


def test_a_zero_copy_with_another_head_is_an_anaphor_under_head_matching(tmp_path: Path) -> None:
    key, response = _write(tmp_path, ZERO_TWICE_KEY, ZERO_TWICE_RESPONSE)
    assert our_counts(key, response, "head", "keep", "include")["d"]["zero"] == [0.0, 0.0, 0.0, 1.0]
    assert our_counts(key, response, "exact", "keep", "include")["d"]["zero"] == [0.0, 0.0, 0.0, 0.0]


@needs_peer
def test_a_zero_copy_with_another_head_against_the_corefud_scorer(peer: Peer, tmp_path: Path) -> None:
    key, response = _write(tmp_path, ZERO_TWICE_KEY, ZERO_TWICE_RESPONSE)
    for mode in MODES:
        theirs = peer.counts(key, response, mode)
        assert not isinstance(theirs, str)
        assert theirs["d"]["zero"] == ([0.0, 0.0, 0.0, 1.0] if mode[0] == "head" else [0.0, 0.0, 0.0, 0.0]), mode


def test_entity_order_over_the_file_when_documents_are_read_one_at_a_time(tmp_path: Path) -> None:
    from corefeval.core.options import Options
    from corefeval.scoring.distributed.documents import score_by_documents

    key, response = _write(tmp_path, ORDER_KEY, ORDER_RESPONSE)
    whole = corefeval.score(key, response)
    split = score_by_documents(key, response, Options())
    assert split.counts.tolist() == whole.counts.tolist()
    b = next(d for d in split.documents if d.name == "b").scores["muc"]
    assert (b.recall_num, b.recall_den, b.precision_num, b.precision_den) == (1, 1, 1, 2)  # as in the file


def split_tie(*p: str) -> str:
    """Document ``b`` of eight words: mentions {w1 w2, w4} of entity ``p[0]`` (with w6) and {w1, w3
    w4} of entity ``p[1]`` (with w8), both discontinuous, of the same first word, last word and size."""
    a, b = p
    return words_of(
        "b",
        f"Entity=({a}[1/2]-x-1({b}[1/2]-x-1)",
        f"Entity={a}[1/2])",
        f"Entity=({b}[2/2]-x-1",
        f"Entity=({a}[2/2]-x-1){b}[2/2])",
        "_",
        f"Entity=({a}-x-1)",
        "_",
        f"Entity=({b}-x-1)",
    )


# Key: w1-w4 (headed by w1) and w6 in one entity. Both response mentions of split_tie lie within
# w1-w4 and hold its head: a partial match of 3/4 each, and one key mention for them. The CorefUD
# scorer sorts them by first node, last node and size, where they are equal, so they stay in the
# order of its Python set: w1 w2 + w4 wins (MUC 1) or w1 + w3 w4 does (MUC 0). That order follows
# their hashes, which hold the number of their sentence in the file: as the file's only sentence
# {w1, w3 w4} comes first, as its fourth {w1 w2, w4}, whatever their entities' order.
SET_TIE_KEY = words_of("b", "Entity=(e1-x-1", "_", "_", "Entity=e1)", "_", "Entity=(e1-x-1)", "_", "_")
SET_TIE_LEAD = "".join(words_of(f"a{i}", "_", "_") for i in range(3))
SET_TIE_CASES = (  # key, response, the CorefUD scorer's MUC counts of b (partial matching)
    (SET_TIE_KEY, split_tie("e1", "e2"), (0.0, 1.0, 0.0, 2.0)),
    (SET_TIE_LEAD + SET_TIE_KEY, SET_TIE_LEAD + split_tie("e2", "e1"), (1.0, 1.0, 1.0, 2.0)),
)


def test_mentions_tied_in_the_scorers_sort_go_in_its_set_order(tmp_path: Path) -> None:
    for key, response, expected in SET_TIE_CASES:
        assert muc(key, response, tmp_path, match="partial") == expected


@needs_peer
def test_mentions_tied_in_the_scorers_sort_against_the_corefud_scorer(peer: Peer, tmp_path: Path) -> None:
    for key_text, response_text, expected in SET_TIE_CASES:
        key, response = _write(tmp_path, key_text, response_text)
        theirs = peer.counts(key, response, ("partial", "keep", "include"), every=True)
        assert not isinstance(theirs, str) and tuple(theirs["b"]["muc"]) == expected
        for mode in MODES:
            theirs = peer.counts(key, response, mode, every=True)
            assert not isinstance(theirs, str)
            assert differences(our_counts(key, response, *mode), theirs) == [], mode
