"""Reader for the jsonlines files of the e2e-coref family (SpanBERT, coref-hoi, s2e, LingMess, ...).

One JSON object per line: ``doc_key``, ``sentences`` (lists of tokens), ``clusters`` (lists of
``[start, end]``, inclusive offsets into the flattened sentences) and optionally
``predicted_clusters`` (a system's clusters, same shape) and ``subtoken_map`` (token offset ->
word index, for files written in subwords; spans are then mapped back to words). The key side of a
file is ``clusters``; the response side is ``predicted_clusters`` when present, else ``clusters``,
so one file holding both can be scored on its own. Each document's entities and mentions are put
in the order of the same clusters written as CoNLL-2012 (:mod:`corefeval.core.reading_order`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.diagnostics import Diagnostic, InputError
from ..core.model import Columns, Corpus, Document, ViewDocument, from_fields
from ..core.reading_order import reading_order
from .json_values import is_offset, is_span, load_object, shown
from .word_prints import of_words

KEY_FIELD = "clusters"
RESPONSE_FIELD = "predicted_clusters"


@dataclass
class JsonlinesCorpus(Corpus):
    """A corpus read from jsonlines; ``sentences[doc]`` are the sentence lengths in words (kept when
    the file is in words, i.e. has no ``subtoken_map``), for conversion."""

    sentences: dict[str, list[int]] = field(default_factory=dict)


def read_jsonlines(path: str, text: str, keep_tokens: bool = False, role: str = "key", first_line: int = 1) -> Corpus:
    """Read a jsonlines file; ``role`` is ``key`` (read ``clusters``) or ``response``; ``first_line``
    is the line number of ``text``'s first line, when it is a part of a larger file."""
    warnings: list[Diagnostic] = []
    seen: dict[str, int] = {}
    sentences: dict[str, list[int]] = {}
    rows = _Rows()
    if text.startswith("\ufeff"):
        text = text[1:]
    for lineno, line in enumerate(text.split("\n"), first_line):
        if not line.strip():
            continue
        obj = load_object(path, lineno, line)
        name = rows.add(path, lineno, obj, keep_tokens, role)
        if name in seen:
            warnings.append(
                Diagnostic(
                    path,
                    lineno,
                    f"document '{name}' appears again (first at line {seen[name]}); the last occurrence is scored",
                )
            )
        seen.setdefault(name, lineno)
        if "subtoken_map" not in obj:
            sentences[name] = [len(s) for s in obj.get("sentences", []) if s]
    if not rows.fields:
        raise InputError(path, 1, "no document found (expected one JSON object per line)")
    return JsonlinesCorpus(
        path=path, documents=rows.documents(), format="jsonlines", warnings=warnings, sentences=sentences
    )


