"""Analyse a response corpus against a key corpus: errors per document, totals, and their costs.

The cost of an error category is what each metric's F1 gains when only the errors of that category
are repaired (in every document) and the response is scored again with corefeval's own scorer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ...core.diagnostics import Diagnostic
from ...core.model import Corpus, Document
from ...core.options import Options
from ...core.pairing import pair_names, pairing_warnings
from ...core.progress import progress, shown
from ...core.registry import resolve
from ...scoring.pipeline import load_corpus
from .items import KK_TYPES, TYPES, ErrorItem, Span
from .kk import operations
from .matching import Pairing, shared_spans
from .repair import repaired
from .typology import classify

SCHEMA = "corefeval.errors/1"
#: The metrics an error's cost is given in: those ``all`` means (MOR and the zero score measure
#: words and zeros, which the error repairs do not aim at).
METRICS = resolve(("all",))


@dataclass
class DocumentErrors:
    """One document's errors in both views, with the alignments their repairs refer to."""

    name: str
    key: Document
    response: Document
    items: list[ErrorItem]
    kk_items: list[ErrorItem]
    alignment: Pairing
    kk_alignment: Pairing

    @property
    def counts(self) -> dict[str, int]:
        return _count(self.items, TYPES)

    @property
    def kk_counts(self) -> dict[str, int]:
        return _count(self.kk_items, KK_TYPES)

    @property
    def kk_mentions(self) -> dict[str, int]:
        return _count(self.kk_items, KK_TYPES, mentions=True)


