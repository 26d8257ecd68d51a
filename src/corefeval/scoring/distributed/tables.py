"""Write the mention table of a one-unit evaluation from CoNLL-2012 files, one document at a time.

Every document of the file becomes part of one unit: its mentions keep their spans under ``doc``
(the document name), and its entities become ``ordinal * stride + entity`` so that entities of
different documents stay distinct (as when the parts of a generated corpus are merged into one
document).
"""

from __future__ import annotations

from ...readers.document_index import index_documents, read_range

ENTITY_STRIDE = 1_000_000  # entity ids of document d become d * stride + id


def conll_to_unit_table(path: str, out: str, stride: int = ENTITY_STRIDE) -> int:
    """Write ``path``'s mentions as a Parquet table of :data:`corefeval.scoring.distributed.UNIT_COLUMNS`
    (one row group per document); returns the number of rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([("doc", pa.string()), ("start", pa.int64()), ("end", pa.int64()), ("entity", pa.int64())])
    spans, _ = index_documents(path)
    n = 0
    with pq.ParquetWriter(out, schema) as writer:
        for ordinal, span in enumerate(spans):
            doc, _ = read_range(path, span)
            writer.write_table(
                pa.table(
                    {
                        "doc": pa.array([doc.name] * doc.n_mentions, pa.string()),
                        "start": doc.starts,
                        "end": doc.ends,
                        "entity": doc.entities + ordinal * stride,
                    },
                    schema=schema,
                )
            )
            n += doc.n_mentions
    return n
