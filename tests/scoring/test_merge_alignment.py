"""Merging the results of language-model markup scored document by document gives the whole file's
result: the counts, and the signature naming the alignment of all the documents."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import corefeval
from corefeval.readers.sources import held_inputs
from corefeval.scoring.results import merge

DATA = Path(__file__).resolve().parent.parent / "data" / "integrations"
KEY, ANSWERS = DATA / "key.conllu", DATA / "answers.txt"


def documents(text: str) -> list[str]:
    """The CorefUD documents of ``text``, each with the file's ``# global.Entity`` line."""
    header, *docs = text.split("# newdoc")
    parts = ["# newdoc" + d for d in docs]
    entity = next(line for line in parts[0].split("\n") if line.startswith("# global.Entity"))
    return [p if entity in p else p.replace("\n", f"\n{entity}\n", 1) for p in parts]


def test_documents_scored_apart_merge_into_the_whole_file() -> None:
    whole = corefeval.score(str(KEY), str(ANSWERS))
    keys = documents(KEY.read_text(encoding="utf-8"))
    answers = ANSWERS.read_text(encoding="utf-8").splitlines()
    assert len(keys) == len(answers) == 3
    parts = []
    for i, (key, answer) in enumerate(zip(keys, answers)):
        with held_inputs({f"key{i}": key, f"answer{i}": answer + "\n"}):
            parts.append(corefeval.score(f"key{i}", f"answer{i}"))
    assert len({p.settings.aligned for p in parts}) == 3  # each document names its own alignment
    merged = merge(parts)
    assert np.array_equal(merged.counts, whole.counts)
    assert merged.signature == whole.signature
    assert "aligned:ins2,rep1,del0" in merged.signature
    assert merged.alignment == whole.alignment


def test_markup_and_plain_results_do_not_merge() -> None:
    markup = corefeval.score(str(KEY), str(ANSWERS))
    plain = corefeval.score(str(KEY), str(KEY))
    with pytest.raises(ValueError, match="different settings"):
        merge([markup, plain])
