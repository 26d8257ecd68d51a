"""Which span groups of a spaCy ``Doc`` are coreference clusters: those named the prefix, ``_`` and
a number, as spaCy's coreference component reads them (a name that only starts with the prefix,
such as ``coref_clusters_gold``, was read as a cluster before)."""

from __future__ import annotations

import pytest

from corefeval.core.diagnostics import CorefevalWarning
from corefeval.integrations.spacy_scorer import score_examples

spacy = pytest.importorskip("spacy")
from spacy.tokens import Doc  # noqa: E402
from spacy.training import Example  # noqa: E402

NLP = spacy.blank("en")
WORDS = ["John", "He", "Mary", "she"]


def _doc(groups: dict[str, list[tuple[int, int]]]) -> Doc:
    doc = Doc(NLP.vocab, words=WORDS)
    for name, spans in groups.items():
        doc.spans[name] = [doc[s:e] for s, e in spans]
    return doc


def test_only_span_groups_named_prefix_and_a_number_are_clusters() -> None:
    """As spaCy's component reads them: ``coref_clusters_gold`` and ``coref_clusters2`` are other
    span groups, in the scorer and in the reader of ``Doc`` objects and DocBin files alike."""
    pair = {"coref_clusters_1": [(0, 1), (1, 2)]}
    others = {"coref_clusters_gold": [(2, 3), (3, 4)], "coref_clusters2": [(2, 3)], "coref_clusters_": [(3, 4)]}
    predicted = _doc({**pair, **others})
    with pytest.warns(CorefevalWarning, match="coref_clusters2, coref_clusters_, coref_clusters_gold") as caught:
        scores = score_examples([Example(predicted, _doc(pair))], "lea")
    assert len(caught) == 1
    assert (scores["coref_p"], scores["coref_r"], scores["coref_mentions_f"]) == (1.0, 1.0, 1.0)
    from corefeval.readers.spacy_docs import corpus_from_docs, is_cluster_group

    corpus = corpus_from_docs([predicted])
    assert [len(d.clusters()) for d in corpus.documents] == [1]
    assert [str(w) for w in corpus.warnings] == [
        "<spacy>: warning: span groups not named coref_clusters_<number> are no clusters and were not read: "
        "coref_clusters2, coref_clusters_, coref_clusters_gold"
    ]
    assert corpus_from_docs([_doc(pair)]).warnings == []
    assert [is_cluster_group(n) for n in ("coref_clusters_12", "coref_clusters_-1", "coref_clusters_١")] == [
        True,
        False,
        False,
    ]
    assert is_cluster_group("mine_3", "mine") and not is_cluster_group("coref_clusters_1", "coref")
