"""``corefeval report KEY RESPONSE [RESPONSE ...] -o report.html``: one self-contained HTML report,
and next to it an error view per system (``--no-errors``: the report alone).

Everything is computed before anything is written, so that a refusal leaves no file behind; without
matplotlib the page keeps its tables and says how to get the charts.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from .common import add_option_arguments, add_quiet_argument, check_outputs, emit_warnings, options_from, write_output

if TYPE_CHECKING:
    from ..core.model import Corpus
    from ..core.options import Options
    from ..report.html_report import Tests
    from ..scoring.results import ScoreResult
    from ..stats.confidence import ConfidenceIntervals

DEFAULT_BY = ("genre", "length")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("key", help="the gold file")
    p.add_argument("responses", nargs="+", metavar="RESPONSE", help="system files; the first is the baseline")
    p.add_argument("-o", "--output", required=True, metavar="OUT.html", help="the page to write")
    p.add_argument(
        "--names",
        metavar="A,B,...",
        help="system names (default: the file names without their extension, with as many of their "
        "folders as it takes to tell them apart)",
    )
    p.add_argument(
        "--by",
        action="append",
        metavar="GROUPING",
        help=f"a breakdown to chart (as for 'corefeval score --by'); repeatable (default: {', '.join(DEFAULT_BY)})",
    )
    p.add_argument("--resamples", type=int, default=1000, metavar="N", help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=int, default=12345, help="random seed of the resampling (default 12345)")
    p.add_argument("--no-errors", action="store_true", help="leave out the error analysis (and the error view pages)")
    add_option_arguments(p)
    add_quiet_argument(p)


def system_names(paths: Sequence[str]) -> list[str]:
    """A distinct name per response: its file's stem; where stems repeat, the fewest trailing folders
    that tell the files apart (``a/system``, ``b/system``), else the file name (``sys.conll``,
    ``sys.conllu``); the same path given twice is told apart by its position (``sys (2)``)."""
    parts = [PurePath(p).parts for p in paths]
    names = [PurePath(p).stem for p in paths]
    for stem in {n for n in names if names.count(n) > 1}:
        same = [i for i, n in enumerate(names) if n == stem]
        for i, name in zip(same, _distinct_tails([parts[i] for i in same])):
            names[i] = name
    return names


def _distinct_tails(paths: list[tuple[str, ...]]) -> list[str]:
    longest = max(map(len, paths))
    for ext in (False, True):
        for k in range(1, longest + 1):
            tails = [_tail(p, k, ext) for p in paths]
            if len(set(tails)) == len(tails):
                return tails
    whole = ["/".join(p) for p in paths]
    return [f"{w} ({whole[:i].count(w) + 1})" if w in whole[:i] else w for i, w in enumerate(whole)]


def _tail(parts: tuple[str, ...], k: int, ext: bool) -> str:
    """The last ``k`` parts of a path, ``/``-separated, the file name without its extension unless ``ext``."""
    last = parts[-1] if ext else PurePath(parts[-1]).stem
    return "/".join((*parts[-k:-1], last)) if k > 1 else last


def _scores(
    key: Corpus, responses: list[Corpus], names: list[str], options: Options, args: argparse.Namespace
) -> tuple[list[ScoreResult], list[ConfidenceIntervals], list[Tests], str]:
    """Each system's result and intervals, the paired tests of each against the first, and the
    signature."""
    from ..report.html_report import Tests
    from ..scoring.pipeline import score_with
    from ..stats.compare import compare
    from ..stats.confidence import confidence_intervals

    if len(responses) == 1:
        result = score_with(key, responses[0], options)
        return [result], [confidence_intervals(result, args.resamples, seed=args.seed)], [], result.signature
    comparison = compare(
        key, responses[0], responses[1:], options=options, names=names, resamples=args.resamples, seed=args.seed
    )
    tests = [
        Tests(
            s.name,
            {m: iv.estimate for m, iv in s.tests.difference.items()},
            s.tests.paired_bootstrap,
            s.tests.approximate_randomization,
        )
        for s in comparison.systems[1:]
        if s.tests is not None
    ]
    systems = comparison.systems
    return [s.result for s in systems], [s.confidence for s in systems], tests, comparison.signature


def run(args: argparse.Namespace) -> int:
    from ..core.diagnostics import Diagnostic, UsageError
    from ..readers import read_with
    from ..report.charts import available
    from ..report.html_report import NO_CHARTS, System, page, wants_charts
    from ..studies.breakdowns import Breakdown, breakdowns, needs_documents, needs_words

    names = args.names.split(",") if args.names else system_names(args.responses)
    if len(names) != len(args.responses) or len(set(names)) != len(names):
        raise UsageError(f"--names needs {len(args.responses)} distinct names, one per response")
    stem = Path(args.output)
    views = [str(stem.with_name(f"{stem.stem}-errors-{i}.html")) for i in range(1, len(args.responses) + 1)]
    check_outputs([args.output] + ([] if args.no_errors else views), [args.key, *args.responses])
    options = options_from(args)
    kinds = list(args.by or DEFAULT_BY)
    words = needs_words(kinds) or (needs_documents(kinds) and not args.no_errors)  # the error view shows words
    key = read_with(args.key, options, "key", keep_tokens=words)
    emit_warnings(key.warnings)
    # each response is read once, for its scores, its breakdowns and its error analysis
    responses = [read_with(path, options, "response", key, keep_tokens=words) for path in args.responses]
    results, intervals, tests, signature = _scores(key, responses, names, options, args)
    for r in results:
        emit_warnings(r.warnings)
    grouped: dict[str, list[Breakdown]] = {k: [] for k in kinds}
    systems = []
    pages: list[tuple[str, str]] = []  # written once everything is computed
    for i, (response, name, result, ci) in enumerate(zip(responses, names, results, intervals)):
        for kind, b in zip(kinds, breakdowns(result, kinds, key, response, options)):
            grouped[kind].append(b.with_intervals(args.resamples, seed=args.seed))
        errors = view = None
        if not args.no_errors:
            from ..report.errors_html import page as error_page
            from ..studies.errors.analysis import analyse

            analysis = analyse(key, response, costs=False, options=options)
            errors = analysis.counts
            pages.append((views[i], error_page(analysis, f"errors of {name}")))
            view = Path(views[i]).name
        systems.append(System(name, result, ci, errors, view))
    drawn = wants_charts(grouped) and available()
    if wants_charts(grouped) and not drawn:
        plain = NO_CHARTS.replace("<code>", "").replace("</code>", "")
        emit_warnings([Diagnostic(args.output, 0, f"the report has its tables but no charts. {plain}")])
    pages.append((args.output, page(systems, tests, grouped, signature, drawn=drawn)))
    for path, text in pages:
        write_output(path, text)
    return 0
