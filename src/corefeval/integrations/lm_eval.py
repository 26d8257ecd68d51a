"""Functions for an lm-evaluation-harness task: each document's counts, summed into the corpus score.

The harness scores a generation task one document at a time and then aggregates the values of all
documents. A mean of per-document F1 is not a coreference score: the corpus score divides counts
summed over documents. So here a document's value is its :class:`~corefeval.scoring.results.ScoreResult`
(one row of counts), and an aggregation merges the rows and divides their sums
(:func:`corefeval.scoring.results.merge`), which gives what ``corefeval score`` gives on all the
documents in one file.

* :func:`document_result` has the shape of a harness metric function: ``references=[gold]``,
  ``predictions=[answer]`` (the gold document as a CorefUD or CoNLL-2012 text, or a path; the
  model's answer in any format corefeval reads, language-model markup included).
* :func:`process_results` (and :func:`results_processor` for other fields and options) has the shape
  of a task's ``process_results(doc, results)``: one value per metric name.
* :func:`aggregation` (and :data:`conll_f1`, :data:`muc_f1`, ...) sums the values into one number;
  :func:`corpus_result` gives the whole result.
* :func:`task_documents` splits a gold file into the documents of the task's dataset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.diagnostics import UsageError
from ..scoring.results import ScoreResult, merge
from .inputs import options_from, score_inputs

#: The metric names a task's ``process_results`` gives a value for.
METRICS = ("conll", "muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mentions")


def document_result(references: Sequence[str], predictions: Sequence[str], **options: Any) -> ScoreResult:
    """One document's result: ``references=[gold]``, ``predictions=[answer]``, as the harness calls a
    metric; ``options`` are those of :class:`~corefeval.core.options.Options` (``llm_marks``,
    ``singletons``, ``match``, ...)."""
    return score_inputs(references, predictions, options_from(options))


def results_processor(
    gold: str = "gold", metrics: Sequence[str] = METRICS, **options: Any
) -> Callable[[Mapping[str, Any], Sequence[str]], dict[str, ScoreResult]]:
    """A task's ``process_results(doc, results)``: the first of ``results`` (the model's answer)
    scored against ``doc[gold]``, the same result given for each name of ``metrics``."""
    options_from(options)  # unknown options are an error now, not at the first document

    def process(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, ScoreResult]:
        if not results:
            raise UsageError("the harness gave no answer for this document")
        if gold not in doc:
            raise UsageError(f"the document has no field '{gold}' (its fields: {', '.join(map(str, doc))})")
        result = document_result([str(doc[gold])], [results[0]], **options)
        return dict.fromkeys(metrics, result)

    return process


#: ``process_results`` with the gold document in the field ``gold`` and the default options.
process_results = results_processor()


def corpus_result(items: Sequence[ScoreResult]) -> ScoreResult:
    """The result of every document the harness scored: their count rows summed (a micro average)."""
    if not items:
        raise UsageError("no document was scored")
    try:
        return merge(list(items))
    except ValueError:
        raise UsageError("the documents were scored with different options or formats: score them apart") from None


def aggregation(metric: str = "conll", field: str = "f1") -> Callable[[Sequence[ScoreResult]], float]:
    """A task's aggregation: ``field`` (``f1``, ``recall`` or ``precision``, fractions) of ``metric``'s
    corpus score over the documents' results."""
    if metric not in METRICS:
        raise UsageError(f"unknown metric '{metric}' (choose from {', '.join(METRICS)})")

    def aggregate(items: Sequence[ScoreResult]) -> float:
        return float(getattr(corpus_result(items)[metric], field))

    aggregate.__name__ = f"{metric}_{field}"
    return aggregate


conll_f1 = aggregation("conll")
muc_f1 = aggregation("muc")
bcub_f1 = aggregation("bcub")
ceafe_f1 = aggregation("ceafe")
ceafm_f1 = aggregation("ceafm")
blanc_f1 = aggregation("blanc")
lea_f1 = aggregation("lea")
mentions_f1 = aggregation("mentions")


def task_documents(path: str) -> list[dict[str, str]]:
    """The documents of a gold CorefUD or CoNLL-2012 file as a task's dataset rows: ``name``,
    ``text`` (its words, separated by spaces) and ``gold`` (its lines, scored as the file scores them)."""
    from ..readers.document_index import index_documents, read_range_corpus

    ranges, _ = index_documents(path)
    rows = []
    with open(path, "rb") as fh:
        for span in ranges:
            doc = read_range_corpus(path, span, keep_tokens=True).documents[0]  # UTF-8 checked
            fh.seek(span.start)
            text = fh.read(span.end - span.start).decode("utf-8")
            if span.format == "corefud" and span.header:
                text = f"{span.header}\n{text}"
            elif not span.closed:
                text = text.rstrip("\n") + "\n#end document\n"
            rows.append({"name": doc.name, "text": " ".join(doc.tokens or ()), "gold": text})
    return rows
