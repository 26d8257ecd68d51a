"""The reference scorer's printed format (scorer.pl v8.01): truncated percentages, TABs, 74-dash rules."""

from __future__ import annotations

from collections.abc import Iterable

from ..core.diagnostics import UsageError, printable
from ..core.model import Corpus, Document, Span
from ..core.numbers import count
from ..core.registry import CONLL_PARTS, REFERENCE
from ..metrics.base import Score
from ..scoring.results import ScoreResult

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


def printed_metrics(metrics: Iterable[str]) -> tuple[str, ...]:
    """The metrics that print ``metrics`` in the reference's format: those it has, and the CoNLL
    score as the three it is the mean of (MUC, B-cubed, CEAFe); nothing to print is a usage error."""
    wanted = set(metrics)
    out = tuple(m for m in REFERENCE if m in wanted or (m in CONLL_PARTS and "conll" in wanted))
    if not out:
        raise UsageError(
            f"the reference format prints {', '.join(REFERENCE)} and conll (as its parts); "
            "mentions alone has no block of its own (every block shows the identification of mentions)"
        )
    return out


def conll_note(result: ScoreResult) -> str:
    """A comment line with the CoNLL score, which the reference leaves to the reader to compute."""
    f1 = result.corpus["conll"].f1 if "conll" in result.corpus else None
    return "" if f1 is None else f"# CoNLL score (mean of the MUC, B-cubed and CEAFe F1): {count(100 * f1)}\n"


def totals(result: ScoreResult, metric: str) -> str:
    """The ``====== TOTALS =======`` block of one metric."""
    scores = result.counted_scores(result.counts.sum(axis=0))
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
    name = printable(doc.name)
    out = [f"====> {name}:", f"File {name}:"]
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
    name = printable(name)
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


def invented(key: Document, response: Document | None) -> int:
    """The reference's ``Invented`` count: new ids handed out after the key's occurrences."""
    from ..matching.alignment import align
    from ..scoring.pipeline import empty_like

    a = align(key, response if response is not None else empty_like(key))
    return key.n_mentions + (a.n_response_ids - a.n_matched) - a.n_key_ids


def by_document(
    key: Corpus,
    response: Corpus,
    result: ScoreResult,
    metrics: tuple[str, ...],
    doc: str | None,
    note: str,
    in_key: set[str] | None = None,
) -> str:
    """What ``scorer.pl METRIC KEY RESPONSE [DOC|none]`` prints for the scored corpora: with
    ``doc`` ``none`` the totals (and the repeated mentions), else each document's block then the
    totals, the document's name first when ``doc`` names one. ``in_key``: the names the key file
    has (default: those of ``key``); the key entities of another document print empty."""
    named = doc is not None and doc != "none"
    responses = response.by_name()
    keys = key.by_name()
    repeats = {n: repeated_lines(keys[n], responses.get(n)) for n in result.document_names}
    if doc == "none" and not any(repeats.values()):
        return corpus_only(result, metrics, note)
    new_ids = {n: invented(keys[n], responses.get(n)) for n in result.document_names} if doc != "none" else {}
    in_key = set(keys) if in_key is None else in_key
    out = [header(note)]
    for metric in metrics:
        if len(metrics) > 1:
            out.append(f"\nMETRIC {metric}:\n")
        for i, name in enumerate(result.document_names):
            if doc == "none":
                out += [line + "\n" for line in repeats[name]]
                continue
            row = result.counts[i]
            out.append(
                verbose_document(
                    name,
                    metric,
                    keys[name] if name in in_key else None,
                    responses.get(name),
                    result.counted_scores(row),
                    Score.from_counts(*row[result.columns["mentions"]]),
                    new_ids[name],
                    repeats[name],
                    named,
                )
            )
        out.append(totals(result, metric))
    return "".join(out)
