"""The Hugging Face ``evaluate`` metric script, loaded offline from the package by ``evaluate`` itself:
the ``coval`` mode, corefeval's own mode, and numbers equal to ``corefeval score`` on the same files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import corefeval
from corefeval.core.diagnostics import UsageError
from corefeval.integrations import evaluate_module
from corefeval.integrations.coval_lines import coval_scores
from corefeval.integrations.inputs import flat_scores
from tests.integrations.test_coval_lines import sentences

evaluate = pytest.importorskip("evaluate")

DATA = Path(__file__).resolve().parent.parent / "data"
COVAL_KEY, COVAL_RESPONSE = DATA / "coval" / "key.conll", DATA / "coval" / "response.conll"
MARKUP_KEY, MARKUP = DATA / "integrations" / "key.conllu", DATA / "integrations" / "answers.txt"


@pytest.fixture(scope="module")
def load(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``evaluate.load`` offline, its module cache and its metric cache in a temporary folder."""
    folder = tmp_path_factory.mktemp("hf")
    with pytest.MonkeyPatch.context() as patch:
        for name in ("HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE", "HF_HUB_OFFLINE"):
            patch.setenv(name, "1")
        patch.setattr(evaluate.config, "HF_EVALUATE_OFFLINE", True)
        patch.setattr(evaluate.config, "HF_MODULES_CACHE", folder / "modules")

        def loaded(*args: str) -> Any:
            return evaluate.load(evaluate_module(), *args, cache_dir=str(folder / "metrics"))

        yield loaded


def test_the_script_is_in_the_package() -> None:
    path = Path(evaluate_module())
    assert path.is_file() and path.parent.parent == Path(corefeval.__file__).parent / "integrations"


def test_coval_mode(load: Any) -> None:
    """The inputs, options and keys of ``evaluate``'s ``coval``; the numbers of the whole file."""
    metric = load("coval")
    assert metric.name == "corefeval" and metric.config_name == "coval"
    predictions, references = sentences(COVAL_RESPONSE), sentences(COVAL_KEY)
    got = metric.compute(predictions=predictions, references=references)
    assert got == coval_scores(predictions, references)
    whole = corefeval.score(str(COVAL_KEY), str(COVAL_RESPONSE))
    assert got["conll_score"] == whole["conll"].f1 * 100
    assert [got[f"ceafm/{f}"] for f in ("recall", "precision", "f1")] == [
        whole["ceafm"].recall,  # type: ignore[union-attr]
        whole["ceafm"].precision,  # type: ignore[union-attr]
        whole["ceafm"].f1,
    ]
    removed = metric.compute(predictions=predictions, references=references, keep_singletons=False, remove_nested=True)
    assert removed == coval_scores(predictions, references, keep_singletons=False, remove_nested=True) != got


def test_coval_mode_in_batches(load: Any) -> None:
    """Sentences added in batches are one input, as ``evaluate`` gathers them."""
    metric = load("coval")
    predictions, references = sentences(COVAL_RESPONSE), sentences(COVAL_KEY)
    half = len(predictions) // 2
    metric.add_batch(predictions=predictions[:half], references=references[:half])
    metric.add_batch(predictions=predictions[half:], references=references[half:])
    assert metric.compute() == coval_scores(predictions, references)


def test_own_mode_with_paths_is_corefeval_score(load: Any) -> None:
    got = load().compute(predictions=[str(COVAL_RESPONSE)], references=[str(COVAL_KEY)])
    whole = corefeval.score(str(COVAL_KEY), str(COVAL_RESPONSE))
    assert got == flat_scores(whole)
    assert got["signature"] == whole.signature and got["documents"] == 4
    assert got["ceafe/recall_num"] == whole["ceafe"].recall_num  # type: ignore[union-attr]


def test_own_mode_with_texts_of_language_model_markup(load: Any) -> None:
    """Texts, not paths: a CorefUD key and a model's markup, the markup put on the key's words."""
    got = load().compute(
        predictions=[MARKUP.read_text(encoding="utf-8")], references=[MARKUP_KEY.read_text(encoding="utf-8")]
    )
    whole = corefeval.score(str(MARKUP_KEY), str(MARKUP))
    assert got == flat_scores(whole)
    assert "aligned:ins2,rep1" in got["signature"] and "fmt:corefud+text2text" in got["signature"]


def test_own_mode_sums_the_counts_of_several_pairs(load: Any) -> None:
    """Two pairs are one corpus: their counts summed, not their scores averaged."""
    got = load().compute(
        predictions=[str(COVAL_RESPONSE), str(COVAL_KEY)],
        references=[str(COVAL_KEY), str(COVAL_KEY)],
        metrics=["muc", "conll"],
        singletons="remove",
    )
    first = corefeval.score(str(COVAL_KEY), str(COVAL_RESPONSE), ["muc", "conll"], singletons="remove")
    second = corefeval.score(str(COVAL_KEY), str(COVAL_KEY), ["muc", "conll"], singletons="remove")
    summed = np.sum([first.counts.sum(axis=0), second.counts.sum(axis=0)], axis=0)
    assert got["muc/recall_num"] == summed[first.columns["muc"]][0]
    assert got["muc/f1"] == first.scores_from(summed)["muc"].f1
    assert got["documents"] == 8 and "singletons:remove" in got["signature"]
    assert not any(key.startswith("bcub/") for key in got) and "conll/f1" in got


def test_unknown_configuration_and_option(load: Any) -> None:
    with pytest.raises(ValueError, match="unknown configuration 'covall'"):
        load("covall")
    with pytest.raises(UsageError, match="unknown option 'singleton'"):
        load().compute(predictions=[str(COVAL_KEY)], references=[str(COVAL_KEY)], singleton="remove")
