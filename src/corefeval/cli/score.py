"""``corefeval score KEY RESPONSE``: score a response against a key."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", help="the gold file")
    p.add_argument("response", nargs="?",
                   help="the system file (omit for a jsonlines key that holds 'predicted_clusters')")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric to report (repeatable or comma-separated): mentions, muc, bcub, ceafm, ceafe, "
                        "blanc, lea, conll, or all (default)")
    p.add_argument("--per-doc", action="store_true", help="also report every document")
    p.add_argument("--format", choices=("text", "json", "csv", "reference"), default="text",
                   help="output format (default: text)")
    p.add_argument("--doc", metavar="NAME", help="score only the document with this name")
    p.add_argument("--blanc", choices=("reference", "paper"), default="reference",
                   help="BLANC boundary cases: as the reference scorer (default) or as the paper defines them")
    formats = ("auto", "conll2012", "corefud", "jsonlines")
    p.add_argument("--key-format", choices=formats, default="auto", help="format of the key (default: auto)")
    p.add_argument("--response-format", choices=formats, default="auto",
                   help="format of the response (default: auto)")
    p.add_argument("--singletons", choices=("keep", "remove"), default="keep",
                   help="keep entities with one mention (default, as the reference) or remove them (CRAC)")
    p.add_argument("--match", choices=("exact", "head", "partial"), default="exact",
                   help="mention matching: exact spans (default), same head, or partial (inside the key "
                        "mention and containing its head); head and partial need CorefUD heads")
    p.add_argument("--zeros", choices=("include", "dependent", "exclude"), default="include",
                   help="empty nodes (CorefUD zeros): score them matched by position (default) or aligned by "
                        "their dependencies (CRAC 2024), or leave them out")
    p.add_argument("--pad-key", action="store_true",
                   help="add response mentions missing from the key to it as singletons (scorch 0.2 behaviour)")


def emit_warnings(warnings: list) -> None:
    for w in warnings:
        print(w, file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from ..scoring import score

    response = args.key if args.response is None else args.response
    if args.response is None:
        check_single_file(args.key)
    result = score(args.key, response, args.metric, blanc=args.blanc, pad_key_mentions=args.pad_key,
                   doc=args.doc, key_format=args.key_format, response_format=args.response_format,
                   singletons=args.singletons, match=args.match, zeros=args.zeros)
    emit_warnings(result.warnings)
    sys.stdout.write(render(result, args.format, args.per_doc))
    return 0


def check_single_file(path: str) -> None:
    """A key scored on its own must be jsonlines with ``predicted_clusters``."""
    from ..diagnostics import UsageError
    from ..readers import detect_format
    from ..readers.conll2012 import read_text

    text = read_text(path)
    if detect_format(path, text) != "jsonlines" or '"predicted_clusters"' not in text:
        raise UsageError("RESPONSE is required unless KEY is a jsonlines file with 'predicted_clusters'")


def render(result, fmt: str, per_doc: bool) -> str:  # type: ignore[no-untyped-def]
    if fmt == "json":
        import json

        return json.dumps(result.to_dict(per_doc=per_doc), indent=1) + "\n"
    if fmt == "csv":
        from ..report.table import csv_table

        return csv_table(result, per_doc) + f"#signature,{result.signature}\n"
    if fmt == "reference":
        from .. import __version__
        from ..report.reference import PRINTABLE, corpus_only

        metrics = tuple(m for m in result.settings.metrics if m in PRINTABLE)
        return corpus_only(result, metrics, f"corefeval {__version__}") + f"# {result.signature}\n"
    from ..report.table import text

    return text(result, per_doc)
