"""corefeval's scores in a spaCy pipeline: a scorer in spaCy's ``scorers`` registry.

spaCy's coreference component (spacy-experimental) keeps each cluster as a span group named
``coref_clusters_1``, ``coref_clusters_2``, ... and scores them with LEA alone. This scorer reads the
same span groups of each ``Example``'s reference and predicted ``Doc`` (:mod:`corefeval.readers.spacy_docs`)
and scores them with :func:`corefeval.score`, so its numbers are those ``corefeval score`` gives for
the same documents written as CoNLL-2012. Installed with corefeval, it is found by name through the
entry point ``spacy_scorers``::

    [components.coref]
    scorer = {"@scorers": "corefeval.coref_scorer.v1", "metric": "conll"}

``coref_f``, ``coref_p`` and ``coref_r`` are the chosen metric's (``conll`` by default: its
precision and recall are the means of MUC's, B-cubed's and CEAFe's, as its F1 is of theirs), and
``coref_<metric>_f`` is every metric's F1 (``coref_muc_f``, ``coref_bcub_f``, ``coref_ceafm_f``,
``coref_ceafe_f``, ``coref_blanc_f``, ``coref_lea_f``, ``coref_mentions_f``, ``coref_conll_f``); all
are fractions from 0 to 1, micro-averaged over the examples, as spaCy's scores are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..core.diagnostics import CorefevalWarning, UsageError, plural
from ..core.model import Corpus, Document
from ..core.registry import CONLL_PARTS, resolve
from ..readers.spacy_docs import FORMAT, PREFIX, document_from_doc, is_cluster_group, unread_groups, unread_warning
from ..scoring.pipeline import score
from ..scoring.results import ScoreResult

#: The name the scorer is registered under (``@scorers``).
NAME = "corefeval.coref_scorer.v1"
#: The metrics whose F1 every call reports (the chosen one is added when it is not among them).
REPORTED = ("all",)

Scorer = Callable[..., dict[str, float]]


def make_coref_scorer(metric: str = "conll", span_cluster_prefix: str = PREFIX) -> Scorer:
    """The scorer spaCy calls as ``scorer(examples, **kwargs)``: ``metric`` gives ``coref_f``,
    ``coref_p`` and ``coref_r``; ``span_cluster_prefix`` names the span groups read (a
    ``span_cluster_prefix`` keyword of the call, which the coreference component passes, wins)."""
    chosen = _one_metric(metric)
    prefix = span_cluster_prefix

    def coref_scorer(examples: Iterable[Any], **kwargs: Any) -> dict[str, float]:
        return score_examples(examples, chosen, kwargs.get("span_cluster_prefix") or prefix)

    return coref_scorer


def score_examples(
    examples: Iterable[Any], metric: str = "conll", span_cluster_prefix: str = PREFIX
) -> dict[str, float]:
    """The scores of spaCy ``Example`` objects (see the module's docstring); no example: zeros."""
    chosen = _one_metric(metric)
    key, response = corpora(examples, span_cluster_prefix)
    if not key.documents:
        return {"coref_f": 0.0, "coref_p": 0.0, "coref_r": 0.0}
    result = score(key, response, (*REPORTED, chosen))
    return scores_of(result, chosen)


def corpora(examples: Iterable[Any], prefix: str = PREFIX) -> tuple[Corpus, Corpus]:
    """The reference and the predicted documents of ``examples``, named by position.

    A predicted ``Doc`` tokenised otherwise than its reference has its spans put on the reference's
    tokens through the example's alignment (``Example.get_aligned_spans_x2y``); a span whose text
    the reference's tokens cannot cover is left out, with a warning."""
    keys: list[Document] = []
    responses: list[Document] = []
    lost = 0
    unread: set[str] = set()
    for i, example in enumerate(examples):
        reference, predicted = _docs(example, i)
        unread |= unread_groups(reference, prefix) | unread_groups(predicted, prefix)
        name = str(i)
        keys.append(document_from_doc(reference, name, prefix))
        if [t.text for t in predicted] == [t.text for t in reference]:
            responses.append(document_from_doc(predicted, name, prefix))
            continue
        document, dropped = _projected(example, name, prefix)
        responses.append(document)
        lost += dropped
    import warnings

    if lost:
        warnings.warn(
            f"<spacy predicted>: {plural(lost, 'predicted mention')} cover no whole tokens of the reference "
            "(tokenised otherwise): left out",
            CorefevalWarning,
            stacklevel=3,
        )
    if unread:
        warnings.warn(f"<spacy>: {unread_warning(unread, prefix)}", CorefevalWarning, stacklevel=3)
    return (
        Corpus("<spacy reference>", keys, format=FORMAT),
        Corpus("<spacy predicted>", responses, format=FORMAT),
    )


def scores_of(result: ScoreResult, metric: str) -> dict[str, float]:
    """``coref_f``, ``coref_p``, ``coref_r`` of ``metric``, then every metric's F1."""
    corpus = result.corpus
    if metric == "conll":
        parts = [corpus[m] for m in CONLL_PARTS]
        precision = sum(s.precision for s in parts) / len(parts)
        recall = sum(s.recall for s in parts) / len(parts)
    else:
        precision, recall = corpus[metric].precision, corpus[metric].recall
    out = {"coref_f": float(corpus[metric].f1), "coref_p": float(precision), "coref_r": float(recall)}
    out.update({f"coref_{name}_f": float(s.f1) for name, s in corpus.items()})
    return out


def _one_metric(metric: str) -> str:
    names = resolve([metric]) if isinstance(metric, str) else ()
    if len(names) != 1:
        raise UsageError(f"the spaCy scorer reports one metric as coref_f, not {metric!r}")
    return names[0]


def _docs(example: Any, i: int) -> tuple[Any, Any]:
    reference = getattr(example, "reference", None)
    predicted = getattr(example, "predicted", None)
    if reference is None or predicted is None:
        raise UsageError(f"example {i}: {type(example).__name__} is not a spaCy Example (reference and predicted)")
    return reference, predicted


def _projected(example: Any, name: str, prefix: str) -> tuple[Document, int]:
    """The predicted clusters on the reference's tokens, and how many spans could not be put there."""
    from spacy.tokens import Doc

    reference = example.reference
    projected = Doc(reference.vocab, words=[t.text for t in reference])
    dropped = 0
    for group_name, group in example.predicted.spans.items():
        if not is_cluster_group(group_name, prefix):
            continue
        spans = list(group)
        aligned = [s for span in spans for s in example.get_aligned_spans_x2y([span], allow_overlap=True)]
        dropped += len(spans) - len(aligned)
        projected.spans[group_name] = [projected[s.start : s.end] for s in aligned]
    return document_from_doc(projected, name, prefix), dropped
