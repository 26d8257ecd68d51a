"""Reader for what a language model writes in text2text-coref's markup, aligned to the key's words.

The CRAC LLM track's plain-text format (ondfa/text2text-coref): one document per line, words
separated by spaces, ``word|[e1`` opens a mention of entity ``e1``, ``word|e1]`` closes one,
``word|[e1]`` is a one-word mention, several marks on a word are comma-separated (``w|[e1,[e2]``),
and a word starting with ``##`` is an empty node (a zero). Entity ids are ``e`` and digits, as
``clean`` accepts them (sequential ``e1, e2, ...`` or the corpus's own). Documents are paired with
the key's by position. The JSON variant is one JSON array of objects with ``doc_id``, ``tokens`` and
``clusters_token_offsets`` (inclusive ``[start, end]`` offsets into ``tokens``), paired by
``doc_id``; ``clusters_text_mentions`` is not used.

``marks="move"`` (the default): the generated words are aligned to the key's
(:mod:`corefeval.readers.word_alignment`, one with the most equal words, a replacement costing two edits),
the marks are paired over the whole generated document, and each mention is carried over the
alignment: a boundary that lands on a word of the model's own moves to the nearest aligned word
inside the mention (a mention with no aligned word is lost); a replaced word keeps its marks.
``marks="official"`` scores as the CRAC LLM pipeline does (:mod:`.llm_official`).

The files are read by :mod:`.llm_written` (Markdown-link and XML-tag lines by :mod:`.markup_tags`):
unbalanced markup and marks that are not ``[eN``, ``eN]`` or ``[eN]`` are errors naming the line,
unless ``lenient``: then they are repaired as ``clean`` repairs them, each repair a located warning.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.diagnostics import Diagnostic, InputError, plural
from ..core.empty_nodes import NO_HEAD, NO_PARENT, empty_id, empty_position, is_empty
from ..core.model import Corpus, Document
from ..core.pairing import nothing_shared
from .corefud import CorefUDDocument
from .key_columns import key_columns
from .llm_figures import AlignedCorpus, Figures, Repair, figure_warnings, repair_warnings
from .llm_written import Generated, read_json, read_lines
from .word_alignment import UNALIGNED, TooManyEdits, WordAlignment, align_words, has_zero, is_zero

FORMAT = "text2text"
JSON_FORMAT = "text2text-json"
#: Documents whose alignment needs more edits than this share of the key's words are errors.
DEFAULT_MAX_EDITS = 0.25


@dataclass(frozen=True)
class _KeyView:
    """What alignment needs of a key document: words, sentence lengths, the tree's parents."""

    doc: Document
    words: list[str]
    sentences: list[int]
    parents: list[int] | None
    first_heads: bool = False


class KeyViews:
    """What alignment needs of each document of a key (its words, sentences and tree), made when a
    document is first met; one is made per reading, or once for many answers read against one key
    (``columns``: the key's words and trees, :func:`.key_columns.text_columns`, when at hand; else
    read again from the key's file)."""

    def __init__(
        self, key: Corpus, heads: str = "tree", columns: dict[str, tuple[list[str], list[int]]] | None = None
    ) -> None:
        self.key = key
        self.heads = heads
        self._columns = columns
        self._views: dict[str, _KeyView] = {}

    def of(self, path: str, line: int, kdoc: Document) -> _KeyView:
        """The view of ``kdoc``; its words missing are an error at ``path:line`` (the response's)."""
        view = self._views.get(kdoc.name)
        if view is not None:
            return view
        if self._columns is None:
            self._columns = key_columns(self.key) or {}
        words, tree = self._columns.get(kdoc.name, (None, None))
        ok = words is not None and len(words) == kdoc.n_tokens
        view = _KeyView(
            kdoc,
            words if ok and words is not None else _key_words(path, line, kdoc),
            list(getattr(self.key, "sentences", {}).get(kdoc.name) or [kdoc.n_tokens]),
            tree if ok and self.heads == "tree" else None,
            self.heads == "first",
        )
        self._views[kdoc.name] = view
        return view


