"""``corefeval humans`` on careless arguments and hostile files: one located line, never a traceback."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest


def humans(*args: str) -> tuple[int, str]:
    """Run ``corefeval humans ARGS``; its exit status and its standard error, checked to be one line."""
    done = subprocess.run(
        [sys.executable, "-m", "corefeval", "humans", *args], capture_output=True, text=True, timeout=600
    )
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    return done.returncode, done.stderr.strip()


def inputs(s, **replaced: Path) -> list[str]:  # type: ignore[no-untyped-def]
    """The synthetic study's arguments, with some files replaced (``ratings=``, ``errors=``, ...)."""
    files = {"ratings": s.ratings, "errors": s.errors, "key": s.key, "response": s.response} | replaced
    answers = files.pop("answers", None)
    ratings = ["--answers", str(answers)] if answers else ["--ratings", str(files.pop("ratings"))]
    files.pop("ratings", None)
    return [*ratings, *(x for name, path in files.items() for x in (f"--{name}", str(path))), "--controls", ""]


HUGE = "7" * (csv.field_size_limit() + 1)


@pytest.mark.parametrize(
    ("which", "text", "line"),
    [
        ("ratings", f"annotator,item,value\nR1,1,{HUGE}\n", 2),
        ("answers", f"time,annotator,1) question\nt,R1,{HUGE}\n", 2),
        ("errors", f"item,border,type\n1,0,0\n2,0,{HUGE}\n", 3),
    ],
)
def test_a_field_past_the_csv_limit_is_one_located_line(
    synthetic, tmp_path: Path, which: str, text: str, line: int
) -> None:
    """It used to be a ``_csv.Error`` traceback."""
    path = tmp_path / f"{which}.csv"
    path.write_text(text)
    status, err = humans("validate", *inputs(synthetic, **{which: path}))
    assert status == 1 and err.startswith(f"{path}:{line}: error: cannot read the CSV: a field is longer than")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "{path}:1: error: the file is empty"),
        ("\n\n", "{path}:1: error: the file is empty"),
        ("item,border,type\n1,0,0\n2,1\n", "{path}:3: error: expected 3 columns, found 2"),
        ("item,border,border\n1,0,0\n", "{path}:1: error: column 'border' appears more than once"),
        ('item,border\n1,"0\n', "{path}:2: error: cannot read the CSV: unexpected end of data"),
    ],
)
def test_a_broken_error_table_is_one_located_line(synthetic, tmp_path: Path, text: str, expected: str) -> None:
    """An empty table used to give a csv.Sniffer traceback, a short row an AttributeError traceback."""
    path = tmp_path / "errors.csv"
    path.write_text(text)
    status, err = humans("validate", *inputs(synthetic, errors=path))
    assert status == 1 and err == expected.format(path=path)


def test_report_onto_a_file_is_one_line_and_leaves_it_alone(synthetic, tmp_path: Path) -> None:
    """``--out FILE`` used to fail with a NotADirectoryError traceback after the whole analysis."""
    out = tmp_path / "notes.txt"
    out.write_text("mine\n")
    status, err = humans("report", *inputs(synthetic), "--out", str(out))
    assert status == 2 and err.endswith(f"cannot write into {out}: it is a file, not a folder")
    assert out.read_text() == "mine\n"


def test_report_with_a_file_where_its_tables_go_is_one_line(synthetic, tmp_path: Path) -> None:
    (tmp_path / "tables").write_text("mine\n")
    status, err = humans("report", *inputs(synthetic), "--out", str(tmp_path))
    assert status == 2 and err.endswith(f"cannot write {tmp_path / 'tables'}: it must be a folder")
    assert (tmp_path / "tables").read_text() == "mine\n"


@pytest.mark.parametrize("link", ["hard", "symbolic"])
def test_report_refuses_a_link_to_an_input_before_reading_anything(synthetic, tmp_path: Path, link: str) -> None:
    """A table the report would replace is a link to an input: refused before the (here broken)
    ratings are read, so the refusal is the one line, and the input keeps its bytes."""
    before = synthetic.errors.read_bytes()
    (tmp_path / "tables").mkdir()
    target = tmp_path / "tables" / "table1_agreement.csv"
    (os.link if link == "hard" else os.symlink)(synthetic.errors, target)
    broken = tmp_path / "ratings.csv"
    broken.write_text("not,a,ratings table\n")
    status, err = humans("report", *inputs(synthetic, ratings=broken), "--out", str(tmp_path))
    assert status == 2 and f"would overwrite the input {synthetic.errors}" in err
    assert synthetic.errors.read_bytes() == before


def test_items_missing_from_the_error_table_are_findings_not_a_traceback(synthetic, tmp_path: Path) -> None:
    """An error table with rows for some items only used to end in a pandas KeyError traceback;
    ``validate`` exists to list such items."""
    errors = tmp_path / "errors.csv"
    errors.write_text("".join(synthetic.errors.read_text().splitlines(keepends=True)[:3]))  # items 1 and 2
    done = subprocess.run(
        [sys.executable, "-m", "corefeval", "humans", "validate", *inputs(synthetic, errors=errors)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr
    missing = [line.split()[0] for line in done.stdout.splitlines() if "has no row in the error-count table" in line]
    assert missing == [str(i) for i in range(3, len(synthetic.counts) + 1)]
