"""Reader for the jsonlines files of the e2e-coref family (SpanBERT, coref-hoi, s2e, LingMess, ...).

One JSON object per line: ``doc_key``, ``sentences`` (lists of tokens), ``clusters`` (lists of
``[start, end]``, inclusive offsets into the flattened sentences) and optionally
``predicted_clusters`` (a system's clusters, same shape) and ``subtoken_map`` (token offset ->
word index, for files written in subwords; spans are then mapped back to words). The key side of a
file is ``clusters``; the response side is ``predicted_clusters`` when present, else ``clusters``,
so one file holding both can be scored on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..diagnostics import Diagnostic, InputError
from ..model import Corpus, Document
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
    documents: list[Document] = []
    warnings: list[Diagnostic] = []
    seen: dict[str, int] = {}
    sentences: dict[str, list[int]] = {}
    words: list[list[str]] = []  # each document's words (none where the file gives subtokens)
    if text.startswith("\ufeff"):
        text = text[1:]
    for lineno, line in enumerate(text.split("\n"), first_line):
        if not line.strip():
            continue
        obj = load_object(path, lineno, line)
        doc = _document(path, lineno, obj, keep_tokens, role)
        words.append(_plain_words(obj))
        if doc.name in seen:
            warnings.append(
                Diagnostic(
                    path,
                    lineno,
                    f"document '{doc.name}' appears again (first at line "
                    f"{seen[doc.name]}); the last occurrence is scored",
                )
            )
        seen.setdefault(doc.name, lineno)
        documents.append(doc)
        if "subtoken_map" not in obj:
            sentences[doc.name] = [len(s) for s in obj.get("sentences", []) if s]
    if not documents:
        raise InputError(path, 1, "no document found (expected one JSON object per line)")
    _add_prints(documents, words)
    return JsonlinesCorpus(path=path, documents=documents, format="jsonlines", warnings=warnings, sentences=sentences)


def _plain_words(obj: dict[str, Any]) -> list[str]:
    """The document's words, when its tokens are words (no ``subtoken_map``)."""
    if "subtoken_map" in obj or "sentences" not in obj:
        return []
    return [str(t) for s in obj["sentences"] for t in s]


def _add_prints(documents: list[Document], words: list[list[str]]) -> None:
    """Give each document with words their fingerprints (:mod:`.word_prints`), made for the whole
    file at once (the documents were made here and are not yet seen elsewhere)."""
    prints = of_words([w for doc_words in words for w in doc_words])
    at = 0
    for doc, doc_words in zip(documents, words):
        if doc_words and len(doc_words) == doc.n_tokens:
            object.__setattr__(doc, "forms", prints[at : at + len(doc_words)])
        at += len(doc_words)


def _document(path: str, line: int, obj: dict[str, Any], keep_tokens: bool, role: str) -> Document:
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
    n_tokens = len(tokens)
    if subtoken_map is not None:
        _check_subtoken_map(path, line, name, subtoken_map, len(tokens))
        n_tokens = subtoken_map[-1] + 1 if subtoken_map else 0
    starts: list[int] = []
    ends: list[int] = []
    entities: list[int] = []
    if not isinstance(clusters, list):
        raise InputError(path, line, f"document '{name}': '{field}' must be a list of clusters")
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
            if "sentences" in obj and e >= len(tokens):
                last = f"the last token ({len(tokens) - 1})" if tokens else "the document's tokens (it has none)"
                raise InputError(
                    path, line, f"document '{name}': span {span} in cluster {k} of '{field}' ends after {last}"
                )
            if subtoken_map is not None:
                s, e = subtoken_map[s], subtoken_map[e]  # never start > end: the map never decreases
            starts.append(s)
            ends.append(e)
            entities.append(k)
    used = list(dict.fromkeys(entities))  # the clusters with mentions, in order (entities never decrease)
    renumber = {k: i for i, k in enumerate(used)}
    words: tuple[str, ...] | None = None
    if keep_tokens:
        words = tuple(tokens) if subtoken_map is None else _words(tokens, subtoken_map)
    columns = [starts, ends, [renumber[k] for k in entities], [line] * len(starts)]
    rows = np.asarray(columns, dtype=np.int64).reshape(4, len(starts))  # one array: a file may have a million documents
    return Document(
        name=name,
        starts=rows[0],
        ends=rows[1],
        entities=rows[2],
        labels=tuple(str(k) for k in used),
        n_tokens=max(n_tokens, max(ends, default=-1) + 1),
        lines=rows[3],
        begin_line=line,
        tokens=words,
    )


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
