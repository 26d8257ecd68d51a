"""Readers for the prediction files of coreference models that write their own JSON lines.

* ``wl-coref`` (vdobrovolskii/wl-coref ``predict.py``, and CAW-coref, which keeps its format): one
  JSON object a line with ``document_id``, ``cased_words`` and ``span_clusters``, lists of
  ``[start, end)`` word spans (end exclusive), with ``word_clusters`` (the head words) beside them.
  The document is named ``document_id`` + ``_`` + ``part_id`` when a ``part_id`` is given, so that
  it pairs with the CoNLL-2012 document ``(document_id); part NNN``.
* ``preco`` (PreCo's jsonl): ``id``, ``sentences`` (lists of words) and ``mention_clusters``, lists
  of ``[sentence, start, end)`` (word offsets within the sentence, end exclusive).

Both are detected from the first object's fields. ``stanza``: Stanza's document JSON, a JSON array
of sentences of word objects with ``coref_chains`` (see :func:`read_stanza`).
"""

from __future__ import annotations

from typing import Any

from ..core.diagnostics import InputError
from ..core.model import Corpus, Document
from ..core.reading_order import clusters_document
from .json_values import load_file, load_object, shown

WL_COREF = "wl-coref"
PRECO = "preco"
STANZA = "stanza"


def model_output_format(first_object: dict[str, Any]) -> str | None:
    """The format a jsonlines object's fields name, or ``None``."""
    if "document_id" in first_object and "cased_words" in first_object and "span_clusters" in first_object:
        return WL_COREF
    if "mention_clusters" in first_object and "sentences" in first_object:
        return PRECO
    return None


def read_model_output(path: str, text: str, fmt: str, keep_tokens: bool = False) -> Corpus:
    """Read a wl-coref or PreCo file (``fmt``); ``keep_tokens`` keeps the words."""
    documents: list[Document] = []
    for lineno, line in enumerate(text.lstrip("\ufeff").split("\n"), 1):
        if not line.strip():
            continue
        obj = load_object(path, lineno, line)
        reader = _wl_coref if fmt == WL_COREF else _preco
        documents.append(reader(path, lineno, obj, keep_tokens))
    if not documents:
        raise InputError(path, 1, "no document found (expected one JSON object per line)")
    return Corpus(path=path, documents=documents, format=fmt)


def _words(path: str, line: int, value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(w, str) for w in value):
        raise InputError(path, line, f"'{what}' must be a list of strings")
    return value


def _wl_coref(path: str, line: int, obj: dict[str, Any], keep_tokens: bool) -> Document:
    if not isinstance(obj.get("document_id"), str):
        raise InputError(path, line, "expected a JSON object with a 'document_id' string")
    name = obj["document_id"]
    if type(obj.get("part_id")) is int:
        name = f"{name}_{obj['part_id']}"
    words = _words(path, line, obj.get("cased_words"), "cased_words")
    clusters = []
    for k, cluster in enumerate(_list(path, line, obj.get("span_clusters"), "span_clusters")):
        spans = []
        for span in _list(path, line, cluster, f"cluster {k} of 'span_clusters'"):
            s, e = _pair(path, line, span, len(words), f"cluster {k} of 'span_clusters'", "document")
            spans.append((s, e - 1))
        clusters.append(spans)
    return _document(name, line, clusters, words, keep_tokens)


def _preco(path: str, line: int, obj: dict[str, Any], keep_tokens: bool) -> Document:
    if not isinstance(obj.get("id"), str):
        raise InputError(path, line, "expected a JSON object with an 'id' string")
    sentences = _list(path, line, obj.get("sentences"), "sentences")
    starts = [0]
    words: list[str] = []
    for k, sentence in enumerate(sentences):
        words += _words(path, line, sentence, f"sentence {k}")
        starts.append(len(words))
    clusters = []
    for k, cluster in enumerate(_list(path, line, obj.get("mention_clusters"), "mention_clusters")):
        spans = []
        for mention in _list(path, line, cluster, f"cluster {k} of 'mention_clusters'"):
            ok = isinstance(mention, list) and len(mention) == 3 and all(type(v) is int for v in mention)
            if not ok or not 0 <= mention[0] < len(sentences):
                raise InputError(
                    path,
                    line,
                    f"document '{obj['id']}': {shown(mention)} in cluster {k} is not [sentence, start, end] "
                    f"with a sentence from 0 to {len(sentences) - 1}",
                )
            sentence, s, e = mention
            size = starts[sentence + 1] - starts[sentence]
            s, e = _pair(path, line, [s, e], size, f"cluster {k} of 'mention_clusters'", f"sentence {sentence}")
            spans.append((starts[sentence] + s, starts[sentence] + e - 1))
        clusters.append(spans)
    return _document(obj["id"], line, clusters, words, keep_tokens)


