"""A document of text2text-coref markup as the CRAC LLM pipeline's cleaning step leaves it.

The model's words (without their marks) are aligned to the key's words (:mod:`corefeval.readers.word_alignment`,
with ``clean``'s costs and tie-breaking). Each key word then gets the model's word, marks included,
where the two are equal, else the key's word without marks; a zero (``##``) the model wrote after a
key word follows it; the model's other words are dropped. The document is then cut into the key's
sentences (a zero after a sentence's last word goes with the next sentence, one after the document's
last word is dropped) and the marks of each sentence are repaired on their own:

* a word with two ``|`` or more loses its marks;
* a mark is read by ``(\\[?)e(\\d+)(]?)`` at its start (``[e3)`` reads as ``[e3``, ``e3]x`` as
  ``e3]``); one with neither bracket (``e3``, ``(e3``, ``E3]``, empty) is dropped;
* a closing mark without an opening one of its entity in the sentence becomes a one-word mention;
* an opening mark never closed in the sentence stays as it is: the conversion that follows never
  closes it, so its mention is dropped.

Each repair is returned with the word it concerns, for a located warning.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from .llm_figures import Repair
from .llm_key import KeyDocument
from .word_alignment import WordAlignment, align_words, is_zero

#: One mark, matched at its start only, as the cleaning step matches it (``\d``: any decimal digit).
_MARK = re.compile(r"(\[?)e(\d+)(]?)")


class PipelineFailure(Exception):
    """The official pipeline stops (an exception or a failed check) on this document: the message
    says where and why."""


@dataclass
class CleanedDocument:
    """The document's words and zeros, marks included, as the cleaning step writes them; what the
    alignment did; the repairs of marks."""

    tokens: list[str]
    alignment: WordAlignment
    repairs: list[Repair] = field(default_factory=list)


def clean_document(written: list[str], key: KeyDocument, max_edits: int | None) -> CleanedDocument:
    """``written`` (the model's words, marks included) put on ``key``'s words and repaired.
    Raises :class:`~corefeval.readers.word_alignment.TooManyEdits` when the alignment needs more than
    ``max_edits`` edits, and :class:`PipelineFailure` where the cleaning step stops."""
    stripped = [w.split("|")[0] for w in written]
    alignment = align_words(stripped, key.words, most_equal=False, max_edits=max_edits)
    tokens, sources = _aligned_tokens(written, stripped, key.words, alignment)
    out = CleanedDocument([], alignment)
    offset = 0
    for length in key.chunks:
        end = _chunk_end(tokens, offset, length)
        out.tokens += _repaired(tokens[offset:end], sources[offset:end], out.repairs)
        offset = end
    return out


def _aligned_tokens(
    written: list[str], stripped: list[str], key_words: tuple[str, ...], alignment: WordAlignment
) -> tuple[list[str], list[int]]:
    """Each key word (the model's equal word with its marks, else the key's) followed by the zeros
    written after it; and where each comes from (``i + 1``: the model's word ``i``, ``-j - 1``:
    the key's word ``j``)."""
    n = len(key_words)
    tokens = list(key_words)
    sources = [-j - 1 for j in range(n)]
    zeros_after: dict[int, list[int]] = defaultdict(list)
    for i, word in enumerate(stripped):
        if alignment.same[i]:
            j = int(alignment.target[i])
            tokens[j], sources[j] = written[i], i + 1
        elif is_zero(word) and alignment.after[i] >= 0:
            zeros_after[int(alignment.after[i])].append(i)
    out_tokens: list[str] = []
    out_sources: list[int] = []
    for j in range(n):
        out_tokens.append(tokens[j])
        out_sources.append(sources[j])
        for i in zeros_after.get(j, ()):
            out_tokens.append(written[i])
            out_sources.append(i + 1)
    return out_tokens, out_sources


def _chunk_end(tokens: list[str], offset: int, length: int) -> int:
    """Where the sentence of ``length`` key words that starts at ``offset`` ends: after its last
    word and the zeros between its words (a word starting with ``##`` counts as a zero)."""
    words = zeros = 0
    while words < length:
        if offset + words + zeros >= len(tokens):
            raise PipelineFailure(
                "the cleaning step runs past the document's end: a key word starting with '##' is taken for a zero"
            )
        if tokens[offset + words + zeros].startswith("##"):
            zeros += 1
        else:
            words += 1
    return offset + length + zeros


def _repaired(chunk: list[str], sources: list[int], repairs: list[Repair]) -> list[str]:
    """The words of one sentence with their marks repaired (see the module's docstring)."""
    stacks: dict[str, list[int]] = defaultdict(list)
    out: list[str] = []
    for index, (word, source) in enumerate(zip(chunk, sources)):
        splits = word.split("|")
        if len(splits) == 1:
            out.append(word)
            continue
        if len(splits) > 2:
            repairs.append(Repair(source, word, "more than one '|': its marks are dropped"))
            out.append(splits[0])
            continue
        kept: list[str] = []
        for mark in splits[1].split(","):
            found = _MARK.match(mark)
            left, entity, right = found.groups() if found else ("", "", "")
            tag = f"{left}e{entity}{right}"
            if not left and not right:
                repairs.append(Repair(source, word, f"mark '{mark[:30]}' is not [eN, eN] or [eN]: dropped"))
                continue
            if found and found.group() != mark:
                repairs.append(Repair(source, word, f"mark '{mark[:30]}' read as '{tag}'"))
            if left and not right:
                stacks[entity].append(index)
            elif right and not left and stacks[entity]:
                stacks[entity].pop()
            elif right and not left:
                repairs.append(
                    Repair(
                        source, word, f"closes a mention of 'e{entity}' not open in its sentence: a one-word mention"
                    )
                )
                tag = "[" + tag
            kept.append(tag)
        out.append(f"{splits[0]}|{','.join(kept)}" if kept else splits[0])
    for entity, stack in stacks.items():
        for index in stack:
            repairs.append(
                Repair(
                    sources[index],
                    chunk[index],
                    f"the mention of 'e{entity}' it opens is not closed in its sentence: dropped",
                )
            )
    return out
