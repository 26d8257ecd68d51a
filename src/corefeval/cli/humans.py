"""``corefeval humans``: compare coreference metrics with human judgments (the 2022 study's method).

Subcommands: ``report`` writes a complete report folder; ``agreement``, ``differences``, ``regress``,
``scores`` and ``validate`` print one part. All read the same inputs: ratings (a form export or a
long table), error counts per item, and the key and response files (one document per item).
"""

from __future__ import annotations

import argparse
import sys

from .common import add_quiet_argument, emit_warnings

TABLE_FORMATS = ("text", "csv", "json", "latex", "markdown")


def _inputs(p: argparse.ArgumentParser, scores_only: bool = False) -> None:
    p.add_argument("--key", required=True, help="key (gold) CoNLL-2012 file, one document per item")
    p.add_argument("--response", required=True, help="response CoNLL-2012 file with the same documents")
    add_quiet_argument(p)
    if scores_only:
        return
    ratings = p.add_mutually_exclusive_group(required=True)
    ratings.add_argument("--answers", help="ratings as a form export (one row per submission, questions 'N) ...')")
    ratings.add_argument("--ratings", help="ratings as a long table with columns annotator,item,value")
    p.add_argument("--errors", required=True, help="error counts per item (first column: item id)")
    p.add_argument(
        "--controls",
        default="23:128,38:129,75:130",
        help="declared duplicate questions ITEM:DUPLICATE,... (default: the study's; '' for none)",
    )
    p.add_argument(
        "--scale",
        action="append",
        default=[],
        metavar="NAME:RAW=CODE,...",
        help="an extra ordered scale (repeatable), e.g. 'binary:0=0,1=0,...,7=1'",
    )
    p.add_argument(
        "--level",
        choices=("nominal", "ordinal", "interval"),
        default="nominal",
        help="Krippendorff's alpha level (default: nominal, as the study)",
    )
    p.add_argument(
        "--max-distinct", type=int, default=3, help="good items have at most this many distinct answers (default 3)"
    )
    p.add_argument(
        "--method",
        choices=("ols", "ridge", "sgd-legacy"),
        default="ols",
        help="regression estimator (default ols; sgd-legacy is the study's, needs scikit-learn)",
    )
    p.add_argument("--ridge-alpha", type=float, default=1.0, help="ridge penalty (default 1.0)")
    p.add_argument(
        "--min-items",
        type=int,
        default=0,
        help="fit an annotator's model only if they rated at least this many items "
        "(default 0: all with more items than parameters)",
    )
    p.add_argument(
        "--keep-nonnegative",
        action="store_true",
        help="keep zero and positive coefficients in Table 3 (the study drops them)",
    )
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="seed of every resampling (default 0)")
    p.add_argument(
        "--published",
        metavar="CSV",
        help="a published per-item score table (study layout) to check the study scores against",
    )


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="humans_command", metavar="SUBCOMMAND", required=True)
    r = sub.add_parser("report", help="write a complete report folder (tables, figures, report.md)")
    _inputs(r)
    r.add_argument("--out", required=True, help="output folder (created; existing files are replaced)")
    for name, help_text in (
        ("agreement", "Table 1, trust coefficients and control questions"),
        ("differences", "Table 2 (metric F1 - human), both scoring variants"),
        ("regress", "Table 3 (regression on error counts), both scoring variants"),
        ("validate", "inconsistencies between files, counts and ratings"),
    ):
        q = sub.add_parser(name, help=help_text)
        _inputs(q)
        q.add_argument("--format", choices=TABLE_FORMATS, default="text")
    s = sub.add_parser("scores", help="per-item metric scores in the study's table layout")
    _inputs(s, scores_only=True)
    s.add_argument(
        "--pad-key",
        action="store_true",
        help="study-compatible scores: response mentions missing from the key become key singletons",
    )
    s.add_argument("--format", choices=TABLE_FORMATS, default="csv")


def _options(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from ..studies.analysis.scales import BUILTIN, parse_scale
    from ..studies.analysis.study import StudyOptions

    extra = tuple(parse_scale(s) for s in args.scale)
    return StudyOptions(
        scales=tuple(BUILTIN.values()) + extra,
        level=args.level,
        max_distinct=args.max_distinct,
        method=args.method,
        ridge_alpha=args.ridge_alpha,
        drop_nonnegative=not args.keep_nonnegative,
        min_items=args.min_items,
        resamples=args.resamples,
        seed=args.seed,
    )


def _load(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from ..studies.analysis.study import load

    inputs = load(
        args.errors,
        args.key,
        args.response,
        answers=args.answers,
        ratings_table=args.ratings,
        controls=args.controls,
        published=args.published,
    )
    emit_warnings(inputs.warnings)
    return inputs


def _check_report_folder(args: argparse.Namespace) -> None:
    """Before anything is read: --out can be written, and nothing it receives is an input."""
    from ..core.output import check_output_folder
    from ..report.study import REPORT_FOLDERS, REPORT_PAGE

    inputs = (args.answers, args.ratings, args.errors, args.key, args.response, args.published)
    check_output_folder(args.out, (REPORT_PAGE,), REPORT_FOLDERS, inputs)


def run(args: argparse.Namespace) -> int:
    from ..core.diagnostics import UsageError

    try:
        import matplotlib  # noqa: F401
        import pandas  # noqa: F401
    except ImportError:
        raise UsageError("this command needs the analysis extra: pip install 'corefeval[analysis]'") from None
    from ..report import study_tables as tables

    if args.humans_command == "scores":
        from ..studies.analysis.item_scores import read_lenient, score_items

        key, response = read_lenient(args.key), read_lenient(args.response)
        emit_warnings(key.warnings + response.warnings)
        sys.stdout.write(tables.render(score_items(key, response, args.pad_key), args.format, 4))
        return 0
    from ..report import study as report
    from ..studies.analysis.study import analyse

    if args.humans_command == "report":
        _check_report_folder(args)
    results = analyse(_load(args), _options(args))
    if args.humans_command == "report":
        note = (
            f"Inputs: ratings `{args.answers or args.ratings}`, error counts `{args.errors}`, "
            f"key `{args.key}`, response `{args.response}`."
        )
        path = report.write_report(results, args.out, note)
        print(f"report written: {path}")
        return 0
    wanted = {
        "agreement": ("table1_agreement", "trust", "controls"),
        "differences": ("table2_study", "table2_reference", "table2_change"),
        "regress": ("table3_study", "table3_reference"),
        "validate": ("validation",),
    }[args.humans_command]
    for t in report.named_tables(results):
        if t.name in wanted:
            if args.format in ("text", "markdown"):
                sys.stdout.write(f"# {t.caption}\n")
            sys.stdout.write(tables.render(t.table, args.format, t.digits, t.index, t.caption) + "\n")
    return 0
