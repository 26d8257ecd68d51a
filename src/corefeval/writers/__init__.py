"""Writers turn corpora back into files: CoNLL-2012, CorefUD (CoNLL-U), jsonlines and Universal
Anaphora (which keeps every line and column of a CoNLL-U source).

What a format cannot hold is reported, never silently dropped: CoNLL-2012 and jsonlines have no
empty nodes (zero mentions are left out) and no discontinuous mentions (their covering span is
written); CoNLL-2012 has no heads.
"""

from __future__ import annotations

from ..core.diagnostics import Diagnostic, UsageError
from ..core.model import Corpus

FORMATS = ("conll2012", "corefud", "jsonlines", "ua")


def render(corpus: Corpus, fmt: str, source: str | None = None) -> tuple[str, list[Diagnostic]]:
    """The text of ``corpus`` in ``fmt`` and what could not be written exactly; ``source``: the
    text ``corpus`` was read from, whose every line and column Universal Anaphora keeps (a CoNLL-U
    source: CorefUD or UA)."""
    if fmt == "conll2012":
        from .conll2012 import write_conll2012 as writer
    elif fmt == "corefud":
        from .corefud import write_corefud as writer
    elif fmt == "jsonlines":
        from .jsonlines import write_jsonlines as writer
    elif fmt == "ua":
        from .ua import write_ua

        text, notes = write_ua(corpus, source)
        return text, notes
    else:
        raise UsageError(f"unknown output format '{fmt}' (choose from {', '.join(FORMATS)})")
    text, notes = writer(corpus)
    if fmt != "ua" and corpus.format == "ua":
        from .ua import lost_layers

        notes = [*notes, *lost_layers(corpus, fmt)]
    return text, notes
