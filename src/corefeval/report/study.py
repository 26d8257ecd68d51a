"""The report folder: every table in four formats, every figure as PNG and SVG, and a Markdown page."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pandas as pd

from ..core.output import make_folder, write_output
from ..core.progress import progress
from ..studies.analysis.study import VARIANTS, StudyResults
from ..studies.analysis.validation import findings_table
from . import study_plots as plots
from . import study_tables as tables

#: What a report folder receives: its page, and the folders of tables and figures.
REPORT_PAGE = "report.md"
REPORT_FOLDERS = ("tables", "figures")


@dataclass(frozen=True)
class NamedTable:
    name: str
    caption: str
    table: pd.DataFrame
    index: bool = True
    digits: int = 3
    shown: bool = True  # written into the Markdown page, not only as files


def by_scale_and_items(table: pd.DataFrame) -> pd.DataFrame:
    """Index rows by "scale/items" (e.g. "standard/good")."""
    out = table.copy()
    out.index = pd.Index(out.pop("scale") + "/" + out.pop("items"), name="scale/items")
    return out


def _fit_details(fits: list) -> pd.DataFrame:  # type: ignore[type-arg]
    rows = []
    for f in fits:
        row: dict[str, object] = {
            "target": f.target,
            "method": f.method,
            "n": f.n,
            "intercept": f.intercept,
            "r2": f.r2,
            "r2_heldout": f.r2_heldout,
        }
        for t in f.coefficients.index:
            row[t] = f.coefficients[t]
            row[f"{t}_low"] = f.low[t]
            row[f"{t}_high"] = f.high[t]
        rows.append(row)
    return pd.DataFrame(rows).set_index("target")


def named_tables(results: StudyResults) -> list[NamedTable]:
    """Every table of the report, in reading order."""
    level = results.options.level
    out = [
        NamedTable(
            "table1_agreement",
            f"Krippendorff's alpha ({level}) with a 95% bootstrap interval, "
            "outlier annotators (trust <= 0.5) and alpha without them",
            by_scale_and_items(results.table1),
        ),
        NamedTable(
            "alpha_levels",
            "Krippendorff's alpha at the three levels of measurement",
            by_scale_and_items(results.alpha_levels),
        ),
        NamedTable("trust", "Trust coefficients per annotator (scale/item set)", results.trust),
        NamedTable("controls", "Control (duplicated) questions", results.controls, index=False, digits=0),
        NamedTable(
            "validation",
            "Inconsistencies between the files, the error counts and the ratings",
            findings_table(results.findings),
            index=False,
        ),
    ]
    for variant in VARIANTS:
        out += _variant_tables(results, variant)
    study, reference = results.variants["study"], results.variants["reference"]
    out += [
        NamedTable(
            "table2_change",
            "Table 2: reference minus study scores",
            reference.differences["signed"] - study.differences["signed"],
        ),
        NamedTable(
            "table3_change",
            "Table 3 (all coefficients, before dropping): reference minus study",
            reference.coefficients.loc[study.summary.index[:-1]] - study.coefficients.loc[study.summary.index[:-1]],
        ),
    ]
    if results.score_check is not None:
        n = len(results.score_check)
        out.append(
            NamedTable(
                "published_score_check",
                f"Study scores that differ from the published per-item table by more than 1e-9: {n} values",
                results.score_check,
                index=False,
                digits=6,
                shown=n > 0,
            )
        )
    return out


def _variant_tables(results: StudyResults, variant: str) -> list[NamedTable]:
    """The tables of one scoring variant (the study's scores or the reference scorer's)."""
    v = results.variants[variant]
    out: list[NamedTable] = []
    out += [
        NamedTable(f"scores_{variant}", f"Per-item metric scores ({variant} scoring)", v.scores, digits=4, shown=False),
        NamedTable(
            f"table2_{variant}",
            f"Table 2 ({variant} scores): mean of metric F1 - human score "
            "over the good items (positive: the metric is more lenient)",
            v.differences["signed"],
        ),
    ]
    out += [
        NamedTable(
            f"table2_{kind}_{variant}",
            f"Mean {kind} difference F1 - human ({variant} scores)",
            v.differences[kind],
            shown=False,
        )
        for kind in ("absolute", "positive", "negative")
    ]
    out += [
        NamedTable(
            f"correlations_{variant}",
            f"Correlations of metric F1 with human aggregates ({variant} scores), Fisher-z 95% intervals",
            v.correlations,
            index=False,
            shown=False,
        ),
        NamedTable(
            f"loss_by_type_{variant}",
            f"Mean loss (1 - score) on good items with a single error type ({variant} scores)",
            v.loss_by_type,
        ),
        NamedTable(
            f"table3_{variant}",
            f"Table 3 ({variant} scores, {results.options.method}): "
            "regression coefficients of normalised scores on z-scored error counts; non-negative "
            "ones dropped; Humans = mean of the human coefficients",
            v.summary,
        ),
        NamedTable(f"table4_{variant}", f"Table 4 ({variant} scores): all coefficients", v.coefficients),
        NamedTable(
            f"fits_{variant}",
            f"Regression details ({variant} scores): intervals and R²",
            _fit_details(v.fits + results.human_fits),
            shown=False,
        ),
    ]
    return out


def write_tables(named: list[NamedTable], folder: str) -> None:
    make_folder(folder)
    for t in named:
        for fmt, ext in (("text", "txt"), ("csv", "csv"), ("json", "json"), ("latex", "tex")):
            write_output(
                os.path.join(folder, f"{t.name}.{ext}"), tables.render(t.table, fmt, t.digits, t.index, t.caption)
            )


def write_figures(results: StudyResults, folder: str) -> dict[str, str]:
    """Draw every figure; returns figure name -> caption."""
    make_folder(folder)
    first = results.options.scales[0].name
    human = results.humans[f"{first}_mean"]
    marks = results.trust <= 0.5
    # (name, drawing, caption): drawn one at a time below
    figures: list[tuple[str, Callable[[], plots.Figure], str]] = [
        (
            "alpha_by_scale",
            lambda: plots.alpha_bars(results.table1, "Krippendorff's alpha by scale"),
            "Alpha by scale, all and good items, with and without the outlier annotators.",
        ),
        (
            "trust",
            lambda: plots.heatmap(
                results.trust,
                "Trust coefficients (framed: outlier, <= 0.5)",
                center=None,
                fmt="{:.3f}",
                cmap="viridis",
                marks=marks,
            ),
            "Trust coefficient per annotator.",
        ),
        (
            "differences",
            lambda: plots.difference_boxes(
                {v: results.variants[v].item_differences for v in VARIANTS}, f"F1 - human ({first} mean) per good item"
            ),
            "Distribution of metric minus human score per metric.",
        ),
    ]
    human_fits = {f.target: f for f in results.human_fits}
    coefficients = results.variants[VARIANTS[0]].coefficients
    for scale in results.options.regression_scales:
        rows = [t for t in human_fits if t.lower().startswith(f"{scale}_")]
        title = f"Coefficients of the people, {scale} scale (all kept; red: positive)"
        figures.append(
            (
                f"annotators_{scale}",
                partial(plots.coefficient_bars, coefficients.loc[rows], human_fits, title),
                f"Per-annotator and aggregate coefficients on the {scale} scale.",
            )
        )
    for variant in VARIANTS:
        v = results.variants[variant]
        f1 = v.item_differences.add(human.loc[v.item_differences.index], axis=0)
        fits = {f.target: f for f in v.fits}
        figures += [
            (
                f"items_{variant}",
                partial(
                    plots.item_bars, f1, human, results.good, f"Metric F1 ({variant} scores) and people per good item"
                ),
                f"Per-item scores ({variant}).",
            ),
            (
                f"table3_{variant}",
                partial(plots.coefficient_bars, v.summary, fits, f"Table 3 coefficients ({variant} scores)"),
                f"Table 3 as bar charts ({variant}).",
            ),
            (
                f"table4_{variant}",
                partial(plots.heatmap, v.coefficients, f"All regression coefficients ({variant} scores)", fmt="{:.2f}"),
                f"Table 4 as a heat map ({variant}).",
            ),
        ]
    captions: dict[str, str] = {}
    for name, draw, caption in progress(figures, "figures", len(figures), "figure"):
        plots.save(draw(), os.path.join(folder, name))
        captions[name] = caption
    return captions


def write_report(results: StudyResults, folder: str, inputs_note: str = "") -> str:
    """Write the whole report folder; returns the path of its Markdown page."""
    named = named_tables(results)
    tables_folder, figures_folder = (os.path.join(folder, name) for name in REPORT_FOLDERS)
    write_tables(named, tables_folder)
    captions = write_figures(results, figures_folder)
    page = [f"# Metrics against people: report\n\n{inputs_note}\n"]
    o = results.options
    page.append(
        f"Settings: alpha level {o.level}; good items have at most {o.max_distinct} distinct answers "
        f"({len(results.good)} of {len(results.ratings.items)} items); regression {o.method}; "
        f"bootstrap resamples {o.resamples}; seed {o.seed}. Two metric-score variants: `study` "
        "(key padded with the response's extra mentions as singletons, as the 2022 study's scores "
        "were made) and `reference` (the CoNLL reference scorer's semantics).\n"
    )
    answered = results.ratings.answered()
    page.append("Annotators (answers): " + ", ".join(f"{a} ({n})" for a, n in answered.items()) + "\n")
    figures_after = {
        "table1_agreement": ["alpha_by_scale"],
        "trust": ["trust"],
        "table2_reference": ["differences", "items_study", "items_reference"],
        "table3_study": ["table3_study"],
        "table3_reference": ["table3_reference"],
        "table4_study": ["table4_study", *(f"annotators_{s}" for s in o.regression_scales)],
        "table4_reference": ["table4_reference"],
    }
    for t in named:
        page.append(f"## {t.caption}\n\nFiles: `tables/{t.name}.txt|csv|json|tex`\n")
        if t.shown:
            page.append(tables.markdown(t.table, t.digits, t.index))
        for figure in figures_after.get(t.name, []):
            page.append(
                f"![{captions[figure]}](figures/{figure}.png)\n\n{captions[figure]} (`figures/{figure}.png|svg`)\n"
            )
    path = os.path.join(folder, REPORT_PAGE)
    write_output(path, "\n".join(page))
    return path
