"""``corefeval score KEY RESPONSE``: score a response against a key."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", help="the gold file")
    p.add_argument(
        "response", nargs="?", help="the system file (omit for a jsonlines key that holds 'predicted_clusters')"
    )
    p.add_argument(
        "-m",
        "--metric",
        action="append",
        metavar="METRIC",
        help="metric to report (repeatable or comma-separated): mentions, muc, bcub, ceafm, ceafe, "
        "blanc, lea, conll, or all (default)",
    )
    p.add_argument("--per-doc", action="store_true", help="also report every document")
    p.add_argument(
        "--format",
        choices=("text", "json", "csv", "reference", "markdown", "latex"),
        default="text",
        help="output format (default: text)",
    )
    p.add_argument("--doc", metavar="NAME", help="score only the document with this name")
    p.add_argument(
        "--blanc",
        choices=("reference", "paper"),
        default="reference",
        help="BLANC boundary cases: as the reference scorer (default) or as the paper defines them",
    )
    formats = ("auto", "conll2012", "corefud", "jsonlines", "predictions", "spacy")
    p.add_argument("--key-format", choices=formats, default="auto", help="format of the key (default: auto)")
    p.add_argument("--response-format", choices=formats, default="auto", help="format of the response (default: auto)")
    p.add_argument(
        "--singletons",
        choices=("keep", "remove"),
        default="keep",
        help="keep entities with one mention (default, as the reference) or remove them (CRAC)",
    )
    p.add_argument(
        "--match",
        choices=("exact", "head", "partial"),
        default="exact",
        help="mention matching: exact spans (default), same head, or partial (inside the key "
        "mention and containing its head); head and partial need CorefUD heads",
    )
    p.add_argument(
        "--zeros",
        choices=("include", "dependent", "exclude"),
        default="include",
        help="empty nodes (CorefUD zeros): score them matched by position (default) or aligned by "
        "their dependencies (CRAC 2024), or leave them out",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="score documents in N processes (CoNLL-2012 input; implies --stream)",
    )
    p.add_argument(
        "--stream",
        action="store_true",
        help="read one document of each file at a time (memory grows with the largest document)",
    )
    p.add_argument(
        "--lenient",
        action="store_true",
        help="read an unreadable coreference field as '-', with a warning, instead of stopping",
    )
    p.add_argument(
        "--pad-key",
        action="store_true",
        help="add response mentions missing from the key to it as singletons (scorch 0.2 behaviour)",
    )
    p.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="score here (default) or on Dask: CoNLL-2012 documents by partitions, or one unit given "
        "as two Parquet mention tables (needs the dask extra)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address (default: a local cluster of -j N worker processes, one per core by default)",
    )
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
    response = args.key if args.response is None else args.response
    if args.response is None:
        check_single_file(args.key)
    if args.engine == "dask" or _is_table(args.key):
        from ..distributed.command import run_distributed

        result = run_distributed(args, response)
    elif args.stream or args.jobs > 1:
        if args.doc is not None:
            raise UsageError("--doc cannot be combined with --stream or --jobs")
        if (
            {args.key_format, args.response_format} - {"auto", "conll2012"}
            or args.lenient
            or (args.singletons, args.match, args.zeros) != ("keep", "exact", "include")
        ):
            raise UsageError("--stream and --jobs read CoNLL-2012 files with the default options")
        from ..stream import score_streaming

        result = score_streaming(
            args.key, response, args.metric, blanc=args.blanc, pad_key_mentions=args.pad_key, jobs=args.jobs
        )
    else:
        from ..scoring import score

        result = score(args.key, response, args.metric, **score_options(args))
    emit_warnings(result.warnings)
    sys.stdout.write(render(result, args.format, args.per_doc))
    return 0


def _is_table(path: str) -> bool:
    return path.endswith(".parquet")


def score_options(args: argparse.Namespace) -> dict:  # type: ignore[type-arg]
    """The keyword arguments of :func:`corefeval.scoring.score` that the command line sets."""
    return {
        "blanc": args.blanc,
        "pad_key_mentions": args.pad_key,
        "doc": args.doc,
        "lenient": args.lenient,
        "key_format": args.key_format,
        "response_format": args.response_format,
        "singletons": args.singletons,
        "match": args.match,
        "zeros": args.zeros,
    }


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
