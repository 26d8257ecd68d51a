"""The fast corpus scoring of Universal Anaphora files (:mod:`corefeval.scoring.ua_corpus`) gives the
numbers of the literal definitions (:func:`corefeval.metrics.ua.scores.literal_scores` with every
split-antecedent table scored metric by metric, pair by pair)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.anaphora import ua_sides
from corefeval.anaphora.ua_sides import UASettings
from corefeval.core.assignment import cell_matching
from corefeval.matching.item_lookups import Lookups, assignments
from corefeval.metrics import ua_identity
from corefeval.metrics.ua import alignment as ua_alignment
from corefeval.metrics.ua import identity as ua_metrics
from corefeval.metrics.ua import scores as ua_scores
from corefeval.readers.ua import read_ua
from corefeval.scoring import ua_corpus

from .generator import pair


def _literal(monkeypatch: pytest.MonkeyPatch, keys: list, responses: list, options: UASettings, only: bool) -> dict:
    """The literal counts: no joint split-antecedent tables, every small table pair by pair, no
    entity counted in one pass."""
    identity_counts = ua_scores.identity_counts
    with monkeypatch.context() as m:
        m.setattr(ua_scores, "split_tables", lambda lookups: None)
        m.setattr(ua_alignment, "_SCORED", 10**9)
        m.setattr(
            ua_scores,
            "identity_counts",
            lambda name, key, response, lookups=None, table=None, one_pass=False, outside=None: identity_counts(
                name, key, response, lookups, table, False, outside
            ),
        )
        return ua_scores.literal_scores(keys, responses, options, only_split_antecedents=only).counts


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**32),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["identity", "deixis", "only-split"]),
)
def test_fast_corpus_counts_equal_the_literal_definitions(
    seed: int, distinct: bool, singletons: bool, split: bool, min_spans: bool, layer: str
) -> None:
    key, response = pair(seed, 10, distinct=distinct)
    keys, responses = read_ua("k", key).anaphora, read_ua("r", response).anaphora
    forced = layer != "identity"
    options = UASettings(
        keep_singletons=singletons or split or forced,
        keep_split_antecedents=split or forced,
        keep_non_referring=not forced,
        min_spans=min_spans,
        layer="deixis" if layer == "deixis" else "identity",
    )
    only = layer == "only-split"
    fast = ua_corpus.corpus_scores_of(keys, responses, options, only_split_antecedents=only)
    with pytest.MonkeyPatch.context() as m:
        literal = _literal(m, keys, responses, options, only)
    assert fast.counts.keys() == literal.keys()
    for name, counts in literal.items():
        for a, b in zip(fast.counts[name].tolist(), counts.tolist(), strict=True):
            assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12), name


def test_documents_without_split_antecedents_are_counted_in_one_pass() -> None:
    """The vectorised pass covers the documents it can (so the test above compares it)."""
    key, response = pair(3, 40, distinct=True)
    keys, responses = read_ua("k", key).anaphora, read_ua("r", response).anaphora
    options = UASettings(keep_split_antecedents=False)
    paired = ua_sides.pairs(keys, responses, options)
    rows, alone = ua_identity.vector_rows(paired)
    assert len(paired) == 40 and (~alone).sum() >= 30
    for pair_, row, skipped in zip(paired, rows, alone.tolist(), strict=True):
        if skipped:
            continue
        literal = ua_scores.document_counts(pair_)
        for name, at in ua_identity.COLUMNS.items():
            assert row[at : at + 4].tolist() == pytest.approx(literal[name].tolist(), rel=1e-12), name


def test_a_span_in_two_entities_is_counted_item_by_item() -> None:
    """A span repeated in two entities of one side is not what the cells assume: that document
    takes the literal path, with the UA scorer's numbers."""
    from .test_ua_reader import ua

    key = ua(
        ("a", "(EntityID=1|MarkableID=m1)", "_", "_"),
        ("b", "(EntityID=1|MarkableID=m2)", "_", "_"),
        ("c", "(EntityID=2|MarkableID=m3)", "_", "_"),
    )
    response = ua(
        ("a", "(EntityID=1|MarkableID=m1)@(EntityID=2|MarkableID=m4)", "_", "_"),
        ("b", "(EntityID=1|MarkableID=m2)", "_", "_"),
        ("c", "(EntityID=2|MarkableID=m3)", "_", "_"),
    )
    keys, responses = read_ua("k", key).anaphora, read_ua("r", response).anaphora
    options = UASettings()
    _, alone = ua_identity.vector_rows(ua_sides.pairs(keys, responses, options))
    assert alone.tolist() == [True]
    fast = ua_corpus.corpus_scores_of(keys, responses, options).counts
    literal = ua_scores.literal_scores(keys, responses, options).counts
    assert {n: c.tolist() for n, c in fast.items()} == {n: c.tolist() for n, c in literal.items()}


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_joint_split_tables_equal_the_tables_of_each_metric(seed: int, small: bool) -> None:
    """Counting every metric's split-antecedent table at once gives each metric's own table, to
    the last bit (small tables and large ones), and so the same alignment."""
    key, response = pair(seed, 30, distinct=True)
    keys, responses = read_ua("k", key).anaphora, read_ua("r", response).anaphora
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ua_alignment, "_SCORED", 10**9 if small else 0)
        paired = ua_sides.pairs(keys, responses, UASettings())
        joint = [ua_scores.document_counts(p) for p in paired]
        m.setattr(ua_scores, "split_tables", lambda lookups: None)
        alone = [ua_scores.document_counts(p) for p in paired]
    assert any(ua_sides.has_splits(p.key.clusters) or ua_sides.has_splits(p.response.clusters) for p in paired)
    for a, b in zip(joint, alone, strict=True):
        assert a.keys() == b.keys()
        for name in a:
            if name.endswith("-split"):  # the alignment's own counts: to the last bit
                assert a[name].tolist() == b[name].tolist(), name
            else:  # the entities without split antecedents counted in one pass: up to float order
                assert a[name].tolist() == pytest.approx(b[name].tolist(), rel=1e-12), name


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.booleans(), st.booleans())
def test_overlaps_read_from_the_one_pass_counts_are_those_of_the_mentions(
    seed: int, distinct: bool, split: bool, min_spans: bool
) -> None:
    """The CEAF overlaps of entities read from the key's one-pass counts (where they may be) are
    :func:`~corefeval.matching.item_lookups.overlaps` of the mentions, cells in the same order, to
    the last bit."""
    from corefeval.matching.item_lookups import overlaps

    key, response = pair(seed, 10, distinct=distinct)
    keys, responses = read_ua("k", key).anaphora, read_ua("r", response).anaphora
    options = UASettings(keep_split_antecedents=split, min_spans=min_spans)
    for pair_ in ua_sides.pairs(keys, responses, options):
        lookups = Lookups(pair_.key.clusters, pair_.response.clusters)
        lookups.one_pass()
        expected = dict(overlaps(pair_.key.clusters, pair_.response.clusters, {}))
        assert list(lookups.overlaps({}).items()) == list(expected.items())
        assert all(type(v) is float for v in lookups.overlaps({}).values())


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 3)), min_size=1, max_size=4), max_size=5),
    st.booleans(),
)
def test_split_members_against_nothing_are_counted_from_their_sizes(
    entities: list[list[tuple[int, int]]], key_side: bool
) -> None:
    """A split antecedent's members against an empty side (alone, or the placeholder of a side
    without split antecedents) get every measure's counts of the literal form, to the last bit."""
    clusters = [[ua_sides.Mention(s, s + w) for s, w in dict.fromkeys(e)] for e in entities]
    key, response = (clusters, []) if key_side else ([], clusters)
    literal = ua_metrics.plain_identity_counts(Lookups(key, response), split_alignment=True)
    assert ua_metrics.split_member_counts(key, response) == literal


