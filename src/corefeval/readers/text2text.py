"""Reader for what a language model writes in text2text-coref's markup, aligned to the key's words.

The CRAC LLM track's plain-text format (ondfa/text2text-coref): one document per line, words
separated by spaces, ``word|[e1`` opens a mention of entity ``e1``, ``word|e1]`` closes one,
``word|[e1]`` is a one-word mention, several marks on a word are comma-separated (``w|[e1,[e2]``),
and a word starting with ``##`` is an empty node (a zero). Entity ids are ``e`` and digits, as
``clean`` accepts them (sequential ``e1, e2, ...`` or the corpus's own). Documents are paired with
the key's by position. The JSON variant is one JSON array of objects with ``doc_id``, ``tokens`` and
``clusters_token_offsets`` (inclusive ``[start, end]`` offsets into ``tokens``), paired by
``doc_id``; ``clusters_text_mentions`` is not used.

The generated words are aligned to the key's (:mod:`corefeval.word_alignment`: one with the most equal
words, a replacement costing two edits; ``marks="official"``: the one ``clean`` chooses) and
each mention is carried over the alignment. ``marks="move"`` (the default) pairs the marks over the whole generated
document, then moves a boundary that lands on a word of the model's own to the nearest aligned word
inside the mention (a mention with no aligned word is lost); a replaced word keeps its marks.
``marks="official"`` does what ``clean`` + ``text2conllu`` do: marks on replaced and added words
are dropped and marks are paired within each key sentence, a closing mark without an opening one
becoming a one-word mention and an opening mark never closed being dropped.

The files are read by :mod:`.llm_written` (Markdown-link and XML-tag lines by :mod:`.markup_tags`):
unbalanced markup and marks that are not ``[eN``, ``eN]`` or ``[eN]`` are errors naming the line,
unless ``lenient``: then they are repaired as ``clean`` repairs them, with a warning.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..diagnostics import Diagnostic, InputError, plural
from ..model import Corpus, Document
from ..word_alignment import UNALIGNED, TooManyEdits, WordAlignment, align_words, is_zero
from .corefud import NO_HEAD, NO_PARENT, CorefUDDocument, empty_id, empty_position, is_empty
from .key_columns import key_columns
from .llm_written import Generated, read_json, read_lines

FORMAT = "text2text"
JSON_FORMAT = "text2text-json"
#: Documents whose alignment needs more edits than this share of the key's words are errors.
DEFAULT_MAX_EDITS = 0.25


@dataclass(frozen=True)
class Figures:
    """What the alignment of one document had to do: the model's own words (``inserted``), changed
    words (``replaced``), key words left out (``deleted``), mention boundaries moved to an aligned
    word (``moved``) and mentions with no aligned word (``lost``); ``words``: the key's words."""

    words: int = 0
    inserted: int = 0
    replaced: int = 0
    deleted: int = 0
    moved: int = 0
    lost: int = 0

    @property
    def edits(self) -> int:
        return self.inserted + self.replaced + self.deleted

    def __add__(self, other: Figures) -> Figures:
        return Figures(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple())))

    def as_tuple(self) -> tuple[int, ...]:
        return self.words, self.inserted, self.replaced, self.deleted, self.moved, self.lost

    def as_dict(self) -> dict[str, int]:
        return dict(zip(("words", "inserted", "replaced", "deleted", "moved", "lost"), self.as_tuple()))

    def __str__(self) -> str:
        return (
            f"{self.inserted} inserted, {self.replaced} replaced, {self.deleted} deleted of "
            f"{plural(self.words, 'key word')}; mention boundaries moved: {self.moved}, mentions lost: {self.lost}"
        )

    def signature(self) -> str:
        return f"ins{self.inserted},rep{self.replaced},del{self.deleted},mov{self.moved},lost{self.lost}"


@dataclass
class AlignedCorpus(Corpus):
    """A corpus of generated documents put on the key's words, with each document's :class:`Figures`."""

    figures: dict[str, Figures] = field(default_factory=dict)

    @property
    def total(self) -> Figures:
        return sum(self.figures.values(), Figures())


@dataclass(frozen=True)
class _KeyView:
    """What alignment needs of a key document: words, sentence lengths, the tree's parents."""

    doc: Document
    words: list[str]
    sentences: list[int]
    parents: list[int] | None
    first_heads: bool = False


