"""Reading ratings (form export, long table), scales, error counts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from corefeval.core.diagnostics import InputError, UsageError
from corefeval.studies.analysis.error_counts import read_error_counts
from corefeval.studies.analysis.ratings import read_form_export, read_long_table
from corefeval.studies.analysis.scales import BUILTIN, GRAVITY, IMPORTANCE, REDUCED, parse_scale

FORM = """Timestamp,who,Linguist?,1) first,2) second,3) third,4) first again,Comment
t1,bob,yes,3,,5,,
t2,Ann,no,7,6,,,hello
t3,bob,yes,,2,,3,later
t4,bob,,4,,,,
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_form_export_merges_resubmissions_by_last_non_blank_answer(tmp_path: Path) -> None:
    r = read_form_export(write(tmp_path, "f.csv", FORM), annotator_column="who", controls={"1": "4"})
    assert r.annotators == ("Ann", "bob")  # case-sensitive order
    assert r.items == ("1", "2", "3")
    assert np.array_equal(r.values, np.array([[7, 6, np.nan], [4, 2, 5]]), equal_nan=True)
    assert r.info["bob"] == {"Linguist?": "yes", "Comment": "later"}
    ann, bob = r.controls
    assert (ann.annotator, ann.first, np.isnan(ann.second), ann.status) == ("Ann", 7.0, True, "not checked")
    assert (bob.annotator, bob.first, bob.second, bob.status) == ("bob", 4.0, 3.0, "different")


def test_form_export_errors_are_located(tmp_path: Path) -> None:
    bad = FORM.replace("t4,bob,,4", "t4,bob,,four")
    with pytest.raises(InputError, match=r"f.csv:5: error: answer to question 1 'four' is not a number"):
        read_form_export(write(tmp_path, "f.csv", bad))
    with pytest.raises(InputError, match="control item '9'"):
        read_form_export(write(tmp_path, "g.csv", FORM), controls={"1": "9"})


def test_long_table(tmp_path: Path) -> None:
    text = "annotator,item,value,note\nx,2,5,\ny,1,3,\nx,1,,\nx,2,6,changed\n"
    r = read_long_table(write(tmp_path, "l.csv", text))
    assert r.annotators == ("x", "y") and r.items == ("1", "2")
    assert np.array_equal(r.values, np.array([[np.nan, 6], [3, np.nan]]), equal_nan=True)
    with pytest.raises(InputError, match="l2.csv:1: error: missing column"):
        read_long_table(write(tmp_path, "l2.csv", "who,item,value\n"))
    with pytest.raises(InputError, match="l3.csv:3: error: value 'x' is not a number"):
        read_long_table(write(tmp_path, "l3.csv", "annotator,item,value\na,1,2\na,2,x\n"))


def test_builtin_scales() -> None:
    raw = np.arange(8, dtype=float)
    assert REDUCED.code(raw).tolist() == [0, 1, 1, 2, 2, 3, 3, 4]
    assert GRAVITY.code(raw).tolist() == [0, 0, 0, 1, 1, 1, 1, 2]
    assert IMPORTANCE.code(raw).tolist() == [0, 1, 1, 0, 0, 1, 1, 2]
    assert REDUCED.normalise(REDUCED.code(raw)).tolist() == pytest.approx([0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1])
    assert BUILTIN["standard"].normalise(raw)[-1] == 1.0
    with pytest.raises(UsageError):
        IMPORTANCE.normalise(raw)
    coded = BUILTIN["standard"].code(np.array([np.nan, 3.0]))
    assert np.isnan(coded[0]) and coded[1] == 3
    with pytest.raises(UsageError, match="answer 9 has no value"):
        REDUCED.code(np.array([9.0]))


def test_user_scale() -> None:
    s = parse_scale("binary:0=0,1=0,2=0,3=0,4=1,5=1,6=1,7=1")
    assert s.name == "binary" and s.top == 1 and s.code(np.array([3.0, 4.0])).tolist() == [0, 1]
    for bad in ("nocolon", "x:1=a", "x:", "x:1"):
        with pytest.raises(UsageError):
            parse_scale(bad)


def test_study_error_table_and_generic_one(tmp_path: Path) -> None:
    study = (
        "ID;Erreurs de frontières;Erreurs de type;Bruit;Silence;"
        "Construction des chaînes non pertinentes;Pas de chaîne\n1;2;0;0;0;0;0\n2;0;1;0;;0;0\n"
    )
    t = read_error_counts(write(tmp_path, "e.csv", study))
    assert list(t.columns) == ["border", "type", "noise", "silence", "irrelevant", "absence"]
    assert t.loc["1", "border"] == 2 and np.isnan(t.loc["2", "silence"])
    g = read_error_counts(write(tmp_path, "g.csv", "item,a,b\nx,1,2\n"))
    assert list(g.columns) == ["a", "b"] and g.loc["x", "b"] == 2
    with pytest.raises(InputError, match="h.csv:3: error: count '-1' in column 'a' is negative"):
        read_error_counts(write(tmp_path, "h.csv", "item,a\nx,1\ny,-1\n"))


def test_items_numbered_with_unicode_or_huge_digits_keep_their_order(tmp_path: Path) -> None:
    """Items are put in numeric order only when all are numbers int() reads: a superscript or
    Arabic-Indic digit, or thousands of digits, passes ``str.isdigit`` but not ``int`` (a
    ValueError traceback before), and leaves the items in first-seen order."""
    for odd in ("\u00b2", "\u0661", "9" * 5000):
        path = write(
            tmp_path, "long.csv", f"annotator,item,value\na,10,1\na,{odd},2\na,9,3\nb,10,1\nb,{odd},2\nb,9,2\n"
        )
        assert read_long_table(path).items == ("10", odd, "9")
    path = write(tmp_path, "long.csv", "annotator,item,value\na,10,1\na,9,3\nb,10,1\nb,9,2\n")
    assert read_long_table(path).items == ("9", "10")
