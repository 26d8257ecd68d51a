"""``corefeval score KEY RESPONSE``: score a response against a key."""

from __future__ import annotations

import argparse
import sys

from . import breakdowns, confidence_options
from .common import add_option_arguments, add_quiet_argument, emit_warnings, options_from


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", help="the gold file")
    p.add_argument(
        "response", nargs="?", help="the system file (omit for a jsonlines key that holds 'predicted_clusters')"
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
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="with --engine dask and no --scheduler: the local cluster's worker processes (default: one per core)",
    )
    p.add_argument("--stream", action="store_true", help=argparse.SUPPRESS)  # removed: refused with the reason
    add_option_arguments(p)
    p.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="score here (default) or on Dask: documents by partitions, or one unit given "
        "as two Parquet mention tables (needs the dask extra)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address (default: a local cluster of -j N worker processes, one per core by default)",
    )
    confidence_options.add_arguments(p)
    breakdowns.add_arguments(p)
    add_quiet_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..core.diagnostics import UsageError
    from ..report.score import render

    check_run_mode(args)
    if breakdowns.wanted(args):
        return breakdowns.run(args, args.key if args.response is None else args.response)
    if confidence_options.wanted(args):
        return confidence_options.run(args)
    options = options_from(args)
    response = args.key if args.response is None else args.response
    if args.response is None:
        check_single_file(args.key)
    if args.per_doc and args.format == "reference" and args.engine == "dask":
        raise UsageError("--per-doc in the reference format lists each document's entities: not with --engine dask")
    if args.engine == "dask" or _is_table(args.key):
        from .dask_engine import run_distributed

        result = run_distributed(args, response)
    elif args.format == "reference" and args.per_doc:
        return _reference_by_document(args, response)
    else:
        from ..scoring.pipeline import score_with

        result = score_with(args.key, response, options, args.doc)
    emit_warnings(result.warnings)
    sys.stdout.write(render(result, args.format, args.per_doc))
    return 0


def check_run_mode(args: argparse.Namespace) -> None:
    """Refuse the removed ``--stream`` and a ``-j`` that no Dask cluster would use, saying why."""
    from ..core.diagnostics import UsageError

    if args.stream:
        raise UsageError(
            "--stream is removed: a plain run reads files in blocks, in memory that follows the mentions, "
            "and is faster; drop the option"
        )
    if args.jobs < 1:
        raise UsageError("--jobs takes a positive number")
    if args.jobs > 1 and (args.engine != "dask" or args.scheduler):
        raise UsageError(
            "-j/--jobs is the size of the local Dask cluster (--engine dask without --scheduler); a plain "
            "run is one process, faster than local worker processes"
        )


def _reference_by_document(args: argparse.Namespace, response: str) -> int:
    """``--format reference --per-doc``: the reference's block per document, which lists each
    document's entities, so the corpora are read here and kept."""
    from ..readers import read_with
    from ..report.score import reference_by_document
    from ..scoring.pipeline import score_with

    options = options_from(args)
    key_corpus = read_with(args.key, options, "key")
    response_corpus = read_with(response, options, "response", key_corpus)
    result = score_with(key_corpus, response_corpus, options, args.doc)
    emit_warnings(result.warnings)
    sys.stdout.write(reference_by_document(key_corpus, response_corpus, result))
    return 0


def _is_table(path: str) -> bool:
    return path.endswith(".parquet")


def check_single_file(path: str) -> None:
    """A key scored on its own must be jsonlines with ``predicted_clusters``."""
    from ..core.diagnostics import UsageError
    from ..readers import detect_format
    from ..readers.conll2012 import read_text

    text = read_text(path)
    if detect_format(path, text) != "jsonlines" or '"predicted_clusters"' not in text:
        raise UsageError("RESPONSE is required unless KEY is a jsonlines file with 'predicted_clusters'")
