"""Commands that write files refuse to write over an input, however the path is spelled."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from corefeval.cli import main

CONLL = "#begin document (d); part 000\nd\t0\t0\tw\t(1)\nd\t0\t1\tw\t(1)\n#end document\n"


def spellings(path: Path) -> list[str]:
    """The same file by another name: itself, ``./`` and ``..`` detours, a symbolic and a hard link."""
    link = path.parent / "link.conll"
    link.symlink_to(path)
    hard = path.parent / "hard.conll"
    os.link(path, hard)
    sub = path.parent / "sub"
    sub.mkdir()
    return [str(path), f"{path.parent}/./{path.name}", f"{sub}/../{path.name}", str(link), str(hard)]


@pytest.mark.parametrize("which", range(5))
@pytest.mark.parametrize("command", ["convert", "errors --html", "errors --log"])
def test_output_onto_an_input_is_refused(
    tmp_path: Path, which: int, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    key = tmp_path / "key.conll"
    key.write_text(CONLL)
    target = spellings(key)[which]
    if command == "convert":
        argv = ["convert", str(key), target, "--to", "corefud"]
    else:
        argv = ["errors", str(key), str(key), command.split()[1], target]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "is the input" in err
    assert key.read_text() == CONLL


def test_an_unwritable_output_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key.conll"
    key.write_text(CONLL)
    assert main(["convert", str(key), str(tmp_path), "--to", "corefud"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and f"cannot write {tmp_path}" in err
