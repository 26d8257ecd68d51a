"""Inputs given as file paths or as the files' texts, scored on the one counting path.

The doors for other tools' evaluation loops take lists: one reference and one prediction per
example. Each is a path (a string with no line break that names a file) or the input's text, which
is held in memory under a name (``references[0]``, ``predictions[0]``, ...) and read by every reader
as a file is (:func:`corefeval.readers.sources.held_inputs`). Each pair is scored by
:func:`corefeval.scoring.pipeline.score_with`, and the results are merged: their per-document count
rows are stacked and summed, so the score of several pairs is the corpus score of all their
documents, not a mean of per-pair scores. Warnings are given as :func:`corefeval.score` gives them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.diagnostics import UsageError
from ..core.options import Options
from ..core.warning_summary import warn
from ..readers.sources import held_inputs
from ..scoring.pipeline import score_with
from ..scoring.results import ScoreResult, merge


def is_path(value: str) -> bool:
    """Whether ``value`` names a file rather than holding an input's text."""
    return "\n" not in value and os.path.isfile(value)


def score_inputs(references: Sequence[str], predictions: Sequence[str], options: Options) -> ScoreResult:
    """Each prediction scored against its reference (paths or texts), the results merged."""
    if len(references) != len(predictions):
        raise UsageError(f"{len(references)} references but {len(predictions)} predictions: give one of each per pair")
    if not references:
        raise UsageError("no references and no predictions: nothing to score")
    results = []
    for i, (reference, prediction) in enumerate(zip(references, predictions)):
        key = reference if is_path(reference) else f"references[{i}]"
        response = prediction if is_path(prediction) else f"predictions[{i}]"
        texts = {name: text for name, text in ((key, reference), (response, prediction)) if name != text}
        with held_inputs(texts):
            results.append(score_with(key, response, options))
    try:
        result = merge(results)
    except ValueError:
        formats = sorted({f"{r.settings.key_format}+{r.settings.response_format}" for r in results})
        raise UsageError(
            f"the pairs were read or scored with different settings (formats {', '.join(formats)}): "
            "score pairs of one kind together"
        ) from None
    warn(result.warnings)
    return result


def options_from(given: Mapping[str, Any]) -> Options:
    """:class:`Options` from keyword arguments spelt as its fields (``metrics`` a list or a comma list)."""
    fields = set(Options.__dataclass_fields__) - {"aligned"}
    unknown = sorted(set(given) - fields)
    if unknown:
        raise UsageError(f"unknown option {', '.join(map(repr, unknown))} (choose from {', '.join(sorted(fields))})")
    return Options.make(None, **given)


def flat_scores(result: ScoreResult) -> dict[str, Any]:
    """Every metric's scores and counts as ``metric/field`` keys (``blanc/coref/recall`` for a part),
    fractions as the result has them, with the number of documents and the signature."""
    out: dict[str, Any] = {}
    for name, score in result.corpus.items():
        _flatten(name, score.to_dict(), out)
    out["documents"] = len(result.document_names)
    out["signature"] = result.signature
    return out


def _flatten(prefix: str, values: Mapping[str, Any], out: dict[str, Any]) -> None:
    for field, value in values.items():
        if isinstance(value, Mapping):
            _flatten(f"{prefix}/{field}", value, out)
        elif value is not None:
            out[f"{prefix}/{field}"] = float(value)
