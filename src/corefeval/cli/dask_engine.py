"""What ``corefeval score --engine dask`` (or a Parquet unit with either engine) runs."""

from __future__ import annotations

import argparse
import os

from ..core.diagnostics import UsageError
from ..scoring.results import ScoreResult


def run_distributed(args: argparse.Namespace, response: str) -> ScoreResult:
    """Score the command line's inputs: a Parquet unit, or two files by documents, with its options
    (a unit refuses those it cannot honour, naming the option)."""
    from .common import options_from

    if args.scheduler and args.engine != "dask":
        raise UsageError("--scheduler needs --engine dask")
    if args.doc is not None:
        raise UsageError("--doc cannot be combined with --engine dask or a Parquet unit")
    table = args.key.endswith(".parquet")
    if table != response.endswith(".parquet"):
        raise UsageError("KEY and RESPONSE must both be Parquet mention tables, or neither")
    options = options_from(args)
    if table:
        from ..scoring.distributed.unit import unit_options

        options = unit_options(args.key, options)
        if args.engine == "local":
            from ..scoring.distributed.unit import score_unit_local

            return score_unit_local(args.key, response, options=options)
    from ..scoring.distributed.cluster import check_address, connect

    if args.scheduler:
        check_address(args.scheduler)
    if not table:  # refused before a cluster is started or reached
        from ..readers.document_index import require_regular_file

        require_regular_file(args.key)
        require_regular_file(response)
    with connect(args.scheduler, args.jobs if args.jobs > 1 else (os.cpu_count() or 2)):
        if table:
            from ..scoring.distributed.unit import score_unit

            return score_unit(args.key, response, options=options)
        from ..scoring.distributed.documents import score_documents

        return score_documents(args.key, response, options=options)
