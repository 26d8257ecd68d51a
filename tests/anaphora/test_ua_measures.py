"""The Universal Anaphora measures on worked examples (those of docs/anaphora.md), through the
``anaphora`` command, presets, the registry metrics, and the ``ua`` BLANC variant."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.anaphora.ua_sides import Side, UASettings, side
from corefeval.cli import main
from corefeval.metrics.ua.alignment import identity_counts
from corefeval.metrics.ua.scores import literal_scores
from corefeval.readers.ua import read_ua
from corefeval.scoring.pipeline import score

from .test_ua_reader import ua
from .ua_peer import our_scores

# The split-antecedent example: key {a b} {c d} {e} {f g} with {f g} the plural of {a b} and
# {c d}; the response takes {a b} and {e} as its elements.
SPLIT_KEY = ua(
    ("a", "(EntityID=1|MarkableID=a|ElementOf=4)", "_", "_"),
    ("b", "(EntityID=1|MarkableID=b)", "_", "_"),
    ("c", "(EntityID=2|MarkableID=c|ElementOf=4)", "_", "_"),
    ("d", "(EntityID=2|MarkableID=d)", "_", "_"),
    ("e", "(EntityID=3|MarkableID=e)", "_", "_"),
    ("f", "(EntityID=4|MarkableID=f)", "_", "_"),
    ("g", "(EntityID=4|MarkableID=g)", "_", "_"),
)
SPLIT_RESPONSE = SPLIT_KEY.replace("MarkableID=c|ElementOf=4", "MarkableID=c").replace(
    "MarkableID=e)", "MarkableID=e|ElementOf=4)"
)

# The bridging and non-referring example: "it" (k2) and "there" (k4) are non-referring in the
# key; the response finds "it" and calls "door" (k5) non-referring. The key's bridging anaphor
# "the handle" (k6) is anchored to "the door" (k3), which corefers with "it"... (k5).
LAYERS_KEY = ua(
    ("the", "(EntityID=1|MarkableID=k1", "_", "_"),
    ("door", ")", "_", "_"),
    ("it", "(EntityID=2-Pseudo|MarkableID=k2)", "_", "_"),
    ("the", "(EntityID=1|MarkableID=k3", "_", "_"),
    ("door", ")", "_", "_"),
    ("there", "(EntityID=3-Pseudo|MarkableID=k4)", "_", "_"),
    ("the", "(EntityID=5|MarkableID=k6", "(MarkableID=k6|Rel=part-of|MentionAnchor=k3)", "_"),
    ("handle", ")", "_", "_"),
)
LAYERS_RESPONSE = ua(
    ("the", "(EntityID=1|MarkableID=k1", "_", "_"),
    ("door", ")", "_", "_"),
    ("it", "(EntityID=2-Pseudo|MarkableID=k2)", "_", "_"),
    ("the", "(EntityID=1|MarkableID=k3", "_", "_"),
    ("door", "k3)(EntityID=7-Pseudo|MarkableID=k5)", "_", "_"),
    ("there", "(EntityID=3|MarkableID=k4)", "(MarkableID=k4|MentionAnchor=k2)", "_"),
    ("the", "(EntityID=5|MarkableID=k6", "(MarkableID=k6|Rel=part-of|MentionAnchor=k1)", "_"),
    ("handle", ")", "_", "_"),
)


def _sides(key: str, response: str) -> tuple[Side, Side]:
    (k,) = read_ua("key", key).anaphora
    (r,) = read_ua("response", response).anaphora
    return side(k, UASettings(), key=True), side(r, UASettings(), key=False)


def test_split_antecedent_muc_worked_example() -> None:
    k, r = _sides(SPLIT_KEY, SPLIT_RESPONSE)
    counts, split = identity_counts("muc", k.clusters, r.clusters)
    # split antecedents {A, C} and {A, E}: each side finds one of its two links -> 1/2, 1/2
    assert split.tolist() == [1.0, 2.0, 1.0, 2.0]
    # {f g S}: 2 links; f, g found together, S found with recall 1/2 in the same entity: 1.5 of 2
    assert counts.tolist() == [3.5, 4.0, 3.5, 4.0]


def test_layers_worked_example(tmp_path: Path) -> None:
    (k,) = read_ua("key", LAYERS_KEY).anaphora
    (r,) = read_ua("response", LAYERS_RESPONSE).anaphora
    s = literal_scores([k], [r], UASettings(keep_non_referring=True)).scores
    assert s["non-referring"] == pytest.approx((1 / 2, 1 / 2, 1 / 2))
    # k6 is recognised, k4 is not a key anaphor
    assert s["bridging-ar"] == pytest.approx((1, 1 / 2, 2 / 3))
    # k6's anchor k1 is not k3 ...
    assert s["bridging-fbm"] == (0.0, 0.0, 0.0)
    # ... but is in k3's entity
    assert s["bridging-fbe"] == pytest.approx((1, 1 / 2, 2 / 3))
    # the same numbers as registry metrics, through score()
    kp, rp = tmp_path / "k.conllu", tmp_path / "r.conllu"
    kp.write_text(LAYERS_KEY, encoding="utf-8")
    rp.write_text(LAYERS_RESPONSE, encoding="utf-8")
    result = score(str(kp), str(rp), ["non-referring", "bridging-ar", "bridging-fbm", "bridging-fbe"])
    for name in ("non-referring", "bridging-ar", "bridging-fbm", "bridging-fbe"):
        got = result[name]
        assert (got.recall, got.precision, got.f1) == pytest.approx(s[name]), name


def test_anaphora_command_and_presets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kp, rp = tmp_path / "k.conllu", tmp_path / "r.conllu"
    kp.write_text(SPLIT_KEY, encoding="utf-8")
    rp.write_text(SPLIT_RESPONSE, encoding="utf-8")
    assert main(["anaphora", str(kp), str(rp), "-m", "muc"]) == 0
    out = capsys.readouterr().out
    assert "muc                87.50     87.50    87.50" in out and "split:keep" in out
    assert main(["anaphora", str(kp), str(rp), "-m", "muc", "--only-split-antecedents"]) == 0
    assert "muc                50.00     50.00    50.00" in capsys.readouterr().out
    assert main(["anaphora", str(kp), str(rp), "--preset", "codicrac22ar"]) == 0
    out = capsys.readouterr().out
    assert "preset:codicrac22ar" in out and "CoNLL" in out and "lea" not in out
    assert main(["anaphora", str(kp), str(rp), "--preset", "codicrac22br"]) == 0
    assert "bridging-fbe" in capsys.readouterr().out
    assert main(["anaphora", str(kp), str(rp), "--singletons", "remove"]) == 2  # needs --split-antecedents remove
    assert main(["anaphora", str(kp), str(rp), "-m", "bridging-xyz"]) == 2
    assert main(["anaphora", str(kp), str(rp), "-m", "bridging-fbm"]) == 0


def test_deixis_is_its_own_layer(tmp_path: Path) -> None:
    key = ua(("a", "_", "_", "(EntityID=1-DD|MarkableID=d1)"), ("b", "_", "_", "(EntityID=1-DD|MarkableID=d2)"))
    response = ua(("a", "_", "_", "(EntityID=1|MarkableID=x)"), ("b", "_", "_", "(EntityID=2|MarkableID=y)"))
    kp, rp = tmp_path / "k.conllu", tmp_path / "r.conllu"
    kp.write_text(key, encoding="utf-8")
    rp.write_text(response, encoding="utf-8")
    deixis = our_scores(kp, rp, "deixis")
    assert deixis["muc"] == [0.0, 0.0, 0.0] and deixis["bcub"] == pytest.approx([1 / 2, 1, 2 / 3])
    assert our_scores(kp, rp, "default")["muc"] == [0, 0, 0]  # nothing in the identity layer


@pytest.mark.parametrize(
    ("key_rows", "response_rows"),
    [
        # key without links, response with one
        (
            [("a", "(EntityID=1|MarkableID=a)"), ("b", "(EntityID=2|MarkableID=b)")],
            [("a", "(EntityID=1|MarkableID=a)"), ("b", "(EntityID=1|MarkableID=b)")],
        ),
        # neither side with a coreference link: the non-coreference side alone
        (
            [("a", "(EntityID=1|MarkableID=a)"), ("b", "(EntityID=2|MarkableID=b)")],
            [("a", "(EntityID=1|MarkableID=a)"), ("b", "_")],
        ),
        # one entity each: no non-coreference link
        (
            [("a", "(EntityID=1|MarkableID=a)"), ("b", "(EntityID=1|MarkableID=b)")],
            [("a", "(EntityID=3|MarkableID=a)"), ("b", "(EntityID=3|MarkableID=b)")],
        ),
        # nothing at all
        ([("a", "_"), ("b", "_")], [("a", "_"), ("b", "_")]),
    ],
)
def test_blanc_ua_variant_is_the_ua_scorers(
    tmp_path: Path, key_rows: list[tuple[str, str]], response_rows: list[tuple[str, str]]
) -> None:
    kp, rp = tmp_path / "k.conllu", tmp_path / "r.conllu"
    kp.write_text(ua(*[(f, c, "_", "_") for f, c in key_rows]), encoding="utf-8")
    rp.write_text(ua(*[(f, c, "_", "_") for f, c in response_rows]), encoding="utf-8")
    theirs = our_scores(kp, rp, "no-split")["blanc"]
    got = score(str(kp), str(rp), ["blanc"], blanc="ua")["blanc"]
    assert [got.recall, got.precision, got.f1] == pytest.approx(theirs)


def test_zero_denominator_is_zero_where_the_ua_scorer_fails() -> None:
    """Two key markables with one span in one entity (split antecedents removed, so that they stay
    two) both meet the response's one-markable entity: a coreference link found among no response
    link, which the UA scorer divides by zero."""
    key = ua(("a", "(EntityID=1|MarkableID=a)(EntityID=1|MarkableID=b)", "_", "_"))
    response = ua(("a", "(EntityID=1|MarkableID=a)", "_", "_"))
    (k,) = read_ua("k", key).anaphora
    (r,) = read_ua("r", response).anaphora
    result = literal_scores([k], [r], UASettings(keep_split_antecedents=False))
    assert result.counts["blancc"].tolist() == [1.0, 1.0, 1.0, 0.0]
    assert result.scores["blanc"] == pytest.approx((1.0, 0.0, 0.0))
    assert np.isfinite(list(result.scores["blanc"])).all()


def test_min_spans_reach_ceaf_only_as_in_the_ua_scorer() -> None:
    """With minimum spans, the UA scorer finds a response markable by its span (a hash) in MUC,
    B-cubed, LEA and BLANC, and by the minimum-span rule only in CEAF: the response's "b" is within
    the key's "a b c" and covers its Min "b", which CEAF counts and MUC does not."""
    key = ua(
        ("a", "(EntityID=1|MarkableID=a|Min=2", "_", "_"),
        ("b", "_", "_", "_"),
        ("c", ")", "_", "_"),
        ("d", "(EntityID=1|MarkableID=d)", "_", "_"),
    )
    response = ua(
        ("a", "_", "_", "_"),
        ("b", "(EntityID=1|MarkableID=a)", "_", "_"),
        ("c", "_", "_", "_"),
        ("d", "(EntityID=1|MarkableID=d)", "_", "_"),
    )
    (k,) = read_ua("k", key).anaphora
    (r,) = read_ua("r", response).anaphora
    s = literal_scores([k], [r], UASettings(min_spans=True)).scores
    assert s["ceafm"] == pytest.approx((1, 1, 1)) and s["ceafe"] == pytest.approx((1, 1, 1))
    assert s["muc"] == (0.0, 0.0, 0.0) and s["lea"] == (0.0, 0.0, 0.0)
    assert s["bcub"] == pytest.approx((1 / 4, 1 / 4, 1 / 4))


