"""Stratified resampling: groups of documents that are resampled separately.

A stratum keeps its size in every bootstrap resample, so that a corpus mixing genres (OntoNotes
``bc/``, ``nw/``, ...) or datasets (one CorefUD file each) keeps its mix.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..core.diagnostics import UsageError
from ..scoring.results import ScoreResult, merge


def by_pattern(names: Sequence[str], pattern: str) -> list[str]:
    """Stratum of each document: the regex's first group (or whole match) in its name.

    Documents the pattern does not match form one stratum of their own, labelled ``(other)``.
    """
    try:
        rx = re.compile(pattern)
    except re.error as err:
        raise UsageError(f"bad stratum pattern '{pattern}': {err}") from None
    out = []
    for name in names:
        m = rx.search(name)
        out.append("(other)" if m is None else (m.group(1) if rx.groups else m.group(0)))
    return out


def pool_files(results: Sequence[ScoreResult]) -> ScoreResult:
    """Several scoring runs (one per file pair) as one corpus, documents named ``KEYFILE:NAME``.

    The runs must use the same metrics and settings, so that their count columns line up.
    """
    if not results:
        raise UsageError("no files to pool")
    if len(results) == 1:
        return results[0]
    try:
        pooled = merge(results)
    except ValueError:
        raise UsageError("files scored with different settings cannot be pooled") from None
    names = [f"{r.key_path}:{n}" for r in results for n in r.document_names]
    return replace(
        pooled,
        key_path="+".join(r.key_path for r in results),
        response_path="+".join(r.response_path for r in results),
        document_names=names,
    )


def choose_strata(
    results: Sequence[ScoreResult], pattern: str | None = None, by_file: bool = False
) -> tuple[list[str] | None, str | None]:
    """Stratum labels of the pooled documents of ``results`` and a name for the signature.

    ``pattern`` applies to each document's own name (not the file prefix of a pooled corpus);
    ``by_file`` labels each document with its key file. Neither: no strata.
    """
    if pattern is not None and by_file:
        raise UsageError("choose one of stratifying by name pattern and by file")
    if pattern is not None:
        return [label for r in results for label in by_pattern(r.document_names, pattern)], f"name~{pattern}"
    if by_file:
        return [r.key_path for r in results for _ in r.document_names], "file"
    return None, None
