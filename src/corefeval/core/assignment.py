"""Maximum-weight one-to-one matching between key and response entities.

Only entity pairs that share a mention have non-zero similarity, so the problem splits into the
connected components of the overlap graph. Components with one row or one column are a maximum;
small ones are solved here (Hungarian algorithm, no import cost); large ones go to scipy.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import cache
from itertools import permutations
from typing import Any, NamedTuple

import numpy as np

_SCIPY_ABOVE = 16  # components with more rows and columns than this use scipy


@cache
def _scipy_solver() -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    """scipy's ``linear_sum_assignment``, without importing ``scipy.optimize`` (close to a second
    of start-up, for modules never used here): the compiled module that defines it is loaded
    from scipy's folder; the package is imported only when that fails (another layout)."""
    import importlib.machinery
    import importlib.util

    spec = importlib.util.find_spec("scipy")
    folder = os.path.join(os.path.dirname(spec.origin), "optimize") if spec and spec.origin else "/nonexistent"
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:  # os.path: pathlib costs start-up
        compiled = os.path.join(folder, f"_lsap{suffix}")
        found = importlib.util.spec_from_file_location("scipy.optimize._lsap", compiled)
        if found and found.loader and os.path.isfile(compiled):
            try:
                module = importlib.util.module_from_spec(found)
                found.loader.exec_module(module)
                solver: Callable[..., tuple[np.ndarray, np.ndarray]] = module.linear_sum_assignment
                return solver
            except (ImportError, AttributeError):
                break
    from scipy.optimize import linear_sum_assignment as packaged

    return packaged


