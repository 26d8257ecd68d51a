"""``corefeval validate FILE...``: print every problem as ``PATH:LINE: message``; exit 1 if any."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="files to check")
    p.add_argument("--key", metavar="KEY", help="also check that every FILE has the tokens of this key")
    p.add_argument(
        "--format",
        choices=("auto", "conll2012", "corefud", "jsonlines"),
        default="auto",
        help="format of the files (default: auto, detected from the content)",
    )


def run(args: argparse.Namespace) -> int:
    from ..core.diagnostics import plural, printable
    from ..readers.validate import validate

    problems = validate(args.files, args.format, args.key)
    for d in problems:
        print(printable(f"{d.path}:{max(d.line, 1)}: {d.message}"))
    if not problems:
        print(f"{plural(len(args.files), 'file')}: no problem found", file=sys.stderr)
    return 1 if problems else 0
