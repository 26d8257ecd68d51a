"""The injector, and the classifier on injected errors (random keys and LitBank keys)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from errcases import doc
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from corefeval.readers import read
from corefeval.studies.errors import TYPES, classify
from corefeval.studies.errors.inject import expected_counts, inject
from corefeval.studies.errors.repair import repaired


def counts(key, response):
    items, _ = classify(key, response)
    out = dict.fromkeys(TYPES, 0)
    for it in items:
        out[it.type] += it.count
    return out


@st.composite
def keys(draw):
    """Keys of up to six chains over 60 tokens, mentions of 1-3 tokens, spans distinct and not crossing
    (nested or disjoint; crossing mentions are a known limit of the classifier, see docs/errors.md)."""
    n = 60
    seen: set[tuple[int, int]] = set()
    clusters = []
    for _ in range(draw(st.integers(1, 6))):
        chain = []
        for _ in range(draw(st.integers(1, 6))):
            s = draw(st.integers(0, n - 1))
            span = (s, min(s + draw(st.integers(0, 2)), n - 1))
            crosses = any(a < span[0] <= b < span[1] or span[0] < a <= span[1] < b for a, b in seen)
            if span not in seen and not crosses:
                seen.add(span)
                chain.append(span)
        if chain:
            clusters.append(chain)
    return doc(clusters, n)


def test_injector_records_what_it_made_and_leaves_the_key_alone():
    key = doc([[(0, 1), (3, 3), (5, 5)], [(7, 7), (9, 10)], [(12, 12), (14, 14), (16, 16)]], 30)
    before = key.clusters()
    response, made = inject(key, {"silence": 1, "border": 1}, seed=1)
    assert key.clusters() == before
    assert sorted(m.type for m in made) == ["border", "silence"]
    assert expected_counts(made) == dict(counts(key, response))
    with pytest.raises(ValueError, match="unknown error types"):
        inject(key, {"wrong": 1})


@settings(max_examples=300, deadline=None)
@given(keys(), st.sampled_from(TYPES), st.integers(0, 10**6))
def test_one_injected_error_is_classified_exactly_and_its_repair_undoes_it(key, error_type, seed):
    response, made = inject(key, {error_type: 1}, seed=seed)
    assume(made)
    assert counts(key, response) == expected_counts(made)
    items, al = classify(key, response)
    fixed = repaired(response, al, [e for it in items for e in it.repair])
    assert sorted(map(sorted, fixed.clusters())) == sorted(map(sorted, key.clusters()))


@settings(max_examples=200, deadline=None)
@given(keys(), st.integers(0, 10**6))
def test_one_error_of_each_type_is_classified_exactly(key, seed):
    response, made = inject(key, dict.fromkeys(TYPES, 1), seed=seed)
    assert counts(key, response) == expected_counts(made)


@pytest.fixture(scope="module")
def litbank_keys(shared):
    files = sorted((shared / "realdata" / "litbank" / "conll").glob("*.conll"))
    if not files:
        pytest.skip("LitBank is not in ../shared")
    return [read(str(f)).documents[0] for f in files]


def test_litbank_one_error_per_response_all_classified_exactly(litbank_keys):
    for i, key in enumerate(litbank_keys):
        for t in TYPES:
            response, made = inject(key, {t: 1}, seed=i)
            assert len(made) == 1
            assert counts(key, response) == expected_counts(made), (key.name, t)


def test_litbank_one_of_each_type_and_several_per_document(litbank_keys):
    exact_one_each = exact_several = 0
    for i, key in enumerate(litbank_keys):
        response, made = inject(key, dict.fromkeys(TYPES, 1), seed=i)
        exact_one_each += len(made) == 6 and counts(key, response) == expected_counts(made)
        rng = random.Random(i)
        response, made = inject(key, {t: rng.randint(1, 5) for t in TYPES}, seed=i)
        exact_several += counts(key, response) == expected_counts(made)
    assert exact_one_each == len(litbank_keys)
    assert exact_several >= 0.95 * len(litbank_keys)


def test_rewritten_key_reads_back_the_same_and_keeps_other_columns(write_conll, tmp_path):
    from corefeval.studies.errors.rewrite import rewrite

    key_doc = doc([[(0, 2), (1, 1), (4, 4)], [(1, 3), (6, 6)], [(8, 8)]], 10, "x")
    path = write_conll("key.conll", [key_doc])
    response = doc([[(0, 1), (4, 4)], [(2, 3), (6, 6), (8, 8)]], 10, "x")
    out = tmp_path / "response.conll"
    out.write_text(rewrite(path, {"(x); part 000": response}), encoding="utf-8")
    (back,) = read(str(out)).documents
    assert sorted(map(sorted, back.clusters())) == sorted(map(sorted, response.clusters()))
    assert [line.rpartition("\t")[0] for line in out.read_text().splitlines()] == [
        line.rpartition("\t")[0] for line in Path(path).read_text().splitlines()
    ]


def test_inject_command_writes_a_response_and_a_record(write_conll, tmp_path, capsys):
    import json

    from corefeval.studies.errors.analysis import analyse
    from corefeval.studies.errors.inject import main

    key = write_conll(
        "key.conll",
        [doc([[(0, 0), (2, 2), (4, 4)], [(6, 6), (8, 8), (10, 10)], [(12, 12), (14, 15)]], 40, n) for n in ("a", "b")],
    )
    out, record = tmp_path / "sys.conll", tmp_path / "made.jsonl"
    status = main([key, str(out), "--silence", "1", "--noise", "1", "--record", str(record), "--seed", "5"])
    assert status == 0
    made = [json.loads(line) for line in record.read_text().splitlines()]
    assert sorted(m["type"] for m in made) == ["noise", "noise", "silence", "silence"]
    result = analyse(key, str(out), costs=False)
    assert [d.counts for d in result.documents] == [dict.fromkeys(TYPES, 0) | {"noise": 1, "silence": 1}] * 2
