"""corefeval: coreference resolution evaluation with the CoNLL reference scorer's numbers.

>>> import corefeval
>>> result = corefeval.score("key.conll", "response.conll")      # doctest: +SKIP
>>> result.corpus["conll"].f1                                      # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .compare import compare
    from .diagnostics import CorefevalWarning
    from .evaluator import Evaluator
    from .model import Corpus, Document
    from .readers import read
    from .results import ScoreResult
    from .scoring import score
    from .variants import score_variants

__all__ = [
    "CorefevalWarning",
    "Corpus",
    "Document",
    "Evaluator",
    "ScoreResult",
    "compare",
    "read",
    "score",
    "score_variants",
    "__version__",
]

_LAZY = {
    "CorefevalWarning": "diagnostics",
    "read": "readers",
    "score": "scoring",
    "Corpus": "model",
    "Document": "model",
    "ScoreResult": "results",
    "metrics": "metrics",
    "compare": "compare",
    "Evaluator": "evaluator",
    "score_variants": "variants",
}


def __getattr__(name: str) -> Any:
    """Import on first use, so that ``import corefeval`` and ``corefeval --help`` stay fast."""
    if name == "__version__":
        from ._version import version

        globals()["__version__"] = version()
        return globals()["__version__"]
    if name in _LAZY:
        import importlib

        module = importlib.import_module(f".{_LAZY[name]}", __name__)
        return module if name == "metrics" else getattr(module, name)
    raise AttributeError(f"module 'corefeval' has no attribute '{name}'")
