"""What a scoring run returns: the per-document count matrix and the scores derived from it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from ..core.dataclass_methods import FACTORY
from ..core.diagnostics import Diagnostic
from ..core.options import Options
from ..core.registry import CONLL_PARTS
from ..metrics.base import ConllScore, Metric, Score, conll_mean

SCHEMA = "corefeval.score/1"
#: The columns of a result's records, its frame and its CSV.
COLUMNS = (
    "scope",
    "document",
    "metric",
    "recall",
    "precision",
    "f1",
    "recall_num",
    "recall_den",
    "precision_num",
    "precision_den",
)
__all__ = ["COLUMNS", "SCHEMA", "ConllScore", "DocumentScores", "ScoreResult", "merge"]


class DocumentScores(NamedTuple):
    name: str
    scores: dict[str, Any]


@dataclass(init=False, repr=False, eq=False)
class ScoreResult:
    """Scores of one response against one key.

    ``counts`` has one row per scored document (key-file order) and the columns of each metric in
    ``metric_objects`` one after another; ``corpus`` and ``documents`` are computed from it.
    """

    key_path: str
    response_path: str
    document_names: list[str]
    metric_objects: tuple[Metric, ...]
    counts: np.ndarray
    settings: Options
    document_digests: list[bytes]
    warnings: list[Diagnostic] = field(default_factory=list)
    #: For language-model markup aligned to the key's words: each document's alignment figures
    #: (``words``, ``inserted``, ``replaced``, ``deleted``, ``moved``, ``lost``).
    alignment: dict[str, dict[str, int]] = field(default_factory=dict)

    def __init__(
        self,
        key_path: str,
        response_path: str,
        document_names: list[str],
        metric_objects: tuple[Metric, ...],
        counts: np.ndarray,
        settings: Options,
        document_digests: list[bytes],
        warnings: list[Diagnostic] = FACTORY,
        alignment: dict[str, dict[str, int]] = FACTORY,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.key_path = key_path
        self.response_path = response_path
        self.document_names = document_names
        self.metric_objects = metric_objects
        self.counts = counts
        self.settings = settings
        self.document_digests = document_digests
        self.warnings = [] if warnings is FACTORY else warnings
        self.alignment = {} if alignment is FACTORY else alignment

    @property
    def key_digest(self) -> str:
        """A short hash of the scored key documents (partitions and names, in order)."""
        from .batch.documents import sha256_for

        joined = b"".join(self.document_digests)
        return str(sha256_for(len(joined))(joined).hexdigest()[:8])

    @cached_property
    def columns(self) -> dict[str, slice]:
        out: dict[str, slice] = {}
        start = 0
        for m in self.metric_objects:
            out[m.name] = slice(start, start + len(m.fields))
            start += len(m.fields)
        return out

    def counted_scores(self, totals: np.ndarray) -> dict[str, Any]:
        """Scores of every counted metric (the parts of the CoNLL score included) from one row of counts."""
        return {m.name: m.score(totals[self.columns[m.name]]) for m in self.metric_objects}

    def scores_from(self, totals: np.ndarray) -> dict[str, Any]:
        """Scores of the requested metrics from one row of (summed) counts."""
        computed: dict[str, Any] = self.counted_scores(totals)
        out = {name: computed[name] for name in self.settings.metrics if name in computed}
        if "conll" in self.settings.metrics:
            out["conll"] = ConllScore(conll_mean([computed[m].f1 for m in CONLL_PARTS]))
        return out

    @cached_property
    def corpus(self) -> dict[str, Any]:
        """Corpus scores: counts summed over documents, then divided (micro average)."""
        return self.scores_from(self.counts.sum(axis=0))

    @cached_property
    def documents(self) -> list[DocumentScores]:
        return [DocumentScores(n, self.scores_from(row)) for n, row in zip(self.document_names, self.counts)]

    @property
    def signature(self) -> str:
        """One string naming everything that can change a number."""
        return self.settings.signature(len(self.document_names), self.key_digest)

    def to_dict(self, per_doc: bool = False) -> dict[str, Any]:
        """The ``corefeval.score/1`` JSON shape."""
        out: dict[str, Any] = {
            "schema": SCHEMA,
            "signature": self.signature,
            "key": self.key_path,
            "response": self.response_path,
            "corpus": {k: v.to_dict() for k, v in self.corpus.items()},
        }
        if self.alignment:
            total = {k: sum(f[k] for f in self.alignment.values()) for k in next(iter(self.alignment.values()))}
            out["alignment"] = {"total": total, "documents": self.alignment}
        if per_doc:
            out["documents"] = [
                {"name": d.name, "scores": {k: v.to_dict() for k, v in d.scores.items()}} for d in self.documents
            ]
        return out

    def __getitem__(self, metric: str) -> Score | ConllScore:
        return self.corpus[metric]

    def records(self) -> list[dict[str, Any]]:
        """One record (:data:`COLUMNS`) per metric for the corpus (``scope`` ``corpus``, no
        document), then per document and metric. The CoNLL score has only an F1; BLANC's counts
        are its R and P over 1."""
        out = [_record("corpus", None, name, s) for name, s in self.corpus.items()]
        for d in self.documents:
            out += [_record("document", d.name, name, s) for name, s in d.scores.items()]
        return out

    def to_frame(self) -> Any:
        """The records as a pandas DataFrame (pandas is imported here, only when asked for)."""
        try:
            import pandas as pd
        except ImportError:
            from ..core.diagnostics import UsageError

            raise UsageError("to_frame needs pandas (pip install 'corefeval[analysis]')") from None
        return pd.DataFrame(self.records(), columns=list(COLUMNS))

    def __repr__(self) -> str:
        """The corpus scores (R, P and F1 as fractions), not the count arrays and digests."""
        scores = "; ".join(f"{name} {_brief(score)}" for name, score in self.corpus.items())
        n, w = len(self.document_names), len(self.warnings)
        documents = f"{n} document{'' if n == 1 else 's'}, {w} warning{'' if w == 1 else 's'}"
        return f"<ScoreResult {self.key_path} vs {self.response_path}, {documents}: {scores}>"

    def _repr_html_(self) -> str:
        """The corpus scores as an HTML table (percentages, with counts) and the signature, for Jupyter."""
        import html

        from ..core.diagnostics import plural
        from ..core.numbers import count, percent
        from ..core.registry import TITLES

        head = "".join(f"<th>{h}</th>" for h in ("metric", "R", "P", "F1", "recall", "precision"))
        rows = []
        for name, s in self.corpus.items():
            if isinstance(s, ConllScore):
                cells = (TITLES[name], "", "", percent(s.f1), "", "")
            else:
                cells = (TITLES[name], percent(s.recall), percent(s.precision), percent(s.f1), "", "")
                if not s.parts():  # a mean of its parts' F1 (BLANC): its own counts say nothing
                    cells = cells[:4] + (
                        f"{count(s.recall_num)} / {count(s.recall_den)}",
                        f"{count(s.precision_num)} / {count(s.precision_den)}",
                    )
            rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
        caption = f"{plural(len(self.document_names), 'document')}; <code>{html.escape(self.signature)}</code>"
        return (
            f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )


def _record(scope: str, document: str | None, metric: str, s: Any) -> dict[str, Any]:
    if isinstance(s, ConllScore):
        nan = float("nan")
        return dict(zip(COLUMNS, (scope, document, metric, nan, nan, s.f1, nan, nan, nan, nan)))
    return dict(
        zip(
            COLUMNS,
            (
                scope,
                document,
                metric,
                s.recall,
                s.precision,
                s.f1,
                s.recall_num,
                s.recall_den,
                s.precision_num,
                s.precision_den,
            ),
        )
    )


def _brief(score: Any) -> str:
    """``R=0.5000 P=1.0000 F1=0.6667`` (``F1=...`` alone for the CoNLL score)."""
    parts = [
        (label, getattr(score, field, None)) for label, field in (("R", "recall"), ("P", "precision"), ("F1", "f1"))
    ]
    given = [f"{label}={value:.4f}" for label, value in parts if isinstance(value, (int, float))]
    return " ".join(given) if given else repr(score)


def merge(results: Sequence[ScoreResult]) -> ScoreResult:
    """One result from the results of disjoint shards of a corpus, in the given order.

    The shards must have been scored with the same settings; their count rows are stacked, so the
    merged corpus score is exactly the score of the whole corpus scored at once. Shards of language-model
    markup aligned to the key's words each name their own alignment in their settings: the merged
    result names the sum of their documents' alignments, as the whole corpus scored at once does.
    """
    if not results:
        raise ValueError("nothing to merge")
    first = results[0]
    for r in results[1:]:
        if _unaligned(r.settings) != _unaligned(first.settings) or [m.name for m in r.metric_objects] != [
            m.name for m in first.metric_objects
        ]:
            raise ValueError("shards were scored with different settings")
    settings = first.settings
    if settings.aligned is not None and len(results) > 1:
        from ..readers.llm_figures import Figures

        total = sum((Figures(**f) for r in results for f in r.alignment.values()), Figures())
        settings = replace(settings, aligned=total.signature())
    return ScoreResult(
        key_path=first.key_path if len(results) == 1 else f"{len(results)} shards",
        response_path=first.response_path if len(results) == 1 else f"{len(results)} shards",
        document_names=[n for r in results for n in r.document_names],
        metric_objects=first.metric_objects,
        counts=np.concatenate([r.counts for r in results], axis=0),
        settings=settings,
        document_digests=[d for r in results for d in r.document_digests],
        warnings=[w for r in results for w in r.warnings],
        alignment={name: figures for r in results for name, figures in r.alignment.items()},
    )


def _unaligned(settings: Options) -> tuple[Options, bool]:
    """The settings but the alignment they name, and whether they name one."""
    return replace(settings, aligned=None), settings.aligned is not None
