"""The spaCy scorer: ``Example`` objects give the numbers ``corefeval score`` gives for the same
documents written as CoNLL-2012, and spaCy finds the scorer by name through its entry point."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import corefeval
from corefeval import Evaluator
from corefeval.cli import main
from corefeval.core.diagnostics import CorefevalWarning, UsageError
from corefeval.integrations.spacy_scorer import NAME, corpora, make_coref_scorer, score_examples
from corefeval.writers import render

spacy = pytest.importorskip("spacy")
tomllib = pytest.importorskip("tomllib")  # Python 3.11
from spacy.tokens import Doc  # noqa: E402
from spacy.training import Example  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WORDS = ("John", "saw", "Mary", ".", "He", "said", "she", "was", "happy", "and", "the", "house", "left", ",")
NLP = spacy.blank("en")


def _doc(words: list[str], groups: list[list[tuple[int, int]]]) -> Doc:
    doc = Doc(NLP.vocab, words=words)
    for i, group in enumerate(groups, 1):
        doc.spans[f"coref_clusters_{i}"] = [doc[s:e] for s, e in group]
    return doc


def _groups(rng: random.Random, n: int) -> list[list[tuple[int, int]]]:
    """Clusters of spans (``end`` exclusive, as spaCy's), nested ones, singletons and spans in two
    clusters among them; no two spans of a cluster cross (CoNLL-2012 cannot write them)."""
    groups = []
    for _ in range(rng.randint(0, 6)):
        spans: set[tuple[int, int]] = set()
        for _ in range(rng.randint(1, 4)):
            start = rng.randrange(n)
            span = (start, min(n, start + rng.randint(1, 3)))
            if not any(s < span[0] < e < span[1] or span[0] < s < span[1] < e for s, e in spans):
                spans.add(span)
        groups.append(sorted(spans))
    return groups


def _examples(seed: int, repeats: bool = True) -> list[Example]:
    """Seeded examples: the predicted side keeps, drops, moves and adds the reference's clusters;
    ``repeats``: a span may be in two clusters."""
    rng = random.Random(seed)
    out = []
    for _ in range(rng.randint(1, 4)):
        words = [rng.choice(WORDS) for _ in range(rng.randint(5, 40))]
        gold = _groups(rng, len(words))
        pred = [g for g in gold if rng.random() < 0.6] + _groups(rng, len(words))
        rng.shuffle(pred)
        if not repeats:
            gold, pred = _once(gold), _once(pred)
        out.append(Example(_doc(words, pred), _doc(words, gold)))
    return out


def _once(groups: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """The clusters with each span in its first cluster only."""
    seen: set[tuple[int, int]] = set()
    out = []
    for group in groups:
        out.append([s for s in group if s not in seen])
        seen.update(group)
    return out


def _cli_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], examples: list[Example], metric: str
) -> dict[str, dict[str, float]]:
    """``corefeval score --format json`` on the examples written as CoNLL-2012 by corefeval's writer."""
    key, response = corpora(examples)
    paths = []
    for corpus, name in ((key, "key.conll"), (response, "response.conll")):
        path = tmp_path / name
        path.write_text(render(corpus, "conll2012")[0], encoding="utf-8")
        paths.append(str(path))
    capsys.readouterr()
    assert main(["score", *paths, "-m", "all", "-m", metric, "--format", "json", "-q"]) == 0
    return json.loads(capsys.readouterr().out)["corpus"]


def _in_file_order(examples: list[Example], tmp_path: Path) -> list[Example]:
    """The examples with their span groups in the order a CoNLL-2012 file of them presents their
    entities (where a span is in two clusters, the file scorer keeps the entity it saw first, the
    in-memory doors the earlier cluster)."""
    out = []
    for example in examples:
        docs = []
        for doc in (example.predicted, example.reference):
            groups = [[(s.start, s.end) for s in g] for n, g in doc.spans.items() if n.startswith("coref") and len(g)]
            (path := tmp_path / "order.conll").write_text(render(corpora([Example(doc, doc)])[0], "conll2012")[0])
            labels = corefeval.read(str(path)).documents[0].labels
            docs.append(_doc([t.text for t in doc], [groups[int(label)] for label in labels]))
        out.append(Example(*docs))
    return out


@pytest.mark.parametrize("repeats", [False, True])
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("metric", ["conll", "lea", "muc"])
def test_examples_score_as_the_same_documents_written_as_conll(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int, metric: str, repeats: bool
) -> None:
    """Spans in two clusters too, the span groups in the file's order of entities."""
    examples = _examples(seed, repeats)
    if repeats:
        examples = _in_file_order(examples, tmp_path)
    scores = make_coref_scorer(metric)(examples)
    cli = _cli_scores(tmp_path, capsys, examples, metric)
    assert scores["coref_f"] == cli[metric]["f1"]
    if metric == "conll":
        parts = [cli[m] for m in ("muc", "bcub", "ceafe")]
        assert scores["coref_p"] == sum(p["precision"] for p in parts) / 3
        assert scores["coref_r"] == sum(p["recall"] for p in parts) / 3
    else:
        assert (scores["coref_p"], scores["coref_r"]) == (cli[metric]["precision"], cli[metric]["recall"])
    assert {k: v for k, v in scores.items() if k.endswith("_f") and k != "coref_f"} == {
        f"coref_{name}_f": s["f1"] for name, s in cli.items()
    }


@pytest.mark.parametrize("seed", range(12))
def test_a_span_in_two_clusters_is_taken_in_span_group_order(seed: int) -> None:
    """Where a span is in two clusters, the copy kept is the earlier span group's, as the in-memory
    Evaluator keeps the earlier cluster's (written as CoNLL-2012, the file's order decides)."""
    examples = _examples(seed)
    evaluator = Evaluator(["all"])
    for example in examples:
        evaluator.update(*(_clusters(doc) for doc in (example.reference, example.predicted)))
    expected = evaluator.result().corpus
    scores = make_coref_scorer()(examples)
    assert scores == {**scores, **{f"coref_{name}_f": s.f1 for name, s in expected.items()}}


def _clusters(doc: Doc) -> list[list[tuple[int, int]]]:
    return [
        [(s.start, s.end - 1) for s in group] for name, group in doc.spans.items() if name.startswith("coref_clusters")
    ]


def test_every_metric_is_reported_with_the_chosen_one_as_coref_f() -> None:
    gold = [[(0, 1), (4, 5), (10, 11)], [(2, 3), (6, 7)]]
    pred = [[(0, 1), (4, 5)], [(2, 3), (6, 7), (10, 11)], [(12, 14)]]
    words = ["John", "saw", "Mary", ".", "He", "said", "she", "was", "happy", "and", "he", "left", "the", "house", "."]
    scores = make_coref_scorer()([Example(_doc(words, pred), _doc(words, gold))])
    assert sorted(scores) == sorted(
        ["coref_f", "coref_p", "coref_r"]
        + [f"coref_{m}_f" for m in ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll")]
    )
    assert scores["coref_f"] == scores["coref_conll_f"] == pytest.approx((2 / 3 + 2 / 3 + 0.64) / 3)
    assert make_coref_scorer("lea")([Example(_doc(words, pred), _doc(words, gold))])["coref_f"] == scores["coref_lea_f"]


def test_the_prefix_is_the_components_when_it_passes_one() -> None:
    words = ["a", "b", "c", "d"]
    ref = Doc(NLP.vocab, words=words)
    ref.spans["mine_1"] = [ref[0:1], ref[2:3]]
    pred = Doc(NLP.vocab, words=words)
    pred.spans["mine_1"] = [pred[0:1], pred[2:3]]
    examples = [Example(pred, ref)]
    assert make_coref_scorer()(examples)["coref_mentions_f"] == 0.0  # coref_clusters_*: none
    assert make_coref_scorer(span_cluster_prefix="mine")(examples)["coref_f"] == 1.0
    assert make_coref_scorer()(examples, span_cluster_prefix="mine")["coref_f"] == 1.0


def test_predicted_tokens_are_put_on_the_reference_tokens() -> None:
    ref = _doc(["New", "York", "is", "big", ".", "It", "grows"], [[(0, 2), (5, 6)]])
    pred = _doc(["New York", "is", "big", ".", "It", "grows"], [[(0, 1), (4, 5)]])
    assert score_examples([Example(pred, ref)])["coref_f"] == 1.0
    torn = _doc(["Ne", "w", "York", "is", "big", ".", "It", "grows"], [[(1, 3), (6, 7)]])
    with pytest.warns(CorefevalWarning, match="1 predicted mention cover no whole tokens"):
        scores = score_examples([Example(torn, ref)])
    assert scores["coref_mentions_f"] == pytest.approx(2 / 3)


def test_no_example_and_bad_arguments() -> None:
    assert score_examples([]) == {"coref_f": 0.0, "coref_p": 0.0, "coref_r": 0.0}
    with pytest.raises(UsageError, match="one metric"):
        make_coref_scorer("muc,lea")
    with pytest.raises(UsageError, match="not a spaCy Example"):
        score_examples([("gold", "predicted")])


def test_spacy_finds_the_scorer_through_the_entry_point(tmp_path: Path) -> None:
    """The entry point pyproject.toml declares, installed as pip installs it (a dist-info folder on
    the path), is what spaCy's registry finds: by name, in a config, and in ``nlp.evaluate``."""
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    assert table["spacy_scorers"][NAME] == "corefeval.integrations.spacy_scorer:make_coref_scorer"
    info = tmp_path / "corefeval_entry-0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: corefeval-entry\nVersion: 0.0\n", encoding="utf-8")
    lines = [f"{name} = {value}" for name, value in table["spacy_scorers"].items()]
    (info / "entry_points.txt").write_text("[spacy_scorers]\n" + "\n".join(lines) + "\n", encoding="utf-8")
    script = textwrap.dedent(
        f"""
        import spacy
        from spacy.language import Language
        from spacy.tokens import Doc
        from spacy.training import Example

        assert spacy.registry.scorers.get("{NAME}").__module__ == "corefeval.integrations.spacy_scorer"
        resolved = spacy.util.registry.resolve({{"s": {{"@scorers": "{NAME}", "metric": "lea"}}}})["s"]

        @Language.factory("gold_copy", default_config={{"scorer": {{"@scorers": "{NAME}"}}}})
        def gold_copy(nlp, name, scorer):
            class Copy:
                def __call__(self, doc):
                    doc.spans["coref_clusters_1"] = [doc[0:1], doc[4:5]]
                    return doc
                def score(self, examples, **kwargs):
                    return scorer(examples, span_cluster_prefix="coref_clusters")
            return Copy()

        nlp = spacy.blank("en")
        nlp.add_pipe("gold_copy")
        ref = Doc(nlp.vocab, words="John saw Mary . He left".split())
        ref.spans["coref_clusters_1"] = [ref[0:1], ref[4:5]]
        ref.spans["coref_clusters_2"] = [ref[2:3]]
        print(
            nlp.evaluate([Example(nlp.make_doc("John saw Mary . He left"), ref)])["coref_f"],
            resolved([Example(nlp("John saw Mary . He left"), ref)])["coref_f"],
        )
        """
    )
    env = {"PYTHONPATH": f"{tmp_path}:{ROOT / 'src'}", "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False)
    assert run.returncode == 0, run.stderr
    ref = _doc(["John", "saw", "Mary", ".", "He", "left"], [[(0, 1), (4, 5)], [(2, 3)]])
    pred = _doc(["John", "saw", "Mary", ".", "He", "left"], [[(0, 1), (4, 5)]])
    here = [Example(pred, ref)]
    expected = [score_examples(here)["coref_f"], score_examples(here, "lea")["coref_f"]]
    assert [float(x) for x in run.stdout.split()] == expected


def test_the_example_of_the_docs_prints_what_the_page_shows(capsys: pytest.CaptureFixture[str]) -> None:
    import re

    page = (ROOT / "docs" / "spacy.md").read_text(encoding="utf-8")
    code, shown = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", page, re.S).groups()  # type: ignore[union-attr]
    if NAME not in spacy.registry.scorers:  # corefeval installed without this entry point (a work tree)
        spacy.registry.scorers.register(NAME, func=make_coref_scorer)
    exec(compile(code, "docs/spacy.md", "exec"), {})
    assert capsys.readouterr().out == shown
