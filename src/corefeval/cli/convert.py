"""``corefeval convert IN OUT --to FORMAT``: rewrite a coreference file in another format."""

from __future__ import annotations

import argparse

from .common import check_output, emit_warnings, write_output

FORMATS = ("conll2012", "corefud", "jsonlines", "ua")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="the file to read")
    p.add_argument("output", help="the file to write ('-' for standard output); never the input")
    p.add_argument("--to", required=True, choices=FORMATS, help="output format")
    p.add_argument(
        "--from",
        dest="source_format",
        choices=("auto", *FORMATS),
        default="auto",
        help="input format (default: auto, detected from the content)",
    )
    p.add_argument(
        "--predicted",
        action="store_true",
        help="jsonlines input: convert 'predicted_clusters' instead of 'clusters'",
    )


def run(args: argparse.Namespace) -> int:
    from ..readers import read
    from ..writers import render

    check_output(args.output, [args.input])
    corpus = read(args.input, args.source_format, keep_tokens=True, role="response" if args.predicted else "key")
    text, notes = render(corpus, args.to)
    emit_warnings([*corpus.warnings, *notes])
    write_output(args.output, text)
    return 0
