"""``corefeval score ... --by GROUPING``: the score, then its breakdowns (with ``--confidence``, intervals)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.model import Corpus
    from ..core.options import Options
    from ..scoring.crossdoc import LinkCounts
    from ..scoring.results import ScoreResult


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("breakdowns (see the Breakdowns page of the documentation)")
    g.add_argument(
        "--by",
        action="append",
        metavar="GROUPING",
        help="also score groups: genre, length, mention-type, distance, sentence-distance, entity-size, "
        "entity-type, or a regex whose first group (or match) on a document name is its group; repeatable",
    )
    g.add_argument("--manifest", metavar="FILE", help="also score the groups of a 'document<TAB>group' file")
    g.add_argument(
        "--cross-document",
        choices=("all", "topic"),
        help="also score across documents (entities joined by label), all documents or each topic as one "
        "unit, and the response's links by type (within-document, within-subtopic, cross-subtopic, cross-topic)",
    )
    g.add_argument(
        "--topics",
        metavar="REGEX",
        help="topics and subtopics from document names: groups named 'topic' and 'subtopic' "
        "(default: the ECB+ convention, '^(?P<topic>\\d+)_\\d+(?P<subtopic>ecbplus|ecb)')",
    )
    g.add_argument(
        "--mention-type-rule",
        action="append",
        metavar="TYPE=REGEX",
        help="with --by mention-type: type mentions by the first rule whose regex is found in their words "
        "(joined by spaces) instead of by parts of speech; repeatable, in order",
    )


def wanted(args: argparse.Namespace) -> bool:
    return bool(args.by or args.manifest or args.cross_document)


def _check(args: argparse.Namespace) -> None:
    from ..core.diagnostics import UsageError

    if args.format not in ("text", "json", "csv"):
        raise UsageError(f"--by and --manifest print text, json or csv, not {args.format}")
    for option, value in (
        ("--per-doc", args.per_doc),
        ("--doc", args.doc),
        ("--stratify", args.stratify),
        ("--stratify-by-file", args.stratify_by_file),
    ):
        if value:
            raise UsageError(f"{option} cannot be combined with --by or --manifest")
    if args.engine != "local":
        raise UsageError("--by and --manifest score here (--engine local)")
    if args.topics and not args.cross_document:
        raise UsageError("--topics needs --cross-document")
    if args.cross_document and args.format == "csv":
        raise UsageError("--cross-document prints text or json")
    if args.mention_type_rule and "mention-type" not in (args.by or []):
        raise UsageError("--mention-type-rule needs --by mention-type")
    if args.confidence is None and (args.confidence_level is not None or args.seed is not None):
        raise UsageError("--confidence-level and --seed need --confidence")


def run(args: argparse.Namespace, response: str) -> int:
    import json

    from ..core.model import Corpus
    from ..readers import read_with
    from ..report import breakdowns as report
    from ..report.score import render
    from ..scoring.pipeline import score_with
    from ..stats.confidence import DEFAULT_LEVEL, DEFAULT_SEED
    from ..studies.breakdowns import breakdowns, by_manifest, needs_documents, needs_words
    from ..studies.breakdowns.documents import read_manifest
    from .common import emit_warnings, options_from

    _check(args)
    options = options_from(args)
    kinds = list(args.by or [])
    rules = None
    if args.mention_type_rule:
        from ..studies.breakdowns.mention_types import parse_rules

        rules = parse_rules(args.mention_type_rule)
    key: Corpus | str = args.key
    answer: Corpus | str = response
    if needs_documents(kinds):
        from ..studies.breakdowns.pairs import read_pair

        key, answer = read_pair(args.key, response, options, needs_words(kinds))
    elif "length" in kinds or args.cross_document:
        key = read_with(args.key, options, "key")
    if args.cross_document and not isinstance(answer, Corpus):
        assert isinstance(key, Corpus)
        answer = read_with(response, options, "response", key)
    result = score_with(key, answer, options)
    found = breakdowns(
        result,
        kinds,
        key if isinstance(key, Corpus) else None,
        answer if isinstance(answer, Corpus) else None,
        options,
        rules,
    )
    if args.manifest:
        found.append(by_manifest(result, read_manifest(args.manifest)))
    if args.confidence is not None:
        level = args.confidence_level or DEFAULT_LEVEL
        seed = DEFAULT_SEED if args.seed is None else args.seed
        found = [b.with_intervals(args.confidence, level, seed) for b in found]
    emit_warnings(result.warnings)
    across = None
    if args.cross_document:
        assert isinstance(key, Corpus) and isinstance(answer, Corpus)
        across = _across(key, answer, options, args.cross_document, args.topics)
    if args.format == "json":
        out = report.to_dict(result, found)
        if across is not None:
            joined, links = across
            out["cross_document"] = {
                "unit": args.cross_document,
                "score": joined.to_dict(),
                "links": {t: {"key": c.key, "response": c.response, "common": c.common} for t, c in links.items()},
            }
        sys.stdout.write(json.dumps(out, indent=1) + "\n")
    elif args.format == "csv":
        sys.stdout.write(report.csv_table(result, found))
    else:
        sys.stdout.write(render(result, "text", False) + ("\n" + report.text(found) if found else ""))
        if across is not None:
            joined, links = across
            unit = "all documents as one unit" if args.cross_document == "all" else "each topic as one unit"
            sys.stdout.write(f"\nAcross documents ({unit}):\n" + render(joined, "text", False))
            sys.stdout.write("\n" + report.links_text(links))
    return 0


def _across(
    key: Corpus, response: Corpus, options: Options, unit: str, pattern: str | None
) -> tuple[ScoreResult, dict[str, LinkCounts]]:
    """The cross-document score of the joined corpora and the link counts by type."""
    from ..scoring.crossdoc import ECB_PLUS, joined, link_counts, topics
    from ..scoring.pipeline import score_with

    rx = pattern or ECB_PLUS
    units = None
    if unit == "topic":
        place = dict(zip([d.name for d in key.documents], topics([d.name for d in key.documents], rx)))
        units = [place[d.name][0] for d in key.documents]
        response_units = [place.get(d.name, (f"({d.name})", ""))[0] for d in response.documents]
    else:
        response_units = None
    result = score_with(joined(key, units), joined(response, response_units), options)
    return result, link_counts(key, response, rx)