_MEMBERS = st.lists(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 1)), min_size=1, max_size=5), max_size=4)


@settings(max_examples=300, deadline=None)
@given(_MEMBERS, _MEMBERS)
def test_split_members_are_counted_as_the_literal_form_to_the_bit(
    key_entities: list[list[tuple[int, int]]], response_entities: list[list[tuple[int, int]]]
) -> None:
    """Two split antecedents' members (entities sharing spans, a span repeated in an entity or in
    two entities, singletons, a side of none) get every measure's counts of the literal form,
    to the last bit."""
    key = [[ua_sides.Mention(s, s + w) for s, w in e] for e in key_entities]
    response = [[ua_sides.Mention(s, s + w) for s, w in e] for e in response_entities]
    literal = ua_metrics.plain_identity_counts(Lookups(key, response), split_alignment=True)
    fast = ua_metrics.split_member_counts(key, response)
    assert ua_metrics.split_member_counts(key, response, assignments(key), assignments(response)) == fast
    assert list(fast) == list(literal)
    for name, counts in fast.items():
        assert [(type(x), x) for x in counts] == [(float, float(x)) for x in literal[name]]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2)), min_size=1, max_size=4), max_size=5),
    st.booleans(),
)
def test_split_members_against_nothing_are_remembered_by_their_sizes(
    entities: list[list[tuple[int, int]]], key_side: bool
) -> None:
    """The counts of a split antecedent against none, remembered by its members' sizes, are those
    of its own members (spans repeated within an entity or across entities included), whichever
    members of those sizes were counted first."""
    clusters = [[ua_sides.Mention(s, s + w) for s, w in e] for e in entities]
    key, response = (clusters, []) if key_side else ([], clusters)
    assert ua_metrics.alone_member_counts(key, response) == ua_metrics.split_member_counts(key, response)
    shifted = [[ua_sides.Mention(m.start + 100, m.end + 100) for m in c] for c in clusters]
    key, response = (shifted, []) if key_side else ([], shifted)
    assert ua_metrics.alone_member_counts(key, response) == ua_metrics.split_member_counts(key, response)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.tuples(st.integers(0, 4), st.integers(0, 4)),
        st.sampled_from([0.25, 0.5, 1.0, 1 / 3, 2 / 3, 0.4, 0.8]) | st.floats(0.01, 1.0),
        max_size=12,
    )
)
def test_ceaf_matching_is_the_best_assignment(weights: dict[tuple[int, int], float]) -> None:
    """The CEAF similarity of cells is the best one-to-one assignment's total, whatever the shape of
    its components (alone, one line, two lines, larger), as trying every assignment finds it."""
    grid = [[weights.get((i, j), 0.0) for j in range(5)] for i in range(5)]
    best = max(sum(grid[i][j] for i, j in enumerate(chosen)) for chosen in itertools.permutations(range(5)))
    assert cell_matching(weights) == pytest.approx(best, rel=1e-12, abs=1e-12)


