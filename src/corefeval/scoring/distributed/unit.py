"""One giant evaluation unit (a cross-document collection) from Parquet tables of mentions, on Dask.

Both sides are tables with the columns of :data:`UNIT_COLUMNS`: a mention is ``(doc, start, end)``
and belongs to ``entity`` (entities may span documents: the whole table is one unit). Row order is
the table's order (files, then row groups, then rows); entities are numbered in the order of their
first row, exactly as a reader numbers them in order of first appearance.

The key x response contingency table is built by a distributed join on the mention and a
group-by on (key entity, response entity); the reduced table (one cell per overlapping entity pair,
and each entity's size) is what reaches the client, and the metrics' vectorised forms run on it as the
cells of one document.
CEAFm and CEAFe split into connected components of the entity-overlap graph, which are solved in
parallel as Dask tasks. Repeated response copies of a key mention are resolved by a pre-pass over the
repeated mentions only; a unit with a repeated key mention or a repeated twinless response mention
(which the reference scores by its literal definitions) is scored exactly on the client instead.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from ...core.assignment import Grid, solve_grids
from ...core.diagnostics import Diagnostic, InputError
from ...core.model import Document
from ...core.options import PARQUET, Options
from ...core.registry import BY_NAME
from ...matching.alignment import Contingency, align
from ...matching.cells import Cells
from ...metrics import metric_class
from ...metrics.base import Metric
from ..batch import document_counts
from ..batch.counts import columns_into, width
from ..pipeline import assemble, counted_metrics
from ..results import ScoreResult

#: The columns of a mention table: document, inclusive token span, entity id (integer or string).
UNIT_COLUMNS = ("doc", "start", "end", "entity")
MENTION = ["doc", "start", "end"]
OFFSETS = ("start", "end")
_BATCHES_PER_WORKER = 4  # CEAF component batches per worker: enough to balance, few enough to be cheap


def read_unit_local(key: str, response: str) -> tuple[Document, Document]:
    """Both tables as two in-memory documents over shared mention codes (the local scorer's input)."""
    import pandas as pd

    k, r = _read_table(key), _read_table(response)
    both = pd.concat([k[MENTION], r[MENTION]], ignore_index=True)
    codes = pd.MultiIndex.from_frame(both).factorize()[0].astype(np.int64)
    n = int(codes.max()) + 1 if codes.size else 0

    def document(table: pd.DataFrame, mention_codes: np.ndarray) -> Document:
        entities = pd.factorize(table["entity"], sort=False)[0].astype(np.int64)
        return Document("unit", mention_codes, mention_codes, entities, (), n)

    return document(k, codes[: len(k)]), document(r, codes[len(k) :])


def check_table(path: str) -> None:
    """Refuse, in one line, a path that is not a Parquet table with the mention columns."""
    import pyarrow.parquet as pq

    expected = f"expected a Parquet mention table with columns {', '.join(UNIT_COLUMNS)}"
    try:
        names = set(pq.ParquetDataset(path).schema.names)
    except (OSError, ValueError) as err:
        raise InputError(path, 0, f"{expected} ({err})") from None
    missing = [c for c in UNIT_COLUMNS if c not in names]
    if missing:
        raise InputError(path, 0, f"{expected}; missing: {', '.join(missing)}")


def _read_table(path: str) -> Any:
    import pandas as pd

    check_table(path)
    table = pd.read_parquet(path, columns=list(UNIT_COLUMNS)).reset_index(drop=True)
    _refuse(path, first_problem(table, 0))
    return table


def first_problem(table: Any, offset: int) -> tuple[int, str] | None:
    """The first row of a part of a mention table (whose first row is row ``offset`` of the table)
    that is not a mention, and what is wrong with it: an empty (null) cell, an offset that is not an
    integer (a float, a bool, a string), a negative offset, or a start after its end. ``None`` if
    every row is a mention."""
    import numpy as np

    problems: list[tuple[int, str]] = []
    for column in UNIT_COLUMNS:
        null = table[column].isna().to_numpy()
        if null.any():
            problems.append((int(np.argmax(null)), f"column '{column}' is empty (null)"))
    if not problems:
        for column in OFFSETS:
            values = table[column]
            if values.dtype.kind not in "iu":
                whole = values.map(lambda v: type(v) is not bool and float(v).is_integer()).to_numpy(dtype=bool)
                i = int(np.argmin(whole)) if values.dtype.kind == "f" and not whole.all() else 0
                value = values.iloc[i].item() if hasattr(values.iloc[i], "item") else values.iloc[i]
                problems.append((i, f"column '{column}' holds {value!r} ({values.dtype}), not an integer"))
                continue
            negative = (values < 0).to_numpy()
            if negative.any():
                i = int(np.argmax(negative))
                problems.append((i, f"column '{column}' holds {int(values.iloc[i])}, a negative token offset"))
        if not problems:
            after = (table["start"] > table["end"]).to_numpy()
            if after.any():
                i = int(np.argmax(after))
                start, end = int(table["start"].iloc[i]), int(table["end"].iloc[i])
                problems.append((i, f"start {start} is after end {end}"))
    if not problems:
        return None
    row, message = min(problems)
    return offset + row, message


def _refuse(path: str, problem: tuple[int, str] | None) -> None:
    if problem is not None:
        row, message = problem
        raise InputError(
            path,
            0,
            f"row {row} (counting from 0): {message}; expected a mention: doc, start <= end (integers >= 0), entity",
        )


def _reads_mentions(name: str) -> bool:
    """Whether a metric needs each document's mentions, which a unit's tables do not give."""
    info = BY_NAME[name]
    return info.counted and metric_class(info).reads_mentions


def unit_options(key: str, options: Options | None, metrics: Any = None, blanc: str | None = None) -> Options:
    """The run options of a unit; one it cannot honour is refused in one line, naming it.

    A unit is scored with every mention, paired by exact span: the metrics and the BLANC variant
    are the options that apply to it.
    """
    opts = Options.make(options, metrics, blanc=blanc).for_key(PARQUET)
    refused = [
        (name, flag)
        for name, flag, given in (
            (f"singletons={opts.singletons}", f"--singletons {opts.singletons}", opts.singletons != "keep"),
            (f"match={opts.match}", f"--match {opts.match}", opts.match != "exact"),
            (f"zeros={opts.zeros}", f"--zeros {opts.zeros}", opts.zeros != "include"),
            ("pad_key", "--pad-key", opts.pad_key),
            ("lenient", "--lenient", opts.lenient),
            (f"heads={opts.heads}", f"--heads {opts.heads}", opts.heads != "first"),
            ("np_only", "--np-only", opts.np_only),
            ("remove_nested", "--remove-nested", opts.remove_nested),
            *((f"metric {m}", f"-m {m}", True) for m in opts.metrics if _reads_mentions(m)),
        )
        if given
    ]
    if refused:
        name, flag = refused[0]
        raise InputError(
            key,
            0,
            f"option {name} ({flag}) cannot be applied to a Parquet mention table: a unit is scored with "
            "every mention, paired by exact span",
        )
    return opts


def score_unit_local(
    key: str, response: str, metrics: Any = None, *, options: Options | None = None, blanc: str | None = None
) -> ScoreResult:
    """Score the unit in one process with the local scorer (the reference for the Dask engine)."""
    opts = unit_options(key, options, metrics, blanc)
    names, blanc = opts.metrics, opts.blanc
    objects = counted_metrics(names, blanc)
    kdoc, rdoc = read_unit_local(key, response)
    a = align(kdoc, rdoc)
    row = document_counts(objects, a)
    digest = _digest(np.bincount(kdoc.entities), a.n_key_ids)
    return _result(key, response, names, blanc, objects, row, digest, _notes(key, a.repeats))


def score_unit(
    key: str, response: str, metrics: Any = None, *, options: Options | None = None, blanc: str | None = None
) -> ScoreResult:
    """Score the unit on Dask (the active ``distributed.Client``, or Dask's default scheduler).

    ``options`` (with ``metrics`` and ``blanc`` put over them) may choose the metrics and the BLANC
    variant; any other option is refused (see :func:`unit_options`).
    """
    from .cluster import require_dask

    require_dask()
    import dask
    import dask.dataframe as dd

    opts = unit_options(key, options, metrics, blanc)
    names, blanc = opts.metrics, opts.blanc
    objects = counted_metrics(names, blanc)
    check_table(key)
    check_table(response)
    k = _numbered(dd.read_parquet(key, columns=list(UNIT_COLUMNS)), key)
    r = _numbered(dd.read_parquet(response, columns=list(UNIT_COLUMNS)), response)
    n_key_rows, n_key_ids, n_response_rows, response_repeats = dask.compute(
        k.shape[0], k.groupby(MENTION).size().shape[0], r.shape[0], _repeated(r)
    )
    matched = r.merge(k[[*MENTION, "entity"]].rename(columns={"entity": "key_entity"}), on=MENTION, how="inner")
    repeated_rows = matched.merge(response_repeats[MENTION], on=MENTION, how="inner") if len(response_repeats) else None
    response_first = r.groupby("entity")["row"].min()
    if n_key_ids < n_key_rows or (repeated_rows is not None and _twinless_repeat(repeated_rows, response_repeats)):
        return score_unit_local(key, response, options=opts)
    dropped = np.zeros(0, dtype=np.int64)
    if repeated_rows is not None:
        copies = repeated_rows.merge(response_first.rename("first").to_frame(), left_on="entity", right_index=True)
        dropped = _dropped_copies(copies.compute())
        matched = matched[~matched["row"].isin(dropped.tolist())]
        r = r[~r["row"].isin(dropped.tolist())]
    key_stats, response_first_rows, response_sizes, cells = dask.compute(
        k.groupby("entity")["row"].agg(["size", "min"]),
        response_first,
        r.groupby("entity").size(),
        matched.groupby(["key_entity", "entity"]).size(),
    )
    table = _contingency(key_stats, response_first_rows, response_sizes, cells)
    n_matched = int(table.counts.sum())
    key_mentions, response_mentions = np.array([n_key_ids]), np.array([n_response_rows - dropped.size])
    cells = Cells.of_tables([table], key_mentions, response_mentions, np.array([n_matched]), solve=_solve_on_workers)
    rows = np.zeros((1, width(objects)))
    columns_into(rows, cells, objects, slice(None))
    digest = _digest(table.key_sizes, n_key_ids)
    return _result(key, response, names, blanc, objects, rows[0].tolist(), digest, _notes(key, False))


def _numbered(df: Any, path: str) -> Any:
    """The table with a ``row`` column: each row's position in the whole table. A row that is not a
    mention (see :func:`first_problem`) is refused in one line, naming it."""
    import dask
    import dask.dataframe as dd

    parts = df.to_delayed()
    checked = dask.compute(*[dask.delayed(_length_and_problem)(p) for p in parts])
    lengths = [n for n, _ in checked]
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    problems = [(int(o) + p[0], p[1]) for (_, p), o in zip(checked, offsets) if p is not None]
    _refuse(path, min(problems, default=None))
    meta = df._meta.assign(row=np.zeros(0, dtype=np.int64))
    return dd.from_delayed([dask.delayed(_with_rows)(p, int(o)) for p, o in zip(parts, offsets)], meta=meta)


def _length_and_problem(part: Any) -> tuple[int, tuple[int, str] | None]:
    return len(part), first_problem(part, 0)


def _with_rows(part: Any, offset: int) -> Any:
    return part.assign(row=np.arange(offset, offset + len(part), dtype=np.int64))


def _repeated(r: Any) -> Any:
    """The response mentions that occur more than once (a small table, brought to the client)."""
    sizes = r.groupby(MENTION).size()
    return sizes[sizes > 1].reset_index()


def _twinless_repeat(repeated_rows: Any, response_repeats: Any) -> bool:
    """Whether some repeated response mention is not in the key (the reference then keeps every copy)."""
    matched_mentions = repeated_rows[MENTION].drop_duplicates().shape[0].compute()
    return bool(matched_mentions < len(response_repeats))


def _dropped_copies(copies: Any) -> np.ndarray:
    """Rows of the repeated response copies of key mentions that the reference ignores: all but the
    copy in the earliest entity, then the earliest row."""
    ordered = copies.sort_values(["first", "row"], kind="stable")
    return np.sort(ordered.loc[ordered.duplicated(MENTION, keep="first"), "row"].to_numpy(dtype=np.int64))


def _contingency(key_stats: Any, response_first: Any, response_sizes: Any, cells: Any) -> Contingency:
    """The reduced tables as the local scorer's contingency table: entities numbered by first row,
    cells in (key entity, response entity) order."""
    import pandas as pd

    key_stats = key_stats.sort_values("min", kind="stable")
    response = pd.DataFrame({"size": response_sizes}).join(response_first.rename("min"))
    response = response.sort_values("min", kind="stable")
    rows = key_stats.index.get_indexer(cells.index.get_level_values(0)).astype(np.int64)
    cols = response.index.get_indexer(cells.index.get_level_values(1)).astype(np.int64)
    counts = cells.to_numpy(dtype=np.int64)
    order = np.lexsort((cols, rows))
    return Contingency(
        rows[order],
        cols[order],
        counts[order],
        key_stats["size"].to_numpy(dtype=np.int64),
        response["size"].to_numpy(dtype=np.int64),
    )


def _solve_on_workers(grids: list[Grid]) -> list[float]:
    """CEAF's components (:data:`~corefeval.core.assignment.GridSolver`) dealt into batches that Dask
    tasks solve in parallel, each with :func:`~corefeval.core.assignment.solve_grids`; the weights come
    back in the components' order, which the caller adds in, so the totals are the local scorer's
    to the last bit."""
    import dask

    if not grids:
        return []
    n_batches = max(1, _BATCHES_PER_WORKER * _n_workers())
    batches = [grids[b::n_batches] for b in range(n_batches)]
    solved: list[list[float]] = list(dask.compute(*[dask.delayed(solve_grids)(batch) for batch in batches if batch]))
    return [solved[i % n_batches][i // n_batches] for i in range(len(grids))]


def _n_workers() -> int:
    try:
        from distributed import default_client

        return max(1, len(default_client().scheduler_info()["workers"]))
    except (ImportError, ValueError):
        return 1


def _digest(key_sizes: np.ndarray, n_key_ids: int) -> bytes:
    """A hash of the key unit's shape (entity sizes, in entity order, and distinct mentions)."""
    h = hashlib.sha256(b"unit\0")
    h.update(np.asarray(key_sizes, dtype=np.int64).tobytes() + np.int64(n_key_ids).tobytes())
    return h.digest()


def _notes(key: str, repeats: bool) -> list[Diagnostic]:
    if not repeats:
        return []
    return [
        Diagnostic(
            key,
            0,
            "the unit has a repeated key mention or a repeated response mention that is not in the key; "
            "it is scored by the literal definitions, in one process, as the reference scorer does",
        )
    ]


def _result(
    key: str,
    response: str,
    names: tuple[str, ...],
    blanc: str,
    objects: list[Metric],
    row: list[float],
    digest: bytes,
    warnings: list[Diagnostic],
) -> ScoreResult:
    settings = Options(metrics=names, blanc=blanc, key_format=PARQUET, response_format=PARQUET)
    return assemble(key, response, ["unit"], objects, [row], [digest], warnings, settings)
