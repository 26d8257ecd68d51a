"""The reference scorer's printed format (scorer.pl v8.01): truncated percentages, TABs, 74-dash rules."""

from __future__ import annotations

from ..metrics.base import Score
from ..model import Document, Span
from ..results import ScoreResult
from .numbers import count

RULE = "-" * 74


def pct(x: float) -> str:
    """Truncate to two decimals and print as Perl's ``%.15g`` does (``50``, ``27.2``, ``66.66``)."""
    return count(int(x * 10000) / 100)


def line(s: Score) -> str:
    return (
        f"Recall: ({count(s.recall_num)} / {count(s.recall_den)}) {pct(s.recall)}%\t"
        f"Precision: ({count(s.precision_num)} / {count(s.precision_den)}) {pct(s.precision)}%\t"
        f"F1: {pct(s.f1)}%"
    )


def totals(result: ScoreResult, metric: str) -> str:
    """The ``====== TOTALS =======`` block of one metric."""
    scores = result.corpus
    mention_score = Score.from_counts(*result.counts.sum(axis=0)[result.columns["mentions"]])
    out = ["", "====== TOTALS =======", f"Identification of Mentions: {line(mention_score)}", RULE]
    s = scores[metric]
    if metric == "blanc":
        out += [
            "",
            "Coreference:",
            f"Coreference links: {line(s.coref)}",
            RULE,
            f"Non-coreference links: {line(s.noncoref)}",
            RULE,
            f"BLANC: {line(s)}",
            RULE,
        ]
    else:
        out += [f"Coreference: {line(s)}", RULE]
    return "\n".join(out) + "\n"


def header(version_note: str) -> str:
    return f"version: 8.01 {version_note}\n"


def corpus_only(result: ScoreResult, metrics: tuple[str, ...], version_note: str) -> str:
    """What ``scorer.pl METRIC KEY RESPONSE none`` prints; several metrics print as ``all`` does."""
    out = [header(version_note)]
    for m in metrics:
        if len(metrics) > 1:
            out.append(f"\nMETRIC {m}:\n")
        out.append(totals(result, m))
    return "".join(out)


def entity_lines(doc: Document | None) -> list[str]:
    """The reference's parse dump of one document: ``Entity i: (s,e) ...`` in entity and row order."""
    if doc is None:
        return ["====> :", "File :"]
    out = [f"====> {doc.name}:", f"File {doc.name}:"]
    for i, cluster in enumerate(doc.clusters()):
        out.append(f"Entity {i}: " + " ".join(f"({s},{e})" for s, e in cluster))
    return out


def identification_lines(mentions: Score, invented: int) -> list[str]:
    k, exact = int(mentions.recall_den), int(mentions.recall_num)
    return [
        f"Total key mentions: {k}",
        f"Total response mentions: {int(mentions.precision_den)}",
        f"Strictly correct identified mentions: {exact}",
        "Partially correct identified mentions: 0",
        f"No identified: {k - exact}",
        f"Invented: {invented}",
    ]


def verbose_document(
    name: str,
    metric: str,
    key: Document | None,
    response: Document | None,
    scores: dict,
    mentions: Score,
    invented: int,
    repeats: list[str],
    named: bool,
) -> str:
    """One document's block of ``scorer.pl METRIC KEY RESPONSE [DOC]`` output."""
    head = entity_lines(key) + entity_lines(response)
    out = [f"{name}:", *head] if named else [*head, f"{name}:"]
    out += repeats
    out += identification_lines(mentions, invented)
    if metric != "blanc":
        out += [line(scores[metric]), RULE]
    return "\n".join(out) + "\n"


def repeated_lines(key: Document, response: Document | None) -> list[str]:
    """The reference's ``Repeated mention ...`` lines for one document, with its id numbering."""
    out: list[str] = []
    key_ids: dict[Span, int] = {}
    for counter, (s, e) in enumerate(_entity_major(key)):
        if (s, e) in key_ids:
            out.append(f"Repeated mention in the key: {s}, {e} {key_ids[s, e]}{counter}")
        key_ids[s, e] = counter
    seen: dict[Span, int] = {}
    for s, e in _entity_major(response) if response is not None else []:
        if (s, e) in seen:
            out.append(f"Repeated mention in the response: {s}, {e} {seen[s, e]}{key_ids[s, e]}")
        elif (s, e) in key_ids:
            seen[s, e] = key_ids[s, e]
    return out


def _entity_major(doc: Document) -> list[Span]:
    return [span for cluster in doc.clusters() for span in cluster]
