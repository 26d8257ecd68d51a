"""CorefUD's ``Bridge`` and ``SplitAnte``: read into the anaphora model (``corefeval anaphora`` scores
bridging and split antecedents on CorefUD files) and carried by ``convert`` to UA and back."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from corefeval.anaphora.ua_sides import UASettings
from corefeval.cli import main
from corefeval.metrics.ua.scores import literal_scores
from corefeval.readers import read
from corefeval.readers.corefud import CorefUDBridge, CorefUDCorpus
from corefeval.writers.ua import anaphora_documents

DATA = Path(__file__).parents[1] / "data" / "corefud_bridge"
KEY, RESPONSE = DATA / "key.conllu", DATA / "response.conllu"


def _scores(key: Path, response: Path) -> dict[str, tuple[float, float, float]]:
    keys, _ = anaphora_documents(read(str(key)))
    responses, _ = anaphora_documents(read(str(response)))
    return literal_scores(keys, responses, UASettings()).scores


def test_bridge_is_read() -> None:
    corpus = read(str(KEY))
    assert isinstance(corpus, CorefUDCorpus)
    # "The handle" (e3) opens on word 1 of sentence 2, position 6, anchored to e2 ("a door")
    assert corpus.bridges["d"] == [CorefUDBridge("e3", 6, "e2", "part", 14)]
    assert corpus.split_antecedents["d"] == [("e6", ("e4", "e5"))]


def test_an_unreadable_bridge_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.conllu"
    bad.write_text(KEY.read_text(encoding="utf-8").replace("Bridge=e2<e3:part", "Bridge=e2e3"), encoding="utf-8")
    assert main(["score", str(bad), str(bad)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"{bad}:14: error: cannot read 'Bridge=e2e3': expected links like 'e12<e15:part'"


def test_anaphora_scores_bridging_and_split_antecedents_of_corefud_files() -> None:
    """The response anchors "The handle" to the house (e1), not the door (e2): the anaphor is found
    (recognition 1/1), its anchor is not (0 at markable and at entity level). It has no SplitAnte:
    the key's "They" = John + Mary is a link MUC misses (e2's two door mentions are the other)."""
    scores = _scores(KEY, RESPONSE)
    assert scores["bridging-ar"] == (1.0, 1.0, 1.0)
    assert scores["bridging-fbm"][2] == scores["bridging-fbe"][2] == 0.0
    assert scores["muc"][:2] == (0.5, 1.0)
    assert all(s == (1.0, 1.0, 1.0) for n, s in _scores(KEY, KEY).items() if n != "non-referring")


def test_the_anaphora_command_reads_corefud() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["anaphora", str(KEY), str(RESPONSE), "-m", "bridging"]) == 0
    rows = {line.split()[0]: line.split()[1:] for line in out.getvalue().splitlines() if line.startswith("bridging")}
    assert rows == {"bridging-ar": ["100.00"] * 3, "bridging-fbm": ["0.00"] * 3, "bridging-fbe": ["0.00"] * 3}


def test_convert_carries_bridge_and_split_antecedents_to_ua_and_back(tmp_path: Path) -> None:
    ua, back = tmp_path / "k.ua.conllu", tmp_path / "k.back.conllu"
    assert main(["convert", str(KEY), str(ua), "--to", "ua"]) == 0
    assert "(MarkableID=m4|Rel=part|MentionAnchor=m2|EntityAnchor=e2)" in ua.read_text(encoding="utf-8")
    assert main(["convert", str(ua), str(back), "--to", "corefud"]) == 0
    again = read(str(back))
    assert isinstance(again, CorefUDCorpus)
    assert [(b.anaphor, b.position, b.anchor, b.relation) for b in again.bridges["d"]] == [("e3", 6, "e2", "part")]
    assert again.split_antecedents["d"] == [("e6", ("e4", "e5"))]
    for converted in (ua, back):
        assert all(s == (1.0, 1.0, 1.0) for n, s in _scores(KEY, converted).items() if n != "non-referring")
