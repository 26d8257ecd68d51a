"""``corefeval compare`` and ``corefeval score --confidence`` on small files, in every format."""

from __future__ import annotations

import csv
import io
import json

import pytest

from corefeval.cli import main
from corefeval.core.model import Corpus
from corefeval.report.comparison import CSV_HEADER

from .corpora import systems_differing_on, write_conll


@pytest.fixture()
def files(tmp_path):
    key, base, system = systems_differing_on(40, set(range(0, 40, 3)))
    _, _, other = systems_differing_on(40, {1, 2})
    paths = {}
    for name, corpus in (("key", key), ("base", base), ("sys", system), ("other", other)):
        paths[name] = tmp_path / f"{name}.conll"
        write_conll(corpus, paths[name])
    return {k: str(v) for k, v in paths.items()}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_compare_json_shape(files, capsys):
    code, out, _ = run(
        capsys,
        "compare",
        files["key"],
        files["base"],
        files["sys"],
        files["other"],
        "--names",
        "base,sys,other",
        "--format",
        "json",
        "--rounds",
        "2000",
        "-m",
        "muc,conll",
    )
    assert code == 0
    data = json.loads(out)
    assert data["schema"] == "corefeval.compare/1"
    assert [s["name"] for s in data["systems"]] == ["base", "sys", "other"]
    first, second = data["systems"][0], data["systems"][1]
    assert first["baseline"] is True and first["paired_bootstrap"] is None
    assert first["approximate_randomization"] is None
    assert set(second["paired_bootstrap"]) == set(second["approximate_randomization"]) == {"muc", "conll"}
    assert set(second["scores"]) == {"muc", "conll"} and "recall_num" in second["scores"]["muc"]
    third = data["systems"][2]
    assert second["approximate_randomization"]["conll"] < 0.01 < third["approximate_randomization"]["conll"]
    assert "seed:12345" in data["signature"] and "rounds:2000" in data["signature"]
    assert data["settings"]["correction"] == "none" and "paired_bootstrap_holm" not in second


def test_compare_holm_and_csv(files, capsys):
    code, out, _ = run(
        capsys,
        "compare",
        files["key"],
        files["base"],
        files["sys"],
        files["other"],
        "--holm",
        "--format",
        "csv",
        "--rounds",
        "500",
        "--resamples",
        "300",
    )
    assert code == 0
    assert out.startswith("# signature: corefeval:")
    rows = list(csv.reader(io.StringIO(out.split("\n", 1)[1])))
    assert rows[0] == CSV_HEADER
    assert len(rows) == 1 + 3 * 8
    by_col = [dict(zip(CSV_HEADER, r, strict=True)) for r in rows[1:]]
    assert all(r["p_paired_bootstrap"] == "" for r in by_col if r["baseline"] == "true")
    tested = [r for r in by_col if r["baseline"] == "false"]
    assert all(float(r["p_approximate_randomization_holm"]) >= float(r["p_approximate_randomization"]) for r in tested)


def test_compare_text_markdown_latex(files, capsys):
    args = [
        "compare",
        files["key"],
        files["base"],
        files["sys"],
        "--rounds",
        "300",
        "--resamples",
        "200",
        "-m",
        "conll",
    ]
    _, text, _ = run(capsys, *args)
    assert "base.conll (baseline)" in text and "p approx. randomisation" in text and "signature:" in text
    _, md, _ = run(capsys, *args, "--format", "markdown")
    assert md.splitlines()[2].startswith("| system |") and "|:---|---:|" in md
    _, tex, _ = run(capsys, *args, "--format", "latex")
    assert r"\begin{tabular}{lr}" in tex and r"$\pm$" in tex and r"\bottomrule" in tex


