"""``corefeval reference METRIC KEY RESPONSE [DOC|none]``: a drop-in for ``scorer.pl``.

Takes the reference scorer's own arguments and prints what it prints (totals, or the verbose
per-document dump), so that scripts written around ``scorer.pl`` keep working. Differences: documents
come in key-file order (the reference uses random hash order), BLANC's per-document header shows the
name (the reference prints ``:``), repeated mentions never abort the run, and files are parsed
correctly (see the README).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..core.registry import REFERENCE, REFERENCE_ALL

if TYPE_CHECKING:
    from ..core.model import Corpus


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("metric", help=f"{', '.join(REFERENCE)} or all ({' '.join(REFERENCE_ALL)})")
    p.add_argument("key", help="the gold file")
    p.add_argument("response", help="the system file")
    p.add_argument("doc", nargs="?", help="a document name, or 'none' for the totals only")


def resolve_metric(name: str) -> tuple[str, ...]:
    """The reference's metric argument: case-insensitive; ``all`` is its five metrics."""
    from ..core.diagnostics import UsageError

    lc = name.lower()
    if lc == "all":
        return REFERENCE_ALL
    if lc in REFERENCE:
        return (lc,)
    raise UsageError(f"Invalid metric '{name}' (choose from {', '.join(REFERENCE)}, all)")


def run(args: argparse.Namespace) -> int:
    from .._version import version
    from ..core.model import Corpus, make_document
    from ..core.options import Options
    from ..readers import read
    from ..report.reference import by_document
    from ..scoring.pipeline import empty_like, score_with
    from .common import emit_warnings

    metrics = resolve_metric(args.metric)
    key, response = read(args.key), read(args.response)
    named = args.doc is not None and args.doc != "none"
    in_key = set(key.by_name())
    if named:
        # A repeated name means its last occurrence here, as in the all-documents mode (the
        # reference's named mode takes the first one, and so may pair unrelated occurrences).
        key_doc = key.by_name().get(args.doc)
        response_doc = response.by_name().get(args.doc)
        if key_doc is None:  # scored against an empty key; a name in neither file scores 0/0
            key_doc = empty_like(response_doc) if response_doc is not None else make_document(args.doc, [])
        key = Corpus(key.path, [key_doc], key.format, key.warnings)
        response = Corpus(
            response.path, [response_doc] if response_doc is not None else [], response.format, response.warnings
        )
        # the named document is scored whether or not the response has it, as the reference scores it
        scored = Corpus(response.path, [response_doc or empty_like(key_doc)], response.format, response.warnings)
    else:
        scored = _against_empty(key, response)
    result = score_with(key, scored, Options(metrics=(*metrics, "mentions")))
    emit_warnings([w for w in result.warnings if "is not in the" not in w.message])
    sys.stdout.write(by_document(key, response, result, metrics, args.doc, f"corefeval {version()}", in_key))
    return 0


def _against_empty(key: Corpus, response: Corpus) -> Corpus:
    """``response``, or, when it shares no document with ``key`` (which every other command refuses),
    empty documents of the key's names, with a warning: the reference scores every key document
    against an empty response then, and scripts around it expect its output."""
    from ..core.diagnostics import Diagnostic
    from ..core.model import Corpus
    from ..core.pairing import nothing_shared, pair_names
    from ..scoring.pipeline import empty_like

    keys, responses = key.by_name(), response.by_name()
    if not keys or pair_names(keys, responses, key.format != response.format):
        return response
    said = nothing_shared(key.path, list(keys), list(responses))
    note = Diagnostic(
        response.path,
        0,
        f"{said}; every key document is scored against an empty response, as the reference scorer does",
    )
    return Corpus(response.path, [empty_like(d) for d in keys.values()], response.format, [*response.warnings, note])
