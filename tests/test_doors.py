"""Every door gives ``corefeval.score``'s numbers: random corpora through the command line's
``score``, ``leaderboard`` and ``compare``, the documents engine, and the ``Evaluator``, with the
same options, in the twelve CorefUD modes, and on generated CoNLL-2012 corpora (the in-memory
door too)."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import chain
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corefeval import Evaluator, read, score, score_variants
from corefeval.cli import main
from corefeval.distributed.documents import score_by_documents
from corefeval.options import Options
from corefeval.results import ScoreResult

from .conftest import SHARED
from .corefud_generator import render, seeded_pair

GENERATOR = SHARED / "tools" / "make_synthetic_conll.py"

MODES = [(m, s, z) for m in ("exact", "partial", "head") for s in ("keep", "remove") for z in ("include", "dependent")]
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "conll")
SEEDS = [0, 1, 2, 3, 9, 10]  # 9 and 10: BLANC of a CorefUD key in its boundary case


@pytest.fixture(scope="module", params=SEEDS)
def pair(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp(f"doors{request.param}")
    generated = seeded_pair(request.param)
    key, response = folder / "key.conllu", folder / "response.conllu"
    key.write_text(render(generated, "key"), encoding="utf-8")
    response.write_text(render(generated, "response"), encoding="utf-8")
    return str(key), str(response)


def options(mode: tuple[str, str, str], metrics: tuple[str, ...] = ("all",)) -> Options:
    match, singletons, zeros = mode
    return Options(metrics=metrics, match=match, singletons=singletons, zeros=zeros)


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    capsys.readouterr()
    assert main([*argv, "--format", "json", "-q"]) == 0
    return json.loads(capsys.readouterr().out)


def f1(result: ScoreResult, metric: str) -> float:
    return float(result[metric].f1)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("mode", MODES, ids="/".join)
def test_the_documents_engine_gives_every_count(pair: tuple[str, str], mode: tuple[str, str, str]) -> None:
    plain = score(*pair, options=options(mode))
    engine = score_by_documents(*pair, options(mode))
    assert np.array_equal(engine.counts, plain.counts)
    assert engine.signature == plain.signature


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_leaderboard_gives_each_mode_the_score_of_score(
    pair: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    for metric in METRICS:
        board = cli_json(capsys, "leaderboard", "--pair", "d", *pair, "--modes", "all", "-m", metric)
        (row,) = [r for r in board["rows"] if r["name"] == "d"]
        for mode in MODES:
            expected = f1(score(*pair, options=options(mode, (metric,))), metric)
            assert row["scores"]["/".join(mode)]["f1"] == pytest.approx(expected, abs=1e-12), (metric, mode)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("mode", [MODES[0], MODES[-1], MODES[5]], ids="/".join)
def test_score_and_compare_on_the_command_line_give_the_counts_of_the_api(
    pair: tuple[str, str], mode: tuple[str, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    match, singletons, zeros = mode
    flags = ["--match", match, "--singletons", singletons, "--zeros", zeros]
    expected = score(*pair, options=options(mode)).to_dict()["corpus"]
    assert cli_json(capsys, "score", *pair, *flags)["corpus"] == expected
    compared = cli_json(capsys, "compare", pair[0], pair[1], pair[1], *flags, "--resamples", "10", "--rounds", "10")
    for system in compared["systems"]:
        for metric, values in system["scores"].items():
            assert values == expected[metric], (metric, system["name"])


@pytest.fixture(scope="module", params=[3, 8])
def conll_pair(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A generated CoNLL-2012 corpus: several documents, singletons, repeated and crossing spans."""
    folder = tmp_path_factory.mktemp(f"conll{request.param}")
    key, response = folder / "key.conll", folder / "response.conll"
    options = ["--seed", str(request.param), "--docs", "12", "--mentions", "600", "--key-singletons", "0.1"]
    out = ["--out-key", str(key), "--out-response", str(response), "--summary", str(folder / "summary.json")]
    subprocess.run([sys.executable, str(GENERATOR), *options, *out], check=True, capture_output=True)
    return str(key), str(response)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_conll_files_give_the_same_counts_through_every_door(
    conll_pair: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    plain = score(*conll_pair)
    assert np.array_equal(score_by_documents(*conll_pair, Options()).counts, plain.counts)
    key, response = read(conll_pair[0]), read(conll_pair[1], role="response")
    evaluator = Evaluator()
    by_name = {d.name: d for d in response.documents}
    for doc in key.documents:
        evaluator.update(doc.clusters(), by_name[doc.name].clusters(), doc.name)
    assert np.array_equal(evaluator.result().counts, plain.counts)
    compared = cli_json(capsys, "compare", *conll_pair, conll_pair[1], "--resamples", "10", "--rounds", "10")
    expected = plain.to_dict()["corpus"]
    assert all(system["scores"] == expected for system in compared["systems"])
    without = score(*conll_pair, options=Options(singletons="remove"))
    assert np.array_equal(score_by_documents(*conll_pair, Options(singletons="remove")).counts, without.counts)
    variants = score_variants(*conll_pair, [Options(), Options(singletons="remove")])
    assert [v.counts.tolist() for v in variants] == [plain.counts.tolist(), without.counts.tolist()]


#: A key span in two entities (``(9,10)`` in the second and fourth): the reference scorer
#: (``scorer.pl bcub`` on these clusters written as CoNLL-2012) gives B-cubed recall 2 / 6.
REPEATED_KEY = [[(3, 5)], [(9, 10)], [(10, 10)], [(9, 10), (7, 8)], [(11, 11)]]
REPEATED_RESPONSE = [[(6, 8), (9, 10)], [(2, 2)], [(8, 8), (3, 3)], [(11, 11)]]


def test_a_key_span_in_two_entities_scores_as_the_reference_in_every_door(tmp_path) -> None:
    from corefeval.model import Corpus, make_document
    from corefeval.writers import render as write_text

    paths = {}
    for side, clusters, field in (("k", REPEATED_KEY, "clusters"), ("r", REPEATED_RESPONSE, "predicted_clusters")):
        text, notes = write_text(Corpus(side, [make_document("d0", clusters, 12)]), "conll2012")
        assert notes == []
        paths[side, "conll"] = tmp_path / f"{side}.conll"
        paths[side, "conll"].write_text(text)
        paths[side, "jsonl"] = tmp_path / f"{side}.jsonl"
        paths[side, "jsonl"].write_text(json.dumps({"doc_key": "d0", field: [[list(s) for s in c] for c in clusters]}))
    with pytest.warns(Warning):
        conll = score(str(paths["k", "conll"]), str(paths["r", "conll"]), metrics=["bcub"])["bcub"]
    assert (conll.recall_num, conll.recall_den) == (2.0, 6.0)  # the reference's
    ev = Evaluator(["bcub"])
    ev.update(REPEATED_KEY, REPEATED_RESPONSE, "d0")
    with pytest.warns(Warning):
        jsonl = score(str(paths["k", "jsonl"]), str(paths["r", "jsonl"]), metrics=["bcub"])["bcub"]
    assert ev.result()["bcub"].to_dict() == conll.to_dict() == jsonl.to_dict()


Span = tuple[int, int]
Clusters = list[list[Span]]


def _crosses(a: Span, b: Span) -> bool:
    return a[0] < b[0] <= a[1] < b[1] or b[0] < a[0] <= b[1] < a[1]


@st.composite
def clusterings(draw: st.DrawFn, n_tokens: int) -> Clusters:
    """Clusters of overlapping spans, a span in two clusters, a span twice in one, singletons and
    empty clusters (none at all: an empty side); spans of one cluster never cross, which CoNLL-2012
    brackets cannot hold. Fewer than ten clusters: a CoNLL-2012 file orders brackets of one token
    by their entity numbers' text."""
    span = st.tuples(st.integers(0, n_tokens - 1), st.integers(0, 3)).map(
        lambda p: (p[0], min(p[0] + p[1], n_tokens - 1))
    )
    out: Clusters = []
    for raw in draw(st.lists(st.lists(span, max_size=5), max_size=6)):
        cluster: list[Span] = []
        for s in raw:
            if not any(_crosses(s, t) for t in cluster):
                cluster.append(s)
        out.append(cluster)
    return out


@st.composite
def corpora(draw: st.DrawFn) -> list[tuple[int, Clusters, Clusters]]:
    sizes = draw(st.lists(st.integers(1, 12), min_size=1, max_size=4))
    return [(n, draw(clusterings(n)), draw(clusterings(n))) for n in sizes]


def _files(folder: Path, docs: list[tuple[int, Clusters, Clusters]]) -> dict[tuple[str, str], str]:
    """The corpus as CoNLL-2012 and as jsonlines, key and response."""
    from corefeval.model import Corpus, make_document
    from corefeval.writers import render as write_text

    paths = {}
    for side, field in ((1, "clusters"), (2, "predicted_clusters")):
        corpus = Corpus(str(side), [make_document(f"d{i}", doc[side], doc[0]) for i, doc in enumerate(docs)])
        text, notes = write_text(corpus, "conll2012")
        assert notes == []
        paths[field, "conll"] = folder / f"{field}.conll"
        paths[field, "conll"].write_text(text)
        lines = [
            json.dumps(
                {"doc_key": f"d{i}", "sentences": [["w"] * doc[0]], field: [[list(s) for s in c] for c in doc[side]]}
            )
            for i, doc in enumerate(docs)
        ]
        paths[field, "jsonl"] = folder / f"{field}.jsonl"
        paths[field, "jsonl"].write_text("\n".join(lines) + "\n")
    return {k: str(v) for k, v in paths.items()}


@pytest.mark.filterwarnings("ignore::UserWarning")
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(corpora())
def test_clusters_give_the_counts_of_their_conll_file_through_every_door(
    tmp_path: Path, docs: list[tuple[int, Clusters, Clusters]]
) -> None:
    """Repeated spans included, every count through every door that takes clusters is the count of
    the same clusters written as CoNLL-2012, bit for bit."""
    from corefeval.training import CorefEvaluator

    paths = _files(tmp_path, docs)
    conll = score(paths["clusters", "conll"], paths["predicted_clusters", "conll"])
    jsonl = score(paths["clusters", "jsonl"], paths["predicted_clusters", "jsonl"])
    one_by_one, at_once, training = Evaluator("all"), Evaluator("all"), CorefEvaluator()
    for i, (_, key, response) in enumerate(docs):
        one_by_one.update(key, response, f"d{i}")
        one_by_one.result()  # counted now, on its own
        training.update(response, key)
    at_once.update_many([(key, response, f"d{i}") for i, (_, key, response) in enumerate(docs)])
    for door in (jsonl, one_by_one.result(), at_once.result()):
        assert np.array_equal(door.counts, conll.counts)
        assert door.document_names == conll.document_names
    assert jsonl.document_digests == one_by_one.result().document_digests == at_once.result().document_digests
    for i, (_, key, _) in enumerate(docs):
        if len(set(chain.from_iterable(key))) == len(list(chain.from_iterable(map(set, key)))):
            assert jsonl.document_digests[i] == conll.document_digests[i]  # no span in two entities
    trained = training.result()
    for metric in ("muc", "bcub", "ceafe", "mentions"):
        assert np.array_equal(trained.counts[:, trained.columns[metric]], conll.counts[:, conll.columns[metric]])
