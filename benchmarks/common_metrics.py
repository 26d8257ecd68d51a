"""Load a repository's own ``metrics.py`` (the common neural-coref ``CorefEvaluator``) from a path.

That file imports ``linear_assignment`` from ``sklearn.utils.linear_assignment_``, which scikit-learn
removed in 0.23. The file is read as given and only that import is replaced, in memory, by the same
function built on ``scipy.optimize.linear_sum_assignment`` (an ``(n, 2)`` array of matched pairs); the
file on disk is never changed and nothing of it is kept in this repository.
"""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment

#: Where the usual peer folder keeps the file, relative to the repository root (a main checkout or a
#: worktree one level deeper).
DEFAULT_PATHS = tuple(
    f"{up}scratch/peers/{repo}/metrics.py" for up in ("../", "../../") for repo in ("coref-hoi", "e2e-coref")
)
_SKLEARN_IMPORT = "from sklearn.utils.linear_assignment_ import linear_assignment"


def _linear_assignment(cost: np.ndarray) -> np.ndarray:
    rows, cols = linear_sum_assignment(cost)
    return np.stack([rows, cols], axis=1)


def default_path(root: Path) -> Path | None:
    """The first of the usual places that holds the file, relative to the repository root."""
    for candidate in DEFAULT_PATHS:
        path = (root / candidate).resolve()
        if path.is_file():
            return path
    return None


def load(path: Path) -> types.ModuleType:
    """The module of ``path`` with the removed scikit-learn import replaced in memory."""
    source = Path(path).read_text(encoding="utf-8").replace(_SKLEARN_IMPORT, "")
    module = types.ModuleType("common_metrics_peer")
    module.__dict__["linear_assignment"] = _linear_assignment
    module.__file__ = str(path)
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


def update(evaluator: object, key: list[list[tuple[int, int]]], response: list[list[tuple[int, int]]]) -> None:
    """Feed one document to a ``CorefEvaluator`` the way the training code of those repositories does."""
    gold = [tuple(c) for c in key]
    predicted = [tuple(c) for c in response]
    mention_to_gold = {m: c for c in gold for m in c}
    mention_to_predicted = {m: c for c in predicted for m in c}
    evaluator.update(predicted, gold, mention_to_predicted, mention_to_gold)  # type: ignore[attr-defined]