@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_registry_layer_metrics_equal_the_ua_scorers_all_layers_mode(seed: int, tmp_path: Path) -> None:
    """``score -m non-referring,bridging-*`` gives the numbers of the UA scorer's
    ``keep_non_referring keep_bridging`` mode (pinned by the recorded fixture)."""
    from .generator import pair

    key, response = pair(seed, 3)
    kp, rp = tmp_path / "k.conllu", tmp_path / "r.conllu"
    kp.write_text(key, encoding="utf-8")
    rp.write_text(response, encoding="utf-8")
    names = ["non-referring", "bridging-ar", "bridging-fbm", "bridging-fbe"]
    theirs = our_scores(kp, rp, "all-layers")
    result = score(str(kp), str(rp), names)
    for name in names:
        got = result[name]
        assert [got.recall, got.precision, got.f1] == pytest.approx(theirs[name]), name


@pytest.mark.parametrize("seed", range(1, 40, 3))
def test_registry_identity_metrics_equal_the_ua_scorers_default_mode(seed: int, tmp_path: Path) -> None:
    """``score -m ua-muc,...`` gives the numbers of the UA scorer's default mode (split
    antecedents and singletons kept; pinned by the recorded fixture)."""
    from .generator import pair

    key, response = pair(seed, 3)
    kp, rp = tmp_path / "k.conllu", tmp_path / "r.conllu"
    kp.write_text(key, encoding="utf-8")
    rp.write_text(response, encoding="utf-8")
    theirs = our_scores(kp, rp, "default")
    result = score(str(kp), str(rp), [f"ua-{m}" for m in ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc")])
    for name in ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc"):
        got = result[f"ua-{name}"]
        assert [got.recall, got.precision, got.f1] == pytest.approx(theirs[name], abs=1e-12), name


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([(0.0, 1.0), (0.0, 0.25, 0.5, 1.0), (0.0, 0.0, 0.3, 1 / 3, 2 / 3, 0.7)]).flatmap(
        lambda values: st.integers(1, 9).flatmap(
            lambda n: st.lists(st.lists(st.sampled_from(values), min_size=n, max_size=n), min_size=1, max_size=9)
        )
    )
)
def test_split_alignment_pairs_are_scipys(table: list[list[float]]) -> None:
    """The split-antecedent alignment solved without scipy gives scipy's pairs, ties included
    (few values, so most tables have several best assignments)."""
    from scipy.optimize import linear_sum_assignment

    from corefeval.metrics.ua.alignment import best_assignment

    rows, cols = best_assignment(table, placeholder=False)
    expected = linear_sum_assignment(-np.array(table))
    assert (rows.tolist(), cols.tolist()) == (expected[0].tolist(), expected[1].tolist())


@pytest.mark.parametrize("min_spans", [False, True])
def test_split_alignment_tables_in_numpy_equal_those_scored_pair_by_pair(
    monkeypatch: pytest.MonkeyPatch, min_spans: bool
) -> None:
    """The split-antecedent table filled in numpy (pairs sharing no span by their denominators)
    gives every count of the one scored pair by pair, to the last bit."""
    from corefeval.metrics.ua import alignment as ua_alignment

    from .generator import pair

    key, response = pair(7, 60, distinct=True)
    keys, responses = read_ua("k", key).anaphora, read_ua("r", response).anaphora
    options = UASettings(min_spans=min_spans)
    monkeypatch.setattr(ua_alignment, "_SCORED", 10**9)
    literal = literal_scores(keys, responses, options).counts
    monkeypatch.setattr(ua_alignment, "_SCORED", 0)
    tables = literal_scores(keys, responses, options).counts
    assert literal.keys() == tables.keys()
    for name in literal:
        assert literal[name].tolist() == tables[name].tolist(), name


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.booleans(), st.booleans())
def test_documents_without_split_antecedents_count_as_item_by_item(
    seed: int, split: bool, singletons: bool, min_spans: bool
) -> None:
    """The one-pass counts of documents without split antecedents are those of the item-by-item
    definitions, to the last bit (with split antecedents kept, the documents that have some are
    counted item by item either way)."""
    from corefeval.anaphora import ua_sides
    from corefeval.metrics.ua import scores as ua_scores

    from .generator import pair

    key, response = pair(seed, 12)
    keys, responses = read_ua("k", key).anaphora, read_ua("r", response).anaphora
    options = UASettings(keep_singletons=singletons or split, keep_split_antecedents=split, min_spans=min_spans)
    done = [ua_scores.document_counts(p) for p in ua_sides.pairs(keys, responses, options)]
    original = ua_scores.plain_identity_counts
    try:  # no one-pass counts for documents without split antecedents (the alignment's tables keep theirs)
        ua_scores.plain_identity_counts = lambda lookups, split_alignment=False: (  # type: ignore[assignment]
            original(lookups, split_alignment) if split_alignment else {}
        )
        literal = [ua_scores.document_counts(p) for p in ua_sides.pairs(keys, responses, options)]
    finally:
        ua_scores.plain_identity_counts = original  # type: ignore[assignment]
    if not split:
        assert not any(
            ua_sides.has_splits(c)
            for p in ua_sides.pairs(keys, responses, options)
            for c in (p.key.clusters, p.response.clusters)
        )
    for fast, slow in zip(done, literal, strict=True):
        assert fast.keys() == slow.keys()
        for name in fast:
            assert fast[name].tolist() == slow[name].tolist(), name


