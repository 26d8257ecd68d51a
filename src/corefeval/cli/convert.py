"""``corefeval convert IN OUT --to FORMAT``: rewrite a coreference file in another format.

``--to ua`` keeps every line and column of a CoNLL-U input (CorefUD or UA), which is read a second
time for them: standard input is kept from the first read; a pipe or FIFO, which cannot be read
twice, is written without them, with a warning.
"""

from __future__ import annotations

import argparse
import os
import stat
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.diagnostics import Diagnostic
    from ..core.model import Corpus

from .common import check_output, emit_warnings, write_output

FORMATS = ("conll2012", "corefud", "jsonlines", "ua")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="the file to read")
    p.add_argument("output", help="the file to write ('-' for standard output); never the input")
    p.add_argument("--to", required=True, choices=FORMATS, help="output format")
    p.add_argument(
        "--from",
        dest="source_format",
        choices=("auto", *FORMATS),
        default="auto",
        help="input format (default: auto, detected from the content)",
    )
    p.add_argument(
        "--predicted",
        action="store_true",
        help="jsonlines input: convert 'predicted_clusters' instead of 'clusters'",
    )


def run(args: argparse.Namespace) -> int:
    from ..readers import read
    from ..writers import render

    check_output(args.output, [args.input])
    corpus = read(args.input, args.source_format, keep_tokens=True, role="response" if args.predicted else "key")
    notes: list[Diagnostic] = []
    source = _source(args.input, corpus, notes) if args.to == "ua" else None
    text, written = render(corpus, args.to, source)
    emit_warnings([*corpus.warnings, *notes, *written])
    write_output(args.output, text)
    return 0


def _source(path: str, corpus: Corpus, notes: list[Diagnostic]) -> str | None:
    """The text of a CoNLL-U input, read again (see the module docstring)."""
    from ..core.diagnostics import Diagnostic
    from ..readers.conll2012 import decode
    from ..readers.sources import STDIN, read_input

    if corpus.format not in ("corefud", "ua"):
        return None
    if path != STDIN and not stat.S_ISREG(os.stat(path).st_mode):
        notes.append(
            Diagnostic(
                path, 0, "a pipe cannot be read twice: only the words are written, not the other columns and lines"
            )
        )
        return None
    return decode(path, read_input(path))
