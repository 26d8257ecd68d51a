"""``corefeval validate``: every problem as ``PATH:LINE: message``, exit status 1 if any."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.cli import main
from corefeval.readers.validate import crossing_pairs

CLEAN = """#begin document (a); part 000
a 0 0 w (0)
a 0 1 w (1
a 0 2 w 1)
a 0 3 w (0)
#end document
"""

PROBLEMS = """#begin document (a); part 000
a 0 0 w (0
a 0 1 w (1
a 0 2 w 0)|(2)
a 0 3 w 1)|(2)
a 0 4 w (3)|(4)
#end document
#begin document (a); part 000
a 0 0 w (0)
#end document
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(["validate", *argv])
    return code, capsys.readouterr().out.splitlines()


def test_clean_file_exit_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "clean.conll"
    path.write_text(CLEAN)
    assert run(capsys, str(path)) == (0, [])


def test_every_problem_is_printed_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.conll"
    path.write_text(PROBLEMS)
    code, lines = run(capsys, str(path))
    assert code == 1
    assert all(line.startswith(f"{path}:") and line.split(":")[1].isdigit() for line in lines)
    text = "\n".join(lines)
    assert f"{path}:8: document '(a); part 000' appears again" in text
    assert f"{path}:5: document '(a); part 000': mention (1,3) crosses mention (0,2)" in text
    assert f"{path}:6: document '(a); part 000': mention (4,4) appears twice (another entity, line 6)" in text
    assert len(lines) == 3


def test_unreadable_file_is_one_problem_and_the_others_are_still_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (a); part 000\na 0 0 w (0\n#end document\n")
    good = tmp_path / "good.conll"
    good.write_text(CLEAN)
    code, lines = run(capsys, str(bad), str(good))
    assert code == 1
    assert lines == [f"{bad}:2: mention '(0' opened here is not closed before '#end document' at line 3"]


def test_tokenisation_against_a_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key.conll"
    key.write_text(CLEAN)
    response = tmp_path / "response.conll"
    response.write_text(CLEAN.replace("a 0 3 w (0)\n", "a 0 3 w (0)\na 0 4 w -\n"))
    code, lines = run(capsys, str(response), "--key", str(key))
    assert code == 1
    assert lines == [f"{response}:1: document '(a); part 000' has 5 tokens but the key ({key}:1) has 4"]
    other = tmp_path / "other.conll"
    other.write_text(CLEAN.replace("a 0 1 w", "a 0 1 v"))
    code, lines = run(capsys, str(other), "--key", str(key))
    assert lines == [f"{other}:1: document '(a); part 000': token 1 is 'v' but 'w' in the key (1 tokens differ)"]


def test_corefud_and_jsonlines_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conllu = tmp_path / "f.conllu"
    conllu.write_text(
        "# newdoc id = d\n# global.Entity = eid-etype-head-other\n"
        "1\tw\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1-x-1)(e2-x-1)\n"
        "2\tw\t_\t_\t_\t_\t1\tdep\t_\tEntity=(e1-x-1)\n\n"
    )
    code, lines = run(capsys, str(conllu))
    assert code == 1 and lines == [f"{conllu}:3: document 'd': mention (0,0) appears twice (another entity, line 3)"]
    jsonl = tmp_path / "f.jsonlines"
    jsonl.write_text('{"doc_key": "d", "sentences": [], "clusters": []}\n')
    code, lines = run(capsys, str(jsonl))
    assert code == 1 and lines == [f"{jsonl}:1: document 'd' is empty (no tokens)"]


def _brute(starts: list[int], ends: list[int]) -> set[int]:
    return {i for i in range(len(starts)) for j in range(len(starts)) if starts[i] < starts[j] <= ends[i] < ends[j]}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 6)), max_size=40))
def test_crossing_pairs_agree_with_brute_force(spans: list[tuple[int, int]]) -> None:
    starts = [s for s, _ in spans]
    ends = [s + n for s, n in spans]
    pairs = crossing_pairs(np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64))
    assert {i for i, _ in pairs} == _brute(starts, ends)
    for i, j in pairs:
        assert starts[i] < starts[j] <= ends[i] < ends[j]