def read_text2text(
    path: str,
    text: str,
    key: Corpus | None,
    lenient: bool = False,
    marks: str = "move",
    max_edits: float = DEFAULT_MAX_EDITS,
    json_variant: bool = False,
    heads: str = "tree",
    style: str | None = None,
) -> AlignedCorpus:
    """Read ``text`` (the text format, or the JSON variant) and put its mentions on ``key``'s words;
    ``style`` (``markdown-links``, ``xml-tags``): the lines are that markup (see :mod:`.markup_tags`).
    A mention's head is found in the key's tree (``heads="tree"``, as udapi's ``MoveHead`` finds it
    when the enhanced dependencies agree), or is its first word (``"first"``)."""
    if key is None:
        raise InputError(path, 1, "text2text-coref markup is scored against a key, whose words it is aligned to")
    generated = read_json(path, text) if json_variant else read_lines(path, text, lenient, style)
    key_docs = key.documents
    if json_variant:
        by_name = key.by_name()
        pairs = []
        for name, doc in generated:
            if name not in by_name:
                raise InputError(path, doc.line, f"document '{name}' is not in the key {key.path}")
            pairs.append((by_name[name], doc))
    else:
        if len(generated) != len(key_docs):
            raise InputError(
                path,
                generated[-1][1].line if generated else 1,
                f"{plural(len(generated), 'document')} (one a line), the key {key.path} has {len(key_docs)}: "
                "documents are paired by position",
            )
        pairs = [(kdoc, doc) for kdoc, (_, doc) in zip(key_docs, generated)]
    columns = key_columns(key)
    documents: list[Document] = []
    figures: dict[str, Figures] = {}
    warnings: list[Diagnostic] = []
    for kdoc, doc in pairs:
        words, tree = columns.get(kdoc.name, (None, None)) if columns is not None else (None, None)
        ok = words is not None and len(words) == kdoc.n_tokens
        view = _KeyView(
            kdoc,
            words if ok and words is not None else _key_words(path, doc.line, kdoc),
            list(getattr(key, "sentences", {}).get(kdoc.name) or [kdoc.n_tokens]),
            tree if ok and heads == "tree" else None,
            heads == "first",
        )
        try:
            # aligned up to twice the edits allowed, so that a near miss is reported with its figures
            out, fig = _put_on_key(path, doc, view, marks, 2 * int(max_edits * len(view.words)) + 16)
        except TooManyEdits as e:
            raise InputError(
                path, doc.line, _too_many(kdoc.name, len(doc.words), len(view.words), e, max_edits)
            ) from None
        if fig.edits > max_edits * max(fig.words, 1):
            raise InputError(
                path,
                doc.line,
                f"document '{kdoc.name}': aligning its words to the key's took {fig}: "
                f"more edits than {max_edits:.0%} of the key's words (--max-edits)",
            )
        documents.append(out)
        figures[kdoc.name] = fig
        if fig.edits or fig.moved or fig.lost:
            warnings.append(Diagnostic(path, doc.line, f"document '{kdoc.name}': word alignment: {fig}"))
        if doc.repaired:
            warnings.append(
                Diagnostic(path, doc.line, f"document '{kdoc.name}': {plural(doc.repaired, 'mark')} dropped")
            )
    corpus = AlignedCorpus(
        path=path, documents=documents, format=JSON_FORMAT if json_variant else style or FORMAT, warnings=warnings
    )
    corpus.figures = figures
    if len(figures) > 1 and any(f.edits or f.moved or f.lost for f in figures.values()):
        warnings.append(Diagnostic(path, 0, f"word alignment in all: {corpus.total}"))
    return corpus


def _too_many(name: str, written: int, words: int, e: TooManyEdits, max_edits: float) -> str:
    if e.too_large:
        return (
            f"document '{name}': aligning its {written} words to the key's {words} takes at least "
            f"{e.at_least} edits, more than corefeval aligns in a document that long"
        )
    return (
        f"document '{name}': aligning its {written} words to the key's {words} takes at least {e.at_least} "
        f"edits: more than {max_edits:.0%} of the key's words (--max-edits)"
    )


