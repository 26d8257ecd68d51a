"""Published scores of two cross-document event coreference studies, recomputed from their files.

Both studies scored with coval, keeping singletons, exact span match, gold mentions (README of each
folder in ``../shared/realdata``); corefeval's defaults are those settings. Every score file of both
folders is checked: the feature-based ``eval_*.txt`` tables (6 decimals) and their full-precision
``metrics_unaggregated.csv`` rows, the Barhom et al. re-run ``scores.txt`` (percent, 2 decimals) and
the HyperCoref per-seed CSV rows (full precision).
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from corefeval.scoring.pipeline import score

METRICS = ("muc", "bcub", "ceafe", "lea", "conll")
CDCR = Path(__file__).resolve().parents[2].parent / "shared" / "realdata" / "ukp-cdcr-cl2021"
HYPER = CDCR.parent / "ukp-hypercoref-emnlp2021"


def _scores(key: Path, response: Path) -> dict[str, tuple[float, float, float]]:
    """(F1, precision, recall) per metric; CoNLL as (F1, nan, nan)."""
    result = score(str(key), str(response), METRICS)
    out = {m: (result[m].f1, result[m].precision, result[m].recall) for m in METRICS if m != "conll"}
    out["conll"] = (result["conll"].f1, math.nan, math.nan)
    return out


def _close(got: float, want: float, tol: float) -> bool:
    return math.isnan(want) or abs(got - want) <= tol


# ---- feature-based (Bugert, Reimers & Gurevych 2021)


def _eval_files() -> list[Path]:
    return sorted(CDCR.glob("feature-based/*/*/*/eval_*.txt")) if CDCR.is_dir() else []


def _read_eval_table(path: Path) -> dict[str, tuple[float, float, float]]:
    rows = {}
    for line in path.read_text().splitlines()[2:]:
        name, *values = line.split()
        rows[name] = tuple(float(v) for v in values)
    return rows


@pytest.mark.parametrize("eval_file", _eval_files(), ids=lambda p: str(p.relative_to(CDCR)))
def test_feature_based_eval_tables(eval_file: Path) -> None:
    published = _read_eval_table(eval_file)
    ours = _scores(eval_file.parent / "gold.conll", eval_file.parent / "system.conll")
    for metric, values in published.items():
        for got, want in zip(ours[metric], values, strict=False):
            assert _close(got, want, 5.1e-7), (metric, got, want)


def _unaggregated_rows() -> list[tuple[Path, dict[str, str]]]:
    rows = []
    for table in sorted(CDCR.glob("feature-based/*/metrics_unaggregated.csv")) if CDCR.is_dir() else []:
        with table.open() as fh:
            rows += [(table.parent, r) for r in csv.DictReader(fh)]
    return rows


@pytest.mark.parametrize(
    "folder,row",
    _unaggregated_rows(),
    ids=lambda x: x.name if isinstance(x, Path) else f"{x['model']}-{x['meta-doc']}-{x['metric']}",
)
def test_feature_based_full_precision(folder: Path, row: dict[str, str]) -> None:
    scope = "cross_doc" if row["meta-doc"] == "True" else "within_doc"
    run = folder / row["model"] / scope
    got = _scores(run / "gold.conll", run / "system.conll")[row["metric"]]
    want = (float(row["f1"]), float(row["precision"] or "nan"), float(row["recall"] or "nan"))
    for g, w in zip(got, want, strict=False):
        assert _close(g, w, 1e-9), (row, got)


# ---- Barhom et al. 2019 re-run


def _ba2019_runs() -> list[Path]:
    return sorted(CDCR.glob("ba2019/*_evaluate_clustering_with_*")) if CDCR.is_dir() else []


@pytest.mark.parametrize("run", _ba2019_runs(), ids=lambda p: p.name)
def test_ba2019_scores(run: Path) -> None:
    corpus = run.name.split("_")[0]
    key = run.parent / f"{corpus}_CD_test_event_mention_based.key_conll"
    result = score(str(key), str(run / "CD_test_event_mention_based.response_conll"), ("mentions", *METRICS))
    for line in (run / "scores.txt").read_text().splitlines():
        words = line.split()
        if words[0] == "CoNLL":
            assert round(result["conll"].f1 * 100, 2) == float(words[-1])
            continue
        s = result[words[0]]
        assert [round(x * 100, 2) for x in (s.recall, s.precision, s.f1)] == [float(words[i]) for i in (2, 4, 6)]


def _crosscheck() -> dict[str, dict[str, str]]:
    """The reference scorer's totals lines of every ba2019 run and metric, as recorded in the folder."""
    path = CDCR / "ba2019" / "reference_scorer_v8.01_crosscheck.txt"
    out: dict[str, dict[str, str]] = {}
    for line in path.read_text().splitlines() if path.exists() else []:
        if line.startswith("== "):
            run = out.setdefault(line[3:], {})
        elif line and not line.startswith("#"):
            metric, printed = line.split(" ", 1)
            run[metric] = printed
    return out


