"""The contingency cells of any number of documents: what every metric's vectorised form reads.

A metric turns :class:`Cells` into one column per count field, one entry per document (a single
document is a stack of one). The contract:

* ``rows``/``cols``/``counts``: the non-empty key x response cells (key entity, response entity,
  how many mention ids they share), with corpus-wide entity numbers (a document's entities are
  consecutive, documents in order), sorted by (row, col) as each document's own table is;
  ``doc`` is each cell's document.
* ``key_sizes``/``response_sizes``: each entity's mentions; ``key_doc``/``response_doc``: each
  entity's document; ``key_mentions``/``response_mentions``/``matched``: per document, the
  distinct mentions of each side and those found in both.
* ``response_cells``: the cell of every response mention found in the key, in the reference
  scorer's order (document, response entity, then row), for sums that must add mention by mention
  as it does; ``None`` for a table built from counts alone.
* ``per_doc(which, weights)``: per-document sums; :func:`segment_sums`: per-document float sums
  added in ``ndarray.sum``'s order (so a stack of many equals each document alone, bit for bit);
  :func:`sequential_sums`: the same, added one value after another.
* ``components``: the CEAF decomposition (cached, computed only when a CEAF metric asks; for a
  stack of one, ``blocks``, as :func:`corefeval.core.assignment.max_matching` takes it); ``solve``: how
  its components that need an assignment are solved (one after another unless the caller spreads
  them over workers, as the Dask unit does).
* ``documents(d)`` and ``alignment(d)``: document ``d``'s key and response (after mention
  selection) and its mention matching, for metrics that need more than the entity x entity
  table. Nothing is computed for them until asked.

Cells never cover a document in which a mention id repeats on one side: those are counted by the
metrics' literal definitions. Constructors: :meth:`Cells.of_alignments` (aligned documents, under
any matching option), :func:`build_cells` (document pairs matched by exact span, in one pass) and
:func:`stacked_cells` (the same, from documents already stacked).
"""

from .components import Components, components
from .sums import segment_sums, sequential_sums
from .table import (
    Cells,
    IntArray,
    MentionSource,
    Pair,
    Stacked,
    build_cells,
    entity_numbers,
    parted_documents,
    segment_max,
    stacked_cells,
)

__all__ = [
    "Cells",
    "Components",
    "IntArray",
    "MentionSource",
    "Pair",
    "Stacked",
    "build_cells",
    "components",
    "entity_numbers",
    "parted_documents",
    "segment_max",
    "segment_sums",
    "sequential_sums",
    "stacked_cells",
]
