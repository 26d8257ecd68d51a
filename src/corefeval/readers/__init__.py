"""Readers turn files into corpora of documents; ``read`` picks one by name or by sniffing."""

from __future__ import annotations

from ..diagnostics import UsageError
from ..model import Corpus
from .conll2012 import read_conll2012, read_text

FORMATS = ("conll2012",)


def detect_format(path: str, text: str) -> str:
    """Name the format of ``text``; CoNLL-2012 unless another reader recognises it."""
    return "conll2012"


def read(path: str, format: str = "auto", keep_tokens: bool = False, lenient: bool = False) -> Corpus:
    """Read ``path`` as ``format`` (``auto`` sniffs the content); ``keep_tokens`` keeps the words;
    ``lenient`` turns unreadable coreference fields into warnings."""
    text = read_text(path)
    fmt = detect_format(path, text) if format == "auto" else format
    if fmt == "conll2012":
        return read_conll2012(path, text, keep_tokens, lenient=lenient)
    raise UsageError(f"unknown format '{format}' (choose from auto, {', '.join(FORMATS)})")
