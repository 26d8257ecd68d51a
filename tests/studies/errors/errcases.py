"""Small documents and their CoNLL text, for the error-analysis tests."""

from __future__ import annotations

from collections.abc import Sequence

from corefeval.core.model import Document, make_document
from corefeval.studies.errors.rewrite import coreference_fields

Clusters = Sequence[Sequence[tuple[int, int]]]


def doc(clusters: Clusters, n_tokens: int = 20, name: str = "d") -> Document:
    """A document of single-token-or-longer spans; words are w0, w1, ..."""
    d = make_document(name, clusters, n_tokens=n_tokens)
    return Document(
        d.name, d.starts, d.ends, d.entities, d.labels, d.n_tokens, tokens=tuple(f"w{i}" for i in range(d.n_tokens))
    )


def conll_text(docs: Sequence[Document]) -> str:
    """CoNLL-2012 text of documents (five tab-separated columns, coreference last)."""
    lines = []
    for d in docs:
        lines.append(f"#begin document ({d.name}); part 000")
        fields = coreference_fields(d)
        words = d.tokens or tuple(f"w{i}" for i in range(d.n_tokens))
        for i in range(d.n_tokens):
            lines.append(f"{d.name}\t0\t{i}\t{words[i]}\t{fields[i] or '-'}")
        lines.append("#end document")
    return "\n".join(lines) + "\n"
