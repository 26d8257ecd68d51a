"""Count many documents at once: what stacks documents and calls the metrics.

Scoring one small document at a time costs more in Python and numpy call overhead than in
arithmetic. Here the documents are stacked into one :class:`~corefeval.matching.cells.Cells` (every mention
gets a corpus-wide code, exact spans are matched by one sort, the contingency cells of all
documents come from one pass), and each metric fills its columns of the count rows from it
(:meth:`~corefeval.metrics.base.Metric.columns`). A single document is a stack of one.

The rows equal each document counted alone to the last bit: integer counts are exact in any order,
and every fractional sum is computed in numpy's own order for ``ndarray.sum``
(:func:`corefeval.matching.cells.segment_sums`). Documents in which a mention id repeats (a repeated key
span, a response span given twice) and documents with discontinuous mentions are not covered by
the exact-span pass: :func:`count_rows` marks them, and :func:`document_rows` counts them from
their alignments (:func:`alignment_rows`).

Modules: :mod:`.counts` (count rows), :mod:`.documents` (key digests and crossing-mention checks
of many documents).
"""

from ...matching.cells import Stacked, build_cells, segment_sums, stacked_cells
from .counts import alignment_rows, count_rows, count_stacked, document_counts, document_rows
from .documents import crossing_documents, document_digest, document_digests, stacked_digests

__all__ = [
    "Stacked",
    "alignment_rows",
    "build_cells",
    "count_rows",
    "count_stacked",
    "crossing_documents",
    "document_counts",
    "document_digest",
    "document_digests",
    "document_rows",
    "segment_sums",
    "stacked_cells",
    "stacked_digests",
]
