"""The names of the input formats, known to the readers and to the options that choose one."""

from __future__ import annotations

#: Input formats; ``auto`` detects the format from the content.
FORMATS = (
    "auto",
    "conll2012",
    "corefud",
    "jsonlines",
    "predictions",
    "spacy",
    "text2text",
    "text2text-json",
    "wl-coref",
    "preco",
    "stanza",
    "markdown-links",
    "xml-tags",
    "seq2seq",
    "ua",
)

__all__ = ["FORMATS"]