def read_text2text(
    path: str,
    text: str,
    key: Corpus | None,
    lenient: bool = False,
    marks: str = "move",
    max_edits: float | None = None,
    json_variant: bool = False,
    heads: str = "tree",
    style: str | None = None,
    views: KeyViews | None = None,
) -> AlignedCorpus:
    """Read ``text`` (the text format, or the JSON variant) and put its mentions on ``key``'s words;
    ``style`` (``markdown-links``, ``xml-tags``): the lines are that markup (see :mod:`.markup_tags`).
    A mention's head is found in the key's tree (``heads="tree"``, as udapi's ``MoveHead`` finds it
    when the enhanced dependencies agree), or is its first word (``"first"``). ``max_edits``: the
    largest share of a document's words its alignment may edit (``None``: :data:`DEFAULT_MAX_EDITS`,
    and no limit with ``marks="official"``, as the official pipeline has none). ``views``: the key's
    :class:`KeyViews` made for ``heads`` already (many answers read against one key)."""
    if key is None:
        raise InputError(path, 1, "text2text-coref markup is scored against a key, whose words it is aligned to")
    if marks == "official" and style is None:
        from .llm_official import read_official

        return read_official(path, text, key, json_variant, max_edits)
    limit = DEFAULT_MAX_EDITS if max_edits is None else max_edits
    generated = read_json(path, text) if json_variant else read_lines(path, text, lenient, style)
    warnings: list[Diagnostic] = []
    pairs = _by_name(path, generated, key, warnings) if json_variant else _by_position(path, generated, key)
    views = views if views is not None else KeyViews(key, heads)
    documents: list[Document] = []
    figures: dict[str, Figures] = {}
    lines: dict[str, int] = {}
    repairs: list[tuple[int, str]] = []
    for kdoc, doc in pairs:
        view = views.of(path, doc.line, kdoc)
        try:
            # aligned up to twice the edits allowed, so that a near miss is reported with its figures
            out, fig = _put_on_key(path, doc, view, 2 * int(limit * len(view.words)) + 16)
        except TooManyEdits as e:
            raise InputError(path, doc.line, e.message(kdoc.name, len(doc.words), len(view.words), limit)) from None
        if fig.edits > limit * max(fig.words, 1):
            raise InputError(
                path,
                doc.line,
                f"document '{kdoc.name}': aligning its words to the key's took {fig}: "
                f"more edits than {limit:.0%} of the key's words (--max-edits)",
            )
        documents.append(out)
        figures[kdoc.name] = fig
        lines[kdoc.name] = doc.line
        repairs += [(doc.line, f"document '{kdoc.name}': {r}") for r in doc.repairs]
    corpus = AlignedCorpus(path=path, documents=documents, format=JSON_FORMAT if json_variant else style or FORMAT)
    corpus.figures = figures
    corpus.warnings = warnings + repair_warnings(path, repairs) + figure_warnings(path, lines, figures)
    return corpus


def _by_position(path: str, generated: list[tuple[str, Generated]], key: Corpus) -> list[tuple[Document, Generated]]:
    """Documents one a line, paired with the key's by position."""
    if len(generated) != len(key.documents):
        raise InputError(
            path,
            generated[-1][1].line if generated else 1,
            f"{plural(len(generated), 'document')} (one a line), the key {key.path} has {len(key.documents)}: "
            "documents are paired by position",
        )
    return [(kdoc, doc) for kdoc, (_, doc) in zip(key.documents, generated)]


def _by_name(
    path: str, generated: list[tuple[str, Generated]], key: Corpus, warnings: list[Diagnostic]
) -> list[tuple[Document, Generated]]:
    """The JSON variant's documents paired with the key's by ``doc_id``: one not in the key is left
    out with a warning, as every response's is (:mod:`corefeval.core.pairing`); none in the key is the
    same error as for every response."""
    by_name = key.by_name()
    pairs = [(by_name[name], doc) for name, doc in generated if name in by_name]
    if not pairs:
        first = generated[0][1].line if generated else 1
        raise InputError(path, first, nothing_shared(key.path, list(by_name), [name for name, _ in generated]))
    ignored = [(name, doc) for name, doc in generated if name not in by_name]
    of_response = f"{len(ignored)} of the response's {plural(len(generated), 'document')} ignored"
    for name, doc in ignored:
        warnings.append(
            Diagnostic(path, doc.line, f"document '{name}' is not in the key; it is ignored ({of_response})")
        )
    return pairs


def _key_words(path: str, line: int, kdoc: Document) -> list[str]:
    if kdoc.tokens is None:
        raise InputError(path, line, f"document '{kdoc.name}': the key's words are needed to align the markup")
    return [w.replace(" ", "_") for w in kdoc.tokens]


# Putting mentions on the key's words --------------------------------------------------------------


