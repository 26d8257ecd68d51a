"""The benchmark's own machinery: reading the peers' printed scores, renaming parts, measuring children."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import measure  # noqa: E402
import peers  # noqa: E402

PERL_OUTPUT = """\
version: 8.01

METRIC muc:

====== TOTALS =======
Identification of Mentions: Recall: (8 / 10) 80%\tPrecision: (8 / 16) 50%\tF1: 61.53%
--------------------------------------------------------------------------
Coreference: Recall: (3 / 6) 50%\tPrecision: (3 / 4) 75%\tF1: 60%
--------------------------------------------------------------------------

METRIC bcub:

====== TOTALS =======
Identification of Mentions: Recall: (8 / 10) 80%\tPrecision: (8 / 16) 50%\tF1: 61.53%
--------------------------------------------------------------------------
Coreference: Recall: (5 / 10) 50%\tPrecision: (4 / 16) 25%\tF1: 33.33%
--------------------------------------------------------------------------

METRIC ceafe:

====== TOTALS =======
Identification of Mentions: Recall: (8 / 10) 80%\tPrecision: (8 / 16) 50%\tF1: 61.53%
--------------------------------------------------------------------------
Coreference: Recall: (1 / 2) 50%\tPrecision: (1 / 4) 25%\tF1: 33.33%
--------------------------------------------------------------------------

METRIC blanc:

====== TOTALS =======
Identification of Mentions: Recall: (8 / 10) 80%\tPrecision: (8 / 16) 50%\tF1: 61.53%
--------------------------------------------------------------------------

Coreference:
Coreference links: Recall: (1 / 2) 50%\tPrecision: (1 / 1) 100%\tF1: 66.66%
--------------------------------------------------------------------------
Non-coreference links: Recall: (0 / 0) 0%\tPrecision: (0 / 3) 0%\tF1: 0%
--------------------------------------------------------------------------
BLANC: Recall: (0.25 / 1) 25%\tPrecision: (0.5 / 1) 50%\tF1: 33.33%
--------------------------------------------------------------------------
"""


def test_perl_f1_comes_from_the_fractions_not_the_truncated_percentages() -> None:
    scores = peers.parse_perl(PERL_OUTPUT)
    assert scores["mentions"] == pytest.approx(100 * 2 * 0.8 * 0.5 / 1.3)
    assert scores["muc"] == pytest.approx(60.0)
    assert scores["bcub"] == pytest.approx(100 / 3)
    assert scores["ceafe"] == pytest.approx(100 / 3)
    assert scores["blanc"] == pytest.approx((100 * 2 / 3 + 0.0) / 2)  # mean of link F1, zero denominator -> 0
    assert scores["conll"] == pytest.approx((60 + 100 / 3 + 100 / 3) / 3)


def test_coval_rows_and_conll_line() -> None:
    output = (
        "mentions   Recall: 82.27  Precision: 82.19  F1: 82.23\n"
        "muc        Recall: 76.20  Precision: 80.94  F1: 78.50\n"
        "lea        Recall: 66.18  Precision: 69.14  F1: 67.63\n"
        "CoNLL score: 74.74\n"
    )
    assert peers.parse_coval(output) == {"mentions": 82.23, "muc": 78.50, "lea": 67.63, "conll": 74.74}


def test_corefud_metric_name_then_score_line_and_zero_dropped() -> None:
    output = (
        "The scorer is evaluating coreferential mentions, singletons using exact match evaluation setting.\n"
        "The following metrics will be evaluated: muc, bcub, zero\n\n"
        "muc\nRecall: 76.20  Precision: 80.94  F1: 78.50\n"
        "bcub\nRecall: 69.99  Precision: 74.11  F1: 71.99\n"
        "zero\nRecall: 0.00  Precision: 0.00  F1: 0.00\n"
        "CoNLL score: 74.74\n"
    )
    assert peers.parse_corefud(output) == {"muc": 78.50, "bcub": 71.99, "conll": 74.74}


def test_scorch_fractions_become_percentages() -> None:
    output = "MUC:\tR=0.5\tP=0.25\tF₁=0.3\nB³:\tR=1.0\tP=1.0\tF₁=1.0\nCoNLL-2012 average score: 0.6\n"
    assert peers.parse_scorch(output) == pytest.approx({"muc": 30.0, "bcub": 100.0, "conll": 60.0})


def test_conll_average_added_only_when_all_three_are_there() -> None:
    assert peers.conll_average({"muc": 60.0, "bcub": 30.0, "ceafe": 30.0})["conll"] == pytest.approx(40.0)
    assert "conll" not in peers.conll_average({"muc": 60.0, "bcub": 30.0})


def test_unique_part_names_renames_header_and_rows_of_each_part(tmp_path: Path) -> None:
    source = tmp_path / "in.conll"
    source.write_text(
        "#begin document (a/b); part 000\na/b\t0\t0\tx\t(1)\n\n#end document\n"
        "#begin document (a/b); part 001\na/b\t1\t0\ty\t(1)\n#end document\n",
        encoding="utf-8",
    )
    target = tmp_path / "out.conll"
    peers.unique_part_names(source, target)
    assert target.read_text(encoding="utf-8") == (
        "#begin document (a/b_p000); part 000\na/b_p000\t0\t0\tx\t(1)\n\n#end document\n"
        "#begin document (a/b_p001); part 001\na/b_p001\t1\t0\ty\t(1)\n#end document\n"
    )


def test_measure_reports_output_cpu_and_memory_of_the_child() -> None:
    run = measure.run([sys.executable, "-c", "x = bytearray(256 * 2**20); print(len(x))"])
    assert run.failure is None
    assert run.stdout.strip() == str(256 * 2**20)
    assert run.peak_kib >= 256 * 1024  # more than this test process holds
    assert run.cpu > 0 and run.wall > 0


def test_measure_reports_exit_status_timeout_and_memory_cap() -> None:
    failed = measure.run([sys.executable, "-c", "import sys; sys.exit('bad input')"])
    assert failed.failure == "exit 1: bad input"
    slow = measure.run([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.5)
    assert slow.failure == "timed out after 0.5 s"
    assert slow.wall < 10
    hungry = measure.run([sys.executable, "-c", "x = bytearray(2 * 2**30)"], memory_limit=2**30)
    assert hungry.failure is not None and hungry.failure.startswith("out of memory")


def test_series_median_spread_and_peak() -> None:
    series = measure.Series(
        [measure.Measurement(wall=w, cpu=w / 2, peak_kib=k) for w, k in ((3.0, 10), (1.0, 30), (2.0, 20))]
    )
    assert series.median("wall") == 2.0
    assert series.spread("wall") == (1.0, 3.0)
    assert series.peak_mib == pytest.approx(30 / 1024)
    assert series.failure is None
