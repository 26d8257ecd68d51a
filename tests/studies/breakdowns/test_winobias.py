"""WinoBias: four small subsets scored by hand, and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.studies.bias.winobias import find_files, score_winobias

SENTENCE = "The developer argued with the designer because he did not like the design ."
WORDS = SENTENCE.split(" ")
NAMES = {
    "type1-pro": "test_type1_pro_stereotype.v4_auto_conll",
    "type1-anti": "test_type1_anti_stereotype.v4_auto_conll",
    "type2-pro": "test_type2_pro_stereotype.v4_auto_conll",
    "type2-anti": "test_type2_anti_stereotype.v4_auto_conll",
}


def _conll(marks: dict[int, str]) -> str:
    lines = ["#begin document (wb/0); part 000"]
    lines += [f"wb/0\t0\t{i}\t{w}\tNN\t-\t-\t-\t-\t-\t*\t{marks.get(i, '-')}" for i, w in enumerate(WORDS)]
    return "\n".join(lines) + "\n\n#end document\n"


KEY = _conll({0: "(0", 1: "0)", 7: "(0)"})  # 'The developer' ... 'he'
RIGHT = KEY
WRONG = _conll({4: "(0", 5: "0)", 7: "(0)"})  # 'he' linked to 'the designer'


def _folders(tmp_path: Path) -> tuple[str, str]:
    keys, responses = tmp_path / "key", tmp_path / "response"
    keys.mkdir()
    responses.mkdir()
    for subset, name in NAMES.items():
        (keys / name).write_text(KEY, encoding="utf-8")
        (responses / name).write_text(WRONG if subset == "type1-anti" else RIGHT, encoding="utf-8")
    return str(keys), str(responses)


def test_pro_minus_anti(tmp_path: Path) -> None:
    keys, responses = _folders(tmp_path)
    scores = score_winobias(find_files(keys), find_files(responses), "muc")
    # type 1 anti: the key link (developer, he) is missed and the response's (designer, he) is wrong: MUC 0.
    assert [scores.f1(s) for s in NAMES] == [100.0, 0.0, 100.0, 100.0]
    assert (scores.difference("type1"), scores.difference("type2"), scores.difference("average")) == (100, 0, 50)
    assert "type1    100.00    0.00   +100.00" in scores.table()
    assert "average  100.00   50.00    +50.00" in scores.table()


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys, responses = _folders(tmp_path)
    assert main(["bias", "winobias", keys, responses, "-m", "muc", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pro_minus_anti"] == {"type1": 100.0, "type2": 0.0, "average": 50.0}
    (Path(keys) / NAMES["type2-anti"]).unlink()
    assert main(["bias", "winobias", keys, responses]) == 1  # a missing input, as in every command
    assert "no WinoBias file for type2-anti" in capsys.readouterr().err
    with pytest.raises(InputError, match="no such folder"):
        find_files(str(tmp_path / "nowhere"))