def _plurals(n: int, min_spans: bool = False) -> str:
    """A document of ``n`` plural entities, each with two element entities of one markable."""
    from .test_ua_reader import ua

    rows = []
    for i in range(n):
        first = f"|Min={3 * i + 1}" if min_spans else ""
        rows.append(("w", f"(EntityID=a{i}|MarkableID=a{i}|ElementOf=p{i}{first})", "_", "_"))
        rows.append(("w", f"(EntityID=b{i}|MarkableID=b{i}|ElementOf=p{i})", "_", "_"))
        rows.append(("w", f"(EntityID=p{i}|MarkableID=p{i})", "_", "_"))
    return ua(*rows)


@pytest.mark.parametrize(
    ("limit", "options"), [("SPLIT_TABLE_LIMIT", []), ("SPLIT_TABLE_LIMIT_MIN_SPANS", ["--match", "min"])]
)
def test_an_alignment_of_too_many_split_antecedents_is_a_one_line_error(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], limit: str, options: list[str]
) -> None:
    """The alignment of split antecedents scores every key x response pair (as the UA scorer's):
    past the limit, a document is a one-line error, not quadratic time and memory; at the limit
    it is scored."""
    from corefeval.cli import main

    path = tmp_path / "plurals.conllu"
    path.write_text(_plurals(3, min_spans=bool(options)), encoding="utf-8")
    monkeypatch.setattr(ua_alignment, limit, 9)
    assert main(["anaphora", str(path), str(path), *options]) == 0
    capsys.readouterr()
    monkeypatch.setattr(ua_alignment, limit, 8)
    assert main(["anaphora", str(path), str(path), *options]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith(f"{path}:4: error: document 'd1': aligning its 3 key and 3 response split antecedents")
    assert "would score 9 pairs" in err


def test_the_registry_measures_keep_the_split_antecedent_limit(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from corefeval.cli import main

    path = tmp_path / "plurals.conllu"
    path.write_text(_plurals(3), encoding="utf-8")
    monkeypatch.setattr(ua_alignment, "SPLIT_TABLE_LIMIT", 8)
    assert main(["score", str(path), str(path), "-m", "ua-muc"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"{path}:") and "split antecedents" in err


def test_split_antecedents_holding_too_many_element_mentions_are_a_one_line_error(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One large entity an element of many plurals (or a long chain of plurals of plurals) makes
    the split antecedents hold a number of mentions quadratic in the markables: past the limit,
    a located one-line error; at it, scored."""
    from corefeval.cli import main

    path = tmp_path / "plurals.conllu"
    path.write_text(_plurals(3), encoding="utf-8")  # 3 plurals: 2 entities of one mention each
    monkeypatch.setattr(ua_sides, "SPLIT_MEMBER_LIMIT", 12)
    assert main(["anaphora", str(path), str(path)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(ua_sides, "SPLIT_MEMBER_LIMIT", 11)
    assert main(["anaphora", str(path), str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"{path}:4: error: document 'd1': its split antecedents")


def test_score_counts_the_ua_metrics_once_and_split_antecedents_alone_literally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``score -m ua-...``: the six metrics share one count of the documents, in which only those
    with split antecedents take the literal path; the counts are those of ``anaphora``'s."""
    import corefeval

    key, response = pair(5, 30, distinct=True)
    k, r = tmp_path / "key.conllu", tmp_path / "response.conllu"
    k.write_text(key, encoding="utf-8")
    r.write_text(response, encoding="utf-8")
    keys, responses = read_ua("k", key).anaphora, read_ua("r", response).anaphora
    paired = ua_sides.pairs(keys, responses, UASettings())
    with_splits = {
        p.name for p in paired if ua_sides.has_splits(p.key.clusters) or ua_sides.has_splits(p.response.clusters)
    }
    assert 0 < len(with_splits) < len(paired)
    literal = []
    counts = ua_identity.document_counts
    monkeypatch.setattr(
        ua_identity, "document_counts", lambda p, *args, **kw: literal.append(p.name) or counts(p, *args, **kw)
    )
    names = ["ua-muc", "ua-bcub", "ua-ceafe", "ua-ceafm", "ua-lea", "ua-blanc"]
    result = corefeval.score(str(k), str(r), names)
    assert set(literal) == with_splits
    totals = ua_corpus.corpus_scores_of(keys, responses).counts
    for name in names:
        got = result.corpus[name]
        ua = name.removeprefix("ua-")
        if ua == "blanc":
            expected = [*totals["blancc"].tolist(), *totals["blancn"].tolist()]
            got = [*(getattr(got.coref, f) for f in _FIELDS), *(getattr(got.noncoref, f) for f in _FIELDS)]
        else:
            expected, got = totals[ua].tolist(), [getattr(got, f) for f in _FIELDS]
        assert got == pytest.approx(expected, rel=1e-12), name


_FIELDS = ("recall_num", "recall_den", "precision_num", "precision_den")


def test_the_old_names_of_the_ua_scoring_functions_warn_and_still_work() -> None:
    """``evaluate`` was the name of both; the docs named it, so it stays one release, deprecated."""
    with pytest.warns(DeprecationWarning, match="corpus_scores_of"):
        assert ua_corpus.evaluate is ua_corpus.corpus_scores_of  # type: ignore[attr-defined]
    with pytest.warns(DeprecationWarning, match="literal_scores"):
        assert ua_scores.evaluate is ua_scores.literal_scores  # type: ignore[attr-defined]
