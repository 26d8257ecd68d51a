"""The inputs, options and output keys of the ``coval`` metric of Hugging Face ``evaluate``, scored
by corefeval.

That metric takes ``predictions`` and ``references`` as lists of sentences, each a list of CoNLL
lines, with the options ``keep_singletons``, ``NP_only``, ``min_span`` and ``remove_nested``, and
returns ``mentions/recall`` ... ``lea/f1`` as fractions and ``conll_score`` from 0 to 100. Here the
lines are joined into a CoNLL-2012 text (a blank line after each sentence) and read by the CoNLL-2012
reader, so documents are split at their ``#begin document`` and ``#end document`` lines (that metric
scores the whole input as one document, so that the entities of different documents with the same
id merge); lines with no ``#begin document`` line are one document, as there. CEAFm and BLANC are
added (``ceafm/...``, ``blanc/...``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core.options import Options
from .inputs import score_inputs

#: The metrics of the output, in its order, and the name of the one document of lines without a
#: ``#begin document`` line.
METRICS = ("mentions", "muc", "bcub", "ceafe", "lea", "ceafm", "blanc")
ONE_DOCUMENT = "dummy_doc"


def conll_text(sentences: Iterable[Sequence[str]]) -> str:
    """The CoNLL-2012 text of a list of sentences of lines: a blank line after each sentence with a
    word line; in one document when no line begins one."""
    lines: list[str] = []
    for sentence in sentences:
        rows = [line.rstrip("\r\n") for line in sentence]
        lines += rows
        if any(row.strip() and not row.startswith("#") for row in rows):
            lines.append("")
    if not any(line.startswith("#begin document") for line in lines):
        lines = [f"#begin document ({ONE_DOCUMENT}); part 000", *lines, "#end document"]
    return "\n".join(lines) + "\n"


def coval_options(
    keep_singletons: bool = True, NP_only: bool = False, min_span: bool = False, remove_nested: bool = False
) -> Options:
    """The run options of the metric's options (``--singletons``, ``--np-only``, ``--match min``,
    ``--remove-nested``)."""
    return Options(
        metrics=(*METRICS, "conll"),
        singletons="keep" if keep_singletons else "remove",
        np_only=bool(NP_only),
        match="min" if min_span else "exact",
        remove_nested=bool(remove_nested),
        key_format="conll2012",
        response_format="conll2012",
    )


def coval_scores(
    predictions: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]],
    keep_singletons: bool = True,
    NP_only: bool = False,
    min_span: bool = False,
    remove_nested: bool = False,
) -> dict[str, float]:
    """The metric's output for its inputs: ``METRIC/recall``, ``METRIC/precision`` and ``METRIC/f1``
    (fractions) for each of :data:`METRICS`, and ``conll_score`` (0 to 100)."""
    options = coval_options(keep_singletons, NP_only, min_span, remove_nested)
    result = score_inputs([conll_text(references)], [conll_text(predictions)], options)
    out: dict[str, float] = {}
    for name in METRICS:
        score = result[name]
        out.update({f"{name}/recall": score.recall, f"{name}/precision": score.precision, f"{name}/f1": score.f1})  # type: ignore[union-attr]
    out["conll_score"] = result["conll"].f1 * 100
    return out
