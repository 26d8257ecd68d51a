"""Mutated files never get past the readers: a number, or one located error line, never a traceback.

Each file of each format is mutated (bytes flipped, lines cut, columns dropped, lines duplicated or
deleted) and read, scored and run through the command line in this process; a few runs go through
a real subprocess. Every outcome must be exit 0 with numbers, or exit 1 with ``PATH:LINE: error:``.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.readers import read
from corefeval.scoring.pipeline import score

CONLL = (
    "#begin document (a); part 000\n"
    "a\t0\t0\tJohn\t(0)\n"
    "a\t0\t1\tsaw\t-\n"
    "a\t0\t2\tthe\t(1|(2\n"
    "a\t0\t3\tdog\t2)\n"
    "a\t0\t4\tbark\t1)\n"
    "\n"
    "a\t0\t0\tHe\t(0)\n"
    "a\t0\t1\tleft\t(3)|(4)\n"
    "#end document\n"
    "#begin document (b); part 000\n"
    "b\t0\t0\tit\t(7)\n"
    "b\t0\t1\trained\t-\n"
    "#end document\n"
)
COREFUD = (
    "# newdoc id = d1\n"
    "# global.Entity = eid-etype-head-other\n"
    "# sent_id = 1\n"
    "1\tJohn\t_\t_\t_\t_\t2\tnsubj\t_\tEntity=(e1-person-1)\n"
    "2\tsaw\t_\t_\t_\t_\t0\troot\t_\t_\n"
    "2.1\t_\t_\t_\t_\t_\t_\t_\t2:obj\tEntity=(e2-thing-1)\n"
    "3\tthe\t_\t_\t_\t_\t4\tdet\t_\tEntity=(e2-thing-2\n"
    "4\tdog\t_\t_\t_\t_\t2\tobj\t_\tEntity=e2)|Entity=(e1-person-1)\n"
    "\n"
    "# sent_id = 2\n"
    "1\tHe\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1-person-1)(e3-x-1-)\n"
    "\n"
)
JSONLINES = (
    '{"doc_key": "a_0", "sentences": [["John", "saw", "the", "dog"], ["He", "left"]], '
    '"clusters": [[[0, 0], [4, 4]], [[2, 3]]], "predicted_clusters": [[[0, 0], [2, 3]]]}\n'
    '{"doc_key": "b_0", "sentences": [["it", "rained"]], "clusters": [[[0, 0]]]}\n'
)
PREDICTIONS = (
    '{"doc_key": "a_0", "clusters_token_offsets": [[[0, 0], [5, 5]], [[2, 3]]]}\n'
    '{"doc_key": "b_0", "text": "it rained", "clusters_char_offsets": [[[0, 1]]]}\n'
)
FILES = {
    "conll2012": (CONLL, "conll"),
    "corefud": (COREFUD, "conllu"),
    "jsonlines": (JSONLINES, "jsonlines"),
    "predictions": (PREDICTIONS, "jsonl"),
}
LOCATED = re.compile(r"^.+:\d+: error: .+$")


@st.composite
def mutated(draw: st.DrawFn, text: str) -> bytes:
    """``text`` with a few random mutations, as bytes (some of them not UTF-8)."""
    lines = text.encode("utf-8").split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["flip", "cut", "column", "duplicate", "delete", "insert"]))
        line = lines[i]
        if kind == "flip" and line:
            j = draw(st.integers(0, len(line) - 1))
            lines[i] = line[:j] + bytes([draw(st.integers(0, 255))]) + line[j + 1 :]
        elif kind == "cut":
            lines[i] = line[: draw(st.integers(0, len(line)))]
        elif kind == "column":
            cols = line.split(b"\t")
            del cols[draw(st.integers(0, len(cols) - 1))]
            lines[i] = b"\t".join(cols)
        elif kind == "duplicate":
            lines.insert(i, line)
        elif kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "insert":
            lines[i] = line + draw(st.sampled_from([b"|", b"(", b")", b"-", b"|(9)", b"\t", b"{", b"]", b"9)"]))
    return b"\n".join(lines)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def check_outcome(status: int, out: str, err: str) -> None:
    assert "Traceback" not in err
    if status == 0:
        assert out.strip()
    else:
        assert status == 1, err
        assert LOCATED.match(err.strip().splitlines()[-1]), err


FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_readers_raise_only_located_errors(fmt: str, tmp_path: Path) -> None:
    text, ext = FILES[fmt]
    path = tmp_path / f"f.{ext}"
    key = None
    if fmt == "predictions":  # character offsets are mapped onto a key's words
        (tmp_path / "key.conll").write_text(CONLL)
        key = read(str(tmp_path / "key.conll"), keep_tokens=True)

    @FUZZ
    @given(mutated(text))
    def check(data: bytes) -> None:
        path.write_bytes(data)
        for given_format in ("auto", fmt):
            try:
                corpus = read(str(path), given_format, keep_tokens=True, key=key)
            except InputError as err:
                assert LOCATED.match(str(err)) or str(err).startswith(f"{path}: error:"), err
                continue
            score(corpus, corpus)

    check()


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_commands_on_mutated_files(fmt: str, tmp_path: Path) -> None:
    text, ext = FILES[fmt]
    key = tmp_path / (f"key.{ext}" if fmt != "predictions" else "key.conll")
    key.write_text(text if fmt != "predictions" else CONLL)
    response = tmp_path / f"response.{ext}"

    @FUZZ
    @given(mutated(text), st.sampled_from(["score", "score-json", "errors", "validate", "convert", "reference"]))
    def check(data: bytes, command: str) -> None:
        response.write_bytes(data)
        k, r = str(key), str(response)
        argv = {
            "score": ["score", k, r],
            "score-json": ["score", k, r, "--format", "json", "--lenient"],
            "errors": ["errors", k, r, "--no-costs"],
            "validate": ["validate", r],
            "convert": ["convert", r, "-", "--to", "conll2012" if fmt != "conll2012" else "corefud"],
            "reference": ["reference", "all", k, r, "none"],
        }[command]
        if (command == "reference" and fmt != "conll2012") or (
            command in ("validate", "convert") and fmt == "predictions"
        ):
            return
        status, out, err = run(argv)
        if command == "validate":
            assert status in (0, 1) and "Traceback" not in err
            return
        check_outcome(status, out, err)
        if command == "score-json" and status == 0:
            json.loads(out)

    check()


@pytest.mark.parametrize("mutation", [b"\xff", b"(0)|", b"|(0)", b"(0)||(1)", b"|"])
def test_subprocess_gives_one_located_line(mutation: bytes, tmp_path: Path) -> None:
    key = tmp_path / "key.conll"
    key.write_text(CONLL)
    response = tmp_path / "response.conll"
    response.write_bytes(CONLL.encode().replace(b"(7)", mutation))
    proc = subprocess.run(
        [sys.executable, "-m", "corefeval", "score", str(key), str(response)], capture_output=True, text=True
    )
    assert proc.returncode == 1
    assert proc.stderr == proc.stderr.strip() + "\n" and f"{response}:12: error:" in proc.stderr


@pytest.mark.parametrize("field", ["(0)|", "|(0)", "(0)||(1)", "|", "(0)|(1)|"])
def test_a_dangling_bar_is_a_located_error_and_lenient_reads_dash(field: str, tmp_path: Path) -> None:
    path = tmp_path / "f.conll"
    path.write_text(f"#begin document (d); part 000\nd\t0\t0\tw\t(1)\nd\t0\t1\tw\t{field}\n#end document\n")
    with pytest.raises(InputError, match=r"cannot read coreference field") as err:
        read(str(path))
    assert err.value.diagnostic.line == 3
    corpus = read(str(path), lenient=True)
    assert corpus.documents[0].n_mentions == 1
    assert [w.line for w in corpus.warnings] == [3]


def test_bars_between_parts_still_read(tmp_path: Path) -> None:
    path = tmp_path / "f.conll"
    path.write_text("#begin document (d); part 000\nd\t0\t0\tw\t(1)|(2\nd\t0\t1\tw\t2)|(3)\n#end document\n")
    doc = read(str(path)).documents[0]
    assert sorted(zip(doc.starts.tolist(), doc.ends.tolist())) == [(0, 0), (0, 1), (1, 1)]


def test_json_nested_too_deeply_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonlines"
    path.write_text('{"doc_key": "a", "sentences": [["a"]], "clusters": ' + "[" * 100000 + "]" * 100000 + "}\n")
    with pytest.raises(InputError, match="nested too deeply") as err:
        read(str(path))
    assert err.value.diagnostic.line == 1


def test_model_output_without_clusters_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"doc_key": "a_0", "clusters_token_offsets": [[[0, 0]]]}\n{"doc_key": "b_0", "text": "it"}\n')
    with pytest.raises(InputError, match="expected 'clusters_token_offsets'") as err:
        read(str(path))
    assert err.value.diagnostic.line == 2


@pytest.mark.parametrize("char", ["\x0b", "\x1c", "\x85", "\u2028", "\r"])
def test_an_error_stays_one_line_whatever_the_field_holds(char: str, tmp_path: Path) -> None:
    path = tmp_path / "f.conll"
    path.write_text(f"#begin document (d); part 000\nd\t0\t0\tJohn{char}(0)\n#end document\n", newline="")
    with pytest.raises(InputError) as err:
        read(str(path))
    assert len(str(err.value).splitlines()) == 1 and LOCATED.match(str(err.value))
