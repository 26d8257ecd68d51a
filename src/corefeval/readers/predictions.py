"""Reader for what coreference models return, saved one JSON object per line.

Each object names its document with ``doc_key`` and holds its clusters in one of the shapes models
return them:

* ``clusters_token_offsets``: ``[start, end]`` token offsets, inclusive (Maverick's ``predict``);
* ``clusters_char_offsets`` with ``text``: ``[start, end]`` character offsets, inclusive
  (Maverick's ``predict`` on plain text);
* ``text`` and ``clusters`` without ``sentences``: ``[start, end)`` character offsets, end exclusive
  (fastcoref's ``get_clusters(as_strings=False)``); but when a span starts where it ends, which no
  end-exclusive character span does, or when a span read as characters would cut a word (``text``
  has a letter or digit on both sides of its start or end) or start or end on white space, the
  clusters are ``[start, end]`` token offsets, inclusive: Maverick's ``evaluate.py`` writes its
  ``output.jsonlines`` so (``text`` copied from its input, ``clusters`` its token-level predictions);
  unless a span ends past the key document's last token (then they are characters, and a span off
  the key's token boundaries is an error naming it).

fastcoref's and LingMess's ``predict(..., output_file=...)`` writes ``text``, ``clusters`` and
``clusters_strings`` without a ``doc_key``: such objects are paired with the key's documents by
position, with a warning. When ``text`` is a list of words (``is_split_into_words=True``), the
clusters are ``[start, end)`` word offsets, end exclusive.

Character offsets are mapped onto the key document's tokens, found in ``text`` in order; a mention
that does not start and end on token boundaries is an error naming the document and the span.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.diagnostics import Diagnostic, InputError
from ..core.model import Corpus, Document
from ..core.pairing import by_other_name
from ..core.reading_order import in_reading_order
from .json_values import is_span, load_object, shown

TOKEN_FIELD = "clusters_token_offsets"
CHAR_FIELD = "clusters_char_offsets"
FORMAT = "predictions"


def is_predictions(first_object: dict[str, Any]) -> bool:
    """Whether a jsonlines object is a model's output rather than an e2e-coref document."""
    return (
        TOKEN_FIELD in first_object
        or CHAR_FIELD in first_object
        or ("text" in first_object and "clusters" in first_object and "sentences" not in first_object)
    )


def read_predictions(path: str, text: str, key: Corpus | None = None, first_line: int = 1) -> Corpus:
    """Read model outputs; ``key`` (with its words) is needed for character offsets; ``first_line``
    is the line number of ``text``'s first line, when it is a part of a larger file."""
    documents: list[Document] = []
    warnings: list[Diagnostic] = []
    key_docs = key.by_name() if key is not None else {}
    by_position = 0
    for lineno, line in enumerate(text.lstrip("\ufeff").split("\n"), first_line):
        if not line.strip():
            continue
        obj = load_object(path, lineno, line)
        if "doc_key" not in obj and "clusters_strings" in obj and key is not None:
            # fastcoref's output_file: the n-th object is the key's n-th document
            if len(documents) >= len(key.documents):
                raise InputError(path, lineno, f"more documents than the key {key.path} has ({len(key.documents)})")
            obj = {**obj, "doc_key": key.documents[len(documents)].name}
            by_position += 1
        if not isinstance(obj.get("doc_key"), str):
            raise InputError(path, lineno, "expected a JSON object with a 'doc_key' string")
        kdoc = key_docs.get(obj["doc_key"])
        if kdoc is None and key_docs:
            kdoc = by_other_name(obj["doc_key"], key_docs)
        documents.append(_document(path, lineno, obj, kdoc, key))
    if not documents:
        raise InputError(path, 1, "no document found (expected one JSON object per line)")
    if by_position:
        warnings.append(
            Diagnostic(path, first_line, f"no 'doc_key': {by_position} documents paired with the key's by position")
        )
    return Corpus(path=path, documents=documents, format=FORMAT, warnings=warnings)


