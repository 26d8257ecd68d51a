"""Warnings for corpora too small for a document-level bootstrap or randomisation test."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.diagnostics import Diagnostic

#: Below this many documents, intervals and p-values over documents are rough at best.
MIN_DOCUMENTS = 30


def sample_size_warnings(path: str, n_docs: int, strata: Sequence[object] | None = None) -> list[Diagnostic]:
    """What to tell the user when resampling documents cannot say much about the score."""
    out: list[Diagnostic] = []
    if n_docs <= 1:
        what = "a single document" if n_docs else "no documents"
        out.append(
            Diagnostic(
                path,
                0,
                f"the corpus is scored as {what}: resampling documents "
                "cannot vary it, so every interval has width 0 and every p-value is 1; "
                "these say nothing about how sure the score is (a cross-document corpus "
                "scored as one unit has no document-level sample)",
            )
        )
        return out
    if n_docs < MIN_DOCUMENTS:
        out.append(
            Diagnostic(
                path,
                0,
                f"only {n_docs} document{'' if n_docs == 1 else 's'}: a document-level bootstrap needs many "
                f"independently scored documents (at least {MIN_DOCUMENTS}); treat intervals "
                "and p-values as rough",
            )
        )
    if strata is not None:
        sizes: dict[object, int] = {}
        for label in strata:
            sizes[label] = sizes.get(label, 0) + 1
        for label, size in sizes.items():
            if size == 1:
                out.append(
                    Diagnostic(
                        path,
                        0,
                        f"stratum '{label}' has a single document: it is the same in "
                        "every resample and adds no variability",
                    )
                )
    return out
