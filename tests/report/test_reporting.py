"""What a user reads and pipes: CSV that spreadsheets and pandas take as typed data, names that
cannot act on a terminal, every format honouring ``--per-doc``, and the smaller papercuts."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.test_cli import run, write

NASTY = "\x1b]0;pwned\x07"


def conll(*documents: tuple[str, list[str]]) -> str:
    """A CoNLL-2012 file with the given documents (name, coreference field of each token)."""
    out = []
    for name, fields in documents:
        out.append(f"#begin document {name}")
        out += [f"d\t{i}\tw{i}\t{f}" for i, f in enumerate(fields)]
        out.append("#end document")
    return "\n".join(out) + "\n"


KEY = conll(("(one); part 000", ["(1)", "(2", "2)", "(1)"]), ("(two); part 000", ["(3)", "(3)"]))
RESPONSE = conll(("(one); part 000", ["(1)", "(1", "1)", "-"]), ("(two); part 000", ["(7)", "(7)"]))


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    return write(tmp_path, "key.conll", KEY), write(tmp_path, "response.conll", RESPONSE)


# Item 9: CSV as typed, rectangular data with the signature on a comment line.


def test_score_csv_reads_with_pandas_as_numbers(files: tuple[str, str], capsys) -> None:
    code, out, _ = run(capsys, "score", *files, "--format", "csv", "--per-doc")
    assert code == 0 and out.startswith("# signature: corefeval:")
    frame = pd.read_csv(io.StringIO(out), comment="#")
    for column in ("recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"):
        assert frame[column].dtype == "float64", column
    corpus = frame[frame.scope == "corpus"]
    assert corpus.document.isna().all() and "conll" in set(corpus.metric)
    assert set(frame[frame.scope == "document"].document) == {"(one); part 000", "(two); part 000"}
    assert corpus[corpus.metric == "muc"].f1.iloc[0] == pytest.approx(0.5)


def test_confidence_and_compare_csv_read_with_pandas_as_numbers(files: tuple[str, str], capsys) -> None:
    _, out, _ = run(capsys, "score", *files, "--format", "csv", "--confidence", "20", "-m", "muc,conll")
    assert "|bootstrap:20|" in out.split("\n", 1)[0]
    frame = pd.read_csv(io.StringIO(out), comment="#")
    assert frame.f1_low.dtype == frame.f1.dtype == "float64" and frame.resamples.tolist() == [20, 20]
    key, response = files
    _, out, _ = run(capsys, "compare", key, key, response, "--format", "csv", "--resamples", "20", "--rounds", "20")
    assert out.startswith("# signature: corefeval:")
    frame = pd.read_csv(io.StringIO(out), comment="#")
    assert frame.f1.dtype == frame.difference.dtype == "float64"
    assert frame.difference.dropna().lt(0).any()  # negative numbers stay numbers


def test_errors_csv_has_a_corpus_row_like_the_score_csv(files: tuple[str, str], capsys) -> None:
    _, out, _ = run(capsys, "errors", *files, "--format", "csv", "--no-costs")
    frame = pd.read_csv(io.StringIO(out), comment="#")
    assert frame.scope.tolist() == ["document", "document", "corpus"]
    assert frame.document.isna().tolist() == [False, False, True]
    assert frame.silence.dtype == "int64"


def test_formula_cells_are_neutralised_and_hashes_kept(tmp_path: Path, capsys) -> None:
    names = ["=HYPERLINK(1)", "+1", "-2", "@SUM(A1)", "a#b, c"]
    key = write(tmp_path, "k.conll", conll(*((n, ["(1)", "(1)"]) for n in names)))
    _, out, _ = run(capsys, "score", key, key, "--format", "csv", "--per-doc", "-m", "muc")
    frame = pd.read_csv(io.StringIO(out), comment="#")
    assert frame.document.dropna().tolist() == ["'=HYPERLINK(1)", "'+1", "'-2", "'@SUM(A1)", "a#b, c"]
    assert frame.f1.dtype == "float64"


def test_csv_text_keeps_numbers_numbers() -> None:
    from corefeval.report.csv_out import csv_text

    text = csv_text(["name", "x", "y"], [["-a", -0.5, None], ["b", 3, 1.25]], "s|a,b")
    lines = text.splitlines()
    assert lines[0] == "# signature: s|a,b"
    assert list(csv.reader(lines[2:])) == [["'-a", "-0.5", ""], ["b", "3", "1.25"]]


# Item 9: control characters in names and paths never reach a terminal raw.


@pytest.mark.parametrize(
    "fmt",
    [
        ["--format", "text"],
        ["--format", "markdown"],
        ["--format", "latex"],
        ["--format", "reference"],
        ["--format", "csv"],
    ],
)
def test_control_characters_in_names_are_escaped(tmp_path: Path, capsys, fmt: list[str]) -> None:
    key = write(tmp_path, "k.conll", conll((NASTY, ["(1)", "(1)"])))
    response = write(tmp_path, "r.conll", conll((NASTY, ["(1)", "(1)"]), ("other" + NASTY, ["-"])))
    code, out, err = run(capsys, "score", key, response, "--per-doc", *fmt)
    assert code == 0 and "pwned" in out and "pwned" in err  # the name is printed, and warned about
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert r"\x1b]0;pwned\x07" in out.replace("\\textbackslash{}", "\\")


@settings(max_examples=500, deadline=None)
@given(
    st.text(st.characters(max_codepoint=0x2100))
    | st.text(st.sampled_from("a \t\r\n\x1b\x7f\x85\xa0\u200e\u202e\u2028\u2066"))
)
def test_a_printable_text_is_kept_and_every_other_escaped_by_the_pattern(text: str) -> None:
    """The pattern is compiled only for a text that is not printable (none of its characters is)."""
    import re

    from corefeval.core.diagnostics import _UNPRINTABLE, printable

    assert printable(text) == re.sub(_UNPRINTABLE, lambda m: repr(m.group())[1:-1], text)


def test_control_characters_in_paths_and_usage_errors_are_escaped(tmp_path: Path, capsys) -> None:
    key = write(tmp_path, f"k{NASTY}.conll", conll(("d", ["(1)", "(1)"]), ("d", ["(1)", "-"])))
    code, _, err = run(capsys, "score", key, key)
    assert code == 0 and "appears again" in err
    assert "\x1b" not in err and "\x07" not in err and r"k\x1b]0;pwned\x07.conll:" in err
    code, _, err = run(capsys, "score", key, key, "--doc", f"x{NASTY}")
    assert code == 2 and "\x1b" not in err and "\x07" not in err and r"x\x1b]0;pwned\x07" in err


def test_errors_text_escapes_and_caps_long_names(tmp_path: Path, capsys) -> None:
    long_name = "a" * 100 + NASTY
    key = write(tmp_path, "k.conll", conll((long_name, ["(1)", "(1)"])))
    response = write(tmp_path, "r.conll", conll((long_name, ["(1)", "-"])))
    _, out, _ = run(capsys, "errors", key, response, "--no-costs")
    assert "\x1b" not in out and long_name not in out
    assert "document".ljust(40) + "  border" in out  # the name column is 40 wide
    assert "a" * 39 + "\u2026" in out
    _, out, _ = run(capsys, "errors", key, response, "--no-costs", "--format", "csv")
    assert pd.read_csv(io.StringIO(out)).document.iloc[0] == "a" * 100 + r"\x1b]0;pwned\x07"  # in full, escaped


def test_the_leaderboard_csv_escapes_a_dataset_name(tmp_path: Path, capsys) -> None:
    rows = ["1\ta\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1-x-1)", "2\tb\t_\t_\t_\t_\t1\tdep\t_\tEntity=(e1-x-1)"]
    text = "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n# text = a b\n"
    key = write(tmp_path, "k.conllu", text + "\n".join(rows) + "\n\n")
    code, out, _ = run(capsys, "leaderboard", "--pair", NASTY, key, key, "--format", "csv")
    assert code == 0 and "\x1b" not in out and "\x07" not in out and r"\x1b]0;pwned\x07" in out


@pytest.mark.parametrize(
    "command",
    [
        ["score", "K", "R", "--per-doc", "--format", "csv"],
        ["score", "K", "R", "--per-doc", "--format", "csv", "--confidence", "5"],
        ["score", "K", "R", "--format", "csv", "--manifest", "M"],
        ["errors", "K", "R", "--format", "csv", "--no-costs"],
        ["compare", "K", "R", "R", "--format", "csv", "--resamples", "5", "--names", f"base,{NASTY}"],
    ],
    ids=lambda c: " ".join(c[:1] + c[3:5]),
)
def test_every_csv_escapes_control_characters_and_json_keeps_them(tmp_path: Path, capsys, command: list[str]) -> None:
    """A CSV is text that gets printed; a row stays one line. JSON is the format that keeps names exact."""
    key = write(tmp_path, "k.conll", conll((NASTY, ["(1)", "(1)"]), ("(b)", ["(1)", "-"])))
    response = write(tmp_path, "r.conll", conll((NASTY, ["(1)", "-"]), ("(b)", ["(1)", "-"])))
    groups = write(tmp_path, "groups.tsv", f"{NASTY}\tgroup {NASTY}\n(b)\tb\n")
    args = [{"K": key, "R": response, "M": groups}.get(a, a) for a in command]
    code, out, _ = run(capsys, *args)
    assert code == 0 and "pwned" in out
    assert "\x1b" not in out and "\x07" not in out, out
    assert r"\x1b]0;pwned\x07" in out
    if "--per-doc" in command:
        code, out, _ = run(capsys, *[a if a != "csv" else "json" for a in args])
        assert code == 0 and json.loads(out)["documents"][0]["name"] == NASTY


# Item 11: the reference format with the CoNLL score, --per-doc everywhere, plurals.


def test_reference_format_prints_the_parts_of_the_conll_score(files: tuple[str, str], capsys) -> None:
    code, out, _ = run(capsys, "score", *files, "--format", "reference", "-m", "conll")
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("METRIC")] == [
        "METRIC muc:",
        "METRIC bcub:",
        "METRIC ceafe:",
    ]
    assert out.count("Coreference: Recall:") == 3
    assert "# CoNLL score (mean of the MUC, B-cubed and CEAFe F1): " in out
    code, out, err = run(capsys, "score", *files, "--format", "reference", "-m", "mentions")
    assert code == 2 and out == "" and "reference format" in err


@pytest.mark.parametrize("fmt", ["markdown", "latex", "reference"])
def test_per_doc_is_honoured_by_every_format(files: tuple[str, str], capsys, fmt: str) -> None:
    _, plain, _ = run(capsys, "score", *files, "--format", fmt, "-m", "muc")
    _, out, _ = run(capsys, "score", *files, "--format", fmt, "-m", "muc", "--per-doc")
    assert "(one)" not in plain and "(two)" not in plain
    assert "(one)" in out and "(two)" in out


def test_reference_per_doc_is_the_reference_commands_output(files: tuple[str, str], capsys) -> None:
    _, reference, _ = run(capsys, "reference", "muc", *files)
    _, out, _ = run(capsys, "score", *files, "--format", "reference", "-m", "muc", "--per-doc")
    assert out.startswith(reference) and out[len(reference) :].startswith("# corefeval:")
    code, _, err = run(capsys, "score", *files, "--format", "reference", "--per-doc", "--engine", "dask")
    assert code == 2 and "--per-doc" in err


def test_counts_of_one_are_singular(tmp_path: Path, capsys) -> None:
    key = write(tmp_path, "k.conll", conll(("d", ["(1)", "(1)"])))
    _, out, _ = run(capsys, "score", key, key, "--per-doc")
    assert "corpus (1 document)" in out
    _, out, _ = run(capsys, "score", key, key, "--format", "markdown", "--per-doc")
    assert "corpus (1 document)" in out
    _, out, _ = run(capsys, "score", key, key, "--confidence", "1")
    assert "1 resample of 1 document" in out


# Item 11: --doc takes a bare name and says which names it knows.


def test_doc_accepts_a_bare_name_when_it_is_unambiguous(files: tuple[str, str], capsys) -> None:
    _, exact, _ = run(capsys, "score", *files, "--format", "json", "--doc", "(two); part 000")
    for bare in ("two", " two", "(two); part 000 "):
        code, out, _ = run(capsys, "score", *files, "--format", "json", "--doc", bare)
        assert code == 0 and out == exact, bare


def test_doc_refuses_an_ambiguous_name_and_lists_the_closest(tmp_path: Path, capsys) -> None:
    key = write(
        tmp_path, "k.conll", conll(("(a); part 000", ["(1)"]), ("(a); part 001", ["(1)"]), ("(ab); part 000", ["-"]))
    )
    code, _, err = run(capsys, "score", key, key, "--doc", "a")
    assert code == 2 and "'(a); part 000', '(a); part 001'" in err and len(err.splitlines()) == 1
    code, _, err = run(capsys, "score", key, key, "--doc", "(ab); part 00")
    assert code == 2 and "closest" in err and "'(ab); part 000'" in err
    code, _, err = run(capsys, "score", key, key, "--doc", "zzzz")
    assert code == 2 and "'(a); part 000'" in err and "\n" not in err.rstrip("\n")


def test_frame_html_caption_is_singular_for_one_document(tmp_path: Path) -> None:
    from corefeval import score

    key = write(tmp_path, "k.conll", conll(("d", ["(1)", "(1)"])))
    assert "1 document;" in score(key, key)._repr_html_()


# Item 11: a token that closes and reopens an entity, which the reference reads otherwise.


def test_close_then_open_on_one_token_warns_with_the_reference_reading(tmp_path: Path, capsys) -> None:
    """The reference scorer's B7: ``(14``, ``14)(14``, ``14)`` on tokens 14 to 16 are (14,15) and
    (15,16) as written, and (15,15) and (14,16) for the reference, which takes openings first."""
    fields = ["-"] * 14 + ["(14", "14)(14", "14)"]
    key = write(tmp_path, "k.conll", conll(("(a); part 000", ["(1)", "(1)"]), ("(b); part 000", fields)))
    code, _, err = run(capsys, "score", key, key, "-m", "muc")
    notes = [line for line in err.splitlines() if "reopen" in line or "opens another" in line]
    assert code == 0 and len(notes) == 1
    assert notes[0].startswith(f"{key}:21: warning: document '(b); part 000': token 15 ('14)(14')")
    assert "has (14,15) (15,16)" in notes[0] and "would count (14,16) (15,15) instead" in notes[0]


def test_the_issue_token_and_one_warning_per_document(tmp_path: Path, capsys) -> None:
    fields = ["(1", "1)|(2)|(1", "1)", "(1", "1)(1", "1)", "(3", "(3|3)", "3)"]
    key = write(tmp_path, "k.conll", conll(("d", fields)))
    _, _, err = run(capsys, "score", key, key, "-m", "muc")
    notes = [line for line in err.splitlines() if "opens another" in line]
    assert len(notes) == 1 and "token 1 ('1)|(2)|(1')" in notes[0]
    assert "(1 more tokens of the document close and reopen an entity)" in notes[0]
    key = write(tmp_path, "same.conll", conll(("d", ["(3", "(3|3)", "3)", "(4", "(4|4)(4", "4)", "4)"])))
    _, _, err = run(capsys, "score", key, key, "-m", "muc")
    assert "opens another" not in err  # both readings give the same mentions


def test_validate_escapes_control_characters_and_counts_files_in_words(tmp_path: Path, capsys) -> None:
    bad = write(tmp_path, f"b{NASTY}.conll", conll((NASTY, ["(1)", "(1)"]), (NASTY, ["-"])))
    code, out, _ = run(capsys, "validate", bad)
    assert code == 1 and "\x1b" not in out and "\x07" not in out and r"\x1b]0;pwned\x07" in out
    good = write(tmp_path, "g.conll", conll(("d", ["(1)", "(1)"])))
    code, _, err = run(capsys, "validate", good)
    assert code == 0 and "1 file: no problem found" in err


def test_humans_tables_neutralise_formula_cells_and_keep_numbers() -> None:
    from corefeval.report.study_tables import csv as table_csv

    table = pd.DataFrame({"system": ["=HYPERLINK(1)", "ok"], "delta": [1.5, -0.5]}, index=["+a", "b"])
    frame = pd.read_csv(io.StringIO(table_csv(table)), index_col=0)
    assert frame["system"].tolist() == ["'=HYPERLINK(1)", "ok"] and list(frame.index) == ["'+a", "b"]
    assert frame["delta"].dtype == float and frame["delta"].tolist() == [1.5, -0.5]


def test_a_score_with_parts_shows_them_whatever_its_metric_is_named(capsys) -> None:
    """Reporters ask a score for its parts: the UA scorer's BLANC shows its link scores as BLANC does
    (its own counts were printed as ``1 / 1`` when only the name ``blanc`` was looked for)."""
    ua = str(Path(__file__).parent.parent / "data" / "ua" / "multiword.ua.conllu")
    code, text, _ = run(capsys, "score", ua, ua, "-m", "blanc", "-m", "ua-blanc")
    assert code == 0
    assert text.count("  coref links") == 2 and text.count("  non-coref links") == 2
    assert "1 / 1" not in text
    code, out, _ = run(capsys, "score", ua, ua, "-m", "ua-blanc", "--format", "csv")
    metrics = [row["metric"] for row in csv.DictReader(io.StringIO(out.split("\n", 1)[1]))]
    assert code == 0 and metrics == ["ua-blanc", "ua-blanc.coref", "ua-blanc.noncoref"]
