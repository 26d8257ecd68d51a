"""Maximum-weight one-to-one matching between key and response entities.

Only entity pairs that share a mention have non-zero similarity, so the problem splits into the
connected components of the overlap graph. Components with one row or one column are a maximum;
small ones are solved here (Hungarian algorithm, no import cost); large ones go to scipy.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import cache
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
    parent = list(range(n_rows + int(cols.max(initial=-1)) + 1))
    for a, b in zip(rows.tolist(), (cols + n_rows).tolist()):
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a != b:
            parent[a] = b
    labels = rows.tolist()
    for i, a in enumerate(labels):
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        labels[i] = a
    return np.array(labels, dtype=np.int64)


def _hungarian_max(weights: list[list[float]]) -> float:
    """Maximum total weight of a matching in a dense n x m matrix with n <= m (potentials method)."""
    n, m = len(weights), len(weights[0])
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
        for idx in np.split(rest[order], np.flatnonzero(np.diff(labels[order])) + 1):
            r_u, r_inv = np.unique(rows[idx], return_inverse=True)
            c_u, c_inv = np.unique(cols[idx], return_inverse=True)
            if r_u.size == 1 or c_u.size == 1:
                lone.append(idx)
            else:
                grids.append((idx, (r_u.size, c_u.size), r_inv.reshape(-1), c_inv.reshape(-1)))
    return Blocks(simple, lone, grids)


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
