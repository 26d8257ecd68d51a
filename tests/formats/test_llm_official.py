"""Equality with the CRAC LLM track's official pipeline (text2text-coref ``clean`` + ``text2conllu``,
then the CorefUD scorer) on GUM Reddit with LLM-like edits, exact and head matching.

Skipped where the pipeline is not installed (see :mod:`.llm_pipeline` for the variables naming it).
The key is GUM Reddit dev with made-up word forms (it ships its forms as ``_``); the model's output
is the key's own markup (``conllu2text -s``) with words left out, added and changed. corefeval reads
it with ``--llm-marks official --lenient`` and ``--heads first``: the pipeline's response carries no
head field (GUM's ``global.Entity`` has none), so the CorefUD scorer takes each mention's first word.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corefeval.options import Options
from corefeval.scoring import score

from .corefud_peer import FIELDS, Counts, Peer, differences
from .llm_pipeline import llm_edits, named_forms, official_response, pipeline_paths, text2text


@pytest.fixture(scope="module")
def pipeline() -> tuple[str, str, str]:
    paths = pipeline_paths()
    if paths is None:
        pytest.skip("text2text-coref and the CorefUD scorer are not installed (TEXT2TEXT_COREF, COREFUD_PYTHON)")
    return paths


@pytest.fixture(scope="module")
def gum(shared: Path, pipeline: tuple[str, str, str], tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("llm")
    key = folder / "key.conllu"
    named_forms(str(shared / "realdata" / "gum-reddit-corefud" / "en_gumreddit-ud-dev.conllu"), key)
    gold = folder / "gold.txt"
    text2text(pipeline[0], pipeline[1], "conllu2text", str(key), "-s", "-o", str(gold))
    return str(key), gold.read_text(encoding="utf-8")


def our_counts(key: str, markup: str, match: str) -> Counts:
    options = Options(
        ("all", "mor", "zero"), match=match, blanc="paper", heads="first", lenient=True, llm_marks="official"
    )
    result = score(key, markup, options=options)
    assert "marks:official" in result.signature
    columns = {}
    for m in result.metric_objects:
        for f in m.fields:
            columns[(m.name, f)] = len(columns)
    return {
        name: {
            peer: [float(result.counts[i][columns[(ours, f)]]) for f in fields]
            for peer, (ours, fields) in FIELDS.items()
        }
        for i, name in enumerate(result.document_names)
    }


@pytest.mark.parametrize("rate,seed", [(0.0, 0), (0.04, 1), (0.08, 2)])
def test_scores_as_the_official_pipeline(
    pipeline: tuple[str, str, str], gum: tuple[str, str], tmp_path: Path, rate: float, seed: int
) -> None:
    python, source, scorer = pipeline
    key, gold = gum
    markup = tmp_path / "llm.txt"
    markup.write_text(llm_edits(gold, seed, rate), encoding="utf-8")
    response = official_response(python, source, key, str(markup), tmp_path)
    peer = Peer(python, scorer)
    try:
        for match in ("exact", "head"):
            theirs = peer.counts(key, response, (match, "keep", "include"))
            assert not isinstance(theirs, str), theirs
            assert len(theirs) == 2
            assert differences(our_counts(key, str(markup), match), theirs) == []
    finally:
        peer.close()
