"""What ``corefeval score --engine dask`` (or a Parquet unit with either engine) runs."""

from __future__ import annotations

import argparse
import os

from ..diagnostics import UsageError
from ..results import ScoreResult


def run_distributed(args: argparse.Namespace, response: str) -> ScoreResult:
    """Score the command line's inputs: a Parquet unit, or CoNLL-2012 files by documents."""
    if args.scheduler and args.engine != "dask":
        raise UsageError("--scheduler needs --engine dask")
    if (
        args.doc is not None
        or args.lenient
        or args.stream
        or (args.singletons, args.match, args.zeros) != ("keep", "exact", "include")
    ):
        raise UsageError("--engine dask and Parquet units score with the default options (no --doc, --stream, ...)")
    table = args.key.endswith(".parquet")
    if table != response.endswith(".parquet"):
        raise UsageError("KEY and RESPONSE must both be Parquet mention tables, or neither")
    if table:
        if args.pad_key:
            raise UsageError("--pad-key cannot be used with a Parquet unit")
        if args.engine == "local":
            from .unit import score_unit_local

            return score_unit_local(args.key, response, args.metric, blanc=args.blanc)
    elif {args.key_format, args.response_format} - {"auto", "conll2012"}:
        raise UsageError("--engine dask reads CoNLL-2012 files by documents (other formats: score_shards)")
    from .cluster import connect

    with connect(args.scheduler, args.jobs if args.jobs > 1 else (os.cpu_count() or 2)):
        if table:
            from .unit import score_unit

            return score_unit(args.key, response, args.metric, blanc=args.blanc)
        from .documents import score_documents

        return score_documents(args.key, response, args.metric, blanc=args.blanc, pad_key_mentions=args.pad_key)