def linear_sum_assignment(cost: Any, maximize: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """scipy's assignment solver (rows and columns of an optimal assignment, its tie-breaking
    included), loaded on first use."""
    return _scipy_solver()(cost, maximize=maximize)


def component_labels(rows: np.ndarray, cols: np.ndarray, n_rows: int) -> np.ndarray:
    """Component label of every cell (union-find over rows and ``n_rows + col`` nodes, with path
    halving; the root of a row's set is linked under the root of its column's set)."""
    return np.array(_roots(rows.tolist(), cols.tolist(), n_rows), dtype=np.int64)


def _roots(rows: list[int], cols: list[int], n_rows: int) -> list[int]:
    """:func:`component_labels` of cells given as lists (for callers holding a few cells)."""
    parent = list(range(n_rows + max(cols, default=-1) + 1))
    for a, b in zip(rows, [c + n_rows for c in cols]):
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a != b:
            parent[a] = b
    labels = list(rows)
    for i, a in enumerate(labels):
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        labels[i] = a
    return labels


def _two_by_two(weights: list[list[float]]) -> float | None:
    """:func:`_hungarian_max` of a 2 x 2 table (most components of a document's entities are):
    the better of its two assignments, its weights added in column order as the potentials method
    adds them; ``None`` when the two are within :data:`_MARGIN` (where rounding could make that
    method choose the other)."""
    (a, b), (c, d) = weights
    straight, crossed = a + d, c + b
    if straight - crossed > _MARGIN:
        return straight
    if crossed - straight > _MARGIN:
        return crossed
    return None


def two_by_two_totals(tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_two_by_two` of many 2 x 2 tables at once (``tables``: n x 2 x 2): each one's total
    (the same float) and whether it is sure (else it is left to :func:`_hungarian_max`)."""
    straight = tables[:, 0, 0] + tables[:, 1, 1]
    crossed = tables[:, 1, 0] + tables[:, 0, 1]
    return np.where(straight > crossed, straight, crossed), np.abs(straight - crossed) > _MARGIN


def _hungarian_max(weights: list[list[float]]) -> float:
    """Maximum total weight of a matching in a dense n x m matrix with n <= m (potentials method;
    a 2 x 2 table by :func:`_two_by_two` when it is sure)."""
    n, m = len(weights), len(weights[0])
    if n == m == 2:
        tried = _two_by_two(weights)
        if tried is not None:
            return tried
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    match = [0] * (m + 1)  # match[j] = row (1-based) assigned to column j
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        match[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = match[j0]
            row = weights[i0 - 1]
            delta, j1 = inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = -row[j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    return sum(weights[match[j] - 1][j - 1] for j in range(1, m + 1) if match[j])


def solve_dense(weights: np.ndarray, native_cells: int | None = None) -> float:
    """Maximum total weight of a one-to-one matching of rows to columns; tables of at most
    ``native_cells`` cells (by default: both sides at most 16) are solved here, without scipy's
    import cost, larger ones by scipy."""
    if weights.size == 0:
        return 0.0
    if weights.shape[0] > weights.shape[1]:
        weights = weights.T
    n, m = weights.shape
    if n == 1:
        return float(weights.max())
    if n * m <= native_cells if native_cells is not None else n <= _SCIPY_ABOVE and m <= _SCIPY_ABOVE:
        return _hungarian_max(weights.tolist())
    r, c = linear_sum_assignment(weights, maximize=True)
    return float(weights[r, c].sum())


def assignment_pairs(weights: np.ndarray) -> list[tuple[int, int]]:
    """Pairs ``(row, column)`` of a maximum-weight one-to-one assignment, positive weights only.

    The solver for callers that need the pairs, not only the total (mention and zero matching,
    error analysis); :func:`solve_dense` and :func:`max_matching` give totals for CEAF.
    """
    if weights.size == 0:
        return []
    rows, cols = linear_sum_assignment(weights, maximize=True)
    return [(int(r), int(c)) for r, c in zip(rows.tolist(), cols.tolist(), strict=True) if weights[r, c] > 0]


class Blocks(NamedTuple):
    """The overlap graph's cells split for matching: cells alone in their row and column (always
    matched), and the other cells grouped by connected component as dense index grids."""

    simple: np.ndarray
    lone: list[np.ndarray]
    grids: list[tuple[np.ndarray, tuple[int, int], np.ndarray, np.ndarray]]


def blocks(rows: np.ndarray, cols: np.ndarray, n_rows: int) -> Blocks:
    """Decompose the cells ``(rows[c], cols[c])``; computed once per document, used by every CEAF."""
    if rows.size == 0:
        return Blocks(np.zeros(0, dtype=bool), [], [])
    row_deg = np.bincount(rows, minlength=n_rows)
    col_deg = np.bincount(cols)
    simple = (row_deg[rows] == 1) & (col_deg[cols] == 1)
    rest = np.flatnonzero(~simple)
    lone: list[np.ndarray] = []
    grids: list[tuple[np.ndarray, tuple[int, int], np.ndarray, np.ndarray]] = []
    if rest.size:
        labels = component_labels(rows[rest], cols[rest], n_rows)
        order = np.argsort(labels, kind="stable")
        cuts = np.flatnonzero(np.diff(labels[order])) + 1
        cells = rest[order]
        comp = np.zeros(cells.size, dtype=np.int64)
        comp[cuts] = 1
        comp = np.cumsum(comp)
        # every component at once: each cell's row and column ranks within its component (as
        # np.unique's inverse gives them), and how many rows and columns each component has
        row_rank, n_r = _ranks(comp, rows[cells], cuts.size + 1)
        col_rank, n_c = _ranks(comp, cols[cells], cuts.size + 1)
        for k, (a, b) in enumerate(zip(np.r_[0, cuts].tolist(), np.r_[cuts, cells.size].tolist())):
            if n_r[k] == 1 or n_c[k] == 1:
                lone.append(cells[a:b])
            else:
                grids.append((cells[a:b], (int(n_r[k]), int(n_c[k])), row_rank[a:b], col_rank[a:b]))
    return Blocks(simple, lone, grids)


def _ranks(group: np.ndarray, values: np.ndarray, n_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """Each value's rank among the distinct ``values`` (non-negative) of its group (``group``
    ascending), and how many distinct values each group ``0 .. n_groups - 1`` holds."""
    width = int(values.max()) + 1
    codes = group * width + values
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    new = np.r_[True, sorted_codes[1:] != sorted_codes[:-1]]
    rank = np.cumsum(new) - 1
    first_of_group = np.searchsorted(sorted_codes, sorted_codes // width * width)
    out = np.empty(values.size, dtype=np.int64)
    out[order] = rank - rank[first_of_group]
    return out, np.bincount(sorted_codes[new] // width, minlength=n_groups)


def solve_sparse(r: np.ndarray, c: np.ndarray, w: np.ndarray, shape: tuple[int, int]) -> float:
    """Maximum total weight of a matching given as sparse cells, in memory linear in the cells.

    Each row gets a private dummy column, so that a full matching of the rows always exists; with
    costs ``big - w`` (real cells) and ``big`` (dummies), the minimum-cost full matching is the
    maximum-weight matching.
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    n, m = shape
    big = float(w.max()) + 1.0
    graph = csr_matrix(
        (
            np.concatenate([big - w, np.full(n, big)]),
            (np.concatenate([r, np.arange(n)]), np.concatenate([c, m + np.arange(n)])),
        ),
        shape=(n, m + n),
    )
    rows, cols = min_weight_full_bipartite_matching(graph)
    real = cols < m
    chosen = csr_matrix((w, (r, c)), shape=(n, m))[rows[real], cols[real]]
    return float(np.asarray(chosen).sum())


_DENSE_CELLS = 2_000_000  # larger components are solved sparsely (a dense grid would cost rows x cols)


#: One component to solve: its grid's shape, each cell's row and column in the grid, its weight.
Grid = tuple[tuple[int, int], np.ndarray, np.ndarray, np.ndarray]

#: Solves components (each as :func:`grid_weight`), giving their weights in order: by default
#: :func:`solve_grids`, one after another; a scorer with workers may spread them over its workers.
GridSolver = Callable[[list[Grid]], list[float]]


def solve_grids(grids: list[Grid]) -> list[float]:
    """Each component's maximum matching weight, one after another."""
    return [grid_weight(*grid) for grid in grids]


def max_matching(cells: Blocks, weights: np.ndarray, solve: GridSolver = solve_grids) -> float:
    """Maximum total weight of a one-to-one matching of the cells, ``weights[c]`` per cell (the
    components that need solving are given to ``solve`` together)."""
    return combine(
        float(weights[cells.simple].sum()),
        (float(weights[idx].max()) for idx in cells.lone),
        solve([(shape, r, c, weights[idx]) for idx, shape, r, c in cells.grids]),
    )


def grid_weight(shape: tuple[int, int], r: np.ndarray, c: np.ndarray, w: np.ndarray) -> float:
    """Maximum matching weight of one component given as cells ``(r, c)`` of a rows x cols grid."""
    if shape[0] * shape[1] > _DENSE_CELLS:
        return solve_sparse(r, c, w, shape)
    dense = np.zeros(shape)
    dense[r, c] = w
    return solve_dense(dense)


def combine(simple: float, lone: Iterable[float], grids: Iterable[float]) -> float:
    """The matching total from its parts, added in one fixed order (components in
    :func:`component_labels` order), so that every scorer that splits the work gets the same float."""
    total = simple + sum(lone)
    for value in grids:
        total += value
    return total


def cell_matching(weights: dict[tuple[int, int], float]) -> float:
    """:func:`max_matching` of cells given as a dictionary ``(row, column) -> weight``, for callers
    holding a few cells: when every cell is alone in its row and column (the usual case), their
    sum in the dictionary's order, without building arrays; else up to :data:`_LISTED_CELLS` cells
    by :func:`_listed_matching`."""
    if len({i for i, _ in weights}) == len(weights) == len({j for _, j in weights}):
        return sum(weights.values(), 0.0)
    if len(weights) <= _LISTED_CELLS:
        return _listed_matching(weights)
    n = len(weights)
    rows = np.fromiter((i for i, _ in weights), dtype=np.int64, count=n)
    cols = np.fromiter((j for _, j in weights), dtype=np.int64, count=n)
    return max_matching(blocks(rows, cols, int(rows.max()) + 1), np.fromiter(weights.values(), dtype=float, count=n))


#: Cells up to this many are matched by :func:`_listed_matching` (numpy's fixed cost per call
#: dominates :func:`blocks` on the few cells of one document).
_LISTED_CELLS = 2000


class _Plan(NamedTuple):
    """:func:`blocks` of cells given in a dictionary's order, as positions in it: the cells alone in
    their row and column, and each other component's cells with their rows and columns in its grid
    and its shape, components in :func:`blocks`' order."""

    simple: list[int]
    parts: list[tuple[list[int], list[int], list[int], tuple[int, int]]]


def _plan(cells: tuple[tuple[int, int], ...]) -> _Plan:
    """The :class:`_Plan` of the cells, made in plain Python."""
    row_degree: dict[int, int] = {}
    col_degree: dict[int, int] = {}
    for i, j in cells:
        row_degree[i] = row_degree.get(i, 0) + 1
        col_degree[j] = col_degree.get(j, 0) + 1
    simple = [k for k, (i, j) in enumerate(cells) if row_degree[i] == 1 and col_degree[j] == 1]
    rest = [k for k, (i, j) in enumerate(cells) if row_degree[i] > 1 or col_degree[j] > 1]
    labels = _roots([cells[k][0] for k in rest], [cells[k][1] for k in rest], max(row_degree) + 1)
    components: dict[int, list[int]] = {}
    for label, k in zip(labels, rest):
        components.setdefault(label, []).append(k)
    parts = []
    for label in sorted(components):
        at = components[label]
        row_rank = {i: r for r, i in enumerate(sorted({cells[k][0] for k in at}))}
        col_rank = {j: c for c, j in enumerate(sorted({cells[k][1] for k in at}))}
        rows, cols = [row_rank[cells[k][0]] for k in at], [col_rank[cells[k][1]] for k in at]
        parts.append((at, rows, cols, (len(row_rank), len(col_rank))))
    return _Plan(simple, parts)


#: The last :class:`_Plan` made, with its cells: CEAFe and CEAFm of one document ask for the
#: same cells one after the other.
_last_plan: list[tuple[tuple[tuple[int, int], ...], _Plan]] = []


def _listed_matching(weights: dict[tuple[int, int], float]) -> float:
    """:func:`max_matching` of :func:`blocks` of the cells, the decomposition made in plain Python
    (components in the same order, each solved and added as there: the same float)."""
    cells = tuple(weights)
    last = _last_plan[0] if _last_plan else None
    plan = last[1] if last is not None and last[0] == cells else None
    if plan is None:
        plan = _plan(cells)
        _last_plan[:] = [(cells, plan)]
    values = list(weights.values())
    lone: list[float] = []
    grids: list[float] = []
    for at, rows, cols, shape in plan.parts:
        if shape[0] == 1 or shape[1] == 1:
            lone.append(float(max(values[k] for k in at)))
        elif shape[0] <= _SCIPY_ABOVE and shape[1] <= _SCIPY_ABOVE:
            grids.append(_dense_hungarian(shape, rows, cols, [values[k] for k in at]))
        else:
            w = np.array([values[k] for k in at], dtype=float)
            grids.append(grid_weight(shape, np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64), w))
    simple = float(np.array([values[k] for k in plan.simple], dtype=float).sum())
    return combine(simple, lone, grids)


def _dense_hungarian(shape: tuple[int, int], rows: list[int], cols: list[int], weights: list[float]) -> float:
    """:func:`solve_dense` of a grid of at most 16 rows and columns given as distinct cells: the
    lists :func:`_hungarian_max` takes made directly (transposed when taller than wide)."""
    transposed = shape[0] > shape[1]
    n, m = (shape[1], shape[0]) if transposed else shape
    dense = [[0.0] * m for _ in range(n)]
    for r, c, w in zip(rows, cols, weights):
        at, to = (c, r) if transposed else (r, c)
        dense[at][to] = float(w)
    return _hungarian_max(dense)


#: Tables up to this many rows and columns (the smaller side, the larger) are solved by
#: :func:`best_pairs` by trying every assignment; larger ones, and ties, go to scipy's solver.
_TRIED = (3, 6)
_MARGIN = 1e-9  # a best total ahead of every other by more than this is the one scipy finds


def best_pairs(table: list[list[float]] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns (in row order) of the one-to-one assignment of maximum total that scipy's
    ``linear_sum_assignment`` gives, ties broken as it breaks them; without calling it when the
    answer is unique (any exact solver then finds it: small tables are tried in full), and in the
    two cases of ties whose answer its solver fixes (tested against it): one row or one column,
    where it takes the first maximum, and a table of equal values, where it pairs row ``i`` with
    column ``i``."""
    table_ = np.asarray(table, dtype=float)
    n, m = table_.shape
    if n == 1 or m == 1:
        first = np.array([int(np.argmax(table_.reshape(-1)))], dtype=np.int64)
        return (np.zeros(1, dtype=np.int64), first) if n == 1 else (first, np.zeros(1, dtype=np.int64))
    if (table_ == table_[0, 0]).all():
        return np.arange(min(n, m), dtype=np.int64), np.arange(min(n, m), dtype=np.int64)
    if min(n, m) <= _TRIED[0] and max(n, m) <= _TRIED[1]:
        transposed = n > m
        rows = (table_.T if transposed else table_).tolist()
        best: tuple[float, tuple[int, ...]] = (-1.0, ())
        second = -1.0
        for chosen in permutations(range(len(rows[0])), len(rows)):
            total = sum(row[j] for row, j in zip(rows, chosen))
            if total > best[0]:
                best, second = (total, chosen), best[0]
            elif total > second:
                second = total
        if best[0] - second > _MARGIN:
            pairs = sorted((j, i) for i, j in enumerate(best[1])) if transposed else list(enumerate(best[1]))
            return np.array([i for i, _ in pairs], dtype=np.int64), np.array([j for _, j in pairs], dtype=np.int64)
    return linear_sum_assignment(-table_)
