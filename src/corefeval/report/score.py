"""A score result in each output format of ``corefeval score`` (text, json, csv, reference)."""

from __future__ import annotations

import json

from ..results import ScoreResult


def render(result: ScoreResult, fmt: str, per_doc: bool) -> str:
    """``result`` as ``fmt``; the signature goes into every format."""
    if fmt == "json":
        return json.dumps(result.to_dict(per_doc=per_doc), indent=1) + "\n"
    if fmt == "csv":
        from .table import csv_table

        return csv_table(result, per_doc) + f"#signature,{result.signature}\n"
    if fmt == "reference":
        from .. import __version__
        from ..registry import REFERENCE
        from .reference import corpus_only

        metrics = tuple(m for m in result.settings.metrics if m in REFERENCE)
        return corpus_only(result, metrics, f"corefeval {__version__}") + f"# {result.signature}\n"
    from .table import text

    return text(result, per_doc)
