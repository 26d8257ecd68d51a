"""Score one key and response under many run options at once, reading each file once.

Work is shared where the numbers allow it:

* both files are read once, whatever the number of variants;
* singletons are removed from every document once, and the corpora without singletons serve every
  match mode that removes them (but head matching of files where a mention's words recur in its
  entity with another head: such a copy counts as a mention before singletons are removed);
* exact matching of those corpora is the plain alignment, counted many documents at a time;
* when neither file has a zero (a mention headed by an empty node), matching zeros by their
  dependencies pairs nothing, so ``zeros=dependent`` is scored once with ``zeros=include``;
* variants that differ only in the preset named are scored once.

Each result is the one :func:`corefeval.score` gives for the same options (the tests compare them),
with its own options and signature.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..core.diagnostics import UsageError
from ..core.empty_nodes import EMPTY
from ..core.model import Corpus
from ..core.options import Options
from ..core.warning_summary import warn
from ..matching.selection import remove_singletons
from .pipeline import document_digests, load_corpus, score_with
from .results import ScoreResult

#: Options that decide how the files are read: the same for every variant of one run.
READING = ("key_format", "response_format", "lenient", "heads")


def score_variants(
    key: Corpus | str, response: Corpus | str, variants: Sequence[Options], doc: str | None = None
) -> list[ScoreResult]:
    """One result per options in ``variants`` (in order), from one reading of ``key`` and ``response``."""
    if not variants:
        raise UsageError("no variant to score")
    first = variants[0]
    for opts in variants[1:]:
        for name in READING:
            if getattr(opts, name) != getattr(first, name):
                raise UsageError(f"variants read the files differently ({name}); score them separately")
    key_corpus = load_corpus(key, first, "key")
    response_corpus = load_corpus(response, first, "response", key_corpus)
    zeros = has_zeros(key_corpus) or has_zeros(response_corpus)
    copies = has_head_copies(key_corpus) or has_head_copies(response_corpus)
    without: tuple[Corpus, Corpus] | None = None
    done: dict[Options, ScoreResult] = {}
    out = []
    for opts in variants:
        run = replace(opts, preset=None)
        if run.zeros == "dependent" and not zeros:
            run = replace(run, zeros="include")
        if run not in done:
            # coval's mention options take singletons out before their own filters: the shared
            # corpora without singletons cannot serve them
            shared = not (run.pad_key or run.syntactic or (run.match == "head" and copies))
            if run.singletons == "remove" and run.zeros != "exclude" and shared:
                if without is None:
                    without = (singletons_removed(key_corpus), singletons_removed(response_corpus))
                result = score_with(*without, replace(run, singletons="keep"), doc)
                originals = key_corpus.by_name()
                result.document_digests = document_digests([originals[n] for n in result.document_names])
            else:
                result = score_with(key_corpus, response_corpus, run, doc)
            done[run] = result
        out.append(_as_run(done[run], opts))
    warn([w for r in out for w in r.warnings])
    return out


def _as_run(result: ScoreResult, opts: Options) -> ScoreResult:
    """``result`` reported as ``opts`` asked (their metrics, preset and mention options)."""
    formats = result.settings
    settings = replace(opts, key_format=formats.key_format, response_format=formats.response_format)
    return replace(result, settings=settings.for_key(formats.key_format))


def has_zeros(corpus: Corpus) -> bool:
    """Whether a mention of ``corpus`` is headed by an empty node (a zero)."""
    return any(d.heads is not None and bool((d.heads >= EMPTY).any()) for d in corpus.documents)


def has_head_copies(corpus: Corpus) -> bool:
    """Whether a document of ``corpus`` repeats a mention's words in its entity with another head:
    under head matching such a copy is a mention of its own, added before singletons are removed,
    so the shared corpora without singletons (made without the copies) cannot serve that mode."""
    return any(getattr(d, "head_copies", None) for d in corpus.documents)


def singletons_removed(corpus: Corpus) -> Corpus:
    """``corpus`` whose documents have no entity of one mention."""
    return replace(corpus, documents=[remove_singletons(d) for d in corpus.documents])