@settings(max_examples=200, deadline=None)
@given(
    st.tuples(st.integers(0, 2**40), st.integers(0, 2**40)),
    st.tuples(st.integers(0, 50), st.integers(0, 50)),
    st.none() | st.tuples(st.integers(0, 50), st.integers(0, 50)),
)
def test_a_mention_hashes_as_the_set_of_its_ends_and_compares_by_span(
    big: tuple[int, int], span: tuple[int, int], min_span: tuple[int, int] | None
) -> None:
    """A mention's hash is that of the frozenset of its two ends (which orders the sets of
    mentions the UA scorer's numbers depend on); equality and inequality are by span (or minimum
    span), never as sets; a mention pickles and copies whole."""
    import copy
    import pickle

    from corefeval.anaphora.ua_sides import Mention

    for s, e in (big, span):
        assert hash(Mention(s, e)) == hash(frozenset((s, e)))
    m, reversed_ends = Mention(*span, min_span), Mention(span[1], span[0])
    for other in (Mention(*span), reversed_ends, Mention(span[0], span[1] + 1)):
        assert (m != other) is not (m == other)
    assert (Mention(*span) == reversed_ends) is (span[0] == span[1])
    assert m != frozenset(span) and (m == frozenset(span)) is False and m != span
    for again in (pickle.loads(pickle.dumps(m)), copy.copy(m), copy.deepcopy(m)):
        assert (again.start, again.end, again.min_span, hash(again)) == (m.start, m.end, m.min_span, hash(m))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 2)), max_size=12),
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 2)), max_size=12),
)
def test_non_referring_markables_by_span_are_looked_up_as_compared_one_by_one(
    key: list[tuple[int, int]], response: list[tuple[int, int]]
) -> None:
    """Without minimum spans, finding the non-referring markables in a set gives the counts of
    comparing every pair (duplicates included)."""
    from corefeval.anaphora.ua_sides import Side
    from corefeval.core.items import Mention
    from corefeval.metrics.ua.scores import non_referring_counts

    k = Side([], [Mention(s, s + n) for s, n in key], {})
    r = Side([], [Mention(s, s + n) for s, n in response], {})
    tp = sum(1 for m in k.non_referring if m in r.non_referring)
    fp = sum(1 for m in r.non_referring if m not in k.non_referring)
    assert non_referring_counts(k, r).tolist() == [tp, len(key), tp, tp + fp]