class _Rows:
    """The mentions of a file's documents laid end to end as they are read, and each document's
    other fields: the documents are views of one set of columns (a file may have a million)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.entities: list[int] = []
        self.lines: list[int] = []
        self.bounds: list[int] = [0]
        self.words: list[str] = []  # the words of documents whose tokens are words
        self.word_bounds: list[int] = [0]
        self.fields: list[dict[str, Any]] = []

    def add(self, path: str, line: int, obj: dict[str, Any], keep_tokens: bool, role: str) -> str:
        """Read the document of ``obj`` (line ``line``); its name."""
        name, tokens, subtoken_map, (starts, ends, entities) = _mentions(path, line, obj, role)
        used = list(dict.fromkeys(entities))  # the clusters with mentions, in order (entities never decrease)
        renumber = {k: i for i, k in enumerate(used)}
        n_tokens = len(tokens) if subtoken_map is None else (subtoken_map[-1] + 1 if subtoken_map else 0)
        n_tokens = max(n_tokens, max(ends, default=-1) + 1)
        words = _plain_words(obj)
        values: dict[str, Any] = {
            "name": name,
            "labels": tuple(map(str, used)),
            "n_tokens": n_tokens,
            "begin_line": line,
            "parts": {},
            "_columns": None,
            "_at": len(self.fields),
        }
        if keep_tokens:
            values["tokens"] = tuple(tokens) if subtoken_map is None else _words(tokens, subtoken_map)
        if not words or len(words) != n_tokens:
            values["forms"] = None  # no word to check
        self.fields.append(values)
        self.starts += starts
        self.ends += ends
        self.entities += map(renumber.__getitem__, entities)
        self.lines += [line] * len(starts)
        self.bounds.append(len(self.starts))
        self.words += words
        self.word_bounds.append(len(self.words))
        return name

    def documents(self) -> list[Document]:
        """The documents read, as views of the file's columns, each in reading order
        (:mod:`corefeval.core.reading_order`: the order of the same clusters written as CoNLL-2012)."""
        starts, ends, entities, lines, bounds, word_bounds = (
            np.asarray(c, dtype=np.int64)
            for c in (self.starts, self.ends, self.entities, self.lines, self.bounds, self.word_bounds)
        )
        lengths = np.diff(bounds)
        order, in_order = reading_order(starts, ends, entities, lengths)
        if order is not None:
            starts, ends, lines, entities = starts[order], ends[order], lines[order], entities[order]
        if in_order is not entities:
            self._relabel(entities, in_order, lengths)
        forms = of_words(self.words)
        words = word_bounds[:-1], word_bounds[1:]
        columns = Columns(starts, ends, in_order, lines, bounds, forms, *words)
        for values in self.fields:
            values["_columns"] = columns
        return [from_fields(ViewDocument, values) for values in self.fields]

    def _relabel(self, old: np.ndarray, new: np.ndarray, lengths: np.ndarray) -> None:
        """Give each document's labels the order of its entities' new numbers (``old`` and ``new``:
        each row's entity before and after)."""
        counts = np.array([len(values["labels"]) for values in self.fields], dtype=np.int64)
        first = np.cumsum(counts) - counts
        doc = np.repeat(np.arange(lengths.size), lengths)
        was = np.zeros(int(counts.sum()), dtype=np.int64)
        was[first[doc] + new] = old
        for values, a, n in zip(self.fields, first.tolist(), counts.tolist()):
            labels = values["labels"]
            values["labels"] = tuple(labels[k] for k in was[a : a + n].tolist())


def _plain_words(obj: dict[str, Any]) -> list[str]:
    """The document's words, when its tokens are words (no ``subtoken_map``)."""
    if "subtoken_map" in obj or "sentences" not in obj:
        return []
    return [str(t) for s in obj["sentences"] for t in s]


def _mentions(
    path: str, line: int, obj: dict[str, Any], role: str
) -> tuple[str, list[str], list[int] | None, tuple[list[int], list[int], list[int]]]:
    """A document's name, tokens, subtoken map, and mentions (starts, ends and clusters, in words)."""
    name = obj.get("doc_key")
    if not isinstance(name, str):
        raise InputError(path, line, "'doc_key' (a string) is missing")
    sentences = obj.get("sentences", [])
    if not isinstance(sentences, list) or not all(isinstance(s, list) for s in sentences):
        raise InputError(path, line, f"document '{name}': 'sentences' must be a list of lists of tokens")
    tokens = [str(t) for s in sentences for t in s]
    field = KEY_FIELD
    if role == "response" and RESPONSE_FIELD in obj:
        field = RESPONSE_FIELD
    if field not in obj:
        raise InputError(path, line, f"document '{name}' has no '{field}'")
    clusters = obj[field]
    subtoken_map = obj.get("subtoken_map")
    if subtoken_map is not None:
        _check_subtoken_map(path, line, name, subtoken_map, len(tokens))
    if not isinstance(clusters, list):
        raise InputError(path, line, f"document '{name}': '{field}' must be a list of clusters")
    mentions = _spans(path, line, name, field, clusters, len(tokens) if "sentences" in obj else None, subtoken_map)
    return name, tokens, subtoken_map, mentions


def _spans(
    path: str, line: int, name: str, field: str, clusters: list[Any], n_tokens: int | None, subtoken_map: Any
) -> tuple[list[int], list[int], list[int]]:
    """The mentions of ``clusters`` (starts, ends, cluster numbers), checked (``n_tokens``: the
    tokens the file gives, if it gives them) and mapped to words."""
    starts: list[int] = []
    ends: list[int] = []
    entities: list[int] = []
    for k, cluster in enumerate(clusters):
        if not isinstance(cluster, list):
            raise InputError(path, line, f"document '{name}': cluster {k} of '{field}' is not a list")
        for span in cluster:
            if not is_span(span):
                raise InputError(
                    path,
                    line,
                    f"document '{name}': {shown(span)} in cluster {k} of '{field}' is not "
                    "[start, end], two integers with 0 <= start <= end",
                )
            s, e = span
            if n_tokens is not None and e >= n_tokens:
                last = f"the last token ({n_tokens - 1})" if n_tokens else "the document's tokens (it has none)"
                raise InputError(
                    path, line, f"document '{name}': span {span} in cluster {k} of '{field}' ends after {last}"
                )
            if subtoken_map is not None:
                s, e = subtoken_map[s], subtoken_map[e]  # never start > end: the map never decreases
            starts.append(s)
            ends.append(e)
            entities.append(k)
    return starts, ends, entities


def _check_subtoken_map(path: str, line: int, name: str, subtoken_map: object, n_subtokens: int) -> None:
    """A subtoken map gives each subtoken the index of its word: indices that never decrease (so no
    mapped mention starts after it ends) and stay below the number of subtokens (a word has at least
    one), so that the words never outnumber what the file holds."""
    expected = (
        f"document '{name}': 'subtoken_map' must give one word index per token ({n_subtokens}), "
        "integers from 0 that never decrease and stay below the number of tokens"
    )
    if not isinstance(subtoken_map, list) or len(subtoken_map) != n_subtokens:
        raise InputError(path, line, expected)
    previous = 0
    for i, word in enumerate(subtoken_map):
        if not is_offset(word) or word < previous or word >= n_subtokens:
            raise InputError(path, line, f"{expected}; token {i} has {shown(word)}")
        previous = word


def _words(subtokens: list[str], subtoken_map: list[int]) -> tuple[str, ...]:
    """Glue subwords back into words (``##`` and ``▁``/``Ġ`` markers removed)."""
    out: list[str] = [""] * (subtoken_map[-1] + 1 if subtoken_map else 0)
    for t, w in zip(subtokens, subtoken_map, strict=False):
        if t in ("[CLS]", "[SEP]", "<s>", "</s>"):
            continue
        out[w] += t[2:] if t.startswith("##") else t.lstrip("▁Ġ")
    return tuple(out)
