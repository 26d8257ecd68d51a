"""``corefeval compare KEY BASELINE SYSTEM [SYSTEM ...]``: systems against a baseline, with tests."""

from __future__ import annotations

import argparse
import sys

from .common import add_option_arguments, add_quiet_argument


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", help="the gold file")
    p.add_argument("baseline", help="the baseline system's file")
    p.add_argument("systems", nargs="+", metavar="system", help="files of the systems to compare with it")
    p.add_argument(
        "--names",
        metavar="NAME,...",
        help="comma-separated names for the baseline and the systems (default: their paths)",
    )
    p.add_argument("--resamples", type=int, default=1000, metavar="N", help="paired bootstrap resamples (default 1000)")
    p.add_argument(
        "--rounds", type=int, default=10000, metavar="N", help="approximate randomisation rounds (default 10000)"
    )
    p.add_argument(
        "--confidence-level",
        type=float,
        default=0.95,
        metavar="LEVEL",
        help="coverage of the bootstrap intervals (default 0.95)",
    )
    p.add_argument("--seed", type=int, default=12345, help="random seed (default 12345; in the signature)")
    p.add_argument(
        "--holm", action="store_true", help="adjust p-values across the systems with Holm's step-down correction"
    )
    p.add_argument(
        "--stratify",
        metavar="REGEX",
        help="bootstrap within groups of documents: the regex's first group (or match) on each name",
    )
    p.add_argument(
        "--stratify-by-file",
        action="store_true",
        help="KEY, BASELINE and each SYSTEM are comma-separated lists of files (paired by "
        "position); "
        "each file's documents are resampled separately",
    )
    p.add_argument(
        "--format",
        choices=("text", "json", "csv", "markdown", "latex"),
        default="text",
        help="output format (default: text)",
    )
    add_option_arguments(p)
    add_quiet_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..core.diagnostics import UsageError
    from ..report import comparison as report
    from ..stats.compare import compare
    from .common import emit_warnings, options_from

    if args.stratify and args.stratify_by_file:
        raise UsageError("choose one of --stratify and --stratify-by-file")

    def files(arg: str) -> str | list[str]:
        return arg.split(",") if args.stratify_by_file else arg

    result = compare(
        files(args.key),
        files(args.baseline),
        [files(s) for s in args.systems],
        options=options_from(args),
        names=args.names.split(",") if args.names else None,
        resamples=args.resamples,
        rounds=args.rounds,
        seed=args.seed,
        level=args.confidence_level,
        holm=args.holm,
        strata_pattern=args.stratify,
        strata_by_file=args.stratify_by_file,
    )
    emit_warnings(result.warnings)
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(result.to_dict(), indent=1) + "\n")
    elif args.format == "csv":
        sys.stdout.write(report.csv_table(result))
    else:
        sys.stdout.write(report.table(result, args.format))
    return 0
