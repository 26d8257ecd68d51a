"""Count many documents at once: the per-document count rows of a corpus in a few numpy passes.

Scoring one small document at a time costs more in Python and numpy call overhead than in
arithmetic. Here the documents are concatenated: every mention gets a corpus-wide code (document,
start, end), every entity a corpus-wide number (entities of one document are consecutive), exact
spans are matched by one sort and ``searchsorted``, the key x response contingency cells of all
documents come from one ``np.unique``, and each metric's counts are summed per document with
``np.bincount``. Only CEAF components with two rows and two columns or more are solved one by one,
with the same solver as :mod:`corefeval.metrics.ceaf`.

The rows equal :func:`corefeval.scoring.document_counts` of :func:`corefeval.alignment.align` to
the last bit: integer counts are exact in any order, and every fractional sum is computed in
numpy's own order for ``ndarray.sum`` (:func:`segment_sums`). Documents in which a mention id
repeats (a repeated key span, a response span given twice) and documents with discontinuous
mentions are not counted here: :func:`count_rows` marks them, and :func:`document_rows` counts
them through the per-document path.

Modules: :mod:`.cells` (stacking, matching, contingency cells), :mod:`.counts` (each metric's
columns), :mod:`.ceaf` (components and alignments), :mod:`.sums` (sums in ``ndarray.sum``'s
order), :mod:`.documents` (key digests and crossing-mention checks of many documents).
"""

from .cells import Stacked, build_cells, stacked_cells
from .counts import count_rows, count_stacked, document_rows
from .documents import crossing_documents, document_digests, stacked_digests
from .sums import segment_sums

__all__ = [
    "Stacked",
    "build_cells",
    "count_rows",
    "count_stacked",
    "crossing_documents",
    "document_digests",
    "document_rows",
    "segment_sums",
    "stacked_cells",
    "stacked_digests",
]
