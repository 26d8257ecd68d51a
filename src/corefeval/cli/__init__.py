"""The ``corefeval`` command line: one module per subcommand, imported only when it runs."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from ..core.progress import shown
from ..core.warning_summary import FEW

# (name, module under corefeval.cli, one-line help). Each module defines ``add_arguments(parser)``
# and ``run(args) -> int``; heavy imports belong inside ``run`` so that ``--help`` stays fast.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("score", "score", "score a response file against a key file"),
    ("reference", "reference", "drop-in for the reference scorer: METRIC KEY RESPONSE [DOC|none]"),
    (
        "leaderboard",
        "leaderboard",
        "score many datasets under the CRAC variants: one table with macro and micro averages",
    ),
    ("compare", "compare", "compare systems with a baseline: scores, intervals, significance tests"),
    ("errors", "errors", "count a response's errors by type, itemise them, show them on the text"),
    ("bias", "bias", "gender-bias benchmarks: the GAP scorer and WinoBias pro/anti F1"),
    ("report", "report", "one self-contained HTML page: scores, tests, breakdown charts, errors"),
    ("humans", "humans", "compare metrics with human judgments (agreement, differences, regressions, report)"),
    ("anaphora", "anaphora", "score every Universal Anaphora layer with the UA scorer's numbers"),
    ("convert", "convert", "rewrite a file as CoNLL-2012, CorefUD (CoNLL-U), jsonlines or Universal Anaphora"),
    ("validate", "validate", "check files and print every problem as PATH:LINE: message"),
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command (``only``: of that command alone, which is all that parsing a
    command line naming it uses: building every command's parser costs a start-up of tens of
    milliseconds)."""
    parser = _Parser(
        prog="corefeval",
        description="Coreference evaluation with the CoNLL reference scorer's numbers.",
        epilog="exit status (every command): " + "; ".join(f"{k} {v}" for k, v in EXIT_STATUS.items()),
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog=parser.prog)
    for name, module, help_text in COMMANDS:
        if only is not None and only != name:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        importlib.import_module(f"{__name__}.{module}").add_arguments(p)
        if name != "validate":  # validate prints every problem: they are its output
            _add_verbose(p)
        p.set_defaults(_module=module)
    return parser


def _add_verbose(p: argparse.ArgumentParser) -> None:
    """``-v/--verbose`` on ``p``, or on each of its subcommands if it has some."""
    subcommands = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
    for action in subcommands:
        for child in dict.fromkeys(action.choices.values()):
            _add_verbose(child)
    if not subcommands:
        p.add_argument(
            "-v",
            "--verbose",
            action="store_true",
            help=f"print every warning (default: each once, and past {FEW} of one kind one line with the count)",
        )


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, which measures the terminal only when help is printed: argparse
    makes a formatter for every option added, and measuring imports ``shutil`` and, with it, the
    compression libraries."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, 0 if width is None else width)
        self._unmeasured = width is None
        self._widest_position = max_help_position

    def format_help(self) -> str:
        if self._unmeasured:
            import shutil

            self._width = shutil.get_terminal_size().columns - 2
            self._max_help_position = min(self._widest_position, max(self._width - 20, self._indent_increment * 2))
            self._unmeasured = False
        return super().format_help()


class _Parser(argparse.ArgumentParser):
    """An argument parser whose help (and its subcommands' help) is formatted by :class:`_HelpFormatter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


class _Version(argparse.Action):
    """``--version``, read from the package metadata only when asked (reading it takes time)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from .._version import version

        sys.stdout.write(f"corefeval {version()}\n")
        parser.exit()


#: The collector's thresholds while a command runs: a run makes an object or more per document and
#: per mention and almost no reference cycles, and with the defaults (700, 10, 10) a corpus of many
#: documents is searched through again and again as it grows (a third of the time of 100,000 small
#: documents); cycles are still collected, after every 200,000 allocations.
GC_THRESHOLDS = (200_000, 30, 30)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (:data:`EXIT_STATUS`)."""
    before = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        return _main(argv)
    finally:
        gc.set_threshold(*before)


def _main(argv: Sequence[str] | None) -> int:
    # No command does linear algebra large enough for BLAS threads to pay, and starting OpenBLAS's
    # thread pool when numpy loads costs every run about 20 ms (0.1 s of CPU); a value set by the
    # user is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    given = list(sys.argv[1:] if argv is None else argv)
    names = [name for name, _, _ in COMMANDS]
    named = given[0] if given and given[0] in names else None
    if given and named is None and not given[0].startswith("-"):
        from ..core.diagnostics import printable

        print(f"corefeval: error: {printable(_not_a_command(given, names))}", file=sys.stderr)
        return 2
    parser = build_parser(named)
    args = parser.parse_args(given)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    from .common import finish_warnings, start_warnings

    start_warnings(getattr(args, "verbose", False))
    status, error = _run(args)
    finish_warnings()
    if error:
        print(error, file=sys.stderr)
    return status


#: Every command's exit status (``corefeval --help`` prints it; the README's table says the same).
EXIT_STATUS = {
    0: "done",
    1: "an input cannot be scored: a file missing, unreadable or wrong (PATH:LINE: error: ...), or validate "
    "found a problem",
    2: "the command line is wrong: an unknown command or option, options that do not go together, an output that "
    "cannot be written (a full disk included)",
    130: "interrupted",
}


def _run(args: argparse.Namespace) -> tuple[int, str]:
    """Run the command: its exit status, and the one line to print for an error."""
    import warnings

    from ..core.diagnostics import CorefevalWarning, CountingError, InputError, UsageError
    from ..core.output import drop_stdout, guarded_stdout

    try:
        from ..readers.sources import check_one_stdin

        check_one_stdin(_inputs(args))
        with shown(not getattr(args, "quiet", True)), guarded_stdout(), warnings.catch_warnings():
            warnings.simplefilter("ignore", CorefevalWarning)  # the command prints them (emit_warnings)
            status = int(importlib.import_module(f"{__name__}.{args._module}").run(args))
            sys.stdout.flush()
        return status, ""
    except InputError as err:
        return 1, str(err)
    except UsageError as err:
        return 2, f"corefeval {args.command}: error: {err}"
    except CountingError as err:
        return 1, f"corefeval {args.command}: error: {err}"
    except BrokenPipeError:  # the reader of the output stopped (`| head`): not an error
        drop_stdout()
        return 0, ""
    except KeyboardInterrupt:
        return 130, ""


def _not_a_command(given: list[str], names: list[str]) -> str:
    """Why ``corefeval WORD ...`` is refused, and what was likely meant."""
    import difflib
    import shlex

    word = given[0]
    near = difflib.get_close_matches(word, names, n=1)
    if near:
        return f"unknown command '{word}'; did you mean '{near[0]}'? (corefeval --help lists the commands)"
    if not (os.path.exists(word) or any(c in word for c in "./")):
        return f"unknown command '{word}' (choose from {', '.join(names)})"
    files = " ".join(shlex.quote(a) for a in given[:2])
    return (
        f"'{word}' is not a command (choose from {', '.join(names)}); to score a response against a key: "
        f"corefeval score {files}"
    )


def _inputs(args: argparse.Namespace) -> list[str]:
    """The files a command reads (any of which may be ``-``, standard input)."""
    paths = [getattr(args, name, None) for name in ("key", "response", "baseline", "input")]
    for name in ("systems", "files", "responses"):
        given = getattr(args, name, None)
        if isinstance(given, list):  # the leaderboard's --responses is one glob, not a list of files
            paths.extend(given)
    return [p for p in paths if isinstance(p, str)]
