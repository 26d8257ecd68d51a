"""``corefeval anaphora KEY RESPONSE``: every layer of Universal Anaphora files, with the Universal
Anaphora scorer's numbers (identity with split antecedents, non-referring, bridging, deixis)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .common import add_quiet_argument

if TYPE_CHECKING:
    from ..anaphora.model import UADocument
    from ..anaphora.ua_sides import UASettings
    from ..core.diagnostics import Diagnostic
    from ..core.model import Document
    from ..metrics.ua.scores import UAScores
    from ..scoring.ua_corpus import DocumentCounts

MEASURES = ("lea", "muc", "bcub", "ceafe", "ceafm", "blanc", "non-referring", "bridging")
#: Also accepted: the bridging measures one by one.
BRIDGING = ("bridging-ar", "bridging-fbm", "bridging-fbe")
#: The names ``score -m`` gives the measures, accepted too (``all``: every measure; ``conll``: its
#: three parts, with which the CoNLL score is printed).
METRICS = {
    "ua-lea": "lea",
    "ua-muc": "muc",
    "ua-bcub": "bcub",
    "ua-ceafe": "ceafe",
    "ua-ceafm": "ceafm",
    "ua-blanc": "blanc",
    "nonref": "non-referring",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", metavar="KEY", help="the key file (Universal Anaphora, or CorefUD: SplitAnte, Bridge)")
    p.add_argument("response", metavar="RESPONSE", help="the response file")
    p.add_argument(
        "--preset",
        choices=("crac18", "craft19", "codicrac22ar", "codicrac22br", "codicrac22dd"),
        help="a shared task's setting (measures and options; see docs/anaphora.md)",
    )
    p.add_argument(
        "-m",
        "--metric",
        "--metrics",
        action="append",
        metavar="METRIC",
        help=f"measure to report (repeatable or comma-separated): {', '.join(MEASURES)}, each bridging form "
        f"({', '.join(BRIDGING)}), score's names ({', '.join(METRICS)}), conll (its three parts), or all (default)",
    )
    p.add_argument("--format", choices=("text", "json", "csv"), default="text", help="output format (default: text)")
    p.add_argument("--per-doc", action="store_true", help="also report every document")
    p.add_argument("--singletons", choices=("keep", "remove"), help="score entities of one markable (default: keep)")
    p.add_argument("--split-antecedents", choices=("keep", "remove"), help="score split antecedents (default: keep)")
    p.add_argument("--match", choices=("exact", "min"), help="exact spans, or within the key markable covering its Min")
    p.add_argument("--discourse-deixis", action="store_true", help="score the DISCOURSE_DEIXIS layer instead")
    p.add_argument(
        "--words",
        choices=("check", "warn", "ignore"),
        default="check",
        help="a response whose words differ from the key's: an error, as the UA scorer refuses it (default), a "
        "warning, or nothing",
    )
    p.add_argument(
        "--only-split-antecedents",
        action="store_true",
        help="score the alignment of split antecedents alone (text output)",
    )
    add_quiet_argument(p)


def settings(args: argparse.Namespace) -> tuple[tuple[str, ...], UASettings, str]:
    """The measures, the :class:`~corefeval.anaphora.ua_sides.UASettings` and the signature."""
    from dataclasses import replace

    from ..anaphora.ua_sides import UASettings
    from ..core.diagnostics import UsageError
    from ..scoring.presets_ua import ua_preset

    measures: tuple[str, ...] = MEASURES
    options = UASettings()
    if args.preset:
        chosen = ua_preset(args.preset)
        measures, options = chosen.metrics, chosen.options
    if args.metric:
        measures = _chosen(args.metric)
    if args.only_split_antecedents and args.format != "text":
        raise UsageError(
            "--only-split-antecedents is printed as text only (its BLANC takes the parts that the identity "
            "counts have, which the counts of the split antecedents alone do not show)"
        )
    if args.singletons:
        options = replace(options, keep_singletons=args.singletons == "keep")
    if args.split_antecedents:
        options = replace(options, keep_split_antecedents=args.split_antecedents == "keep")
    if args.match:
        options = replace(options, min_spans=args.match == "min")
    if args.discourse_deixis:
        options = replace(options, layer="deixis")
    if args.only_split_antecedents or options.layer == "deixis":
        options = replace(options, keep_singletons=True, keep_split_antecedents=True, keep_non_referring=False)
    if any(m.startswith("non-referring") for m in measures) and options.layer == "identity":
        options = replace(options, keep_non_referring=True)
    if not options.keep_singletons and options.keep_split_antecedents:
        raise UsageError("split antecedents need singletons (an element of a plural may be a singleton)")
    signature = (
        f"preset:{args.preset or 'none'}|layer:{options.layer}|match:{'min' if options.min_spans else 'exact'}"
        f"|singletons:{'keep' if options.keep_singletons else 'remove'}"
        f"|split:{'only' if args.only_split_antecedents else 'keep' if options.keep_split_antecedents else 'remove'}"
    ) + (f"|words:{args.words}" if getattr(args, "words", "check") != "check" else "")
    return measures, options, signature


def _chosen(given: list[str]) -> tuple[str, ...]:
    """The measures ``-m`` names (each option repeatable and comma-separated), in the order given."""
    from ..core.diagnostics import UsageError

    out: list[str] = []
    for name in (m.strip().lower() for value in given for m in value.split(",")):
        if not name:
            continue
        if name not in MEASURES + BRIDGING + tuple(METRICS) + ("all", "conll"):
            raise UsageError(f"unknown measure '{name}' (choose from {', '.join(MEASURES)}, conll, or all)")
        named = {"all": MEASURES, "conll": ("muc", "bcub", "ceafe")}.get(name, (METRICS.get(name, name),))
        for m in named:
            if m not in out:
                out.append(m)
    return tuple(out)


def run(args: argparse.Namespace) -> int:
    """Score the measures and print them in ``--format`` (every document too, with ``--per-doc``)."""
    from .._version import version
    from ..metrics.ua.scores import BRIDGING_FORMS

    measures, options, signature = settings(args)
    keys, responses = _read(args)
    counts = _counted(args.key, keys, responses, options)
    signature = f"corefeval:{version()}|{signature}|docs:{len(keys)}"
    names = [n for m in measures for n in (BRIDGING_FORMS if m == "bridging" else (m,))]
    if args.format == "text":
        sys.stdout.write(
            _text(counts, names, args.only_split_antecedents, args.per_doc) + f"\nsignature: {signature}\n"
        )
        return 0
    from ..report.score import render
    from ..scoring.ua_corpus import score_result

    result = score_result(counts, names, options, (args.key, args.response), signature)
    sys.stdout.write(render(result, args.format, args.per_doc))
    return 0


def _read(args: argparse.Namespace) -> tuple[list[UADocument], list[UADocument]]:
    """The key's and the response's documents (files of another format converted), their warnings
    and those of the pairing and the word check printed."""
    from contextlib import closing

    from ..readers import detect_format, read
    from ..readers.sources import input_blocks, whole
    from ..readers.ua import read_ua_documents
    from ..readers.utf8 import decode
    from .common import emit_warnings

    corpora = []
    for path in (args.key, args.response):
        with closing(input_blocks(path)) as blocks:
            text = decode(path, whole(path, blocks))
        if detect_format(path, text) == "ua":  # read without its identity layers as documents
            layers = read_ua_documents(path, text)
            emit_warnings(layers.warnings)
            corpora.append(layers.documents)
            continue
        from ..writers.ua import anaphora_documents  # another format (CorefUD: SplitAnte, Bridge)

        documents, notes = anaphora_documents(read(path))
        emit_warnings(notes)
        corpora.append(documents)
    emit_warnings(_pairing(args.key, corpora[0], args.response, corpora[1]))
    emit_warnings(_word_check(args.key, corpora[0], args.response, corpora[1], args.words))
    return corpora[0], corpora[1]


def _counted(key: str, keys: list[UADocument], responses: list[UADocument], options: UASettings) -> DocumentCounts:
    """Every shared document's counts; a document that cannot be counted is an error located at its
    first markable in the key."""
    from ..core.diagnostics import CountingError
    from ..scoring.ua_corpus import document_rows

    try:
        return document_rows(keys, responses, options)
    except CountingError as err:
        doc = next((d for d in keys if d.name == err.document), None)
        lines = [m.line for m in (doc.identity + doc.deixis if doc is not None else ())]
        raise err.located(key, min(lines, default=0)) from None


def _text(counts: DocumentCounts, names: list[str], only_split_antecedents: bool, per_doc: bool) -> str:
    """The measures' table (every document's before the corpus's, with ``per_doc``)."""
    from ..core.diagnostics import printable
    from ..metrics.ua.scores import corpus_scores

    out = []
    if per_doc:
        for i, name in enumerate(counts.names):
            scores = corpus_scores({m: rows[i] for m, rows in counts.counts.items()}, only_split_antecedents)
            out += [f"document {printable(name)}", _table(scores, names), ""]
        out.append(f"corpus ({len(counts.names)} document{'' if len(counts.names) == 1 else 's'})")
    out.append(_table(corpus_scores(counts.total(), only_split_antecedents), names))
    return "\n".join(out) + "\n"


