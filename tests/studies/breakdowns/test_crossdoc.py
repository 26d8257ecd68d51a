"""Cross-document units: the UKP files' published cross-document scores, and link types."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from corefeval.core.diagnostics import UsageError
from corefeval.core.model import Corpus, make_document
from corefeval.core.options import Options
from corefeval.readers import read
from corefeval.scoring.crossdoc import LINK_TYPES, joined, link_counts, topics
from corefeval.scoring.pipeline import score_with

CDCR = Path(__file__).resolve().parents[3].parent / "shared" / "realdata" / "ukp-cdcr-cl2021" / "feature-based"
METRICS = ("muc", "bcub", "ceafe", "lea", "conll")


def _rows() -> list[tuple[Path, dict[str, str]]]:
    out = []
    for table in sorted(CDCR.glob("*/metrics_unaggregated.csv")) if CDCR.is_dir() else []:
        with table.open() as fh:
            out += [(table.parent, r) for r in csv.DictReader(fh) if r["meta-doc"] == "True"]
    return out


@pytest.mark.skipif(not CDCR.is_dir(), reason="the UKP files (../shared/realdata) are not here")
@pytest.mark.parametrize(
    "folder,row", _rows(), ids=lambda x: x.name if isinstance(x, Path) else f"{x['model']}-{x['metric']}"
)
def test_within_document_files_joined_give_the_published_cross_document_scores(
    folder: Path, row: dict[str, str]
) -> None:
    """The published cross-document figures come from one meta-document; the same numbers come
    from the within-document files (global entity labels) with all documents as one unit."""
    run = folder / row["model"] / "within_doc"
    key, response = read(str(run / "gold.conll")), read(str(run / "system.conll"))
    result = score_with(joined(key), joined(response), Options(metrics=METRICS))
    assert result[row["metric"]].f1 == pytest.approx(float(row["f1"]), abs=1e-12)


def _corpus(path: str, docs: dict[str, list[list[tuple[int, int]]]], labels: dict[str, list[str]]) -> Corpus:
    return Corpus(path, [make_document(n, c, 10, labels[n]) for n, c in docs.items()])


def test_links_are_typed_by_where_their_mentions_are() -> None:
    # Entity E: two mentions in 1_1ecb, one in 1_2ecb, one in 1_3ecbplus, one in 2_1ecb.
    names = ["1_1ecb", "1_2ecb", "1_3ecbplus", "2_1ecb"]
    key = _corpus(
        "key",
        {"1_1ecb": [[(0, 0), (2, 2)]], "1_2ecb": [[(0, 0)]], "1_3ecbplus": [[(0, 0)]], "2_1ecb": [[(0, 0)]]},
        {n: ["E"] for n in names},
    )
    # The response puts the 1_2ecb and 2_1ecb mentions in another entity F.
    response = _corpus(
        "response",
        {"1_1ecb": [[(0, 0), (2, 2)]], "1_2ecb": [[(0, 0)]], "1_3ecbplus": [[(0, 0)]], "2_1ecb": [[(0, 0)]]},
        {"1_1ecb": ["E"], "1_2ecb": ["F"], "1_3ecbplus": ["E"], "2_1ecb": ["F"]},
    )
    assert topics(names)[2] == ("1", "1/ecbplus")
    found = link_counts(key, response)
    # key: 5 mentions, 10 links: 1 within the document, 2 within subtopic 1/ecb (1_1 x 1_2),
    # 3 across subtopics of topic 1 (1_3ecbplus with the three ecb mentions), 4 across topics.
    assert {t: found[t].key for t in LINK_TYPES} == {
        "within-document": 1,
        "within-subtopic": 2,
        "cross-subtopic": 3,
        "cross-topic": 4,
    }
    # response: E = {1_1ecb x2, 1_3ecbplus}: 1 within-document, 2 cross-subtopic; F = {1_2ecb, 2_1ecb}: 1 cross-topic
    assert {t: found[t].response for t in LINK_TYPES} == {
        "within-document": 1,
        "within-subtopic": 0,
        "cross-subtopic": 2,
        "cross-topic": 1,
    }
    assert {t: found[t].common for t in LINK_TYPES} == {
        "within-document": 1,
        "within-subtopic": 0,
        "cross-subtopic": 2,
        "cross-topic": 1,
    }
    assert found["cross-subtopic"].score.recall == pytest.approx(2 / 3)
    # the types partition the links of the joined corpus
    total = sum(f.key for f in found.values())
    whole = joined(key).documents[0]
    assert total == 5 * 4 // 2 == whole.n_mentions * (whole.n_mentions - 1) // 2


def test_topic_units_and_bad_patterns() -> None:
    key = _corpus(
        "k",
        {"1_1ecb": [[(0, 0)]], "1_2ecb": [[(1, 1)]], "2_1ecb": [[(0, 0)]]},
        {"1_1ecb": ["A"], "1_2ecb": ["A"], "2_1ecb": ["A"]},
    )
    units = joined(key, [t for t, _ in topics([d.name for d in key.documents])])
    assert [d.name for d in units.documents] == ["1", "2"]
    assert units.documents[0].clusters() == [[(0, 0), (11, 11)]]  # the second document after the first's 10 tokens
    with pytest.raises(UsageError):
        topics(["x"], r"(\d+)")


@pytest.mark.skipif(not CDCR.is_dir(), reason="the UKP files (../shared/realdata) are not here")
def test_the_command_prints_both_scopes_and_the_links(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from corefeval.cli import main

    run = CDCR / "ecbp_evaluate_clustering" / "0" / "within_doc"
    args = ["score", str(run / "gold.conll"), str(run / "system.conll"), "-m", "conll", "--cross-document", "all"]
    assert main([*args, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # eval_within_doc.txt and eval_cross_doc.txt of that run: CoNLL 0.805252 and 0.749225
    assert out["score"]["corpus"]["conll"]["f1"] == pytest.approx(0.805252, abs=5e-7)
    assert out["cross_document"]["score"]["corpus"]["conll"]["f1"] == pytest.approx(0.749225, abs=5e-7)
    assert out["cross_document"]["links"]["within-document"] == {"key": 545, "response": 285, "common": 211}
    assert main([*args, "--format", "csv"]) == 2