@pytest.mark.parametrize("run", _ba2019_runs(), ids=lambda p: p.name)
def test_ba2019_reference_output_is_the_reference_scorer_s(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``corefeval reference`` prints the reference scorer's totals to the last digit: B-cubed's
    numerators are added mention by mention in its order (1448.75579897753, not ...752)."""
    from corefeval.cli import main

    corpus = run.name.split("_")[0]
    key = run.parent / f"{corpus}_CD_test_event_mention_based.key_conll"
    assert main(["reference", "all", str(key), str(run / "CD_test_event_mention_based.response_conll"), "none"]) == 0
    blocks = capsys.readouterr().out.split("\nMETRIC ")[1:]
    printed = {b.split(":", 1)[0]: b for b in blocks}
    want = _crosscheck()[run.name]
    assert set(printed) == set(want) == {"muc", "bcub", "ceafm", "ceafe", "blanc"}
    for metric, line in want.items():
        assert f"\n{line}\n" in printed[metric], metric


# ---- HyperCoref (Bugert & Gurevych 2021)


def _csv_rows(name: str) -> dict[tuple[str, ...], dict[str, float]]:
    with (HYPER / "scores" / name).open() as fh:
        lines = list(csv.reader(fh))
    measures, metrics = lines[0], lines[1]
    out = {}
    for row in lines[3:]:
        values = {f"{measures[i]}.{metrics[i]}": float(row[i]) for i in range(6, len(row))}
        out[tuple(row[:6])] = values
    return out


def _hyper_runs() -> list[tuple[Path, tuple[str, ...], str]]:
    if not HYPER.is_dir():
        return []
    runs = []
    for f in sorted(HYPER.glob("sys_cdcr/*/*/events/*/*/*/*.conll")):
        scenario, experiment, _, pair, topics, seed = f.relative_to(HYPER / "sys_cdcr").parts[:6]
        dev, test = pair.split("_on_")
        runs.append((f, (scenario, experiment, dev, test, topics, seed), "sys_cdcr_all_scores_unaggregated.csv"))
    for f in sorted(HYPER.glob("sys_mentiondetection/*/*/*/*/*/*/*.conll")):
        scenario, experiment, _, test, topics, seed = f.relative_to(HYPER / "sys_mentiondetection").parts[:6]
        runs.append(
            (
                f,
                (scenario, experiment, test, test, topics, seed),
                "sys_mentiondetection_all_scores_unaggregated.csv",
            )
        )
    return runs


@pytest.mark.parametrize(
    "response,index,table",
    _hyper_runs(),
    ids=lambda x: str(x.relative_to(HYPER)) if isinstance(x, Path) else None,
)
def test_hypercoref_rows(response: Path, index: tuple[str, ...], table: str) -> None:
    test_corpus = index[3]
    key = next((HYPER / "key" / test_corpus).glob("test*corpus_level.conll"))
    want = _csv_rows(table)[index]
    result = score(str(key), str(response), ("mentions", *METRICS))
    for name, value in want.items():
        measure, field = name.split(".")
        if measure == "conll":
            assert abs(result["conll"].f1 * 100 - value) < 1e-9, (name, result["conll"].f1, value)
            continue
        s = result[measure]
        got = {"F1": s.f1, "P": s.precision, "R": s.recall}[field]
        assert abs(got - value) < 1e-9, (name, got, value)


def test_every_score_file_is_checked() -> None:
    if not CDCR.is_dir():
        pytest.skip("realdata absent")
    assert len(_eval_files()) == 52
    assert len(_ba2019_runs()) == 6
    assert len(_hyper_runs()) == 18


def _aggregated_rows() -> list[tuple[Path, list[str]]]:
    rows = []
    for table in sorted(CDCR.glob("feature-based/*/metrics_aggregated.csv")) if CDCR.is_dir() else []:
        rows += [(table.parent, line) for line in list(csv.reader(table.open()))[3:]]
    return rows


@pytest.mark.parametrize(
    "folder,row", _aggregated_rows(), ids=lambda x: x.name if isinstance(x, Path) else f"{x[0]}-{x[1]}"
)
def test_paper_seed_means(folder: Path, row: list[str]) -> None:
    """The paper's tables: the mean F1 over the five seeds (metrics_aggregated.csv)."""
    scope = "cross_doc" if row[0] == "True" else "within_doc"
    f1 = [
        _scores(folder / str(seed) / scope / "gold.conll", folder / str(seed) / scope / "system.conll")[row[1]][0]
        for seed in range(5)
    ]
    assert abs(sum(f1) / 5 - float(row[2])) < 1e-9
