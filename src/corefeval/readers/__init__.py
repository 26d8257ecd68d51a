"""Readers turn files into corpora of documents; ``read`` picks one by name or by sniffing."""

from __future__ import annotations

from ..diagnostics import UsageError
from ..model import Corpus
from .conll2012 import read_conll2012, read_text

FORMATS = ("conll2012", "corefud", "jsonlines")


def detect_format(path: str, text: str) -> str:
    """Name the format of ``text``: jsonlines if it starts with ``{``, CorefUD if its first word line
    has the ten CoNLL-U columns with a numeric id (or a ``# newdoc``/``# global.Entity`` comes first),
    CoNLL-2012 otherwise."""
    for line in text.lstrip("\ufeff").split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("{"):
            return "jsonlines"
        if stripped.startswith("#"):
            if stripped.startswith(("# newdoc", "# global.Entity", "# sent_id")):
                return "corefud"
            if "begin document" in stripped:
                return "conll2012"
            continue
        cols = line.rstrip("\r").split("\t")
        ident = cols[0].replace("-", "").replace(".", "")
        return "corefud" if len(cols) == 10 and ident.isdigit() else "conll2012"
    return "conll2012"


def read(
    path: str, format: str = "auto", keep_tokens: bool = False, role: str = "key", lenient: bool = False
) -> Corpus:
    """Read ``path`` as ``format`` (``auto`` sniffs the content); ``keep_tokens`` keeps the words.

    ``role`` (``key`` or ``response``) matters for jsonlines, whose response side is
    ``predicted_clusters`` when a file has them. ``lenient`` (CoNLL-2012) turns unreadable
    coreference fields into warnings.
    """
    if format != "auto" and format not in FORMATS:
        raise UsageError(f"unknown format '{format}' (choose from auto, {', '.join(FORMATS)})")
    text = read_text(path)
    fmt = detect_format(path, text) if format == "auto" else format
    if fmt == "corefud":
        from .corefud import read_corefud

        return read_corefud(path, text, keep_tokens)
    if fmt == "jsonlines":
        from .jsonlines import read_jsonlines

        return read_jsonlines(path, text, keep_tokens, role)
    return read_conll2012(path, text, keep_tokens, lenient=lenient)
