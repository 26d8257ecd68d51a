"""``corefeval errors KEY RESPONSE``: which errors a response makes, by type, with their cost."""

from __future__ import annotations

import argparse
import os
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", help="the gold file")
    p.add_argument("response", help="the system file")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text", help="output format (default: text)")
    p.add_argument("--no-per-doc", action="store_true", help="text output: corpus totals only")
    p.add_argument(
        "--singletons",
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
    p.add_argument(
        "--lenient",
        action="store_true",
        help="read an unreadable coreference field as '-', with a warning, instead of stopping",
    )


def _output_path(path: str, inputs: list[str]) -> str:
    from ..diagnostics import UsageError

    for i in inputs:
        if i and os.path.exists(path) and os.path.exists(i) and os.path.samefile(path, i):
            raise UsageError(f"refusing to write over the input file {i}")
    return path


def run(args: argparse.Namespace) -> int:
    from ..errors import report
    from ..errors.analysis import analyse

    inputs = [args.key, args.response, args.singletons or ""]
    for out in (args.log, args.html):
        if out:
            _output_path(out, inputs)
    from ..readers import read

    def load(path: str):  # type: ignore[no-untyped-def]
        return read(path, keep_tokens=True, lenient=args.lenient)

    a = analyse(
        load(args.key),
        load(args.response),
        load(args.singletons) if args.singletons else None,
        costs=not args.no_costs,
        every_mention=args.every_mention,
    )
    for w in a.warnings:
        print(w, file=sys.stderr)
    if args.log:
        with open(args.log, "w", encoding="utf-8") as fh:
            fh.write(report.json_lines(a))
    if args.html:
        from ..errors.html import page

        with open(args.html, "w", encoding="utf-8") as fh:
            fh.write(page(a))
    if args.format == "json":
        sys.stdout.write(report.json_report(a))
    elif args.format == "csv":
        sys.stdout.write(report.csv_table(a))
    else:
        sys.stdout.write(report.text(a, per_doc=not args.no_per_doc))
    return 0
