"""corefeval's coreference metrics as a Hugging Face ``evaluate`` metric, loaded offline from its path.

``evaluate.load(corefeval.integrations.evaluate_module())`` is corefeval's own mode;
``evaluate.load(corefeval.integrations.evaluate_module(), "coval")`` takes the inputs and options of
``evaluate``'s ``coval`` metric and returns its keys (see :mod:`corefeval.integrations.coval_lines`).
The scoring is corefeval's; this script only declares the inputs.
"""

from __future__ import annotations

from typing import Any

import datasets
import evaluate

from corefeval.integrations.coval_lines import coval_scores
from corefeval.integrations.inputs import flat_scores, options_from, score_inputs

#: The configuration names: corefeval's own mode, and the one compatible with ``coval``.
OWN = "default"
COVAL = "coval"

_DESCRIPTION = (
    "Coreference resolution scores computed by corefeval: mention detection, MUC, B-cubed, CEAFm, CEAFe, "
    "BLANC, LEA and the CoNLL score, each a corpus score (counts summed over documents, then divided). "
    "The 'coval' configuration takes the inputs, options and output keys of evaluate's coval metric, "
    "with documents split at their '#begin document' lines and CEAFm and BLANC added."
)

_INPUTS = """
Args (corefeval's own mode):
    predictions: list of str, each the path of a response file or its text, in any format corefeval reads.
    references: list of str, each the path of a key file or its text (one per prediction).
    Keyword options are those of corefeval.core.options.Options (metrics, singletons, match, key_format,
    response_format, np_only, remove_nested, llm_marks, ...).
Returns (corefeval's own mode):
    'METRIC/recall', 'METRIC/precision', 'METRIC/f1' (fractions) and 'METRIC/recall_num', 'METRIC/recall_den',
    'METRIC/precision_num', 'METRIC/precision_den' for every metric; 'conll/f1'; 'documents'; 'signature'.
Args ('coval' configuration):
    predictions, references: lists of sentences, each a list of CoNLL lines.
    keep_singletons, NP_only, min_span, remove_nested: as in evaluate's coval metric.
Returns ('coval' configuration):
    'mentions/recall' ... 'lea/f1', 'ceafm/...', 'blanc/...' (fractions) and 'conll_score' (0 to 100).
"""


class Corefeval(evaluate.Metric):
    """corefeval's scores in ``evaluate``'s interface (see the module's docstring)."""

    def _info(self) -> evaluate.MetricInfo:
        if self.config_name not in (OWN, COVAL):
            raise ValueError(f"unknown configuration '{self.config_name}' (give none, or '{COVAL}')")
        if self.config_name == COVAL:
            lines = datasets.Sequence(datasets.Value("string"))
            features = datasets.Features({"predictions": lines, "references": lines})
        else:
            text = datasets.Value("string")
            features = datasets.Features({"predictions": text, "references": text})
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation="",
            inputs_description=_INPUTS,
            features=features,
        )

    def _compute(self, predictions: list[Any], references: list[Any], **options: Any) -> dict[str, Any]:
        if self.config_name == COVAL:
            return dict(coval_scores(predictions, references, **options))
        return flat_scores(score_inputs(references, predictions, options_from(options)))
