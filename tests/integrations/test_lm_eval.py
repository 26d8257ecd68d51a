"""The lm-evaluation-harness functions, called as the harness calls them (one reference and one
prediction per document, then a list of per-document values to aggregate): the corpus score of all
the documents, equal to ``corefeval score`` on them written as one file, not a mean of F1."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import corefeval
from corefeval.core.diagnostics import UsageError
from corefeval.integrations import lm_eval
from tests.readers.llm_pipeline import llm_edits, named_forms, pipeline_paths, text2text

DATA = Path(__file__).resolve().parent.parent / "data"
MARKUP_KEY, MARKUP = DATA / "integrations" / "key.conllu", DATA / "integrations" / "answers.txt"
COVAL_KEY, COVAL_RESPONSE = DATA / "coval" / "key.conll", DATA / "coval" / "response.conll"


def harness_run(key: Path, answers: list[str], **options: object) -> list[dict[str, corefeval.ScoreResult]]:
    """What the harness does with a task of ``key``'s documents: one ``process_results`` per document."""
    process = lm_eval.results_processor(**options) if options else lm_eval.process_results
    return [process(doc, [answer]) for doc, answer in zip(lm_eval.task_documents(str(key)), answers)]


def test_markup_answers_aggregate_to_the_whole_file_s_score() -> None:
    answers = MARKUP.read_text(encoding="utf-8").splitlines()
    values = harness_run(MARKUP_KEY, answers)
    whole = corefeval.score(str(MARKUP_KEY), str(MARKUP))
    for metric in lm_eval.METRICS:
        items = [v[metric] for v in values]
        assert getattr(lm_eval, f"{metric}_f1")(items) == whole[metric].f1, metric
    corpus = lm_eval.corpus_result([v["conll"] for v in values])
    assert np.array_equal(corpus.counts, whole.counts) and corpus.signature == whole.signature
    mean = sum(v["conll"]["conll"].f1 for v in values) / len(values)
    assert round(whole["conll"].f1, 4) == 0.7342 and round(mean, 4) == 0.7757  # the harness's mean would say


def test_the_metric_function_shape_and_pickled_values() -> None:
    """``references=[gold], predictions=[answer]`` per document; values cross processes pickled."""
    docs = lm_eval.task_documents(str(COVAL_KEY))
    responses = lm_eval.task_documents(str(COVAL_RESPONSE))
    items = [
        pickle.loads(pickle.dumps(lm_eval.document_result(references=[d["gold"]], predictions=[r["gold"]])))
        for d, r in zip(docs, responses)
    ]
    whole = corefeval.score(str(COVAL_KEY), str(COVAL_RESPONSE))
    assert [i.document_names for i in items] == [[n] for n in whole.document_names]
    assert lm_eval.aggregation("muc", "recall")(items) == whole["muc"].recall  # type: ignore[union-attr]
    assert lm_eval.conll_f1(items) == whole["conll"].f1
    assert lm_eval.corpus_result(items).signature == whole.signature


def test_options_reach_every_document() -> None:
    answers = MARKUP.read_text(encoding="utf-8").splitlines()
    values = harness_run(MARKUP_KEY, answers, singletons="remove", metrics=("muc", "conll"))
    whole = corefeval.score(str(MARKUP_KEY), str(MARKUP), ["muc", "conll"], singletons="remove")
    assert lm_eval.conll_f1([v["conll"] for v in values]) == whole["conll"].f1
    assert "singletons:remove" in lm_eval.corpus_result([v["muc"] for v in values]).signature


def test_task_documents_are_the_file_s_documents() -> None:
    rows = lm_eval.task_documents(str(MARKUP_KEY))
    assert [r["name"] for r in rows] == ["d1", "d2", "d3"]
    assert rows[1]["text"] == "Mary met John in Paris . She liked him and the city ."
    assert all("# global.Entity" in r["gold"] for r in rows)  # each document readable alone
    rows = lm_eval.task_documents(str(COVAL_KEY))
    assert len(rows) == 4 and all(r["gold"].startswith("#begin document") for r in rows)


def test_mistakes_are_said() -> None:
    with pytest.raises(UsageError, match="no field 'gold'"):
        lm_eval.process_results({"text": "x"}, ["x"])
    with pytest.raises(UsageError, match="no answer"):
        lm_eval.process_results({"gold": "x"}, [])
    with pytest.raises(UsageError, match="unknown option 'singleton'"):
        lm_eval.results_processor(singleton="remove")
    with pytest.raises(UsageError, match="unknown metric"):
        lm_eval.aggregation("ceaf")
    with pytest.raises(UsageError, match="no document"):
        lm_eval.conll_f1([])
    markup = lm_eval.document_result([MARKUP_KEY.read_text(encoding="utf-8")], [MARKUP.read_text(encoding="utf-8")])
    plain = lm_eval.document_result([str(COVAL_KEY)], [str(COVAL_KEY)])
    with pytest.raises(UsageError, match="different options or formats"):
        lm_eval.conll_f1([markup, plain])


def test_a_repair_is_a_warning() -> None:
    gold = lm_eval.task_documents(str(MARKUP_KEY))[0]["gold"]
    broken = "The|[e1 black cat sat on the|[e2 mat|e2] . It|[e1] purred ."  # e1 never closed
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lm_eval.document_result([gold], [broken], lenient=True)
    assert any(str(w.message).startswith("predictions[0]:1: ") for w in caught)


def test_importing_the_doors_imports_neither_evaluate_nor_datasets() -> None:
    code = (
        "import sys, corefeval, corefeval.integrations, corefeval.integrations.lm_eval;"
        "corefeval.integrations.evaluate_module();"
        "print(sorted(m for m in ('evaluate', 'datasets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.skipif(
    pipeline_paths() is None, reason="text2text-coref is not installed (TEXT2TEXT_COREF, COREFUD_PYTHON)"
)
def test_gum_reddit_answers_aggregate_to_the_whole_file_s_score(shared: Path, tmp_path: Path) -> None:
    """GUM Reddit train (14 documents; made-up word forms), exported by text2text-coref and edited as
    a model edits it, one answer per document: the aggregation is ``corefeval score`` on the files."""
    paths = pipeline_paths()
    assert paths is not None
    key, export, answers = tmp_path / "key.conllu", tmp_path / "export.txt", tmp_path / "answers.txt"
    named_forms(str(shared / "realdata" / "gum-reddit-corefud" / "en_gumreddit-ud-train.conllu"), key)
    text2text(paths[0], paths[1], "conllu2text", str(key), "-s", "-o", str(export))
    lines = llm_edits(export.read_text(encoding="utf-8").rstrip("\n"), 1, 0.05).split("\n")
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the repairs of the edited markup, said per document and in all
        values = harness_run(key, lines, lenient=True)
        whole = corefeval.score(str(key), str(answers), lenient=True)
    assert len(values) == len(whole.document_names) == 14
    corpus = lm_eval.corpus_result([v["conll"] for v in values])
    assert np.array_equal(corpus.counts, whole.counts) and corpus.signature == whole.signature
    assert lm_eval.conll_f1([v["conll"] for v in values]) == whole["conll"].f1
