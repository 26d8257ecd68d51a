"""Reader for Seq2seqCoref's prediction file, ``{split}-predicts.txt``.

Seq2seqCoref (``trainer.py``, ``my_compute_metrics``, with ``--save_predicts``) writes one JSON
object per segment of a document: ``doc_key`` is the document's key with ``_`` and the segment's
number appended, ``pred_text`` the decoded ``<m> ... | k </m>`` markup over subword tokens, and
``predict_clusters`` the clusters its post-processing read from that markup, as ``[start, end]``
word offsets into the whole document, inclusive. Reading the clusters rather than the markup gives
what the tool itself scores: the markup is over subwords, and the words they map to are in the
preprocessed input, not in this file.

The segments of a document are put together as the tool does (``data.get_document_predicts``):
mentions that two segments' clusters share link those clusters into one entity, and within an
entity a mention that crosses one kept before it (taken by start, longer first) is dropped.

The ``short_seq`` variant writes only aligned subword tokens (``pred_aligned_text``), no clusters:
it is refused with a one-line error saying so.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..diagnostics import InputError
from ..model import Corpus, Document
from ..pairing import by_other_name
from .json_values import is_span, load_object, shown

FORMAT = "seq2seq"
CLUSTERS = "predict_clusters"
SHORT_SEQ = "pred_aligned_text"
_SEGMENT = re.compile(r"_\d+$")

Span = tuple[int, int]


def is_seq2seq(first_object: dict[str, Any]) -> bool:
    """Whether a jsonlines object is a segment of Seq2seqCoref's ``predicts.txt``."""
    return "pred_text" in first_object and (CLUSTERS in first_object or SHORT_SEQ in first_object)


def read_seq2seq(path: str, text: str, key: Corpus | None = None) -> Corpus:
    """Read a ``predicts.txt``; ``key`` gives each document its number of tokens."""
    segments: dict[str, list[tuple[int, list[list[Span]]]]] = {}
    for lineno, line in enumerate(text.lstrip("\ufeff").split("\n"), 1):
        if not line.strip():
            continue
        obj = load_object(path, lineno, line)
        if not isinstance(obj.get("doc_key"), str):
            raise InputError(path, lineno, "expected a JSON object with a 'doc_key' string")
        if CLUSTERS not in obj:
            why = "a short_seq run writes only aligned tokens" if SHORT_SEQ in obj else "expected it"
            raise InputError(path, lineno, f"segment '{obj['doc_key']}' has no '{CLUSTERS}' ({why})")
        document = _SEGMENT.sub("", obj["doc_key"])
        segments.setdefault(document, []).append((lineno, _clusters(path, lineno, obj)))
    if not segments:
        raise InputError(path, 1, "no segment found (expected one JSON object per line)")
    key_docs = key.by_name() if key is not None else {}
    documents = []
    for name, parts in segments.items():
        kdoc = key_docs.get(name) or (by_other_name(name, key_docs) if key_docs else None)
        documents.append(_document(name, parts, kdoc))
    return Corpus(path=path, documents=documents, format=FORMAT)


def _clusters(path: str, line: int, obj: dict[str, Any]) -> list[list[Span]]:
    clusters = obj[CLUSTERS]
    if not isinstance(clusters, list):
        raise InputError(path, line, f"segment '{obj['doc_key']}': '{CLUSTERS}' must be a list of clusters")
    out: list[list[Span]] = []
    for k, cluster in enumerate(clusters):
        if not isinstance(cluster, list):
            raise InputError(path, line, f"segment '{obj['doc_key']}': cluster {k} of '{CLUSTERS}' is not a list")
        for span in cluster:
            if not is_span(span):
                raise InputError(
                    path,
                    line,
                    f"segment '{obj['doc_key']}': {shown(span)} in cluster {k} is not [start, end], "
                    "two integers with 0 <= start <= end",
                )
        out.append([(int(s), int(e)) for s, e in cluster])
    return out


def _document(name: str, parts: list[tuple[int, list[list[Span]]]], kdoc: Document | None) -> Document:
    """One document from its segments' clusters, linked through shared mentions."""
    parent: dict[Span, Span] = {}
    first_line: dict[Span, int] = {}

    def root(span: Span) -> Span:
        while parent[span] != span:
            parent[span] = parent[parent[span]]
            span = parent[span]
        return span

    for line, clusters in parts:
        for cluster in clusters:
            for span in cluster:
                if span not in parent:
                    parent[span] = span
                    first_line[span] = line
                parent[root(span)] = root(cluster[0])
    groups: dict[Span, list[Span]] = {}
    for span in parent:
        groups.setdefault(root(span), []).append(span)
    starts: list[int] = []
    ends: list[int] = []
    entities: list[int] = []
    for entity, group in enumerate(groups.values()):
        kept: list[Span] = []
        for s, e in sorted(group, key=lambda m: (m[0], -m[1])):
            if not any(ks < s < ke < e for ks, ke in kept):  # crossing a mention kept before
                kept.append((s, e))
        for s, e in kept:
            starts.append(s)
            ends.append(e)
            entities.append(entity)
    n_tokens = max(kdoc.n_tokens if kdoc is not None else 0, max(ends, default=-1) + 1)
    return Document(
        name=name,
        starts=np.asarray(starts, dtype=np.int64),
        ends=np.asarray(ends, dtype=np.int64),
        entities=np.asarray(entities, dtype=np.int64),
        n_tokens=n_tokens,
        lines=np.asarray([first_line[(s, e)] for s, e in zip(starts, ends)], dtype=np.int64),
        begin_line=parts[0][0],
    )