def _table(result: UAScores, names: list[str]) -> str:
    """Recall, precision and F1 of ``names`` (and CoNLL with its three parts), in percent."""
    lines = [f"{'measure':<15} {'recall':>8} {'precision':>9} {'F1':>8}"]
    for name in names:
        r, p, f1 = result.scores[name]
        lines.append(f"{name:<15} {100 * r:8.2f} {100 * p:9.2f} {100 * f1:8.2f}")
    if all(m in names for m in ("muc", "bcub", "ceafe")):
        lines.append(f"{'CoNLL':<15} {'':>8} {'':>9} {100 * result.conll:8.2f}")
    return "\n".join(lines)


def _word_check(
    key: str, keys: list[UADocument], response: str, responses: list[UADocument], words: str
) -> list[Diagnostic]:
    """What ``--words`` says of a response whose words differ from the key's (``check``: an error,
    as the UA scorer refuses it; see :mod:`corefeval.matching.word_check`); a response read from another
    format carries no words here."""
    from ..core.model import Corpus
    from ..matching.word_check import word_diagnostics

    by_name = {d.name: d for d in responses}
    pairs: list[tuple[Document, Document | None]] = [
        (_words_only(k), _words_only(by_name[k.name])) for k in keys if k.name in by_name
    ]
    return word_diagnostics(pairs, Corpus(key, [], format="ua"), Corpus(response, [], format="ua"), words)


def _words_only(doc: UADocument) -> Document:
    """A document of ``doc``'s words (their fingerprints) and no mentions: what the word check reads."""
    from dataclasses import replace

    from ..core.model import make_document

    return replace(make_document(doc.name, [], n_tokens=doc.n_tokens), forms=doc.forms, begin_line=doc.line)


def _pairing(key: str, keys: list[UADocument], response: str, responses: list[UADocument]) -> list[Diagnostic]:
    """What every command says of documents on one side only (a response sharing none with the key
    is an error); a key document without a response is skipped, as the UA scorer skips it."""
    from ..core.pairing import pair_names, pairing_warnings

    def lines(docs: list[UADocument]) -> dict[str, int]:
        return {d.name: d.first_line() for d in docs}

    key_lines, response_lines = lines(keys), lines(responses)
    paired = pair_names(key_lines, response_lines, other_format=False)
    return pairing_warnings(
        key, key_lines, response, response_lines, paired, missing_rule="skipped, as the UA scorer skips it"
    )