def test_many_non_referring_markables_are_counted_in_linear_time_or_refused(tmp_path: Path) -> None:
    """50,000 non-referring markables on each side: counted by span at once; with minimum spans,
    past the limit of pairs compared one by one, a located one-line error."""
    from corefeval.anaphora.ua_sides import Side
    from corefeval.core.diagnostics import CountingError
    from corefeval.core.items import Mention
    from corefeval.metrics.ua import scores as ua_scores

    mentions = [Mention(i, i) for i in range(50_000)]
    counts = ua_scores.non_referring_counts(Side([], mentions, {}), Side([], mentions[::2], {}))
    assert counts.tolist() == [25_000, 50_000, 25_000, 25_000]
    with_min = [Mention(i, i + 1, (i, i)) for i in range(50_000)]
    with pytest.raises(CountingError, match="non-referring markables make more than 4,000,000 pairs"):
        ua_scores.non_referring_counts(Side([], with_min, {}), Side([], mentions, {}), "d")
    header = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS"
    lines = [header, "# newdoc id = d"]
    lines += [
        "\t".join([str(w + 1), "w", *["_"] * 8, f"(EntityID={w}-Pseudo|MarkableID=m{w})", "_", "_"])
        for w in range(20_000)
    ]
    path = tmp_path / "many.conllu"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["anaphora", str(path), str(path), "-q"]) == 0
