"""``corefeval score KEY RESPONSE``: score a response against a key."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", help="the gold file")
    p.add_argument("response", help="the system file")
    p.add_argument("-m", "--metric", action="append", metavar="METRIC",
                   help="metric to report (repeatable or comma-separated): mentions, muc, bcub, ceafm, ceafe, "
                        "blanc, lea, conll, or all (default)")
    p.add_argument("--per-doc", action="store_true", help="also report every document")
    p.add_argument("--format", choices=("text", "json", "csv", "reference", "markdown", "latex"),
                   default="text",
                   help="output format (default: text)")
    p.add_argument("--doc", metavar="NAME", help="score only the document with this name")
    p.add_argument("--blanc", choices=("reference", "paper"), default="reference",
                   help="BLANC boundary cases: as the reference scorer (default) or as the paper defines them")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="score documents in N processes (CoNLL-2012 input; implies --stream)")
    p.add_argument("--stream", action="store_true",
                   help="read one document of each file at a time (memory grows with the largest document)")
    p.add_argument("--lenient", action="store_true",
                   help="read an unreadable coreference field as '-', with a warning, instead of stopping")
    p.add_argument("--pad-key", action="store_true",
                   help="add response mentions missing from the key to it as singletons (scorch 0.2 behaviour)")
    from . import confidence_options

    confidence_options.add_arguments(p)


def emit_warnings(warnings: list) -> None:
    for w in warnings:
        print(w, file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from ..diagnostics import UsageError
    from . import confidence_options

    if confidence_options.wanted(args):
        return confidence_options.run(args)

    if args.jobs < 1:
        raise UsageError("--jobs takes a positive number")
    if args.stream or args.jobs > 1:
        if args.doc is not None:
            raise UsageError("--doc cannot be combined with --stream or --jobs")
        from ..stream import score_streaming

        result = score_streaming(args.key, args.response, args.metric, blanc=args.blanc,
                                 pad_key_mentions=args.pad_key, jobs=args.jobs)
    else:
        from ..scoring import score

        result = score(args.key, args.response, args.metric, blanc=args.blanc, pad_key_mentions=args.pad_key,
                       doc=args.doc, lenient=args.lenient)
    emit_warnings(result.warnings)
    sys.stdout.write(render(result, args.format, args.per_doc))
    return 0


def render(result, fmt: str, per_doc: bool) -> str:  # type: ignore[no-untyped-def]
    if fmt == "json":
        import json

        return json.dumps(result.to_dict(per_doc=per_doc), indent=1) + "\n"
    if fmt == "csv":
        from ..report.table import csv_table

        return csv_table(result, per_doc)
    if fmt == "reference":
        from .. import __version__
        from ..report.reference import PRINTABLE, corpus_only

        metrics = tuple(m for m in result.settings.metrics if m in PRINTABLE)
        return corpus_only(result, metrics, f"corefeval {__version__}") + f"# {result.signature}\n"
    from ..report.table import text

    return text(result, per_doc)
