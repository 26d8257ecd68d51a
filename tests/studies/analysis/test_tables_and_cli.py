"""Table formats and the ``corefeval humans`` command line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from corefeval.cli import main
from corefeval.report import study_tables as tables

TABLE = pd.DataFrame({"alpha": [0.11707, np.nan], "who": ["A08", ""]}, index=pd.Index(["x_1", "y"], name="row"))


def test_formats() -> None:
    assert tables.text(TABLE) == "row  alpha  who\nx_1  0.117  A08\ny\n"
    assert tables.markdown(TABLE).splitlines()[2] == "| x_1 | 0.117 | A08 |"
    assert json.loads(tables.to_json(TABLE))[1] == {"row": "y", "alpha": None, "who": ""}
    assert tables.csv(TABLE).splitlines()[1] == "x_1,0.11706999999999999,A08"
    tex = tables.latex(TABLE, caption="50% of a_b")
    assert r"x\_1 & 0.117 & A08 \\" in tex and r"\caption{50\% of a\_b}" in tex and r"\toprule" in tex


def _inputs(s) -> list[str]:  # type: ignore[no-untyped-def]
    return [
        "--ratings",
        str(s.ratings),
        "--errors",
        str(s.errors),
        "--key",
        str(s.key),
        "--response",
        str(s.response),
        "--controls",
        "",
        "--resamples",
        "10",
    ]


def test_subcommands_print_their_tables(synthetic, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["humans", "differences", *_inputs(synthetic), "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.count("MUC,") == 3  # study, reference and the change
    assert main(["humans", "validate", *_inputs(synthetic)]) == 0
    assert f"{synthetic.planted}    response = key" in capsys.readouterr().out
    assert main(["humans", "agreement", *_inputs(synthetic), "--format", "json"]) == 0
    assert main(["humans", "regress", *_inputs(synthetic), "--method", "ridge"]) == 0
    assert "Humans" in capsys.readouterr().out


def test_scores_subcommand(synthetic, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["humans", "scores", "--key", str(synthetic.key), "--response", str(synthetic.response), "--pad-key"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("id,name,MUC_R,MUC_P,MUC_F1,B3_R") and len(lines) == 1 + len(synthetic.counts)


def test_bad_input_is_one_line_and_exit_1(synthetic, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "r.csv"
    bad.write_text("annotator,item,value\nR1,1,seven\n")
    args = _inputs(synthetic)
    args[1] = str(bad)
    assert main(["humans", "agreement", *args]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"{bad}:2: error: value 'seven' is not a number"]


def test_bad_scale_is_a_usage_error(synthetic, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["humans", "agreement", *_inputs(synthetic), "--scale", "oops"]) == 2
    assert "NAME:RAW=CODE" in capsys.readouterr().err


def test_report_never_overwrites_an_input(synthetic, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tables_dir = tmp_path / "tables"
    tables_dir.mkdir()
    errors = tables_dir / "errors.csv"
    errors.write_text(synthetic.errors.read_text())
    args = _inputs(synthetic)
    args[3] = str(errors)
    assert main(["humans", "report", *args, "--out", str(tmp_path)]) == 2
    assert "would overwrite the input" in capsys.readouterr().err
    assert errors.read_text() == synthetic.errors.read_text()