@dataclass
class Analysis:
    """Errors of every key document (key-file order), corpus totals, baseline F1 and costs."""

    key_path: str
    response_path: str
    documents: list[DocumentErrors]
    baseline: dict[str, float] = field(default_factory=dict)
    costs: dict[str, dict[str, float]] = field(default_factory=dict)
    kk_costs: dict[str, dict[str, float]] = field(default_factory=dict)
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        return _count([it for d in self.documents for it in d.items], TYPES)

    @property
    def kk_counts(self) -> dict[str, int]:
        return _count([it for d in self.documents for it in d.kk_items], KK_TYPES)

    @property
    def kk_mentions(self) -> dict[str, int]:
        return _count([it for d in self.documents for it in d.kk_items], KK_TYPES, mentions=True)

    def items(self) -> list[dict[str, Any]]:
        """Every counted error as a JSON-ready record, typology view first in each document."""
        out: list[dict[str, Any]] = []
        for d in self.documents:
            out.extend({"view": "typology", **it.to_dict()} for it in d.items)
            out.extend({"view": "kk", **it.to_dict()} for it in d.kk_items)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON report (schema ``corefeval.errors/1``)."""
        return {
            "schema": SCHEMA,
            "key": self.key_path,
            "response": self.response_path,
            "types": list(TYPES),
            "kk_types": list(KK_TYPES),
            "documents": [
                {"name": d.name, "counts": d.counts, "kk": {"operations": d.kk_counts, "mentions": d.kk_mentions}}
                for d in self.documents
            ],
            "corpus": {"counts": self.counts, "kk": {"operations": self.kk_counts, "mentions": self.kk_mentions}},
            "baseline_f1": self.baseline,
            "costs": self.costs,
            "kk_costs": self.kk_costs,
        }


def _count(items: list[ErrorItem], types: tuple[str, ...], mentions: bool = False) -> dict[str, int]:
    out = dict.fromkeys(types, 0)
    for it in items:
        out[it.type] += it.mentions if mentions else it.count
    return out


def _words(doc: Document) -> Callable[[Span], str]:
    tokens = doc.tokens
    if not tokens:
        return lambda s: f"[{s[0]}-{s[1]}]"

    def words(s: Span) -> str:
        ws = tokens[s[0] : s[1] + 1]
        return "«" + " ".join(ws if len(ws) <= 10 else [*ws[:6], "…", *ws[-3:]]) + "»"

    return words


def analyse(
    key: Corpus | str,
    response: Corpus | str,
    singleton_layer: Corpus | str | None = None,
    costs: bool = True,
    every_mention: bool = False,
    *,
    options: Options | None = None,
) -> Analysis:
    """Errors of ``response`` against ``key`` (corpora or paths), document by document.

    ``singleton_layer`` is a file whose mentions (with the same document names) are referring
    expressions; it tells a mention that is in the wrong chain from one that is no mention at all.
    ``every_mention``: see :func:`corefeval.studies.errors.typology.classify`. ``options`` say how the files
    are read, which mentions are analysed (``zeros``, ``singletons``) and how the baseline F1 and the
    costs are scored (every metric, whatever ``options.metrics`` says); the typology itself pairs
    mentions by exact span, so ``match`` changes the scores, not the error items.
    """
    from ...matching.selection import select
    from ...scoring.pipeline import empty_like

    opts = options if options is not None else Options()
    key_corpus = load_corpus(key, opts, "key")
    response_corpus = load_corpus(response, opts, "response", key_corpus)
    layer_docs = (
        load_corpus(singleton_layer, replace(opts, key_format="auto")).by_name()
        if singleton_layer is not None
        else None
    )
    warnings = list(key_corpus.warnings) + list(response_corpus.warnings)
    responses = response_corpus.by_name()
    documents: list[DocumentErrors] = []
    key_docs = key_corpus.by_name()
    paired = pair_names(key_docs, responses, key_corpus.format != response_corpus.format)
    warnings += pairing_warnings(key_corpus.path, _lines(key_docs), response_corpus.path, _lines(responses), paired)
    for name, kdoc in progress(key_docs.items(), "error analysis", len(key_docs), "doc"):
        rdoc = responses[paired[name]] if name in paired else empty_like(kdoc)
        kdoc, rdoc = select(kdoc, opts.zeros, opts.singletons), select(rdoc, opts.zeros, opts.singletons)
        warnings += _shared_span_warnings(key_corpus.path, response_corpus.path, kdoc, rdoc)
        layer = None
        if layer_docs is not None and name in layer_docs:
            ldoc = layer_docs[name]
            layer = set(zip(ldoc.starts.tolist(), ldoc.ends.tolist(), strict=True))
        words = _words(kdoc if kdoc.tokens else rdoc)
        items, al = classify(kdoc, rdoc, layer, words, every_mention)
        kk_items, kk_al = operations(kdoc, rdoc, words)
        documents.append(DocumentErrors(name, kdoc, rdoc, items, kk_items, al, kk_al))
    result = Analysis(key_corpus.path, response_corpus.path, documents, warnings=warnings)
    if costs:
        _costs(result, key_corpus, response_corpus, replace(opts, metrics=METRICS))
    return result


def _lines(docs: dict[str, Document]) -> dict[str, int]:
    return {name: d.begin_line for name, d in docs.items()}


def _shared_span_warnings(key_path: str, response_path: str, key: Document, response: Document) -> list[Diagnostic]:
    """A span in two entities is analysed in its first one only; say so, since the scores count both."""
    out = []
    for side, path, doc in (("key", key_path, key), ("response", response_path, response)):
        n = shared_spans(doc)
        if n:
            out.append(
                Diagnostic(
                    path,
                    doc.begin_line,
                    f"document '{doc.name}': {n} {side} mention{'s are' if n > 1 else ' is'} also in another entity; "
                    "the error analysis places each in its first entity only, the scores count every copy",
                )
            )
    return out


def _f1s(key: Corpus, response: Corpus, docs: list[Document], options: Options) -> dict[str, float]:
    from ...scoring.pipeline import score_with

    with shown(False):  # one bar counts the categories, not each rescoring
        res = score_with(key, replace(response, path="repaired", documents=docs, warnings=[]), options)
    scores = res.scores_from(res.counts.sum(axis=0) if res.counts.size else np.zeros(res.counts.shape[1]))
    return {m: float(s.f1) for m, s in scores.items()}


def _costs(result: Analysis, key: Corpus, response: Corpus, options: Options) -> None:
    key = replace(key, documents=[d.key for d in result.documents], warnings=[])
    result.baseline = _f1s(key, response, [d.response for d in result.documents], options)
    views = [
        (view, t, target)
        for view, types, target in (("typology", TYPES, result.costs), ("kk", KK_TYPES, result.kk_costs))
        for t in types
    ]
    for view, t, target in progress(views, "repair costs", len(views), "category"):
        docs = []
        for d in result.documents:
            items = d.items if view == "typology" else d.kk_items
            al = d.alignment if view == "typology" else d.kk_alignment
            edits = [e for it in items if it.type == t for e in it.repair]
            docs.append(repaired(d.response, al, edits, d.key) if edits else d.response)
        f1 = _f1s(key, response, docs, options)
        target[t] = {m: f1[m] - result.baseline[m] for m in METRICS}
