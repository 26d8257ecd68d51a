"""Doors for other tools' evaluation loops, on the one counting path: a Hugging Face ``evaluate``
metric (:func:`evaluate_module`), lm-evaluation-harness functions (:mod:`.lm_eval`) and a spaCy
scorer (:mod:`.spacy_scorer`).

Nothing here imports ``evaluate`` or ``datasets``: the metric script does, when ``evaluate`` loads it.
"""

from __future__ import annotations

from pathlib import Path


def evaluate_module() -> str:
    """The path of corefeval's ``evaluate`` metric script, which ``evaluate`` loads offline:
    ``evaluate.load(evaluate_module())`` for corefeval's own mode (any format corefeval reads,
    every metric with its counts and the signature), ``evaluate.load(evaluate_module(), "coval")``
    for the mode with the inputs, options and output keys of ``evaluate``'s ``coval`` metric."""
    return str(Path(__file__).resolve().parent / "hf_metric" / "corefeval.py")