def _document(path: str, line: int, obj: dict[str, Any], kdoc: Document | None, key: Corpus | None) -> Document:
    name = obj["doc_key"]
    split_words = isinstance(obj.get("text"), list) and "clusters" in obj  # fastcoref on given words
    if split_words:
        obj = {**obj, "tokens": obj["text"], "text": None}
    field, char_end = _offsets_field(obj, split_words, kdoc)
    if field not in obj:
        raise InputError(
            path, line, f"document '{name}': expected '{TOKEN_FIELD}', '{CHAR_FIELD}' or 'text' with 'clusters'"
        )
    clusters = obj[field]
    if not isinstance(clusters, list):
        raise InputError(path, line, f"document '{name}': '{field}' must be a list of clusters")
    to_token = None
    given_tokens = isinstance(obj.get("tokens"), list)
    # token offsets without the words: the key's document has the tokens they point into
    n_tokens = len(obj["tokens"]) if given_tokens else (kdoc.n_tokens if kdoc is not None else 0)
    if char_end is not None:
        if not isinstance(obj.get("text"), str):
            raise InputError(path, line, f"document '{name}': character offsets need the document's 'text'")
        if kdoc is None:
            where = f"the key {key.path}" if key is not None else "a key (score against one)"
            raise InputError(
                path, line, f"document '{name}': character offsets are mapped onto {where}, which has no such document"
            )
        to_token = _token_boundaries(path, line, name, obj["text"], kdoc)
        n_tokens = kdoc.n_tokens
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
                    f"document '{name}': {shown(span)} in cluster {k} of '{field}' is not [start, end], "
                    "two integers with 0 <= start <= end",
                )
            s, e = span
            if split_words:  # [start, end) words
                if s == e:
                    raise InputError(
                        path, line, f"document '{name}': {span} in cluster {k} is empty ([start, end) word offsets)"
                    )
                e -= 1
            if to_token is not None:
                begins, finishes = to_token
                last = e + char_end  # the offset after the mention's last character
                if s not in begins or last not in finishes:
                    raise InputError(
                        path,
                        line,
                        f"document '{name}': span {span} ({obj['text'][s:last]!r}) in cluster {k} does not "
                        "fall on the key's token boundaries",
                    )
                s, e = begins[s], finishes[last]
            elif given_tokens and e >= n_tokens:
                last = f"the last token ({n_tokens - 1})" if n_tokens else "the document's tokens (it has none)"
                raise InputError(path, line, f"document '{name}': span {span} in cluster {k} ends after {last}")
            starts.append(s)
            ends.append(e)
            entities.append(k)
    ents = np.asarray(entities, dtype=np.int64)
    _, dense = np.unique(ents, return_inverse=True)
    return in_reading_order(
        Document(
            name=name,
            starts=np.asarray(starts, dtype=np.int64),
            ends=np.asarray(ends, dtype=np.int64),
            entities=dense.reshape(-1).astype(np.int64),
            n_tokens=max(n_tokens, max(ends, default=-1) + 1),
            lines=np.full(len(starts), line, dtype=np.int64),
            begin_line=line,
        )
    )


def _offsets_field(obj: dict[str, Any], split_words: bool, kdoc: Document | None) -> tuple[str, int | None]:
    """The field holding a document's clusters, and what its offsets are: ``None`` for tokens, else
    characters whose span end is inclusive (1) or exclusive (0)."""
    if split_words:
        return "clusters", None
    if TOKEN_FIELD in obj:
        return TOKEN_FIELD, None
    if CHAR_FIELD in obj:
        return CHAR_FIELD, 1  # inclusive end
    if _token_level(obj.get("clusters"), obj.get("text"), kdoc.n_tokens if kdoc is not None else None):
        return "clusters", None  # Maverick's output.jsonlines: inclusive token offsets
    return "clusters", 0  # exclusive end


def _token_level(clusters: object, text: object, n_tokens: int | None = None) -> bool:
    """Whether ``clusters`` are inclusive token offsets rather than end-exclusive character offsets
    into ``text``: a span ``[k, k]`` is empty as characters (a one-token mention), and a span that
    cuts a word or starts or ends on white space is no mention's characters; but spans that end past
    the key document's ``n_tokens`` are no token offsets (characters, then, which may be wrong)."""
    if not isinstance(clusters, list):
        return False
    spans = [span for c in clusters if isinstance(c, list) for span in c if is_span(span)]
    if n_tokens is not None and any(e >= n_tokens for _, e in spans):
        return False
    if any(s == e for s, e in spans):
        return True
    return isinstance(text, str) and not all(_word_bounded(text, s, e) for s, e in spans)


def _word_bounded(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` could be a mention: inside ``text``, neither starting nor ending on
    white space, and not cutting a word (a letter or digit on both sides of either end)."""
    if end > len(text):
        return True  # past the text: the character reading's own error says so
    inner = text[start:end]
    if not inner or inner[0].isspace() or inner[-1].isspace():
        return False
    cuts_start = start > 0 and text[start - 1].isalnum() and text[start].isalnum()
    cuts_end = end < len(text) and text[end - 1].isalnum() and text[end].isalnum()
    return not (cuts_start or cuts_end)


def _token_boundaries(
    path: str, line: int, name: str, text: str, kdoc: Document
) -> tuple[dict[int, int], dict[int, int]]:
    """Character offset of each key token's first character -> token, and of the character after
    its last -> token, found by locating the key's words in ``text`` one after another."""
    if kdoc.tokens is None or len(kdoc.tokens) != kdoc.n_tokens:
        raise InputError(path, line, f"document '{name}': the key's words are needed to map character offsets")
    begins: dict[int, int] = {}
    finishes: dict[int, int] = {}
    cursor = 0
    for t, word in enumerate(kdoc.tokens):
        at = text.find(word, cursor)
        if at < 0 or text[cursor:at].strip():
            raise InputError(
                path,
                line,
                f"document '{name}': key token {t} ({word!r}) is not found in 'text' after character {cursor}",
            )
        begins.setdefault(at, t)
        cursor = at + len(word)
        finishes[cursor] = t
    return begins, finishes