def _put_on_key(path: str, doc: Generated, key: _KeyView, max_edits: int) -> tuple[Document, Figures]:
    alignment = align_words(doc.words, key.words, most_equal=True, max_edits=max_edits)
    spans = doc.spans if doc.spans is not None else _pair(doc)
    mentions, moved, lost = _carry(spans, doc.words, alignment, key)
    repaired = len(doc.repairs)
    figures = Figures(len(key.words), alignment.inserted, alignment.replaced, alignment.deleted, moved, lost, repaired)
    return _document(path, doc.line, key, mentions), figures


def _pair(doc: Generated) -> list[tuple[str, int, int]]:
    """Mentions of generated words from marks paired per entity over the document, in the order they
    close; a closing mark with no opening one is a one-word mention, an unclosed opening is dropped
    (as ``clean`` repairs them; the reader refused both unless ``lenient``), each a repair."""
    assert doc.marks is not None
    open_at: dict[str, list[int]] = defaultdict(list)
    spans = []
    for n, found in doc.marks.items():
        for entity, opens, closes in found:
            if opens and not closes:
                open_at[entity].append(n)
            elif opens or not open_at[entity]:
                spans.append((entity, n, n))
                if not opens:
                    message = f"closes a mention of '{entity}', which has none open: a one-word mention"
                    doc.repairs.append(Repair(n + 1, doc.words[n], message))
            else:
                spans.append((entity, open_at[entity].pop(), n))
    for entity, stack in open_at.items():
        for n in stack:
            doc.repairs.append(
                Repair(n + 1, doc.words[n], f"the mention of '{entity}' it opens is never closed: dropped")
            )
    return spans


#: A mention on the key: entity, first and last word positions, and its nodes when it has empty
#: nodes (then the words' span is recomputed from them; see :func:`_document`).
_Mention = tuple[str, int, int, tuple[int, ...] | None]


def _carry(
    spans: Sequence[tuple[str, int, int]], words: list[str], alignment: WordAlignment, key: _KeyView
) -> tuple[list[_Mention], int, int]:
    """Each generated mention on the key: its boundaries on the nearest aligned words inside it."""
    if alignment.edits == 0 and len(words) == len(key.words):  # word for word: no zero, none moved
        return [(entity, s, e, None) for entity, s, e in spans], 0, 0
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
    after, before, on_key = nxt.tolist(), prv.tolist(), target.tolist()
    for entity, s, e in spans:
        if s == e and s in zeros:
            out.append((entity, zeros[s], zeros[s], (zeros[s],)))
            continue
        a, b = after[s], before[e]
        if a > e or b < s:
            lost += 1
            continue
        moved += (a != s) + (b != e)
        out.append((entity, on_key[a], on_key[b], None))
    return out, moved, lost


def _zero_positions(words: list[str], alignment: WordAlignment, key: _KeyView) -> dict[int, int]:
    """Empty-node position of each generated zero that follows a key word: after that word, numbered
    1, 2, ... among the zeros after it (as ``text2conllu`` makes new empty nodes)."""
    out: dict[int, int] = {}
    if not has_zero(words):
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


def _document(path: str, line: int, key: _KeyView, mentions: list[_Mention]) -> Document:
    """The response document on the key's positions; entities numbered in order of first mention."""
    labels: dict[str, int] = {}
    parts: dict[int, tuple[int, ...]] = {}
    first_word = np.cumsum([0, *key.sentences])
    if all(nodes is None for _, _, _, nodes in mentions):  # no empty node: the spans as they are
        ents = [labels.setdefault(entity, len(labels)) for entity, _, _, _ in mentions]
        starts = [s for _, s, _, _ in mentions]
        ends = [e for _, _, e, _ in mentions]
        heads = starts if key.parents is None else [_head(key.parents, s, e) for _, s, e, _ in mentions]
    else:
        starts, ends, ents, heads = _with_nodes(key, mentions, labels, parts, first_word)
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


def _with_nodes(
    key: _KeyView,
    mentions: list[_Mention],
    labels: dict[str, int],
    parts: dict[int, tuple[int, ...]],
    first_word: np.ndarray,
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Starts, ends, entities and heads of mentions some of which have empty nodes (``labels`` and
    ``parts`` are filled as they are met)."""
    starts: list[int] = []
    ends: list[int] = []
    ents: list[int] = []
    heads: list[int] = []
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
    return starts, ends, ents, heads


def _head(parents: list[int] | None, s: int, e: int) -> int:
    """The mention's head as the CorefUD reader finds it: the first word whose parent is outside."""
    if parents is None or s == e:
        return s
    if any(parents[n] == NO_PARENT for n in range(s, e + 1)):
        return NO_HEAD
    return next((n for n in range(s, e + 1) if not s <= parents[n] <= e), s)
