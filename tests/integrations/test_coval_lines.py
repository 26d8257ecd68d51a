"""The ``coval``-compatible inputs, options and keys (without ``evaluate``): documents split at their
``#begin document`` lines, coval's own numbers in every option, and the whole file's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import corefeval
from corefeval.integrations.coval_lines import METRICS, conll_text, coval_scores

COVAL = Path(__file__).resolve().parent.parent / "data" / "coval"
RECORDED = json.loads((COVAL / "coval_numbers.json").read_text())
#: The keys of ``evaluate``'s ``coval`` metric, in its order.
COVAL_KEYS = [f"{m}/{f}" for m in ("mentions", "muc", "bcub", "ceafe", "lea") for f in ("recall", "precision", "f1")]


def sentences(path: Path) -> list[list[str]]:
    """A CoNLL file as ``coval`` takes it: sentences of lines (``#`` lines kept in their sentence)."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    return [block.strip("\n").split("\n") for block in blocks if block.strip()]


def test_the_keys_are_coval_s_with_ceafm_and_blanc() -> None:
    lines = sentences(COVAL / "key.conll")
    got = coval_scores(lines, lines)
    extra = [f"{m}/{f}" for m in ("ceafm", "blanc") for f in ("recall", "precision", "f1")]
    assert list(got) == [*COVAL_KEYS, *extra, "conll_score"]
    assert got["conll_score"] == 100.0 and all(v == 1.0 for k, v in got.items() if k != "conll_score")


def test_documents_are_split_and_equal_the_file_scored_whole() -> None:
    got = coval_scores(sentences(COVAL / "response.conll"), sentences(COVAL / "key.conll"))
    whole = corefeval.score(str(COVAL / "key.conll"), str(COVAL / "response.conll"))
    assert len(whole.document_names) == 4
    for metric in METRICS:
        score = whole[metric]
        assert (got[f"{metric}/recall"], got[f"{metric}/precision"], got[f"{metric}/f1"]) == (
            score.recall,  # type: ignore[union-attr]
            score.precision,  # type: ignore[union-attr]
            score.f1,
        ), metric
    assert got["conll_score"] == whole["conll"].f1 * 100


@pytest.mark.parametrize(
    "case", RECORDED, ids=lambda c: f"{c['key']}:{c['min_span']}{c['np_only']}{c['remove_nested']}"
)
def test_coval_s_own_numbers_in_every_option(case: dict[str, object]) -> None:
    """``coval``'s numbers on these files, scored document by document (coval's command line)."""
    got = coval_scores(
        sentences(COVAL / str(case["response"])),
        sentences(COVAL / str(case["key"])),
        keep_singletons=case["singletons"] == "keep",
        NP_only=bool(case["np_only"]),
        min_span=bool(case["min_span"]),
        remove_nested=bool(case["remove_nested"]),
    )
    for metric, expected in case["coval"].items():  # type: ignore[attr-defined]
        assert [got[f"{metric}/{f}"] for f in ("recall", "precision", "f1")] == pytest.approx(expected, abs=1e-12)


def _document(name: str, entity: int) -> list[list[str]]:
    """A document of two sentences, one word each, both words a mention of ``entity``."""
    row = f"{name}\t0\t0\tw\tNN\t*\t-\t-\t-\t-\t*\t({entity})"
    return [[f"#begin document ({name}); part 000", row], [row, "#end document"]]


def test_two_documents_with_the_same_entity_id_do_not_merge() -> None:
    """Entity 1 of document a and entity 1 of document b are two entities, both found (as 1 and 2).
    Read as one document, as ``evaluate``'s ``coval`` reads every input, the key's two would be one
    entity of four mentions, which the response splits in two."""
    key, response = _document("a", 1) + _document("b", 1), _document("a", 1) + _document("b", 2)
    split = coval_scores(response, key)
    assert split["conll_score"] == 100.0 and split["muc/recall"] == 1.0
    one_document = coval_scores(
        [[line for line in s if not line.startswith("#")] for s in response],
        [[line for line in s if not line.startswith("#")] for s in key],
    )
    assert one_document["muc/recall"] == pytest.approx(2 / 3)  # two of the merged entity's three links
    assert one_document["conll_score"] < 100.0


def test_lines_without_a_document_are_one_document() -> None:
    text = conll_text([["x 0 0 w NN * (1)\r\n", "x 0 1 v NN * (1)"], ["x 0 0 u NN * -"]])
    assert text.split("\n") == [
        "#begin document (dummy_doc); part 000",
        "x 0 0 w NN * (1)",
        "x 0 1 v NN * (1)",
        "",
        "x 0 0 u NN * -",
        "",
        "#end document",
        "",
    ]