def _key_words(path: str, line: int, kdoc: Document) -> list[str]:
    if kdoc.tokens is None:
        raise InputError(path, line, f"document '{kdoc.name}': the key's words are needed to align the markup")
    return [w.replace(" ", "_") for w in kdoc.tokens]


# Putting mentions on the key's words --------------------------------------------------------------


def _put_on_key(path: str, doc: Generated, key: _KeyView, marks: str, max_edits: int) -> tuple[Document, Figures]:
    official = marks == "official" and doc.marks is not None
    alignment = align_words(doc.words, key.words, most_equal=not official, max_edits=max_edits)
    if official:
        mentions, moved, lost = _official_mentions(doc, alignment, key)
    else:
        spans = doc.spans if doc.spans is not None else _pair(doc)
        mentions, moved, lost = _carry(spans, doc.words, alignment, key)
    figures = Figures(len(key.words), alignment.inserted, alignment.replaced, alignment.deleted, moved, lost)
    return _document(path, doc.line, key, mentions), figures


def _pair(doc: Generated) -> list[tuple[str, int, int]]:
    """Mentions of generated words from marks paired per entity over the document, in the order they
    close; a closing mark with no opening one is a one-word mention, an unclosed opening is dropped
    (as ``clean`` repairs them; the reader refused both unless ``lenient``)."""
    assert doc.marks is not None
    open_at: dict[str, list[int]] = defaultdict(list)
    spans = []
    for n, found in enumerate(doc.marks):
        for entity, opens, closes in found:
            if opens and not closes:
                open_at[entity].append(n)
            elif opens or not open_at[entity]:
                spans.append((entity, n, n))
            else:
                spans.append((entity, open_at[entity].pop(), n))
    return spans


#: A mention on the key: entity, start and end node positions (zeros: empty-node positions).
#: A mention on the key: entity, first and last word positions, and its nodes when it has empty
#: nodes (then the words' span is recomputed from them; see :func:`_document`).
_Mention = tuple[str, int, int, tuple[int, ...] | None]


def _carry(
    spans: Sequence[tuple[str, int, int]], words: list[str], alignment: WordAlignment, key: _KeyView
) -> tuple[list[_Mention], int, int]:
    """Each generated mention on the key: its boundaries on the nearest aligned words inside it."""
    target = alignment.target
    aligned = target != UNALIGNED
    m = len(words)
    # next aligned word at or after i, previous at or before i (m / -1: none)
    index = np.arange(m)
    nxt = np.where(aligned, index, m)
    nxt = np.minimum.accumulate(nxt[::-1])[::-1] if m else nxt
    prv = np.where(aligned, index, -1)
    prv = np.maximum.accumulate(prv) if m else prv
    zeros = _zero_positions(words, alignment, key)
    out: list[_Mention] = []
    moved = lost = 0
    for entity, s, e in spans:
        if s == e and s in zeros:
            out.append((entity, zeros[s], zeros[s], (zeros[s],)))
            continue
        a, b = int(nxt[s]), int(prv[e])
        if a > e or b < s:
            lost += 1
            continue
        moved += (a != s) + (b != e)
        out.append((entity, int(target[a]), int(target[b]), None))
    return out, moved, lost


def _zero_positions(words: list[str], alignment: WordAlignment, key: _KeyView) -> dict[int, int]:
    """Empty-node position of each generated zero that follows a key word: after that word, numbered
    1, 2, ... among the zeros after it (as ``text2conllu`` makes new empty nodes)."""
    out: dict[int, int] = {}
    if not any(is_zero(w) for w in words):
        return out
    starts = np.cumsum([0, *key.sentences])
    count: dict[int, int] = defaultdict(int)
    for i, w in enumerate(words):
        after = int(alignment.after[i])
        if not is_zero(w) or after < 0:
            continue
        count[after] += 1
        sentence = int(np.searchsorted(starts, after, side="right")) - 1
        out[i] = empty_position(sentence, after - int(starts[sentence]) + 1, count[after])
    return out


