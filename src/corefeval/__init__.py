"""corefeval: coreference resolution evaluation with the CoNLL reference scorer's numbers.

>>> import corefeval
>>> result = corefeval.score("key.conll", "response.conll")      # doctest: +SKIP
>>> result.corpus["conll"].f1                                      # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._moved import install

install()  # the modules' paths before the layer folders, as deprecated aliases

if TYPE_CHECKING:
    from .core.diagnostics import CorefevalWarning
    from .core.model import Corpus, Document
    from .evaluator import Evaluator
    from .readers import read
    from .scoring.pipeline import score
    from .scoring.results import ScoreResult
    from .scoring.variants import score_variants
    from .stats.compare import compare

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
    "CorefevalWarning": "core.diagnostics",
    "read": "readers",
    "score": "scoring.pipeline",
    "Corpus": "core.model",
    "Document": "core.model",
    "ScoreResult": "scoring.results",
    "metrics": "metrics",
    "compare": "stats.compare",
    "Evaluator": "evaluator",
    "score_variants": "scoring.variants",
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
