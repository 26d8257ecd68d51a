"""The type of a mention: pronoun, proper name, nominal or zero.

A mention headed by an empty node is a **zero**. Otherwise its head word decides: a pronoun tag
(UPOS ``PRON``; Penn Treebank ``PRP``, ``PRP$``, ``WP``, ``WP$``) makes a **pronoun**, a proper-noun
tag (``PROPN``; ``NNP``, ``NNPS``) a **proper** name, anything else a **nominal**. The head is the
one the file gives (CorefUD); where there is none (CoNLL-2012), it is the last word before the
first word that starts a post-modifier (a preposition, a relative or wh-word, a comma, a verb:
``ADP``, ``PUNCT``, ``VERB``, ``AUX``, ``IN``, ``TO``, ``WDT``, ``WP``, ``,``, ``VB*``), else the
mention's last word. Without parts of speech, the English rule set over the words applies: a
one-word mention in :data:`ENGLISH_PRONOUNS` is a pronoun, a mention whose words all start with a
capital letter is a proper name, any other a nominal. Users may instead give their own ordered
rules, each a type and a regular expression over the mention's words joined by single spaces.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ...core.empty_nodes import EMPTY, NO_HEAD
from ...core.model import Document

TYPES = ("pronoun", "proper", "nominal", "zero")
PRONOUN_TAGS = frozenset({"PRON", "PRP", "PRP$", "WP", "WP$"})
PROPER_TAGS = frozenset({"PROPN", "NNP", "NNPS"})
#: Tags that start a post-modifier: the head of a mention without a given head comes before them.
STOP_TAGS = frozenset({"ADP", "PUNCT", "VERB", "AUX", "IN", "TO", "WDT", "WP", ",", "-LRB-", ":"})
ENGLISH_PRONOUNS = frozenset(
    [
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "we",
        "us",
        "our",
        "ours",
        "ourselves",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "her",
        "hers",
        "herself",
        "it",
        "its",
        "itself",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "one",
        "oneself",
        "this",
        "that",
        "these",
        "those",
        "who",
        "whom",
        "whose",
        "which",
        "what",
    ]
)
#: Ordered user rules: the first whose pattern matches the mention's words gives its type.
Rules = Sequence[tuple[str, "re.Pattern[str]"]]


def parse_rules(text: Sequence[str]) -> list[tuple[str, re.Pattern[str]]]:
    """Rules from ``TYPE=REGEX`` strings (the regex is searched in the words joined by spaces)."""
    from ...core.diagnostics import UsageError

    out = []
    for item in text:
        name, sep, pattern = item.partition("=")
        if not sep or not name:
            raise UsageError(f"a mention-type rule is TYPE=REGEX, not '{item}'")
        try:
            out.append((name, re.compile(pattern)))
        except re.error as err:
            raise UsageError(f"bad mention-type pattern '{pattern}': {err}") from None
    return out


def _head_by_tags(pos: Sequence[str], start: int, end: int) -> int:
    """The approximate head of a mention without a given head (see the module docstring)."""
    for t in range(start + 1, end + 1):
        tag = pos[t]
        if tag in STOP_TAGS or tag.startswith("VB"):
            return t - 1
    return end


def _by_tag(tag: str) -> str:
    if tag in PRONOUN_TAGS:
        return "pronoun"
    if tag in PROPER_TAGS:
        return "proper"
    return "nominal"


def _by_words(words: Sequence[str]) -> str:
    if len(words) == 1 and words[0].lower() in ENGLISH_PRONOUNS:
        return "pronoun"
    if words and all(w[:1].isupper() for w in words):
        return "proper"
    return "nominal"


def mention_types(
    doc: Document,
    pos: Sequence[str] | None = None,
    tokens: Sequence[str] | None = None,
    rules: Rules | None = None,
) -> list[str]:
    """The type of every row of ``doc``; ``pos`` and ``tokens`` default to the document's own
    (the word-level tags and words of the file, which a matching step may not carry over)."""
    pos = doc.pos if pos is None else pos
    tokens = doc.tokens if tokens is None else tokens
    if rules is None and pos is not None and len(pos) > 0 and not doc.parts:
        return _by_tags(doc, pos)
    return _one_by_one(doc, pos, tokens, rules)


def _one_by_one(
    doc: Document, pos: Sequence[str] | None, tokens: Sequence[str] | None, rules: Rules | None
) -> list[str]:
    """:func:`mention_types` mention by mention (mentions of several parts, zeros, rules over words)."""
    heads = doc.heads.tolist() if doc.heads is not None else [NO_HEAD] * doc.n_mentions
    out: list[str] = []
    for row, (start, end, head) in enumerate(zip(doc.starts.tolist(), doc.ends.tolist(), heads)):
        parts = doc.parts.get(row)
        if head >= EMPTY or (head == NO_HEAD and parts and parts[0] >= EMPTY):
            out.append("zero")
            continue
        words = [p for p in parts if p < EMPTY] if parts else list(range(start, end + 1))
        if rules is not None:
            text = " ".join(tokens[w] for w in words) if tokens is not None else ""
            out.append(next((name for name, rx in rules if rx.search(text)), "other"))
        elif pos is not None:
            h = head if 0 <= head < len(pos) else _head_by_tags(pos, start, end)
            out.append(_by_tag(pos[h]))
        else:
            out.append(_by_words([tokens[w] for w in words] if tokens is not None else []))
    return out


def _by_tags(doc: Document, pos: Sequence[str]) -> list[str]:
    """:func:`mention_types` of a document whose mentions are plain spans, from its tags, for all
    mentions at once: a tag's type and whether it stops a head are looked up once per distinct tag,
    and each mention's first stopping word after its start is found with a running minimum."""
    distinct, tag_of = np.unique(np.asarray(pos, dtype=str), return_inverse=True)
    tags = distinct.tolist()
    kinds = np.array([TYPES.index(_by_tag(t)) for t in tags] + [TYPES.index("zero")], dtype=np.int64)
    stops = np.array([t in STOP_TAGS or t.startswith("VB") for t in tags], dtype=bool)[tag_of]
    # next_stop[t]: the first stopping word at t or after it (len(pos) when there is none)
    positions = np.where(stops, np.arange(len(pos)), len(pos))
    next_stop = np.append(np.minimum.accumulate(positions[::-1])[::-1], len(pos))
    starts, ends = doc.starts, doc.ends
    found = np.minimum(next_stop[np.minimum(starts + 1, len(pos))], ends + 1) - 1
    heads = doc.heads if doc.heads is not None else np.full(len(starts), NO_HEAD)
    given = (heads >= 0) & (heads < len(pos))
    head = np.where(given, heads, found)
    kind = np.where(heads >= EMPTY, len(tags), tag_of[np.clip(head, 0, len(pos) - 1)])
    return [TYPES[k] for k in kinds[kind].tolist()]