def _official_mentions(doc: Generated, alignment: WordAlignment, key: _KeyView) -> tuple[list[_Mention], int, int]:
    """Mentions as ``clean`` + ``text2conllu`` make them: marks kept on equal words and zeros only,
    paired within each key sentence (a trailing zero counts with the next sentence)."""
    assert doc.marks is not None
    n = len(key.words)
    slot_marks: list[list[tuple[str, bool, bool]]] = [[] for _ in range(n)]
    zeros_after: dict[int, list[int]] = defaultdict(list)
    for i, found in enumerate(doc.marks):
        if alignment.same[i]:
            slot_marks[int(alignment.target[i])] = found
        elif is_zero(doc.words[i]) and alignment.after[i] >= 0:
            zeros_after[int(alignment.after[i])].append(i)
    zero_at = _zero_positions(doc.words, alignment, key)
    out: list[_Mention] = []
    word = 0
    groups: list[list[tuple[int, list[tuple[str, bool, bool]]]]] = []
    pending: list[tuple[int, list[tuple[str, bool, bool]]]] = []
    for length in key.sentences:
        group = pending
        pending = []
        for j in range(word, word + length):
            group.append((j, slot_marks[j]))
            for z in zeros_after.get(j, []):
                (pending if j == word + length - 1 else group).append((zero_at[z], doc.marks[z]))
        groups.append(group)
        word += length
    for group in groups:
        open_at: dict[str, list[int]] = defaultdict(list)
        zero_slots = [slot for slot, (position, _) in enumerate(group) if position >= key.doc.n_tokens]
        for slot, (position, found) in enumerate(group):
            for entity, opens, closes in found:
                if opens and not closes:
                    open_at[entity].append(slot)
                    continue
                first = slot if opens or not open_at[entity] else open_at[entity].pop()
                nodes = None
                if any(first <= z <= slot for z in zero_slots):
                    nodes = tuple(p for p, _ in group[first : slot + 1])
                out.append((entity, group[first][0], position, nodes))
    return out, 0, max(0, len(_pair(doc)) - len(out))


def _document(path: str, line: int, key: _KeyView, mentions: list[_Mention]) -> Document:
    """The response document on the key's positions; entities numbered in order of first mention."""
    labels: dict[str, int] = {}
    starts, ends, ents, heads = [], [], [], []
    parts: dict[int, tuple[int, ...]] = {}
    first_word = np.cumsum([0, *key.sentences])
    for row, (entity, s, e, nodes) in enumerate(mentions):
        ents.append(labels.setdefault(entity, len(labels)))
        if nodes is not None:  # with empty nodes: the span of its words, or the word its zero follows
            parts[row] = nodes
            words = [p for p in nodes if not is_empty(p)]
            if words:
                s, e = words[0], words[-1]
                head = nodes[0] if key.first_heads else _head(key.parents, s, e)
            else:
                sentence, word, _ = empty_id(nodes[0])
                s = e = int(first_word[sentence]) + max(word - 1, 0)
                head = nodes[0]
        else:
            head = _head(key.parents, s, e)
        starts.append(s)
        ends.append(e)
        heads.append(head)
    count = len(starts)
    fields = dict(
        name=key.doc.name,
        starts=np.asarray(starts, dtype=np.int64),
        ends=np.asarray(ends, dtype=np.int64),
        entities=np.asarray(ents, dtype=np.int64),
        labels=tuple(labels),
        n_tokens=key.doc.n_tokens,
        lines=np.full(count, line, dtype=np.int64),
        begin_line=line,
        parts=parts,
        heads=np.asarray(heads, dtype=np.int64) if key.parents is not None or key.first_heads else None,
    )
    # On a CorefUD key the response is a CorefUD document, scored under the CorefUD scorer's rules
    # (a span in two entities counts twice) with each empty node placed after its word.
    if isinstance(key.doc, CorefUDDocument):
        follows = {}
        for p in (p for nodes in parts.values() for p in nodes if is_empty(p)):
            sentence, word, _ = empty_id(p)
            follows[p] = int(first_word[sentence]) + word - 1
        return CorefUDDocument(**fields, follows=follows)  # type: ignore[arg-type]
    return Document(**fields)  # type: ignore[arg-type]


def _head(parents: list[int] | None, s: int, e: int) -> int:
    """The mention's head as the CorefUD reader finds it: the first word whose parent is outside."""
    if parents is None or s == e:
        return s
    if any(parents[n] == NO_PARENT for n in range(s, e + 1)):
        return NO_HEAD
    return next((n for n in range(s, e + 1) if not s <= parents[n] <= e), s)
