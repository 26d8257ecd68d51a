"""``corefeval score --confidence``: bootstrap intervals, and the Markdown and LaTeX tables."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("confidence intervals (percentile bootstrap over documents)")
    g.add_argument(
        "--confidence",
        nargs="?",
        type=int,
        const=1000,
        metavar="N",
        help="report a bootstrap confidence interval for every metric, from N resamples (default 1000)",
    )
    g.add_argument("--confidence-level", type=float, metavar="LEVEL", help="interval coverage (default 0.95)")
    g.add_argument("--seed", type=int, help="random seed of the resampling (default 12345; in the signature)")
    g.add_argument(
        "--stratify",
        metavar="REGEX",
        help="resample within groups of documents named alike: the regex's first group (or match) "
        "on each document name, e.g. '(\\w+)/' for OntoNotes genres",
    )
    g.add_argument(
        "--stratify-by-file",
        action="store_true",
        help="KEY and RESPONSE are comma-separated lists of files (paired by position); "
        "each file's "
        "documents are resampled separately",
    )


def wanted(args: argparse.Namespace) -> bool:
    """Whether this run needs more than the plain score command (any option of this group, or a table)."""
    given = (args.confidence, args.confidence_level, args.seed, args.stratify, args.stratify_by_file or None)
    return any(v is not None for v in given) or args.format in ("markdown", "latex")


def _check(args: argparse.Namespace) -> None:
    from ..core.diagnostics import UsageError

    if args.confidence is None:
        used = [
            o
            for o, v in (
                ("--confidence-level", args.confidence_level),
                ("--seed", args.seed),
                ("--stratify", args.stratify),
                ("--stratify-by-file", args.stratify_by_file),
            )
            if v not in (None, False)
        ]
        if used:
            raise UsageError(f"{', '.join(used)} needs --confidence")
    if args.stratify and args.stratify_by_file:
        raise UsageError("choose one of --stratify and --stratify-by-file")
    if args.format == "reference" and args.confidence is not None:
        raise UsageError("--confidence cannot be printed in the reference format")


def run(args: argparse.Namespace) -> int:
    from ..report import confidence as report
    from ..report.score import render
    from ..scoring.pipeline import score_with
    from ..stats.confidence import DEFAULT_LEVEL, DEFAULT_SEED, confidence_intervals
    from ..stats.strata import choose_strata, pool_files
    from .common import emit_warnings, options_from

    _check(args)
    keys = args.key.split(",") if args.stratify_by_file else [args.key]
    responses = args.response.split(",") if args.stratify_by_file else [args.response]
    if len(keys) != len(responses):
        from ..core.diagnostics import UsageError

        raise UsageError(f"{len(keys)} key files but {len(responses)} response files")
    options = options_from(args)
    runs = [score_with(k, r, options, args.doc) for k, r in zip(keys, responses, strict=True)]
    result = pool_files(runs)
    emit_warnings(result.warnings)
    ci = None
    if args.confidence is not None:
        strata, name = choose_strata(runs, args.stratify, args.stratify_by_file)
        ci = confidence_intervals(
            result,
            args.confidence,
            args.confidence_level or DEFAULT_LEVEL,
            DEFAULT_SEED if args.seed is None else args.seed,
            strata,
            name,
        )
        emit_warnings(ci.warnings)
    if args.format in ("markdown", "latex") or ci is None:
        sys.stdout.write(report.table(result, ci, args.format, args.per_doc))
    elif args.format == "json":
        import json

        sys.stdout.write(json.dumps(report.to_dict(result, ci, args.per_doc), indent=1) + "\n")
    elif args.format == "csv":
        sys.stdout.write(report.csv_with_intervals(result, ci, args.per_doc))
    else:
        sys.stdout.write(render(result, "text", args.per_doc) + "\n" + report.table(result, ci, "text"))
    return 0
