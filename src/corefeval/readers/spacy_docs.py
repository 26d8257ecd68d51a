"""spaCy ``Doc`` objects with coreference span groups, and DocBin (``.spacy``) files of them.

The spacy-experimental coreference component stores each predicted cluster as a span group named
``coref_clusters_1``, ``coref_clusters_2``, ...; every span is a mention, scored by its token
offsets. A span group is a cluster when its name is the prefix, ``_`` and a number (ASCII
digits), as spaCy's component reads them (``coref_clusters_gold`` or ``coref_clusters2`` is not
one). A document's name is ``doc.user_data["doc_key"]`` when set, else its position (``"0"``,
``"1"``, ...). spaCy is imported only to read ``.spacy`` files.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Any

from ..core.diagnostics import Diagnostic, InputError, UsageError
from ..core.model import Corpus, Document
from ..core.reading_order import clusters_document
from .sources import read_binary

PREFIX = "coref_clusters"
FORMAT = "spacy"


def document_from_doc(doc: Any, name: str, prefix: str = PREFIX) -> Document:
    """One document from a ``Doc``: each span group named ``prefix``, ``_`` and a number is an entity."""
    groups = getattr(doc, "spans", None)
    if groups is None:
        raise UsageError(f"document '{name}': {type(doc).__name__} is not a spaCy Doc (no span groups)")
    starts: list[int] = []
    ends: list[int] = []
    entities: list[int] = []
    labels: list[str] = []
    for group_name in groups:
        if not is_cluster_group(group_name, prefix):
            continue
        spans = list(groups[group_name])
        if not spans:
            continue
        for span in spans:
            starts.append(int(span.start))
            ends.append(int(span.end) - 1)
            entities.append(len(labels))
        labels.append(group_name)
    return clusters_document(
        name, starts, ends, entities, len(doc), labels=tuple(labels), tokens=tuple(t.text for t in doc)
    )


def is_cluster_group(name: str, prefix: str = PREFIX) -> bool:
    """Whether the span group ``name`` holds a cluster: ``prefix``, ``_`` and a number."""
    number = name[len(prefix) + 1 :]
    return name.startswith(f"{prefix}_") and number.isascii() and number.isdigit()


def unread_groups(doc: Any, prefix: str = PREFIX) -> set[str]:
    """The span groups of ``doc`` whose names start with ``prefix`` but that are no clusters
    (``coref_clusters_gold``): left out, which the callers say in a warning."""
    groups = getattr(doc, "spans", None) or {}
    return {name for name in groups if name.startswith(prefix) and not is_cluster_group(name, prefix)}


def unread_warning(names: set[str], prefix: str = PREFIX) -> str:
    """The warning for span groups :func:`unread_groups` found."""
    shown = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
    return f"span groups not named {prefix}_<number> are no clusters and were not read: {shown}"


def corpus_from_docs(docs: Iterable[Any], path: str = "<spacy>", prefix: str = PREFIX) -> Corpus:
    """A corpus of ``Doc`` objects (names from ``user_data["doc_key"]`` or positions)."""
    documents = []
    unread: set[str] = set()
    for i, doc in enumerate(docs):
        user_data = getattr(doc, "user_data", None) or {}
        documents.append(document_from_doc(doc, str(user_data.get("doc_key", i)), prefix))
        unread |= unread_groups(doc, prefix)
    notes = [Diagnostic(path, 0, unread_warning(unread, prefix))] if unread else []
    return Corpus(path=path, documents=documents, format=FORMAT, warnings=notes)


def read_docbin(path: str, prefix: str = PREFIX) -> Corpus:
    """Read a DocBin file (``.spacy``) written with its span groups (and user data for names).

    A DocBin is zlib-compressed msgpack: the file is inflated here first, a block at a time, and
    refused once it inflates to more than :data:`INFLATE_RATIO` times its size (plus
    :data:`INFLATE_ALLOWANCE`), so that a tiny file cannot make spaCy hold gigabytes.
    """
    data = _bounded_zlib(path)  # before spaCy is imported: what is not a DocBin is refused at once
    try:
        import spacy
        from spacy.tokens import DocBin
    except ImportError:
        raise UsageError("reading .spacy files needs spaCy (pip install 'corefeval[spacy]')") from None
    try:  # spaCy parses bytes it did not write with whatever it meets: any failure means "not a DocBin"
        docs = list(DocBin().from_bytes(data).get_docs(spacy.blank("xx").vocab))
    except Exception as err:
        raise InputError(path, 0, f"{EXPECTED} ({type(err).__name__}: {str(err)[:80]})") from None
    return corpus_from_docs(docs, path, prefix)


#: What a ``.spacy`` file must hold, for error messages.
EXPECTED = (
    "not a spaCy DocBin: expected zlib-compressed msgpack of a map with 'attrs', 'tokens', 'spaces', "
    "'lengths', 'strings' and 'cats', as DocBin.to_disk writes it"
)
#: A DocBin may inflate to this many times its size, plus the allowance: DocBins of real text inflate
#: 12 to 15 times (token arrays and strings), a zlib bomb a thousand times.
INFLATE_RATIO = 64
INFLATE_ALLOWANCE = 64 << 20
_BLOCK = 1 << 20


def _bounded_zlib(path: str) -> bytes:
    """The input's bytes (a file, ``-`` or a pipe, as every input is read) once they are known to
    be one zlib stream that inflates within the bound (the inflated bytes are counted, not kept)."""
    data = read_binary(path)
    inflater = zlib.decompressobj()
    room = INFLATE_RATIO * len(data) + INFLATE_ALLOWANCE
    try:
        pending = data
        while pending and not inflater.eof:
            room -= len(inflater.decompress(pending, min(max(room, 1), _BLOCK)))  # counted, then dropped
            if room < 0 or (room == 0 and not inflater.eof):
                raise InputError(
                    path,
                    0,
                    f"the DocBin inflates to more than {INFLATE_RATIO} times its size plus "
                    f"{INFLATE_ALLOWANCE >> 20} MiB; refused (DocBins of real text inflate about 15 times)",
                )
            pending = inflater.unconsumed_tail
    except zlib.error as err:
        raise InputError(path, 0, f"{EXPECTED} (zlib: {err})") from None
    if not inflater.eof:
        raise InputError(path, 0, f"{EXPECTED} (the zlib stream is cut short)")
    return data