def _list(path: str, line: int, value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(path, line, f"'{what}' must be a list" if "'" not in what else f"{what} must be a list")
    return value


def _pair(path: str, line: int, span: object, size: int, where: str, unit: str) -> tuple[int, int]:
    """An end-exclusive ``[start, end)`` within ``size`` words."""
    ok = isinstance(span, list) and len(span) == 2 and all(type(v) is int for v in span)
    if not ok or not 0 <= span[0] < span[1] <= size:  # type: ignore[index]
        raise InputError(
            path,
            line,
            f"{shown(span)} in {where} is not [start, end) with 0 <= start < end <= {size} "
            f"(the words of the {unit}; the end is exclusive)",
        )
    return span[0], span[1]  # type: ignore[index]


def _document(name: str, line: int, clusters: list[list[tuple[int, int]]], words: list[str], keep: bool) -> Document:
    clusters = [c for c in clusters if c]
    starts = [s for c in clusters for s, _ in c]
    ends = [e for c in clusters for _, e in c]
    entities = [k for k, c in enumerate(clusters) for _ in c]
    return clusters_document(
        name,
        starts,
        ends,
        entities,
        len(words),
        labels=tuple(str(k) for k in range(len(clusters))),
        lines=[line] * len(starts),
        begin_line=line,
        tokens=tuple(words) if keep else None,
    )


def is_stanza(text: str) -> bool:
    """Whether ``text`` opens a JSON array of arrays of objects (Stanza's document JSON)."""
    body = text.lstrip("\ufeff").lstrip()
    if not body.startswith("["):
        return False
    rest = body[1:].lstrip()
    return rest.startswith("[") and rest[1:].lstrip()[:1] in ("{", "]")


def read_stanza(path: str, text: str, key: Corpus | None, keep_tokens: bool = False) -> Corpus:
    """Stanza's document JSON (``print(doc)``, ``json.dumps(doc.to_dict(), cls=DocJSONEncoder)``):
    sentences of word objects, each word in a mention with ``coref_chains``, one ``{"index": chain,
    "is_start": true, "is_end": true}`` per chain it belongs to. Words are those with an integer
    ``id`` (multiword tokens' ranges are skipped). One document a file: it is the key's document
    when the key has one, else the key's first, with a warning (a Stanza file names no document)."""
    from ..core.diagnostics import Diagnostic

    data = load_file(path, text)
    words: list[str] = []
    open_at: dict[int, list[int]] = {}
    mentions: list[tuple[int, int, int]] = []
    for k, sentence in enumerate(_list(path, 1, data, "the document")):
        for entry in _list(path, 1, sentence, f"sentence {k}"):
            if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
                raise InputError(path, 1, f"sentence {k}: expected word objects with a 'text' string")
            if type(entry.get("id")) is not int:
                continue
            position = len(words)
            words.append(entry["text"])
            for chain in entry.get("coref_chains") or []:
                if not isinstance(chain, dict) or type(chain.get("index")) is not int:
                    raise InputError(path, 1, f"word {position}: 'coref_chains' entries need an integer 'index'")
                stack = open_at.setdefault(chain["index"], [])
                if chain.get("is_start"):
                    stack.append(position)
                if chain.get("is_end"):
                    if not stack:
                        raise InputError(
                            path, 1, f"word {position} ends a mention of chain {chain['index']} never started"
                        )
                    mentions.append((chain["index"], stack.pop(), position))
    unfinished = [c for c, stack in open_at.items() if stack]
    if unfinished:
        raise InputError(path, 1, f"a mention of chain {unfinished[0]} is never ended (no word with 'is_end')")
    warnings = []
    name = "stanza"
    if key is not None and key.documents:
        name = key.documents[0].name
        if len(key.documents) > 1:
            warnings.append(Diagnostic(path, 1, f"a Stanza file is one document: scored as the key's first, '{name}'"))
    chains = sorted({c for c, _, _ in mentions})
    clusters = [[(s, e) for c, s, e in mentions if c == chain] for chain in chains]
    return Corpus(
        path=path, documents=[_document(name, 1, clusters, words, keep_tokens)], format=STANZA, warnings=warnings
    )
