"""Breakdowns of a score: by document group, by mention group (anaphors) and by entity group.

:func:`breakdown` is the one entry: a grouping name (``genre``, ``length``, ``mention-type``,
``distance``, ``sentence-distance``, ``entity-size``, ``entity-type``) or any other string as a
regular expression over document names. Document groupings sum the rows of a scoring result;
mention and entity groupings make one counting pass over the aligned documents (see
:mod:`corefeval.studies.breakdowns.pairs`). The definitions are stated in ``docs/breakdowns.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...core.model import Corpus
from ...core.options import Options
from ...scoring.results import ScoreResult
from .documents import GENRE, document_breakdown, length_breakdown, manifest_groups, pattern_groups
from .groups import Breakdown

if TYPE_CHECKING:  # mention and entity groupings are imported when asked for (they need scipy)
    from .mention_types import Rules
    from .pairs import AlignedPair

DOCUMENT_KINDS = ("genre", "length")
MENTION_KINDS = ("mention-type", "distance", "sentence-distance")
ENTITY_KINDS = ("entity-size", "entity-type")
KINDS = DOCUMENT_KINDS + MENTION_KINDS + ENTITY_KINDS

__all__ = [
    "DOCUMENT_KINDS",
    "KINDS",
    "Breakdown",
    "breakdown",
    "breakdowns",
    "by_manifest",
    "needs_documents",
    "needs_words",
]


def needs_documents(kinds: Sequence[str]) -> bool:
    """Whether some grouping counts from the documents' mentions (not only the count rows)."""
    return any(k in MENTION_KINDS or k in ENTITY_KINDS for k in kinds)


def needs_words(kinds: Sequence[str]) -> bool:
    """Whether some grouping needs the documents' words and parts of speech (mention types)."""
    return "mention-type" in kinds


def breakdown(
    result: ScoreResult,
    by: str,
    key: Corpus | None = None,
    response: Corpus | None = None,
    *,
    pairs: Sequence[AlignedPair] | None = None,
    rules: Rules | None = None,
) -> Breakdown:
    """The breakdown of ``result`` by one grouping. ``length`` needs the ``key`` corpus, mention
    and entity groupings both corpora (read with their words, as by
    :func:`corefeval.studies.breakdowns.pairs.read_pair`); ``pairs`` saves aligning them again."""
    from ...core.diagnostics import UsageError

    if by == "genre":
        return document_breakdown(result, "genre", pattern_groups(result.document_names, GENRE))
    if by not in KINDS:
        return document_breakdown(result, by, pattern_groups(result.document_names, by))
    if key is None or (by != "length" and response is None):
        raise UsageError(f"the '{by}' breakdown needs the documents, not only a score")
    if by == "length":
        lengths = {d.name: d.n_tokens for d in key}
        return length_breakdown(result, [lengths[n] for n in result.document_names])
    assert response is not None
    from .entities import size_breakdown, type_breakdown
    from .mentions import corpus_sentences, distance_breakdown, mention_type_breakdown
    from .pairs import aligned_pairs

    pairs = aligned_pairs(key, response, result.settings) if pairs is None else pairs
    if by == "mention-type":
        return mention_type_breakdown(result, pairs, rules)
    if by == "distance":
        return distance_breakdown(result, pairs)
    if by == "sentence-distance":
        sentences = corpus_sentences(key)
        if sentences is None:
            raise UsageError(
                f"{key.path}: the distance in sentences needs the key's sentence boundaries, which "
                f"{key.format} files {'in subtokens ' if key.format == 'jsonlines' else ''}do not give "
                "(CoNLL-2012, CorefUD and jsonlines files in words do); try 'distance' (in tokens)"
            )
        return distance_breakdown(result, pairs, sentences)
    if by == "entity-size":
        return size_breakdown(result, pairs)
    return type_breakdown(result, pairs, key, response)


def by_manifest(result: ScoreResult, manifest: Mapping[str, str]) -> Breakdown:
    """Documents grouped as a manifest (document name to group) says; unnamed ones are ``(other)``."""
    return document_breakdown(result, "manifest", manifest_groups(result.document_names, manifest))


def breakdowns(
    result: ScoreResult,
    kinds: Sequence[str],
    key: Corpus | None = None,
    response: Corpus | None = None,
    options: Options | None = None,
    rules: Rules | None = None,
) -> list[Breakdown]:
    """Every breakdown asked for, aligning the documents once for all mention and entity groupings."""
    pairs = None
    if needs_documents(kinds) and key is not None and response is not None:
        from .pairs import aligned_pairs

        pairs = aligned_pairs(key, response, options or result.settings)
    return [breakdown(result, k, key, response, pairs=pairs, rules=rules) for k in kinds]
