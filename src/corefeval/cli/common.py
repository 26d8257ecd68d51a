"""What the subcommands share: the run options (built into one :class:`~corefeval.core.options.Options`),
warnings on stderr, and writing output files that are never an input (see :mod:`corefeval.core.output`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..core.format_names import FORMATS
from ..core.options import AUTO, CHOICES, Options
from ..core.output import check_output, check_outputs, write_output
from ..core.preset_names import NAMES
from ..core.registry import ALL
from ..core.warning_summary import FEW, WarningSummary

PRESET_NAMES = NAMES

__all__ = [
    "add_option_arguments",
    "add_quiet_argument",
    "check_output",
    "check_outputs",
    "emit_warnings",
    "finish_warnings",
    "options_from",
    "start_warnings",
    "write_output",
]

if TYPE_CHECKING:
    from ..core.diagnostics import Diagnostic


def add_option_arguments(p: argparse.ArgumentParser, metrics: bool = True) -> None:
    """The options of one run (see :class:`corefeval.core.options.Options`)."""
    g = p.add_argument_group("run options (the same for every command that scores)")
    if metrics:
        g.add_argument(
            "-m",
            "--metric",
            action="append",
            metavar="METRIC",
            help=f"metric to report (repeatable or comma-separated): {', '.join(ALL)}, or all (default)",
        )
    g.add_argument(
        "--blanc",
        choices=CHOICES["blanc"],
        default=None,
        help="BLANC boundary cases: as the reference scorer, as the paper defines them, or as the Universal "
        "Anaphora scorer decides them; auto (default): ua for a UA key, else reference (in the signature)",
    )
    g.add_argument("--key-format", choices=FORMATS, default="auto", help="format of the key (default: auto)")
    g.add_argument("--response-format", choices=FORMATS, default="auto", help="format of the response (default: auto)")
    g.add_argument(
        "--singletons",
        choices=CHOICES["singletons"],
        default="keep",
        help="keep entities with one mention (default, as the reference) or remove them (CRAC)",
    )
    g.add_argument(
        "--match",
        choices=CHOICES["match"],
        default="exact",
        help="mention matching: exact spans (default), same head, or partial (inside the key "
        "mention and containing its head); head and partial need CorefUD heads; min: the same "
        "minimum span, as coval computes it from the key's CoNLL-2012 parse column; craft (Universal "
        "Anaphora files): within the key mention, CRAFT 2019's partial matching",
    )
    g.add_argument(
        "--np-only",
        action="store_true",
        help="leave out verb-phrase mentions, by the key's CoNLL-2012 parse column (coval's NP_only)",
    )
    g.add_argument(
        "--remove-nested",
        action="store_true",
        help="leave out mentions inside another mention of their entity (coval's remove_nested)",
    )
    g.add_argument(
        "--zeros",
        choices=CHOICES["zeros"],
        default="include",
        help="empty nodes (CorefUD zeros): score them matched by position (default) or aligned by "
        "their dependencies (CRAC 2024), or leave them out",
    )
    g.add_argument(
        "--repeats",
        choices=CHOICES["repeats"],
        default="auto",
        help="a response span repeated in two entities: every copy kept and looked up in the other side's "
        "last entity holding it, as the CorefUD scorer does (corefud), or copies after one that matched "
        "the key ignored, as the reference scorer does (reference); default: by the key's format "
        "(corefud for CorefUD and Universal Anaphora keys)",
    )
    _add_reading_arguments(g)


def _add_reading_arguments(g: argparse._ArgumentGroup) -> None:
    """The options that decide how the inputs are read: words, heads, presets, markup."""
    g.add_argument(
        "--words",
        choices=CHOICES["words"][1:],
        default="auto",
        help="a response whose words differ from the key's: an error (check), a warning (warn) or nothing "
        "(ignore); default: check under CorefUD and Universal Anaphora keys, as their scorers do, warn "
        "under others, which the reference scorer scores",
    )
    g.add_argument(
        "--heads",
        choices=CHOICES["heads"],
        default=None,
        help="head of a CorefUD mention whose file gives no 'head' field: its first node, as the CorefUD scorer "
        "takes it (default), or its syntactic head from the tree",
    )
    g.add_argument(
        "--preset",
        choices=PRESET_NAMES,
        help="a shared task's primary variant: sets --match, --singletons, --zeros, --blanc and --heads "
        "(in the signature); crac18, craft19 and codicrac22*: the UA scorer's setting and measures of that "
        "task, on Universal Anaphora files",
    )
    g.add_argument(
        "--lenient",
        action="store_true",
        help="read an unreadable coreference field as '-', with a warning, instead of stopping",
    )
    g.add_argument(
        "--llm-marks",
        choices=CHOICES["llm_marks"],
        default="move",
        help="text2text-coref markup: a mention boundary on a word the model added moves to the nearest "
        "aligned word (default), or the markup is scored as the CRAC LLM track's pipeline scores it (official)",
    )
    g.add_argument(
        "--max-edits",
        type=float,
        default=None,
        metavar="SHARE",
        help="text2text-coref markup: a document whose word alignment edits more than this share of the "
        "key's words is an error (default: 0.25; no limit with --llm-marks official)",
    )
    g.add_argument(
        "--pad-key",
        action="store_true",
        help="add response mentions missing from the key to it as singletons (scorch 0.2 behaviour)",
    )


def add_quiet_argument(p: argparse.ArgumentParser) -> None:
    """``--quiet``: no progress bar (one is drawn on a terminal's stderr for work longer than a second)."""
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress bar on standard error (shown only on a terminal, for work taking over a second)",
    )


def options_from(args: argparse.Namespace) -> Options:
    """The run options that the command line sets (a ``--preset`` sets the mention options)."""
    options = Options(
        metrics=tuple(getattr(args, "metric", None) or ("all",)),
        blanc=args.blanc or AUTO,
        match=args.match,
        singletons=args.singletons,
        zeros=args.zeros,
        pad_key=args.pad_key,
        np_only=args.np_only,
        remove_nested=args.remove_nested,
        lenient=args.lenient,
        key_format=args.key_format,
        response_format=args.response_format,
        heads=getattr(args, "heads", None) or "first",
        repeats=getattr(args, "repeats", "auto"),
        words=getattr(args, "words", "auto"),
        llm_marks=getattr(args, "llm_marks", "move"),
        max_edits=getattr(args, "max_edits", None),
    )
    name = getattr(args, "preset", None)
    if name is None:
        return options
    from ..core.diagnostics import UsageError
    from ..scoring.presets import preset_options

    if (args.match, args.singletons, args.zeros, args.blanc, getattr(args, "heads", None)) != (
        "exact",
        "keep",
        "include",
        None,
        None,
    ):
        raise UsageError("--preset sets --match, --singletons, --zeros, --blanc and --heads: give none of them with it")
    return preset_options(name, options, metrics_given=bool(getattr(args, "metric", None)))


#: The warnings of the command that runs (see :func:`start_warnings`).
_RUN = WarningSummary()


def start_warnings(verbose: bool) -> None:
    """Begin a command's warnings: each printed once, and past a few of one kind only counted,
    unless ``verbose``."""
    global _RUN
    _RUN = WarningSummary(None if verbose else FEW)


def emit_warnings(warnings: Iterable[Diagnostic]) -> None:
    """Print a command's warnings on standard error, as :func:`start_warnings` says."""
    for w in _RUN.add(warnings):
        print(w, file=sys.stderr)


def finish_warnings() -> None:
    """Print one line for each kind of warning that was only counted."""
    for w in _RUN.summary("--verbose shows every warning"):
        print(w, file=sys.stderr)
