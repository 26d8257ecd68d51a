"""A score result in each output format of ``corefeval score`` (text, json, csv, reference)."""

from __future__ import annotations

from ..core.model import Corpus
from ..scoring.results import ScoreResult


def render(result: ScoreResult, fmt: str, per_doc: bool) -> str:
    """``result`` as ``fmt``; the signature goes into every format."""
    if fmt == "json":
        import json

        return json.dumps(result.to_dict(per_doc=per_doc), indent=1) + "\n"
    if fmt == "csv":
        from .table import csv_table

        return csv_table(result, per_doc)
    if fmt == "reference":
        from .._version import version
        from .reference import conll_note, corpus_only, printed_metrics

        metrics = printed_metrics(result.settings.metrics)
        totals = corpus_only(result, metrics, f"corefeval {version()}")
        return totals + conll_note(result) + f"# {result.signature}\n"
    from .table import text

    return text(result, per_doc)


def reference_by_document(key: Corpus, response: Corpus, result: ScoreResult) -> str:
    """``result`` of ``key`` and ``response`` as the reference prints it document by document
    (``scorer.pl METRIC KEY RESPONSE``), with the same footer as :func:`render`."""
    from .._version import version
    from .reference import by_document, conll_note, printed_metrics

    metrics = printed_metrics(result.settings.metrics)
    text = by_document(key, response, result, metrics, None, f"corefeval {version()}")
    return text + conll_note(result) + f"# {result.signature}\n"
