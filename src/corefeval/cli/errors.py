"""``corefeval errors KEY RESPONSE``: which errors a response makes, by type, with their cost."""

from __future__ import annotations

import argparse
import sys

from .common import add_option_arguments, add_quiet_argument, check_outputs, emit_warnings, options_from, write_output


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", help="the gold file")
    p.add_argument("response", help="the system file")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text", help="output format (default: text)")
    p.add_argument("--no-per-doc", action="store_true", help="text output: corpus totals only")
    p.add_argument(
        "--singleton-layer",
        metavar="FILE",
        help="a key file whose mentions are all referring expressions (a singleton layer): "
        "it tells a mention in the wrong chain (type) from a non-mention (noise)",
    )
    p.add_argument(
        "--every-mention",
        action="store_true",
        help="also count each missing mention of an absent chain as silence and each unmatched "
        "mention of a new chain as noise",
    )
    p.add_argument("--log", metavar="OUT.jsonl", help="write every counted error as one JSON line")
    p.add_argument("--html", metavar="OUT.html", help="write a self-contained page showing the errors on the text")
    p.add_argument("--no-costs", action="store_true", help="skip the repair-and-rescore costs (faster)")
    add_option_arguments(p, metrics=False)
    add_quiet_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..report import errors as report
    from ..studies.errors.analysis import analyse

    check_outputs([args.log, args.html], [args.key, args.response, args.singleton_layer])
    a = analyse(
        args.key,
        args.response,
        args.singleton_layer,
        costs=not args.no_costs,
        every_mention=args.every_mention,
        options=options_from(args),
    )
    emit_warnings(a.warnings)
    if args.log:
        write_output(args.log, report.json_lines(a))
    if args.html:
        from ..report.errors_html import page

        write_output(args.html, page(a))
    if args.format == "json":
        sys.stdout.write(report.json_report(a))
    elif args.format == "csv":
        sys.stdout.write(report.csv_table(a))
    else:
        sys.stdout.write(report.text(a, per_doc=not args.no_per_doc))
    return 0
