"""spaCy ``Doc`` objects with coreference span groups, and DocBin (``.spacy``) files of them.

The spacy-experimental coreference component stores each predicted cluster as a span group named
``coref_clusters_1``, ``coref_clusters_2``, ...; every span is a mention, scored by its token
offsets. A document's name is ``doc.user_data["doc_key"]`` when set, else its position (``"0"``,
``"1"``, ...). spaCy is imported only to read ``.spacy`` files.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..diagnostics import InputError, UsageError
from ..model import Corpus, Document
from .sources import read_binary

PREFIX = "coref_clusters"
FORMAT = "spacy"


def document_from_doc(doc: Any, name: str, prefix: str = PREFIX) -> Document:
    """One document from a ``Doc``: each span group whose name starts with ``prefix`` is an entity."""
    groups = getattr(doc, "spans", None)
    if groups is None:
        raise UsageError(f"document '{name}': {type(doc).__name__} is not a spaCy Doc (no span groups)")
    starts: list[int] = []
    ends: list[int] = []
    entities: list[int] = []
    labels: list[str] = []
    for group_name in groups:
        if not group_name.startswith(prefix):
            continue
        spans = list(groups[group_name])
        if not spans:
            continue
        for span in spans:
            starts.append(int(span.start))
            ends.append(int(span.end) - 1)
            entities.append(len(labels))
        labels.append(group_name)
    return Document(
        name=name,
        starts=np.asarray(starts, dtype=np.int64),
        ends=np.asarray(ends, dtype=np.int64),
        entities=np.asarray(entities, dtype=np.int64),
        labels=tuple(labels),
        n_tokens=len(doc),
        tokens=tuple(t.text for t in doc),
    )


def corpus_from_docs(docs: Iterable[Any], path: str = "<spacy>", prefix: str = PREFIX) -> Corpus:
    """A corpus of ``Doc`` objects (names from ``user_data["doc_key"]`` or positions)."""
    documents = []
    for i, doc in enumerate(docs):
        user_data = getattr(doc, "user_data", None) or {}
        documents.append(document_from_doc(doc, str(user_data.get("doc_key", i)), prefix))
    return Corpus(path=path, documents=documents, format=FORMAT)


def read_docbin(path: str, prefix: str = PREFIX) -> Corpus:
    """Read a DocBin file (``.spacy``) written with its span groups (and user data for names)."""
    try:
        import spacy
        from spacy.tokens import DocBin
    except ImportError:
        raise UsageError("reading .spacy files needs spaCy (pip install 'corefeval[spacy]')") from None
    try:
        docs = list(DocBin().from_bytes(read_binary(path)).get_docs(spacy.blank("xx").vocab))
    except (OSError, ValueError) as err:
        raise InputError(path, 0, f"not a readable spaCy DocBin file: {err}") from None
    return corpus_from_docs(docs, path, prefix)
