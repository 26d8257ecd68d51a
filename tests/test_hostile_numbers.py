"""Hostile numbers: token offsets past int64 arithmetic, invalid states and mention tables, bad spans.

Every path that codes spans (the corpus-wide pass, one document at a time, the Evaluator, a
Parquet unit on either engine) must give the numbers of the same documents with small offsets;
input that no scorer could give is refused in one line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corefeval import Evaluator, score
from corefeval.core.diagnostics import InputError, UsageError
from corefeval.core.spancodes import span_codes

Span = tuple[int, int]
Clusters = list[list[Span]]

#: Offsets around the edges of 32 and 64 bits, where ``start * width + end`` wraps around int64.
EDGES = (2**31, 2**32, 2**62, 2**63 - 1)
edge_offset = st.one_of(
    st.integers(0, 3),
    st.sampled_from(EDGES).flatmap(lambda e: st.integers(max(0, e - 3), e)),
)
edge_span = st.tuples(edge_offset, edge_offset).map(lambda p: (min(p), max(p)))
edge_clusters = st.lists(st.lists(edge_span, min_size=1, max_size=3), max_size=3)


def _same_tokens(pair: tuple[Clusters, Clusters]) -> tuple[Clusters, Clusters]:
    """Both sides with one more entity on the last offset of either: files of a document must
    agree on its number of tokens (one past its last end)."""
    last = max((e for side in pair for c in side for _, e in c), default=0)
    return pair[0] + [[(last, last)]], pair[1] + [[(last, last)]]


edge_documents = st.lists(st.tuples(edge_clusters, edge_clusters).map(_same_tokens), min_size=1, max_size=3)


def _small(docs: list[tuple[Clusters, Clusters]]) -> list[tuple[Clusters, Clusters]]:
    """The same documents with each document's offsets replaced by their ranks: the same spans,
    equal and ordered as before, so every count must be the same."""
    out = []
    for key, response in docs:
        rank = {v: i for i, v in enumerate(sorted({x for c in key + response for s in c for x in s}))}
        out.append(tuple([[(rank[s], rank[e]) for s, e in c] for c in side] for side in (key, response)))
    return out  # type: ignore[return-value]


def _write_jsonlines(path: Path, docs: list[tuple[Clusters, Clusters]], field: str, side: int) -> str:
    lines = [
        json.dumps({"doc_key": f"d{i}", field: [[list(s) for s in c] for c in pair[side]]})
        for i, pair in enumerate(docs)
    ]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _file_counts(tmp: Path, docs: list[tuple[Clusters, Clusters]], tag: str) -> np.ndarray:
    key = _write_jsonlines(tmp / f"{tag}.key.jsonl", docs, "clusters", 0)
    response = _write_jsonlines(tmp / f"{tag}.response.jsonl", docs, "predicted_clusters", 1)
    return score(key, response).counts


def _evaluator_counts(docs: list[tuple[Clusters, Clusters]]) -> np.ndarray:
    ev = Evaluator()
    ev.update_many(docs)
    return ev.result().counts


# The issue's pair: key [0, 2**32] against response [2**31, 2**32] shares no span (25.00, not 100).
ISSUE_KEY: Clusters = [[(0, 2**32), (5, 6)]]
ISSUE_RESPONSE: Clusters = [[(2**31, 2**32), (5, 6)]]
# One document whose old per-document code (width 2**33) made (2**31, 2**32) equal to (0, 2**32).
WRAP_KEY: Clusters = [[(0, 2**32), (5, 6)], [(2**33 - 2, 2**33 - 2)]]
WRAP_RESPONSE: Clusters = [[(2**31, 2**32), (5, 6)], [(2**33 - 2, 2**33 - 2)]]


@pytest.mark.parametrize("copies", [1, 2])
def test_offsets_past_32_bits_are_not_wrapped_by_the_file_scorer(tmp_path: Path, copies: int) -> None:
    docs = [(ISSUE_KEY, ISSUE_RESPONSE)] * copies  # two documents: the corpus-wide pass; one: per document
    result = score(
        _write_jsonlines(tmp_path / "k.jsonl", docs, "clusters", 0),
        _write_jsonlines(tmp_path / "r.jsonl", docs, "predicted_clusters", 1),
    )
    assert round(result.corpus["conll"].f1 * 100, 2) == 25.00
    assert result.corpus["mentions"].recall_num == copies


def test_a_wrapped_code_does_not_match_another_span_in_one_document(tmp_path: Path) -> None:
    docs = [(WRAP_KEY, WRAP_RESPONSE)]
    one = score(
        _write_jsonlines(tmp_path / "k.jsonl", docs, "clusters", 0),
        _write_jsonlines(tmp_path / "r.jsonl", docs, "predicted_clusters", 1),
    )
    assert one.corpus["mentions"].recall_num == 2  # (5, 6) and (2**33, 2**33), not (0, 2**32)
    assert np.array_equal(one.counts, score_small(tmp_path, docs))


def score_small(tmp: Path, docs: list[tuple[Clusters, Clusters]]) -> np.ndarray:
    return _file_counts(tmp, _small(docs), "small")


def test_offsets_past_32_bits_in_the_evaluator() -> None:
    for docs in ([(ISSUE_KEY, ISSUE_RESPONSE)], [(ISSUE_KEY, ISSUE_RESPONSE)] * 2):
        ev = Evaluator(["muc", "bcub", "ceafe", "conll"])
        ev.update_many(docs)
        assert round(ev.result().corpus["conll"].f1 * 100, 2) == 25.00
    wrap = [(WRAP_KEY, WRAP_RESPONSE)]
    assert np.array_equal(_evaluator_counts(wrap), _evaluator_counts(_small(wrap)))
    ev = Evaluator(["conll"])
    ev.update([[(0, 2**63 - 1), (5, 6)]], [[(0, 2**63 - 1), (5, 6)]])  # the largest offset: end + 1 overflows
    ev.update([[(0, 2), (5, 6)]], [[(0, 2), (5, 6)]])
    assert ev.result().corpus["conll"].f1 == 1.0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edge_documents)
def test_edge_offsets_count_as_their_ranks(tmp_path: Path, docs: list[tuple[Clusters, Clusters]]) -> None:
    """File scorer and Evaluator, on offsets near 2**31, 2**32, 2**62 and 2**63 - 1: the counts of
    the same documents with small offsets."""
    small = _small(docs)
    expected = _evaluator_counts(small)
    assert np.array_equal(_evaluator_counts(docs), expected)
    assert np.array_equal(_file_counts(tmp_path, docs, "edge"), _file_counts(tmp_path, small, "small"))
    assert np.array_equal(_file_counts(tmp_path, small, "small"), expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(edge_span, max_size=6), min_size=1, max_size=4), st.lists(edge_span, max_size=6))
def test_span_codes_are_equal_and_ordered_as_the_spans(docs: list[list[Span]], other: list[Span]) -> None:
    sides = [
        (
            np.array([s for d in docs for s, _ in d], dtype=np.int64),
            np.array([e for d in docs for _, e in d], dtype=np.int64),
            np.array([len(d) for d in docs]),
        ),
        (
            np.array([s for s, _ in other], dtype=np.int64),
            np.array([e for _, e in other], dtype=np.int64),
            np.array([len(other)] + [0] * (len(docs) - 1)),
        ),
    ]
    codes = np.concatenate(span_codes(sides))
    triples = [(d, s, e) for d, doc in enumerate(docs) for s, e in doc] + [(0, s, e) for s, e in other]
    for i, a in enumerate(triples):
        for j, b in enumerate(triples):
            assert (codes[i] == codes[j]) == (a == b)
            assert (codes[i] < codes[j]) == (a < b)


@pytest.mark.parametrize(
    "mention", [(0, 2**70), (0.0, 1.5), (1.0, 2.0), (True, 1), (None, 1), (-1, 3), (3, 1), (np.bool_(True), 2)]
)
def test_evaluator_refuses_a_pair_that_is_not_a_token_span(mention: object) -> None:
    for key, response in (([[mention, (5, 6)]], [[(5, 6)]]), ([[(5, 6)]], [[(5, 6)], [mention]])):
        ev = Evaluator()
        with pytest.raises(UsageError, match="is not a token span") as err:
            ev.update(key, response, name="doc")
        assert "\n" not in str(err.value) and "document 'doc'" in str(err.value) and repr(mention) in str(err.value)
        assert len(ev) == 0


def test_evaluator_still_takes_opaque_mentions_and_numpy_offsets() -> None:
    ev = Evaluator(["muc"])
    ev.update([["a", "b"], [(1, 2, 3)]], [["a", "b", (1, 2, 3)]])
    ev.update([[(np.int64(0), np.int32(1)), (3, 3)]], [[(0, 1), (3, 3)]])
    assert ev.result().counts[:, 4].tolist() == [1.0, 1.0]


def _state() -> tuple[np.ndarray, list[str], Evaluator]:
    ev = Evaluator()
    ev.update([[(0, 1), (3, 3)], [(5, 5)]], [[(0, 1), (3, 3), (5, 5)]])
    ev.update([[(0, 1), (3, 3), (7, 7)]], [[(0, 1)], [(3, 3), (7, 7)]])
    array, names = ev.state()
    return array, names, ev


@pytest.mark.parametrize(
    ("row", "field", "value"),
    [
        (0, "muc recall_num", -3.5),
        (1, "muc precision_num", float("nan")),
        (0, "bcub recall_den", float("inf")),
        (1, "blanc noncoref_recall_num", -1.0),
        (0, "muc recall_num", 0.5),  # MUC counts are whole
        (0, "muc recall_num", 9.0),  # above its denominator: an F1 above 1
        (1, "bcub precision_num", 1e9),
        (0, "digest 3", float("nan")),
        (1, "digest 0", 256.0),
    ],
)
def test_from_state_refuses_counts_no_evaluator_gives(row: int, field: str, value: float) -> None:
    array, names, ev = _state()
    columns = [f"{m.name} {f}" for m in ev._objects for f in m.fields]
    col = ev.width + int(field.split()[1]) if field.startswith("digest") else columns.index(field)
    array[row, col] = value
    with pytest.raises(UsageError, match=f"row {row} .*column {col} ") as err:
        Evaluator.from_state(array, names)
    assert "\n" not in str(err.value)


def test_from_state_takes_every_state_an_evaluator_gives() -> None:
    array, names, ev = _state()
    again = Evaluator.from_state(array, names).result()
    assert again.corpus == ev.result().corpus
    half = array.copy()
    half[1] = 0  # a worker's rows of documents it did not see
    Evaluator.from_state(half + (array - half), names)


# Parquet mention tables, on both engines.

GOOD = {"doc": ["a", "a", "a"], "start": [0, 1, 2], "end": [0, 1, 2], "entity": [1, 1, 2]}


def _bad_tables() -> list[tuple[str, dict, str]]:  # type: ignore[type-arg]
    pa = pytest.importorskip("pyarrow")
    return [
        ("null start", {**GOOD, "start": pa.array([0, None, 2], pa.int64())}, "row 1 .*column 'start' is empty"),
        ("negative start", {**GOOD, "start": [0, -1, 2]}, "row 1 .*column 'start' holds -1, a negative"),
        ("float end", {**GOOD, "end": [0.0, 1.5, 2.0]}, "row 1 .*column 'end' holds 1.5 \\(float64\\)"),
        ("whole floats", {**GOOD, "end": [0.0, 1.0, 2.0]}, "row 0 .*column 'end' holds 0.0 \\(float64\\)"),
        ("null entity", {**GOOD, "entity": pa.array([1, None, 2], pa.int64())}, "row 1 .*column 'entity' is empty"),
        ("null doc", {**GOOD, "doc": ["a", None, "a"]}, "row 1 .*column 'doc' is empty"),
        ("start after end", {**GOOD, "start": [0, 3, 2]}, "row 1 .*start 3 is after end 1"),
    ]


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_a_mention_table_with_a_bad_row_is_refused_naming_it(tmp_path: Path, engine: str) -> None:
    pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from corefeval.scoring.distributed.unit import score_unit_local

    good = tmp_path / "good.parquet"
    pq.write_table(pa.table(GOOD), good)
    if engine == "dask":
        pytest.importorskip("dask.dataframe")
        from corefeval.scoring.distributed import score_unit as scorer
    else:
        scorer = score_unit_local
    for name, table, message in _bad_tables():
        bad = tmp_path / f"{name.replace(' ', '_')}.parquet"
        pq.write_table(pa.table(table), bad)
        for key, response in ((str(good), str(bad)), (str(bad), str(good))):
            with pytest.raises(InputError, match=message) as err:
                scorer(key, response, ["muc"])
            assert str(err.value).startswith(f"{bad}: error: row "), name


def test_a_bad_mention_table_is_one_line_on_the_command_line(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    good, bad = tmp_path / "good.parquet", tmp_path / "bad.parquet"
    pq.write_table(pa.table(GOOD), good)
    pq.write_table(pa.table({**GOOD, "start": [0, -1, 2]}), bad)
    run = subprocess.run(
        [sys.executable, "-m", "corefeval", "score", str(good), str(bad), "-q"], capture_output=True, text=True
    )
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith(f"{bad}: error: row 1 (counting from 0): column 'start' holds -1")


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_a_unit_with_edge_offsets_counts_as_its_ranks(tmp_path: Path, engine: str) -> None:
    pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from corefeval.scoring.distributed.unit import score_unit_local

    if engine == "dask":
        pytest.importorskip("dask.dataframe")
        from corefeval.scoring.distributed import score_unit as scorer
    else:
        scorer = score_unit_local

    def table(path: Path, spans: list[tuple[int, int, int]]) -> str:
        pq.write_table(
            pa.table(
                {
                    "doc": ["a"] * len(spans),
                    "start": [s for s, _, _ in spans],
                    "end": [e for _, e, _ in spans],
                    "entity": [k for _, _, k in spans],
                }
            ),
            path,
        )
        return str(path)

    big_key = [(0, 2**32, 1), (5, 6, 1), (2**63 - 2, 2**63 - 1, 2)]
    big_response = [(2**31, 2**32, 1), (5, 6, 1), (2**63 - 2, 2**63 - 1, 1)]
    rank = {v: i for i, v in enumerate(sorted({x for s, e, _ in big_key + big_response for x in (s, e)}))}
    small_key = [(rank[s], rank[e], k) for s, e, k in big_key]
    small_response = [(rank[s], rank[e], k) for s, e, k in big_response]
    big = scorer(table(tmp_path / "bk.parquet", big_key), table(tmp_path / "br.parquet", big_response))
    small = scorer(table(tmp_path / "sk.parquet", small_key), table(tmp_path / "sr.parquet", small_response))
    assert np.array_equal(big.counts, small.counts)
    assert big.corpus["mentions"].recall_num == 2


@pytest.mark.parametrize("flags", [[], ["--engine", "dask", "-j", "1"]])
def test_offsets_past_32_bits_on_the_command_line(tmp_path: Path, flags: list[str]) -> None:
    """The corpus-wide pass, and one document at a time (the Dask documents engine)."""
    if flags:
        pytest.importorskip("distributed")
    docs = [(ISSUE_KEY, ISSUE_RESPONSE), (WRAP_KEY, WRAP_RESPONSE)]
    key = _write_jsonlines(tmp_path / "k.jsonl", docs, "clusters", 0)
    response = _write_jsonlines(tmp_path / "r.jsonl", docs, "predicted_clusters", 1)
    run = subprocess.run(
        [sys.executable, "-m", "corefeval", "score", key, response, "-q", "--format", "json", *flags],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    small = _small(docs)
    expected = score(
        _write_jsonlines(tmp_path / "sk.jsonl", small, "clusters", 0),
        _write_jsonlines(tmp_path / "sr.jsonl", small, "predicted_clusters", 1),
    )
    assert json.loads(run.stdout)["corpus"]["conll"]["f1"] == expected.corpus["conll"].f1