def test_compare_stratified_by_file(files, capsys, tmp_path):
    key, base, system = systems_differing_on(10, {0, 1})
    for name, corpus in (("k2", key), ("b2", base), ("s2", system)):
        write_conll(Corpus(name, corpus.documents), tmp_path / f"{name}.conll")
    join = ",".join
    code, out, _ = run(
        capsys,
        "compare",
        join([files["key"], str(tmp_path / "k2.conll")]),
        join([files["base"], str(tmp_path / "b2.conll")]),
        join([files["sys"], str(tmp_path / "s2.conll")]),
        "--stratify-by-file",
        "--format",
        "json",
        "--rounds",
        "200",
        "--resamples",
        "100",
    )
    assert code == 0
    data = json.loads(out)
    assert data["documents"] == 50 and data["settings"]["strata"] == "file"
    code, out, _ = run(
        capsys,
        "compare",
        files["key"],
        files["base"],
        files["sys"],
        "--stratify",
        r"d(\d)",
        "--format",
        "json",
        "--rounds",
        "200",
        "--resamples",
        "100",
    )
    assert "strata:name~d(\\d)" in json.loads(out)["signature"]


def test_score_confidence_json_keeps_score_keys(files, capsys):
    _, plain, _ = run(capsys, "score", files["key"], files["sys"], "--format", "json")
    code, out, _ = run(
        capsys, "score", files["key"], files["sys"], "--format", "json", "--confidence", "200", "--seed", "5"
    )
    assert code == 0
    plain_data, data = json.loads(plain), json.loads(out)
    assert {k: data[k] for k in plain_data} == plain_data
    conf = data["confidence"]
    assert (conf["resamples"], conf["seed"], conf["level"]) == (200, 5, 0.95)
    assert conf["signature"] == plain_data["signature"] + "|bootstrap:200|level:0.95|seed:5"
    muc = conf["metrics"]["muc"]["f1"]
    assert muc["low"] <= muc["estimate"] == plain_data["corpus"]["muc"]["f1"] <= muc["high"]


def test_score_confidence_default_and_formats(files, capsys):
    _, out, _ = run(capsys, "score", files["key"], files["sys"], "--format", "json", "--confidence")
    assert json.loads(out)["confidence"]["resamples"] == 1000
    _, plain_csv, _ = run(capsys, "score", files["key"], files["sys"], "--format", "csv")
    _, out, _ = run(capsys, "score", files["key"], files["sys"], "--format", "csv", "--confidence", "100")
    assert out.startswith(plain_csv.split("\n", 1)[0] + "|bootstrap:100|")
    rows = list(csv.reader(io.StringIO(out.split("\n", 1)[1])))
    plain_rows = list(csv.reader(io.StringIO(plain_csv.split("\n", 1)[1])))
    assert [r[: len(plain_rows[0])] for r in rows] == plain_rows
    corpus_muc = next(r for r in rows if r[0] == "corpus" and r[2] == "muc")
    assert float(corpus_muc[len(plain_rows[0])]) <= float(corpus_muc[5])
    _, text, _ = run(capsys, "score", files["key"], files["sys"], "--confidence", "100", "--confidence-level", "0.9")
    assert "90% confidence intervals" in text and "signature with resampling:" in text
    _, md, _ = run(capsys, "score", files["key"], files["sys"], "--format", "markdown", "--confidence", "100")
    assert "| metric | recall | precision | F1 | ± (half-width) |" in md
    _, tex, _ = run(capsys, "score", files["key"], files["sys"], "--format", "latex")
    assert r"\begin{tabular}{lrrr}" in tex


def test_usage_and_input_errors(files, capsys, tmp_path):
    code, _, err = run(capsys, "score", files["key"], files["sys"], "--seed", "3")
    assert code == 2 and "--seed needs --confidence" in err
    code, _, err = run(capsys, "score", files["key"], files["sys"], "--confidence", "0")
    assert code == 2 and "resamples must be positive" in err
    code, _, err = run(capsys, "compare", files["key"], files["base"], files["sys"], "--names", "a")
    assert code == 2
    bad = tmp_path / "bad.conll"
    bad.write_text("nothing here\n")
    code, _, err = run(capsys, "compare", files["key"], str(bad), files["sys"])
    assert code == 1 and len(err.strip().splitlines()) == 1 and err.startswith(str(bad))


def test_single_document_warning_on_stderr(tmp_path, capsys):
    key, base, system = systems_differing_on(1, {0})
    for name, corpus in (("k", key), ("b", base), ("s", system)):
        write_conll(corpus, tmp_path / f"{name}.conll")
    code, out, err = run(capsys, "compare", *(str(tmp_path / f"{n}.conll") for n in "kbs"), "--rounds", "100")
    assert code == 0 and "scored as a single document" in err
