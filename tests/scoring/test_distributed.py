"""The Dask engine gives the local scorer's counts: documents by partitions, one Parquet unit, and
after a worker dies mid-run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("distributed")
pytest.importorskip("dask.dataframe")
pytest.importorskip("pyarrow")

from corefeval.core.diagnostics import InputError  # noqa: E402
from corefeval.core.model import Corpus, make_document  # noqa: E402
from corefeval.core.options import Options  # noqa: E402
from corefeval.readers import read  # noqa: E402
from corefeval.scoring.distributed import score_documents, score_unit, score_unit_local  # noqa: E402
from corefeval.scoring.distributed.tables import conll_to_unit_table  # noqa: E402
from corefeval.scoring.pipeline import score, score_with  # noqa: E402
from corefeval.scoring.results import ScoreResult  # noqa: E402
from corefeval.writers import render  # noqa: E402

from ..conftest import SHARED  # noqa: E402
from ..readers.noisy import noisy_corpus  # noqa: E402

GENERATOR = SHARED / "tools" / "make_synthetic_conll.py"


@pytest.fixture(scope="module")
def client() -> Any:
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as c,
    ):
        yield c


def generate(tmp: Path, name: str, *args: str) -> tuple[str, str]:
    key, response = tmp / f"{name}.key", tmp / f"{name}.response"
    out = ["--out-key", str(key), "--out-response", str(response), "--summary", str(tmp / f"{name}.json")]
    subprocess.run([sys.executable, str(GENERATOR), *args, *out], check=True)
    return str(key), str(response)


@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory, shared: Path) -> dict[str, tuple[str, str]]:
    """Benchmark-like corpora, small: many documents, and parts meant to be merged into one unit."""
    tmp = tmp_path_factory.mktemp("dask")
    return {
        "corpus": generate(tmp, "c60", "--seed", "2012", "--docs", "60", "--mentions", "3000"),
        "parts": generate(tmp, "p8", "--seed", "7", "--docs", "8", "--mentions", "6000", "--max-entity-size", "400"),
    }


def assert_same_counts(local: ScoreResult, dask: ScoreResult) -> None:
    """Every count equal to the last bit (CEAF's components are added in the local scorer's order),
    except B-cubed's numerators: the local scorer adds them mention by mention, in the reference's
    order, and the Dask engine cell by cell (its client never holds the mentions), so they agree to
    the last few bits only."""
    assert local.counts.shape == dask.counts.shape
    loose = np.zeros(local.counts.shape[1], dtype=bool)
    if "bcub" in local.columns:
        start = local.columns["bcub"].start
        loose[[start, start + 2]] = True
    assert np.array_equal(local.counts[:, ~loose], dask.counts[:, ~loose])
    assert np.allclose(local.counts[:, loose], dask.counts[:, loose], rtol=1e-12, atol=0)


def to_tables(tmp: Path, key: str, response: str) -> tuple[str, str]:
    k, r = str(tmp / "key.parquet"), str(tmp / "response.parquet")
    conll_to_unit_table(key, k)
    conll_to_unit_table(response, r)
    return k, r


def test_documents_by_partitions_equal_the_local_scorer(client: Any, corpora: dict[str, tuple[str, str]]) -> None:
    key, response = corpora["corpus"]
    local, dask = score(key, response), score_documents(key, response)
    assert np.array_equal(local.counts, dask.counts)
    assert local.signature == dask.signature and local.document_names == dask.document_names


def test_unit_equals_the_local_scorer(client: Any, corpora: dict[str, tuple[str, str]], tmp_path: Path) -> None:
    k, r = to_tables(tmp_path, *corpora["parts"])
    local, dask = score_unit_local(k, r), score_unit(k, r)
    assert_same_counts(local, dask)
    assert local.signature == dask.signature
    import pyarrow.parquet as pq

    assert local.counts[0, 1] == pq.read_metadata(k).num_rows  # every key mention is in the one unit


def test_unit_table_from_conll_scores_like_the_merged_document(
    corpora: dict[str, tuple[str, str]], tmp_path: Path
) -> None:
    """Writing one document's table and scoring it as a unit gives that document's counts."""
    key, response = corpora["corpus"]
    plain = score(key, response)
    first = plain.document_names[0]
    one = score(key, response, doc=first)
    k_corpus = Corpus(key, [d for d in _read(key) if d.name == first])
    r_corpus = Corpus(response, [d for d in _read(response) if d.name == first])
    kp, rp = tmp_path / "k.conll", tmp_path / "r.conll"
    kp.write_text(render(k_corpus, "conll2012")[0])
    rp.write_text(render(r_corpus, "conll2012")[0])
    assert np.array_equal(one.counts, score_unit_local(*to_tables(tmp_path, str(kp), str(rp))).counts)


def _read(path: str) -> list[Any]:
    from corefeval.readers import read

    return read(path).documents


# Units: mentions are (doc, start, end) over a few documents and short spans, entities a few labels,
# so that repeated spans (in one entity or two), twinless mentions and singletons are frequent.
mention = st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(0, 6), st.integers(0, 2), st.integers(0, 5))


def write_table(path: Path, rows: list[tuple[str, int, int, int]]) -> str:
    import pyarrow as pa
    import pyarrow.parquet as pq

    docs, starts, widths, entities = zip(*rows) if rows else ((), (), (), ())
    table = pa.table(
        {
            "doc": pa.array(docs, pa.string()),
            "start": pa.array(starts, pa.int64()),
            "end": pa.array([s + w for s, w in zip(starts, widths)], pa.int64()),
            "entity": pa.array(entities, pa.int64()),
        }
    )
    pq.write_table(table, path, row_group_size=7)  # several row groups: several partitions
    return str(path)


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_units_equal_the_local_scorer(client: Any, tmp_path: Path, data: st.DataObject) -> None:
    """Key mentions distinct (the distributed table) or repeated (scored exactly on the client);
    response copies of key mentions in several entities (resolved by the pre-pass), or anything."""
    key = data.draw(
        st.one_of(st.lists(mention, max_size=30, unique_by=lambda m: m[:3]), st.lists(mention, max_size=30))
    )
    copy = st.tuples(st.sampled_from(key), st.integers(0, 5)).map(lambda c: (*c[0][:3], c[1])) if key else mention
    response = data.draw(st.one_of(st.lists(copy, max_size=30), st.lists(mention, max_size=30)))
    k, r = write_table(tmp_path / "k.parquet", key), write_table(tmp_path / "r.parquet", response)
    assert_same_counts(score_unit_local(k, r), score_unit(k, r))


document = st.lists(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 2)), min_size=1, max_size=4), max_size=4)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(docs=st.lists(st.tuples(document, document), min_size=1, max_size=5))
def test_generated_documents_equal_the_local_scorer(client: Any, tmp_path: Path, docs: list[Any]) -> None:
    """Documents with and without mentions, repeated spans and singletons, scored by partitions."""

    def corpus(path: Path, side: int) -> str:
        documents = [
            make_document(f"d{i}", [[(s, s + w) for s, w in cluster] for cluster in pair[side]], n_tokens=12)
            for i, pair in enumerate(docs)
        ]
        path.write_text(render(Corpus(str(path), documents), "conll2012")[0])
        return str(path)

    key, response = corpus(tmp_path / "k.conll", 0), corpus(tmp_path / "r.conll", 1)
    local, dask = score(key, response), score_documents(key, response)
    assert np.array_equal(local.counts, dask.counts) and local.signature == dask.signature


def test_a_worker_killed_mid_run_is_replaced_and_the_counts_are_unchanged(
    client: Any, corpora: dict[str, tuple[str, str]]
) -> None:
    key, response = corpora["corpus"]
    expected = score(key, response)
    pids = client.run(os.getpid)
    done: dict[str, Any] = {}
    runner = threading.Thread(target=lambda: done.setdefault("result", score_documents(key, response)))
    runner.start()
    deadline = time.monotonic() + 60
    while not any(client.processing().values()):
        assert time.monotonic() < deadline and runner.is_alive(), "no task started"
        time.sleep(0.01)
    victim = next(address for address, tasks in client.processing().items() if tasks)
    os.kill(pids[victim], signal.SIGKILL)
    killed_mid_run = runner.is_alive()
    runner.join(timeout=120)
    assert killed_mid_run and "result" in done
    assert np.array_equal(done["result"].counts, expected.counts)
    client.wait_for_workers(2, timeout=60)


def test_command_line_dask_engine_on_a_unit(corpora: dict[str, tuple[str, str]], tmp_path: Path) -> None:
    k, r = to_tables(tmp_path, *corpora["parts"])
    argv = [sys.executable, "-m", "corefeval", "score", k, r, "--format", "csv", "-m", "muc,bcub"]
    local = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    dask = subprocess.run([*argv, "--engine", "dask", "-j", "2"], capture_output=True, text=True, check=True).stdout
    assert local.splitlines()[:3] == dask.splitlines()[:3] and "MUC" in local.upper()  # signature, header, MUC
    got, want = (np.array(out.splitlines()[3].split(",")[3:], dtype=float) for out in (dask, local))
    assert np.allclose(got, want, rtol=1e-12, atol=0)  # B-cubed: its numerators added cell by cell


def test_repeated_response_copies_of_a_key_mention_keep_the_earliest_entity(client: Any, tmp_path: Path) -> None:
    """("a", 0, 0) is in response entities 3 and 4: the copy in entity 3 (first seen) is kept and the
    other dropped; ("a", 2, 2) likewise. Six response rows, four distinct mentions."""
    key = [("a", 0, 0, 1), ("a", 1, 1, 1), ("a", 2, 2, 2), ("b", 0, 0, 2)]
    response = [("a", 0, 0, 3), ("a", 0, 0, 4), ("a", 1, 1, 4), ("a", 2, 2, 3), ("b", 0, 0, 3), ("a", 2, 2, 5)]
    k, r = write_table(tmp_path / "k.parquet", key), write_table(tmp_path / "r.parquet", response)
    local, dask = score_unit_local(k, r), score_unit(k, r)
    assert_same_counts(local, dask)
    assert tuple(dask.counts[0, :4]) == (4, 4, 4, 4)  # mentions: every distinct mention found
    assert tuple(dask.counts[0, 4:8]) == (1, 2, 1, 2)  # MUC: entity 3 holds a0 (key 1) and a2, b0 (key 2)


def test_a_file_that_is_not_a_mention_table_is_refused_in_one_line(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"doc": ["a"], "start": [0]}), bad)
    for path in (str(bad), str(tmp_path / "absent.parquet")):
        run = subprocess.run([sys.executable, "-m", "corefeval", "score", path, path], capture_output=True, text=True)
        assert run.returncode != 0 and "Traceback" not in run.stderr
        assert run.stderr.startswith(f"{path}: error: expected a Parquet mention table")


@pytest.fixture(scope="module")
def gum(tmp_path_factory: pytest.TempPathFactory, shared: Path) -> dict[str, tuple[str, str]]:
    """GUM Reddit's training file (CorefUD, as distributed) against a noisy response, the same
    documents as jsonlines, and a CoNLL-2012 key against the jsonlines response."""
    tmp = tmp_path_factory.mktemp("gum")
    key = SHARED / "realdata" / "gum-reddit-corefud" / "en_gumreddit-ud-train.conllu"
    gold = read(str(key))
    noisy = noisy_corpus(gold, gold.sentences)
    response = tmp / "noisy.conllu"
    response.write_text(render(noisy, "corefud")[0])
    out = {"corefud": (str(key), str(response))}
    for name, corpus in (("key", gold), ("response", noisy)):
        (tmp / f"{name}.jsonl").write_text(render(corpus, "jsonlines")[0])
    out["jsonlines"] = (str(tmp / "key.jsonl"), str(tmp / "response.jsonl"))
    (tmp / "key.conll").write_text(render(gold, "conll2012")[0])
    out["mixed"] = (str(tmp / "key.conll"), str(tmp / "response.jsonl"))
    return out


@pytest.mark.parametrize(
    ("fmt", "options"),
    [
        ("corefud", Options()),
        ("corefud", Options(match="head", singletons="remove")),
        ("corefud", Options(match="partial", zeros="exclude", metrics=("muc", "lea", "conll"))),
        ("jsonlines", Options(pad_key=True, blanc="paper")),
        ("jsonlines", Options(singletons="remove", key_format="jsonlines", response_format="jsonlines")),
        ("mixed", Options(lenient=True, metrics=("ceafe", "ceafm"))),
    ],
)
def test_documents_of_every_format_take_every_option(
    client: Any, gum: dict[str, tuple[str, str]], fmt: str, options: Options
) -> None:
    key, response = gum[fmt]
    local, dask = score_with(key, response, options), score_documents(key, response, options=options)
    assert np.array_equal(local.counts, dask.counts)
    assert local.signature == dask.signature and local.document_names == dask.document_names
    assert sorted(map(str, local.warnings)) == sorted(map(str, dask.warnings))


def test_command_line_dask_engine_on_corefud_documents_with_options(gum: dict[str, tuple[str, str]]) -> None:
    key, response = gum["corefud"]
    argv = [sys.executable, "-m", "corefeval", "score", key, response, "--format", "csv", "--per-doc"]
    argv += ["--match", "head", "--singletons", "remove", "-m", "muc,bcub,lea"]
    local = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    dask = subprocess.run([*argv, "--engine", "dask", "-j", "2"], capture_output=True, text=True, check=True).stdout
    assert local == dask and local.count("\n") > 14  # a row per document


REFUSED = [
    (["--singletons", "remove"], "singletons=remove (--singletons remove)"),
    (["--match", "head"], "match=head (--match head)"),
    (["--match", "partial"], "match=partial (--match partial)"),
    (["--zeros", "exclude"], "zeros=exclude (--zeros exclude)"),
    (["--pad-key"], "pad_key (--pad-key)"),
    (["--lenient"], "lenient (--lenient)"),
    (["--match", "min"], "match=min (--match min)"),
    (["--np-only"], "np_only (--np-only)"),
    (["--remove-nested"], "remove_nested (--remove-nested)"),
]


@pytest.mark.parametrize(("flags", "named"), REFUSED)
def test_a_unit_refuses_the_options_it_cannot_honour(tmp_path: Path, flags: list[str], named: str) -> None:
    k = write_table(tmp_path / "k.parquet", [("a", 0, 0, 1)])
    r = write_table(tmp_path / "r.parquet", [("a", 0, 0, 2)])
    for engine in ("local", "dask"):
        argv = [sys.executable, "-m", "corefeval", "score", k, r, "--engine", engine, *flags]
        run = subprocess.run(argv, capture_output=True, text=True)
        assert run.returncode == 1 and "Traceback" not in run.stderr
        assert run.stderr.startswith(f"{k}: error: option {named} cannot be applied to a Parquet mention table")
        assert run.stderr.count("\n") == 1


def test_the_unit_functions_refuse_them_too_and_take_metrics_and_blanc(client: Any, tmp_path: Path) -> None:
    k = write_table(tmp_path / "k.parquet", [("a", 0, 0, 1), ("a", 1, 1, 1), ("b", 0, 0, 2)])
    r = write_table(tmp_path / "r.parquet", [("a", 0, 0, 2), ("a", 1, 1, 3), ("b", 0, 0, 2)])
    for scorer in (score_unit_local, score_unit):
        with pytest.raises(InputError, match="option match=head"):
            scorer(k, r, options=Options(match="head"))
    chosen = Options(metrics=("muc", "blanc"), blanc="paper")
    local, dask = score_unit_local(k, r, options=chosen), score_unit(k, r, options=chosen)
    assert np.array_equal(local.counts, dask.counts) and "blanc:paper" in dask.signature
    assert list(dask.corpus) != list(score_unit(k, r).corpus)


def test_importing_the_package_does_not_import_dask() -> None:
    code = "import sys, corefeval.scoring.distributed, corefeval.cli.score; print('dask' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
