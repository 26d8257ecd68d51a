"""``corefeval errors`` on what ``score`` accepts, and on careless arguments: an analysis or one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def document(*fields: str) -> str:
    lines = [f"d\t0\t{t}\tw\t{f}" for t, f in enumerate(fields)]
    return "\n".join(["#begin document (d); part 000", *lines, "#end document"]) + "\n"


#: Entities 1 and 2 are the same two spans: the key repeats a chain under two ids.
TWICE = document("(1)|(2)", "(1)|(2)", "(3)", "(3)")
#: The same file with the repeat left out: what the error analysis sees.
DEDUPED = document("(1)", "(1)", "(3)", "(3)")
ONCE = document("(1)", "(1)", "(3)", "-")


def corefeval(*args: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "corefeval", *args], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("key_first", [True, False])
def test_a_chain_repeated_under_two_ids_is_analysed_as_score_scores_it(tmp_path: Path, key_first: bool) -> None:
    """It used to be a KeyError traceback; ``score`` accepts such a file with a warning. Each
    repeated span is analysed in its first entity, as if the repeat were not there, and said so."""
    files = {name: tmp_path / f"{name}.conll" for name in ("twice", "deduped", "once")}
    for name, text in (("twice", TWICE), ("deduped", DEDUPED), ("once", ONCE)):
        files[name].write_text(text)

    def analysed(repeated: Path) -> tuple[dict[str, object], str]:
        pair = (repeated, files["once"]) if key_first else (files["once"], repeated)
        status, out, err = corefeval("errors", *map(str, pair), "--format", "json", "--html", str(tmp_path / "p"))
        assert status == 0 and "Traceback" not in err
        assert (tmp_path / "p").read_text().startswith("<!DOCTYPE html>")
        return json.loads(out)["documents"], err

    status, _, _ = corefeval("score", str(files["twice"]), str(files["once"]))
    assert status == 0
    documents, err = analysed(files["twice"])
    side = "key" if key_first else "response"
    assert f"{files['twice']}:1: warning: document '(d); part 000': 2 {side} mentions are also in another entity" in err
    assert documents == analysed(files["deduped"])[0]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["{missing}", "{key}"], "{missing}: error: cannot read the file"),
        (["{tmp}", "{key}"], "{tmp}: error: cannot read the file"),
        (["{empty}", "{key}"], "{empty}:1: error: the file is empty"),
        (["{key}", "{empty}"], "{empty}:1: error: the file is empty"),
        (["{key}", "{key}", "--singleton-layer", "{tmp}"], "{tmp}: error: cannot read the file"),
        (["{key}", "{key}", "--log", "{tmp}"], "cannot write {tmp}: it is a folder"),
        (["{key}", "{key}", "--html", "{key}"], "the output {key} is the input {key}"),
    ],
)
def test_careless_arguments_are_one_line(tmp_path: Path, args: list[str], expected: str) -> None:
    names = {"key": tmp_path / "k.conll", "empty": tmp_path / "e.conll", "missing": tmp_path / "m", "tmp": tmp_path}
    names["key"].write_text(ONCE)
    names["empty"].write_text("")
    status, _, err = corefeval("errors", *(a.format(**names) for a in args))
    assert status in (1, 2) and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert expected.format(**names) in err
    assert names["key"].read_text() == ONCE
