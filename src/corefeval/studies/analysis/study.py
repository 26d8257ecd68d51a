"""A whole study, from files to every table: agreement, trust, metric-vs-human comparison, regressions.

Metric scores are computed two ways: ``study`` (key padded with the response's extra mentions, as
the 2022 study's scores were made) and ``reference`` (corefeval's default semantics). Everything that
involves metric scores is produced for both variants.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...core.diagnostics import Diagnostic, InputError
from ...core.model import Document
from ...core.progress import progress
from . import comparison, regression
from .agreement import alpha, bootstrap_alpha, good_items
from .error_counts import read_error_counts
from .item_scores import F1_COLUMNS, compare, read_lenient, read_published, score_items
from .ratings import Ratings, parse_controls, read_form_export, read_long_table
from .scales import BUILTIN, Scale
from .trust import trust_coefficients
from .validation import Finding, validate

VARIANTS = ("study", "reference")
STUDY_CONTROLS = "23:128,38:129,75:130"


@dataclass
class StudyInputs:
    ratings: Ratings
    counts: pd.DataFrame
    keys: dict[str, Document]
    responses: dict[str, Document]
    published: pd.DataFrame | None = None
    warnings: list[Diagnostic] = field(default_factory=list)


@dataclass(frozen=True)
class StudyOptions:
    """Everything that can change a number besides the inputs."""

    scales: tuple[Scale, ...] = tuple(BUILTIN.values())
    level: str = "nominal"
    max_distinct: int = 3
    regression_scales: tuple[str, ...] = ("standard", "reduced", "gravity")
    aggregate_all_items: tuple[str, ...] = ("gravity",)
    method: str = "ols"
    ridge_alpha: float = 1.0
    drop_nonnegative: bool = True
    min_items: int = 0  # an annotator's model also needs more items than parameters
    resamples: int = 1000
    seed: int = 0
    max_exact: int = 16


def load(
    errors: str,
    key: str,
    response: str,
    answers: str | None = None,
    ratings_table: str | None = None,
    controls: str = STUDY_CONTROLS,
    published: str | None = None,
) -> StudyInputs:
    """Read a study's files; items are the key's documents numbered 1..n in file order."""
    if (answers is None) == (ratings_table is None):
        from ...core.diagnostics import UsageError

        raise UsageError("give the ratings either as a form export (--answers) or as a long table (--ratings)")
    if answers is not None:
        ratings = read_form_export(answers, controls=parse_controls(controls))
    else:
        ratings = apply_long_controls(read_long_table(str(ratings_table)), controls)
    key_corpus, response_corpus = read_lenient(key), read_lenient(response)
    by_name = response_corpus.by_name()
    keys: dict[str, Document] = {}
    responses: dict[str, Document] = {}
    for number, doc in enumerate(key_corpus.documents, 1):
        if doc.name not in by_name:
            raise InputError(response, 0, f"document '{doc.name}' of the key is not in the response")
        keys[str(number)], responses[str(number)] = doc, by_name[doc.name]
    return StudyInputs(
        ratings,
        read_error_counts(errors),
        keys,
        responses,
        read_published(published) if published else None,
        list(key_corpus.warnings) + list(response_corpus.warnings),
    )


def apply_long_controls(ratings: Ratings, controls: str) -> Ratings:
    from .ratings import apply_controls

    pairs = {a: b for a, b in parse_controls(controls).items() if a in ratings.items and b in ratings.items}
    return apply_controls(ratings, pairs) if pairs else ratings


@dataclass
class VariantResults:
    """Everything computed from one variant of the metric scores."""

    scores: pd.DataFrame
    differences: dict[str, pd.DataFrame]
    item_differences: pd.DataFrame
    correlations: pd.DataFrame
    loss_by_type: pd.DataFrame
    fits: list[regression.Fit]
    coefficients: pd.DataFrame
    summary: pd.DataFrame


@dataclass
class StudyResults:
    options: StudyOptions
    ratings: Ratings
    good: list[str]
    table1: pd.DataFrame
    trust: pd.DataFrame
    alpha_levels: pd.DataFrame
    controls: pd.DataFrame
    humans: pd.DataFrame
    human_fits: list[regression.Fit]
    variants: dict[str, VariantResults]
    findings: list[Finding]
    score_check: pd.DataFrame | None


def _agreement(ratings: Ratings, good: np.ndarray, options: StudyOptions) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows, trust_columns = [], {}
    subsets = [
        (scale, label, mask)
        for scale in options.scales
        for label, mask in (("all", np.ones_like(good)), ("good", good))
    ]
    for scale, label, mask in progress(subsets, "agreement", len(subsets), "table"):
        sub = scale.code(ratings.values)[:, mask]
        estimate = bootstrap_alpha(sub, options.level, options.resamples, seed=options.seed)
        trust = trust_coefficients(
            sub, ratings.annotators, options.level, max_exact=options.max_exact, seed=options.seed
        )
        keep = [k for k, a in enumerate(ratings.annotators) if a not in trust.outliers]
        after = alpha(sub[keep], options.level) if trust.outliers else None
        rows.append(
            {
                "scale": scale.name,
                "items": label,
                "n_items": int(mask.sum()),
                "alpha": estimate.value,
                "low": estimate.low,
                "high": estimate.high,
                "outliers": " ".join(trust.outliers),
                "alpha_without_outliers": after,
            }
        )
        trust_columns[f"{scale.name}/{label}"] = trust.as_dict()
    return pd.DataFrame(rows), pd.DataFrame(trust_columns)


def _levels(ratings: Ratings, good: np.ndarray, scales: tuple[Scale, ...]) -> pd.DataFrame:
    rows = []
    for scale in scales:
        coded = scale.code(ratings.values)
        for label, mask in (("all", np.ones_like(good)), ("good", good)):
            row: dict[str, object] = {"scale": scale.name, "items": label}
            for level in ("nominal", "ordinal", "interval"):
                row[level] = alpha(coded[:, mask], level) if scale.ordered or level == "nominal" else None
            rows.append(row)
    return pd.DataFrame(rows)


def _controls(ratings: Ratings) -> pd.DataFrame:
    columns = ["annotator", "item", "duplicate", "first", "second", "status"]
    return pd.DataFrame([{k: getattr(c, k) for k in columns} for c in ratings.controls], columns=columns)


def _human_fits(
    ratings: Ratings, humans: pd.DataFrame, good: list[str], counts: pd.DataFrame, options: StudyOptions
) -> list[regression.Fit]:
    fits = []
    scales = {s.name: s for s in options.scales}
    for name in options.regression_scales:
        scale = scales[name]
        coded = scale.normalise(scale.code(ratings.values))
        factor = regression.LEGACY_FACTORS.get(name, 1 / scale.top)
        for k, annotator in enumerate(ratings.annotators):
            target = pd.Series(coded[k], index=list(ratings.items), name=f"{name}_{annotator}")
            if target.notna().sum() >= max(options.min_items, counts.shape[1] + 2):
                fits.append(
                    regression.fit(
                        counts,
                        target.loc[counts.index.intersection(target.index)],
                        options.method,
                        options.ridge_alpha,
                        seed=options.seed,
                        legacy_units=(scale.top, factor),
                    )
                )
        for statistic in comparison.STATISTICS:
            column = f"{name}_{statistic}"
            items = list(ratings.items) if name in options.aggregate_all_items else good
            items = [i for i in items if i in counts.index]  # an item without counts is not fitted
            target = humans.loc[items, column].rename(column.upper())
            fits.append(
                regression.fit(
                    counts.loc[items],
                    target,
                    options.method,
                    options.ridge_alpha,
                    seed=options.seed,
                    legacy_units=(7.0, factor),
                )
            )
    return fits


def human_rows(fits: list[regression.Fit]) -> list[str]:
    """The human rows of Table 4 that the "Humans" mean uses: annotators and MEAN aggregates (no MODE)."""
    return [f.target for f in fits if not f.target.endswith("_MODE")]


def analyse(inputs: StudyInputs, options: StudyOptions = StudyOptions()) -> StudyResults:
    """Run the whole methodology on a study's inputs."""
    ratings = inputs.ratings
    items = [i for i in ratings.items if i in inputs.keys]
    ratings = ratings.subset(items=items)
    good_mask = good_items(ratings.values, options.max_distinct)
    good = [i for i, g in zip(ratings.items, good_mask, strict=True) if g]
    table1, trust = _agreement(ratings, good_mask, options)
    humans = comparison.aggregates(ratings, list(options.scales))
    counts = inputs.counts.loc[[i for i in inputs.keys if i in inputs.counts.index]]
    human_fits = _human_fits(ratings, humans, good, counts, options)
    key_corpus, response_corpus = _corpora(inputs)
    variants: dict[str, VariantResults] = {}
    first_mean = f"{options.scales[0].name}_mean"
    for variant in VARIANTS:
        table = score_items(key_corpus, response_corpus, pad_key=variant == "study")
        f1 = table[[f"{m}_F1" for m in F1_COLUMNS[:-1]] + [F1_COLUMNS[-1]]]
        f1.columns = list(F1_COLUMNS)
        fits = [
            regression.fit(counts, f1.loc[counts.index, m], options.method, options.ridge_alpha, seed=options.seed)
            for m in F1_COLUMNS
        ]
        coefficients = regression.coefficient_table(fits + human_fits)
        variants[variant] = VariantResults(
            scores=table,
            differences=comparison.differences(f1, humans, good),
            item_differences=comparison.per_item_differences(f1, humans[first_mean], good),
            correlations=comparison.correlations(f1, humans, good),
            loss_by_type=comparison.loss_by_error_type(f1, humans, counts, good),
            fits=fits,
            coefficients=coefficients,
            summary=regression.summary_table(
                coefficients, list(F1_COLUMNS), human_rows(human_fits), options.drop_nonnegative
            ),
        )
    check = compare(variants["study"].scores, inputs.published) if inputs.published is not None else None
    return StudyResults(
        options,
        ratings,
        good,
        table1,
        trust,
        _levels(ratings, good_mask, options.scales),
        _controls(inputs.ratings),
        humans,
        human_fits,
        variants,
        validate(inputs.keys, inputs.responses, inputs.counts, ratings.items),
        check,
    )


def _corpora(inputs: StudyInputs):  # type: ignore[no-untyped-def]
    from ...core.model import Corpus

    return (
        Corpus("key", list(inputs.keys.values()), "conll2012", []),
        Corpus("response", list(inputs.responses.values()), "conll2012", []),
    )
