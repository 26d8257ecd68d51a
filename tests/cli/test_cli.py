"""The ``corefeval score`` command: formats, exit statuses, and one-line errors for bad input."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corefeval.cli import main

KEY = """#begin document (doc1); part 000
w\t0\ta\t(1)
w\t1\tb\t(2
w\t2\tc\t2)

w\t3\td\t(1)
#end document
#begin document (doc2); part 000
w\t0\te\t(3)
w\t1\tf\t(3)
#end document
"""
RESPONSE = """#begin document (doc1); part 000
w\t0\ta\t(1)
w\t1\tb\t(1
w\t2\tc\t1)

w\t3\td\t-
#end document
#begin document (doc2); part 000
w\t0\te\t(7)
w\t1\tf\t(7)
#end document
"""


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    return write(tmp_path, "key.conll", KEY), write(tmp_path, "response.conll", RESPONSE)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_text_format_shows_every_metric_and_the_signature(files: tuple[str, str], capsys) -> None:
    code, out, _ = run(capsys, "score", *files)
    assert code == 0
    for title in ("mentions", "MUC", "B-cubed", "CEAFm", "CEAFe", "BLANC", "LEA", "CoNLL"):
        assert title in out
    assert "signature: corefeval:" in out


def test_json_format_has_the_documented_shape(files: tuple[str, str], capsys) -> None:
    code, out, _ = run(capsys, "score", *files, "--format", "json", "--per-doc")
    data = json.loads(out)
    assert code == 0 and data["schema"] == "corefeval.score/1"
    assert set(data) >= {"schema", "signature", "key", "response", "corpus", "documents"}
    m_fields = {"recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"}
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea"):
        assert set(data["corpus"][name]) == m_fields
    assert set(data["corpus"]["blanc"]) == m_fields | {"coref", "noncoref"}
    assert set(data["corpus"]["conll"]) == {"f1"}
    assert [d["name"] for d in data["documents"]] == ["(doc1); part 000", "(doc2); part 000"]
    assert data["documents"][1]["scores"]["muc"]["f1"] == 1.0
    c = data["corpus"]
    assert c["conll"]["f1"] == pytest.approx((c["muc"]["f1"] + c["bcub"]["f1"] + c["ceafe"]["f1"]) / 3)


def test_json_contains_only_requested_metrics(files: tuple[str, str], capsys) -> None:
    _, out, _ = run(capsys, "score", *files, "--format", "json", "-m", "muc", "-m", "bcub")
    data = json.loads(out)
    assert set(data["corpus"]) == {"muc", "bcub"} and "documents" not in data


def test_csv_format(files: tuple[str, str], capsys) -> None:
    _, out, _ = run(capsys, "score", *files, "--format", "csv", "-m", "muc,lea", "--per-doc")
    signature, body = out.split("\n", 1)
    assert signature.startswith("# signature: corefeval:")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert {r["metric"] for r in rows} == {"muc", "lea"}
    muc = [(r["scope"], r["document"]) for r in rows if r["metric"] == "muc"]
    assert muc == [("document", "(doc1); part 000"), ("document", "(doc2); part 000"), ("corpus", "")]


def test_reference_format(files: tuple[str, str], capsys) -> None:
    _, out, _ = run(capsys, "score", *files, "--format", "reference", "-m", "muc")
    assert out.startswith("version: 8.01 corefeval")
    assert "Coreference: Recall: (1 / 2) 50%\tPrecision: (1 / 2) 50%\tF1: 50%" in out
    assert out.rstrip().splitlines()[-1].startswith("# corefeval:")


def test_doc_option_scores_one_document(files: tuple[str, str], capsys) -> None:
    _, out, _ = run(capsys, "score", *files, "--format", "json", "--doc", "(doc2); part 000")
    assert json.loads(out)["corpus"]["muc"]["f1"] == 1.0
    assert run(capsys, "score", *files, "--doc", "nope")[0] == 2


def test_blanc_variant_option(files: tuple[str, str], capsys) -> None:
    _, out, _ = run(capsys, "score", *files, "--format", "json", "-m", "blanc", "--blanc", "paper")
    assert "blanc:paper" in json.loads(out)["signature"]


def test_usage_errors_exit_2(files: tuple[str, str], capsys) -> None:
    assert run(capsys, "score", *files, "-m", "nonsense")[0] == 2
    code, _, err = run(capsys, "score", files[0])
    assert code == 2 and "RESPONSE is required" in err
    with pytest.raises(SystemExit) as exc:
        main(["score"])
    assert exc.value.code == 2


# Malformed input: (response text, expected message fragment). Each must be exit 1, one line, no traceback.
BAD = {
    "unclosed": (
        "#begin document (doc1); part 000\nw\t0\ta\t(1\n#end document\n",
        ":2: error: mention '(1' opened here is not closed before '#end document' at line 3",
    ),
    "unopened": (
        "#begin document (doc1); part 000\nw\t0\ta\t1)\n#end document\n",
        ":2: error: '1)' closes a mention of entity 1 that was never opened",
    ),
    "label": (
        "#begin document (doc1); part 000\nw\t0\ta\t(x)\n#end document\n",
        ":2: error: cannot read coreference field '(x)'",
    ),
    "long label": (
        "#begin document (doc1); part 000\nw\t0\ta\t(" + "x" * 20000 + ")\n#end document\n",
        ":2: error: cannot read coreference field '(" + "x" * 59 + "...' (20002 characters): expected",
    ),
    "tokens": (
        "#begin document (doc1); part 000\nw\t0\ta\t-\n#end document\n",
        ":1: error: document '(doc1); part 000' has 1 token but the key",
    ),
    "empty": ("", ":1: error: the file is empty"),
    "nodoc": ("w 0 0 a - -\n", ":1: error: no document found"),
    # plain words are read as a language model's markup, one document a line
    "plain": ("just some text\n", ":1: error: 1 document (one a line), the key"),
    "utf8": (
        b"#begin document (doc1); part 000\nw\t0\t\xff\t-\n#end document\n",
        ":2: error: byte 0xff at column 5 is not UTF-8",
    ),
}


@pytest.mark.parametrize("kind", list(BAD))
def test_malformed_response_is_one_located_line(kind: str, tmp_path: Path) -> None:
    text, message = BAD[kind]
    key = write(tmp_path, "key.conll", KEY)
    bad = write(tmp_path, "bad.conll", text)
    before = Path(bad).read_bytes()
    r = subprocess.run([sys.executable, "-m", "corefeval", "score", key, bad], capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(bad) and message in r.stderr
    assert Path(bad).read_bytes() == before


def test_unreadable_file(tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "score", str(tmp_path / "missing.conll"), str(tmp_path / "missing.conll"))
    assert code == 1 and "missing.conll: error: cannot read the file" in err


STRUCTURAL = {
    "begin while open": (RESPONSE.replace("#end document\n", "", 1), ":7: warning: '#begin document' while document"),
    "end with none open": ("#end document\n" + RESPONSE, ":1: warning: '#end document' with no document open"),
    "begin without name": (
        RESPONSE + "#begin document\nw\t0\tz\t-\n#end document\n",
        ":12: warning: '#begin document' without a name",
    ),
    "name twice": (
        RESPONSE + "#begin document (doc2); part 000\nw\t0\te\t(7)\nw\t1\tf\t(7)\n#end document\n",
        ":12: warning: document '(doc2); part 000' appears again (first at line 8)",
    ),
}


@pytest.mark.parametrize("kind", list(STRUCTURAL))
def test_structural_problems_are_located_warnings(kind: str, tmp_path: Path, capsys) -> None:
    text, message = STRUCTURAL[kind]
    code, _, err = run(capsys, "score", write(tmp_path, "key.conll", KEY), write(tmp_path, "r.conll", text))
    assert code == 0 and message in err


def test_missing_and_extra_documents_warn_once_and_still_score(tmp_path: Path, capsys) -> None:
    response = RESPONSE.split("#begin document (doc2)")[0] + "#begin document (other)\nw\t0\tz\t(1)\n#end document\n"
    code, out, err = run(
        capsys, "score", write(tmp_path, "k", KEY), write(tmp_path, "r", response), "--format", "json", "--per-doc"
    )
    assert code == 0
    assert err.count("document '(doc2); part 000' is not in the response") == 1
    assert err.count("document '(other)' is not in the key; it is ignored") == 1
    assert json.loads(out)["documents"][1]["scores"]["muc"]["recall"] == 0.0


def test_repeated_mentions_warn(tmp_path: Path, capsys) -> None:
    response = RESPONSE.replace("w\t0\ta\t(1)", "w\t0\ta\t(1)|(5)")
    code, _, err = run(capsys, "score", write(tmp_path, "k", KEY), write(tmp_path, "r", response))
    assert code == 0 and "repeats a mention that matched the key; this copy is ignored" in err


def test_space_separated_files_read_only_the_last_column(tmp_path: Path, capsys) -> None:
    spaced = KEY.replace("\t", "  ").replace("w  0  a", "w  0  (1990)")
    code, out, _ = run(capsys, "score", write(tmp_path, "k", KEY), write(tmp_path, "s", spaced), "--format", "json")
    assert code == 0 and json.loads(out)["corpus"]["muc"]["f1"] == 1.0


def test_close_then_open_on_one_token_is_read_as_written(tmp_path: Path) -> None:
    from corefeval.readers import read

    text = "#begin document (d)\nw\t(14\nw\t14)|(14\nw\t14)\n#end document\n"
    doc = read(write(tmp_path, "k", text)).documents[0]
    assert doc.clusters() == [[(0, 1), (1, 2)]]


def test_help_is_fast_and_imports_no_numpy() -> None:
    code = "import sys; from corefeval.cli import build_parser; build_parser(); print('numpy' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "False"


#: Modules (and packages) that a text score of the bundled example does not use, so does not
#: import (start-up counts against every small run): the report, CSV, HTML, leaderboard, errors and
#: suggestion machinery, compression libraries, OpenSSL (a small key is hashed by CPython's own
#: SHA-256), and the optional heavy dependencies.
NOT_ON_A_TEXT_SCORE = (
    "_hashlib",
    "bz2",
    "corefeval.core.document_names",
    "corefeval.studies.errors",
    "corefeval.stats.leaderboard",
    "corefeval.scoring.presets",
    "corefeval.scoring.presets_ua",
    "corefeval.report.csv_out",
    "corefeval.report.html_report",
    "corefeval.stats",
    "csv",
    "dask",
    "difflib",
    "hashlib",
    "html",
    "json",
    "lzma",
    "matplotlib",
    "pandas",
    "scipy",
    "shutil",
    "threading",
    "zlib",
)


def test_a_text_score_imports_nothing_it_does_not_use() -> None:
    import corefeval

    examples = Path(corefeval.__file__).parent / "examples"
    code = (
        "import io, sys; from contextlib import redirect_stdout; from corefeval.cli import main; "
        f"redirect_stdout(io.StringIO()).__enter__(); status = main(['score', {str(examples / 'key.conll')!r}, "
        f"{str(examples / 'response.conll')!r}]); sys.__stdout__.write(repr((status, sorted(sys.modules))))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    status, modules = eval(r.stdout)
    assert status == 0 and "corefeval.scoring.pipeline" in modules
    assert [
        m for m in modules if m.startswith(tuple(f"{n}." for n in NOT_ON_A_TEXT_SCORE)) or m in NOT_ON_A_TEXT_SCORE
    ] == []


#: The records a text score makes whose methods dataclasses still generates: the frozen public ones
#: keep dataclasses' own frozen ``__setattr__`` and ``__delattr__`` (their subclasses, in and out of
#: corefeval, are declared frozen, which needs a frozen parent).
GENERATED_ON_A_TEXT_SCORE = {
    f"{name}.{method}"
    for name in ("metrics.base.Score", "metrics.blanc.BlancScore", "core.model.Document", "core.options.Options")
    for method in ("__setattr__", "__delattr__")
}


def test_a_text_score_compiles_no_other_dataclass_methods() -> None:
    """Generating a dataclass's methods costs millions of instructions a class at import: the
    records on a text score's path write theirs (see corefeval.core.dataclass_methods)."""
    import corefeval

    examples = Path(corefeval.__file__).parent / "examples"
    code = (
        "import io, sys, dataclasses; from contextlib import redirect_stdout; from corefeval.cli import main; "
        f"redirect_stdout(io.StringIO()).__enter__(); main(['score', {str(examples / 'key.conll')!r}, "
        f"{str(examples / 'response.conll')!r}]); "
        "made = {f'{m}.{c.__qualname__}.{n}'.removeprefix('corefeval.') for m, module in list(sys.modules.items()) "
        "if m.startswith('corefeval') for c in vars(module).values() if isinstance(c, type) and c.__module__ == m "
        "and dataclasses.is_dataclass(c) for n, f in vars(c).items() "
        "if getattr(getattr(f, '__code__', None), 'co_filename', '') == '<string>'}; "
        "sys.__stdout__.write(repr(sorted(made)))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert set(eval(r.stdout)) == GENERATED_ON_A_TEXT_SCORE, r.stderr


def test_a_text_score_compiles_none_of_the_readers_fallback_patterns() -> None:
    """Compiling a regular expression costs every run that makes it: those of the line-by-line
    readers, of unprintable names and of other document names are compiled when first used."""
    import corefeval

    examples = Path(corefeval.__file__).parent / "examples"
    code = (
        "import io, sys; from contextlib import redirect_stdout; from corefeval.cli import main; "
        f"redirect_stdout(io.StringIO()).__enter__(); main(['score', {str(examples / 'key.conll')!r}, "
        f"{str(examples / 'response.conll')!r}]); "
        "from corefeval.core import diagnostics, pairing; from corefeval.readers import conll_mentions; "
        "caches = (conll_mentions.compiled, diagnostics._unprintable, pairing._CONLL_NAME); "
        "sys.__stdout__.write(repr([c.cache_info().currsize for c in caches]))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout == "[0, 0, 0]", r.stderr


def test_help_is_as_wide_as_the_terminal() -> None:
    def help_lines(columns: int) -> list[str]:
        env = {**os.environ, "COLUMNS": str(columns)}
        argv = [sys.executable, "-m", "corefeval", "score", "--help"]
        return subprocess.run(argv, capture_output=True, text=True, env=env).stdout.splitlines()

    narrow, wide = help_lines(60), help_lines(200)
    assert len(narrow) > len(wide)
    assert max(len(line) for line in narrow if " " in line.strip()) > 50


def test_a_named_command_gets_its_own_options_only(capsys: pytest.CaptureFixture[str]) -> None:
    """The parser of a named command holds that command alone (so that a run does not pay for
    building every command's parser); without one, every command with its options."""
    from corefeval.cli import COMMANDS, build_parser

    parser = build_parser("anaphora")
    sub = next(a for a in parser._actions if a.dest == "command")
    assert list(sub.choices) == ["anaphora"]  # type: ignore[arg-type]
    assert any(a.dest != "help" for a in sub.choices["anaphora"]._actions)  # type: ignore[index]
    every = next(a for a in build_parser()._actions if a.dest == "command")
    assert len(every.choices) == len(COMMANDS)  # type: ignore[arg-type]
    assert all(any(a.dest != "help" for a in p._actions) for p in every.choices.values())  # type: ignore[attr-defined]
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert "--blanc" in capsys.readouterr().out


def test_python_dash_m_and_console_script_agree(files: tuple[str, str]) -> None:
    a = subprocess.run([sys.executable, "-m", "corefeval", "score", *files, "--format", "json"], capture_output=True)
    assert a.returncode == 0 and json.loads(a.stdout)["corpus"]["muc"]["recall"] == 0.5


def test_begin_line_without_space_is_read_with_a_warning(tmp_path: Path, capsys) -> None:
    text = "#begin document(meta);\nx\t(1)\nx\t(1)\n#end document\n"
    path = write(tmp_path, "glued.conll", text)
    code, out, err = run(capsys, "score", path, path, "--format", "json", "--per-doc", "-m", "muc")
    assert code == 0 and json.loads(out)["documents"][0]["name"] == "(meta);"
    assert ":1: warning: '#begin document(meta);' has no space before the name" in err


def test_lenient_reads_an_unreadable_field_as_no_mention(tmp_path: Path, capsys) -> None:
    bad = write(tmp_path, "bad.conll", KEY.replace("w\t3\td\t(1)", "w\t3\td\t(-"))
    assert run(capsys, "score", write(tmp_path, "k", KEY), bad)[0] == 1
    code, out, err = run(capsys, "score", write(tmp_path, "k", KEY), bad, "--lenient", "--format", "json")
    assert code == 0 and ":6: warning: cannot read coreference field '(-'" in err
    assert json.loads(out)["corpus"]["mentions"]["precision_den"] == 4
