"""The aligned key and response documents that mention and entity groups count from.

Mention and entity groupings need each document's mentions, not only its count row: they read the
two files once (with words and parts of speech for mention types), pair and align the documents exactly as scoring
does (the same options), and then make one counting pass per grouping.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.model import Corpus, Document
from ...core.options import Options
from ...core.pairing import pair_names
from ...matching.alignment import Alignment
from ...scoring.pipeline import aligned_pair, checked_pair, preparation


@dataclass(frozen=True)
class AlignedPair:
    """One key document, its response, their alignment (rows of ``key`` and ``response``, after
    the options' selection and matching), and the original documents' words and tags."""

    key: Document
    response: Document
    alignment: Alignment
    source_key: Document
    source_response: Document


def read_pair(key: str, response: str, options: Options, words: bool = True) -> tuple[Corpus, Corpus]:
    """Both files read as scoring reads them, keeping words and parts of speech when ``words``
    (mention types need them; distances and entity groups do not)."""
    from ...readers import read_with

    key_corpus = read_with(key, options, "key", keep_tokens=words)
    response_corpus = read_with(response, options, "response", key_corpus, keep_tokens=words)
    return key_corpus, response_corpus


def aligned_pairs(key_corpus: Corpus, response_corpus: Corpus, options: Options) -> list[AlignedPair]:
    """Every key document (key order) aligned with its response (an empty one when missing)."""
    prepare = preparation(options, key_corpus, response_corpus)
    responses = response_corpus.by_name()
    keys = key_corpus.by_name()
    paired = pair_names(keys, responses, response_corpus.format != key_corpus.format)
    out = []
    for name, kdoc in keys.items():
        rdoc = responses[paired[name]] if name in paired else None
        k, r, _ = checked_pair(kdoc, rdoc, key_corpus.path, response_corpus.path, (False, False))
        a, k2, r2, _ = aligned_pair(
            k, r, key_corpus.path, response_corpus.path, options.pad_key, prepare, options.repeats
        )
        out.append(AlignedPair(k2, r2, a, k, r))
    return out
