"""Score on a Dask cluster: many documents by partitions, or one giant unit from Parquet tables.

Importing this package does not import Dask; each function does, when it is called. Install the
``corefeval[dask]`` extra to use it.
"""

from __future__ import annotations

from .documents import score_documents, score_shards
from .unit import UNIT_COLUMNS, read_unit_local, score_unit, score_unit_local

__all__ = ["UNIT_COLUMNS", "read_unit_local", "score_documents", "score_shards", "score_unit", "score_unit_local"]
