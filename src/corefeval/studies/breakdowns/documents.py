"""Document groups: each document belongs to one group; a group's score sums its documents' rows.

A document's group is the first capturing group (else the whole match) of a regular expression
searched in its name (``(\\w+)/`` gives OntoNotes genres), its line in a manifest file, or the
bucket its key length in tokens falls in. No file is read again: the groups select rows of the
scoring result's count matrix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ...core.diagnostics import InputError
from ...scoring.results import ScoreResult
from ...stats.strata import by_pattern
from .buckets import bucket_labels, bucket_of
from .groups import Breakdown

#: OntoNotes document names start with their genre: ``bc/cctv/00/cctv_0000``.
GENRE = r"(\w+)/"
#: Length bucket edges in tokens: powers of two, as model context windows are.
LENGTH_EDGES = (128, 256, 512, 1024, 2048)
OTHER = "(other)"


def length_groups(lengths: Sequence[int], edges: Sequence[int] = LENGTH_EDGES) -> list[str]:
    """The length bucket of each document (``lengths`` in tokens)."""
    return bucket_of(lengths, edges)


def read_manifest(path: str) -> dict[str, str]:
    """``document<TAB>group`` lines (blank lines and ``#`` comments skipped)."""
    out: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                text = line.rstrip("\r\n")
                if not text.strip() or text.startswith("#"):
                    continue
                name, sep, group = text.rpartition("\t")
                if not sep or not name or not group:
                    raise InputError(path, number, "expected a document name, a TAB and a group name")
                out[name] = group
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(path, 0, f"cannot read the manifest: {err}") from None
    return out


def manifest_groups(names: Sequence[str], manifest: Mapping[str, str]) -> list[str]:
    """Each document's group in the manifest; documents it does not name are ``(other)``."""
    return [manifest.get(n, OTHER) for n in names]


def pattern_groups(names: Sequence[str], pattern: str) -> list[str]:
    """Each document's group by a regular expression (see the module docstring)."""
    return by_pattern(names, pattern)


def document_breakdown(result: ScoreResult, kind: str, groups: Sequence[str], order: Sequence[str] = ()) -> Breakdown:
    """The breakdown of ``result`` into the given group of each document; groups in ``order``
    first (when given), then in order of first appearance."""
    if len(groups) != len(result.document_names):
        raise ValueError("one group per document is needed")
    present = dict.fromkeys(groups)
    labels = [g for g in order if g in present] + [g for g in present if g not in order]
    at = {g: [i for i, x in enumerate(groups) if x == g] for g in labels}
    results = tuple(_rows(result, at[g]) for g in labels)
    return Breakdown(kind, "documents", tuple(labels), results, tuple(len(at[g]) for g in labels))


def _rows(result: ScoreResult, rows: list[int]) -> ScoreResult:
    """``result`` restricted to some documents."""
    return replace(
        result,
        document_names=[result.document_names[i] for i in rows],
        counts=result.counts[rows],
        document_digests=[result.document_digests[i] for i in rows],
        warnings=[],
    )


def length_breakdown(result: ScoreResult, lengths: Sequence[int], edges: Sequence[int] = LENGTH_EDGES) -> Breakdown:
    """Documents grouped by their key length in tokens, shortest bucket first."""
    return document_breakdown(result, "length", length_groups(lengths, edges), bucket_labels(edges))
