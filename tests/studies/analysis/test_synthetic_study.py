"""The whole analysis on a synthetic study whose errors and raters are known."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from corefeval.cli import main
from corefeval.studies.analysis.study import StudyOptions, analyse, load

FAST = StudyOptions(resamples=50)


@pytest.fixture(scope="module")
def results(synthetic):  # type: ignore[no-untyped-def]
    inputs = load(
        str(synthetic.errors),
        str(synthetic.key),
        str(synthetic.response),
        ratings_table=str(synthetic.ratings),
        controls="",
    )
    return analyse(inputs, FAST)


def test_items_without_errors_score_one_with_both_variants(results, synthetic) -> None:
    clean = [i for i, c in synthetic.counts.items() if not any(c.values())]
    for variant in ("study", "reference"):
        table = results.variants[variant].scores
        f1 = table.loc[clean, [c for c in table.columns if c.endswith("_F1")] + ["CoNLL"]]
        assert np.allclose(f1.to_numpy(dtype=float), 1.0)


def test_padding_changes_only_items_with_response_only_mentions(results, synthetic) -> None:
    study, reference = results.variants["study"].scores, results.variants["reference"].scores
    for item, c in synthetic.counts.items():
        extra = c["border"] + c["noise"] + c["irrelevant"] > 0 and item != synthetic.planted
        values = [t.loc[item].drop("name").to_numpy(float) for t in (study, reference)]
        same = np.allclose(*values)
        assert same != extra, item
        assert study.at[item, "MUC_F1"] == reference.at[item, "MUC_F1"]


def test_the_random_rater_is_the_only_outlier(results, synthetic) -> None:
    table = results.table1.set_index(["scale", "items"])
    assert table.at[("standard", "all"), "outliers"] == synthetic.noisy_rater
    assert table.at[("standard", "all"), "alpha_without_outliers"] > table.at[("standard", "all"), "alpha"]
    assert (results.trust.drop(index=synthetic.noisy_rater) > 0.5).all().all()


def test_human_regressions_recover_the_severity_order(results, synthetic) -> None:
    mean = results.variants["study"].coefficients.loc["STANDARD_MEAN", list(synthetic.types)]
    assert (mean < 0).all()
    # severities: absence 2.0 > type 1.5 > silence 1.0 > irrelevant 0.8 > noise 0.7 > border 0.5 (per error)
    assert mean["absence"] < mean["border"] and mean["type"] < mean["border"]


def test_table2_is_the_mean_difference_over_good_items(results) -> None:
    v = results.variants["reference"]
    good = results.good
    expected = (v.scores.loc[good, "LEA_F1"] - results.humans.loc[good, "standard_mean"]).mean()
    assert v.differences["signed"].at["LEA", "standard_mean"] == pytest.approx(expected)
    d = v.scores.loc[good, "B3_F1"] - results.humans.loc[good, "gravity_mode"]
    assert v.differences["absolute"].at["B3", "gravity_mode"] == pytest.approx(d.abs().mean())
    assert v.differences["negative"].at["B3", "gravity_mode"] == pytest.approx(d[d < 0].mean())


def test_the_planted_data_error_is_the_only_finding(results, synthetic) -> None:
    found = {(f.item, f.check) for f in results.findings}
    assert found == {(synthetic.planted, "response = key"), (synthetic.planted, "count vs files")}


def test_report_folder_from_one_command(synthetic, tmp_path: Path) -> None:
    out = tmp_path / "report"
    status = main(
        [
            "humans",
            "report",
            "--ratings",
            str(synthetic.ratings),
            "--errors",
            str(synthetic.errors),
            "--key",
            str(synthetic.key),
            "--response",
            str(synthetic.response),
            "--controls",
            "",
            "--resamples",
            "20",
            "--scale",
            "binary:0=0,1=0,2=0,3=0,4=1,5=1,6=1,7=1",
            "--out",
            str(out),
        ]
    )
    assert status == 0
    page = (out / "report.md").read_text()
    for name in (
        "alpha_by_scale",
        "trust",
        "differences",
        "items_study",
        "items_reference",
        "table3_study",
        "annotators_standard",
        "annotators_gravity",
        "table3_reference",
        "table4_study",
        "table4_reference",
    ):
        assert (out / "figures" / f"{name}.png").stat().st_size > 1000
        assert (out / "figures" / f"{name}.svg").exists()
        assert f"figures/{name}.png" in page
    for name in (
        "table1_agreement",
        "trust",
        "table2_study",
        "table2_reference",
        "table3_study",
        "table3_reference",
        "validation",
        "correlations_study",
        "loss_by_type_reference",
    ):
        for ext in ("txt", "csv", "json", "tex"):
            assert (out / "tables" / f"{name}.{ext}").exists(), (name, ext)
    assert "binary/good" in (out / "tables" / "table1_agreement.txt").read_text()
    table2 = pd.read_csv(out / "tables" / "table2_study.csv", index_col=0)
    assert list(table2.index) == ["MUC", "B3", "CEAFm", "CEAFe", "BLANC", "LEA", "CoNLL"]


def test_min_items_leaves_out_sparse_annotators(synthetic) -> None:
    inputs = load(
        str(synthetic.errors),
        str(synthetic.key),
        str(synthetic.response),
        ratings_table=str(synthetic.ratings),
        controls="",
    )
    everyone = {f.target for f in analyse(inputs, FAST).human_fits}
    assert "standard_R1" in everyone
    nobody = {f.target for f in analyse(inputs, StudyOptions(resamples=10, min_items=1000)).human_fits}
    assert not any("_R" in t for t in nobody) and "STANDARD_MEAN" in nobody
