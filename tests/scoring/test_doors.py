"""Every door gives ``corefeval.score``'s numbers: random corpora through the command line's
``score``, ``leaderboard`` and ``compare``, the documents engine, and the ``Evaluator``, with the
same options, in the twelve CorefUD modes, and on generated CoNLL-2012 corpora (the in-memory
door too)."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from itertools import chain
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import corefeval.metrics
from corefeval import Evaluator, read, score, score_variants
from corefeval.cli import main
from corefeval.core.options import Options
from corefeval.scoring.distributed.documents import score_by_documents
from corefeval.scoring.results import ScoreResult

from ..conftest import SHARED
from ..corefud_generator import render, seeded_pair

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
    from corefeval.core.model import Corpus, make_document
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
    brackets cannot hold. Up to twelve clusters: ten or more have two-digit numbers, which the
    writer orders as their entities are ordered, not by text."""
    span = st.tuples(st.integers(0, n_tokens - 1), st.integers(0, 3)).map(
        lambda p: (p[0], min(p[0] + p[1], n_tokens - 1))
    )
    out: Clusters = []
    for raw in draw(st.lists(st.lists(span, max_size=5), max_size=12)):
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
    from corefeval.core.model import Corpus, make_document
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
    for i, (_, key, response) in enumerate(docs):  # the plain functions, a document at a time
        for metric in ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions"):
            s = getattr(corefeval.metrics, metric)(key, response)
            row = conll.counts[i, conll.columns[metric]]
            assert [s.recall_num, s.recall_den, s.precision_num, s.precision_den] == row.tolist(), metric


#: Seeded documents in which a span is in two entities (key, response or both), and the reference
#: scorer's totals on them written as CoNLL-2012 (``python -m tests.scoring.test_doors`` records them).
REFERENCE_CASES = Path(__file__).resolve().parent.parent / "data" / "reference_repeated_spans.json"
REFERENCE_METRICS = ("muc", "bcub", "ceafm", "ceafe")


def seeded_case(seed: int) -> tuple[int, Clusters, Clusters]:
    """Clusters over a few words with a span copied into a second cluster on each side."""
    rng = random.Random(seed)
    n = rng.randint(6, 14)

    def side() -> Clusters:
        clusters: Clusters = []
        for _ in range(rng.randint(2, 6)):
            cluster: list[Span] = []
            for _ in range(rng.randint(1, 4)):
                s = rng.randrange(n)
                span = (s, min(n - 1, s + rng.choice((0, 0, 1, 2, 3))))
                if not any(_crosses(span, t) for t in cluster):
                    cluster.append(span)
            clusters.append(cluster)
        source, target = rng.sample(range(len(clusters)), 2)
        copied = rng.choice(clusters[source])
        if not any(_crosses(copied, t) for t in clusters[target]):
            clusters[target].insert(rng.randint(0, len(clusters[target])), copied)
        return clusters

    return n, side(), side()


def reference_scorer_path() -> Path | None:
    """The reference scorer named by ``COREFEVAL_REFERENCE_SCORER``, else one at /tmp/refscorer."""
    from ..reference_scorer import scorer

    found = scorer()
    fallback = Path("/tmp/refscorer/scorer.pl")
    return found or (fallback if fallback.exists() and shutil.which("perl") else None)


def reference_totals(perl_scorer: Path, folder: Path, case: tuple[int, Clusters, Clusters]) -> dict[str, list[float]]:
    """The reference scorer's recall and precision numerators and denominators, by metric."""
    from ..reference_scorer import run, totals_line

    paths = _files(folder, [case])
    out = {}
    for metric in REFERENCE_METRICS:
        line = totals_line(run(perl_scorer, metric, paths["clusters", "conll"], paths["predicted_clusters", "conll"]))
        found = re.findall(r"\(([0-9.e+-]+) / ([0-9.e+-]+)\)", line)
        out[metric] = [float(x) for pair in found[:2] for x in pair]
    return out


def _recorded() -> list[dict]:
    return json.loads(REFERENCE_CASES.read_text())["cases"]


def _counts_of(result: ScoreResult, metric: str) -> list[float]:
    s = result[metric]
    return [s.recall_num, s.recall_den, s.precision_num, s.precision_den]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("case", _recorded(), ids=lambda c: f"seed{c['seed']}")
def test_a_span_in_two_entities_scores_as_the_recorded_reference(tmp_path: Path, case: dict) -> None:
    """The Evaluator, a jsonlines file and a CoNLL-2012 file give the reference scorer's totals."""
    n, key, response = seeded_case(case["seed"])
    assert [[list(s) for s in c] for c in key] == case["key"]  # the generator still makes the recorded case
    paths = _files(tmp_path, [(n, key, response)])
    ev = Evaluator(REFERENCE_METRICS)
    ev.update(key, response, "d0")
    doors = (
        ev.result(),
        score(paths["clusters", "jsonl"], paths["predicted_clusters", "jsonl"]),
        score(paths["clusters", "conll"], paths["predicted_clusters", "conll"]),
    )
    for door in doors:
        for metric in REFERENCE_METRICS:
            assert _counts_of(door, metric) == pytest.approx(case["reference"][metric], rel=1e-12), metric
    for metric in REFERENCE_METRICS:  # the plain functions on clusters of spans
        s = getattr(corefeval.metrics, metric)(key, response)
        counts = [s.recall_num, s.recall_den, s.precision_num, s.precision_den]
        assert counts == pytest.approx(case["reference"][metric], rel=1e-12), metric


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.skipif(reference_scorer_path() is None, reason="no reference scorer (COREFEVAL_REFERENCE_SCORER)")
def test_the_recorded_reference_totals_are_the_reference_scorers_today(tmp_path: Path) -> None:
    perl_scorer = reference_scorer_path()
    assert perl_scorer is not None
    for case in _recorded():
        totals = reference_totals(perl_scorer, tmp_path, seeded_case(case["seed"]))
        for metric in REFERENCE_METRICS:
            assert totals[metric] == pytest.approx(case["reference"][metric], rel=1e-12), (case["seed"], metric)


if __name__ == "__main__":
    import tempfile

    perl_scorer = reference_scorer_path()
    if perl_scorer is None:
        raise SystemExit("set COREFEVAL_REFERENCE_SCORER to a checkout of the reference scorer (and install perl)")
    cases = []
    with tempfile.TemporaryDirectory() as directory:
        for seed in range(12):
            n, key, response = seeded_case(seed)
            totals = reference_totals(perl_scorer, Path(directory), (n, key, response))
            cases.append({"seed": seed, "key": key, "response": response, "reference": totals})
    what = "the reference scorer v8.01 (perl scorer.pl METRIC KEY RESPONSE) on seeded_case(seed) written as CoNLL-2012"
    lines = ",\n".join(json.dumps(case) for case in cases)  # one case a line
    REFERENCE_CASES.write_text(f'{{"what": {json.dumps(what)}, "cases": [\n{lines}\n]}}\n')
    print(f"wrote {REFERENCE_CASES}")
