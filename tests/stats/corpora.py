"""Small random corpora and an independent, slow re-scoring of resampled corpora."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from corefeval.core.model import Corpus, Document, make_document
from corefeval.scoring.pipeline import score

N_TOKENS = 80

KEY = [[(0, 0), (2, 2), (4, 4), (6, 6)], [(8, 8), (10, 10)]]
SPLIT = [[(0, 0), (2, 2)], [(4, 4), (6, 6)], [(8, 8), (10, 10)]]  # one entity split in two
MERGED = [[(0, 0), (2, 2), (4, 4), (6, 6), (8, 8), (10, 10)]]  # two entities merged


def systems_differing_on(n_docs: int, differing: set[int]) -> tuple[Corpus, Corpus, Corpus]:
    """Key, baseline and system: the system is right where the baseline splits an entity, on
    ``differing``; elsewhere both make the same merge error."""
    key = Corpus("key", [make_document(f"d{i}", KEY, 12) for i in range(n_docs)])
    base = Corpus("base", [make_document(f"d{i}", SPLIT if i in differing else MERGED, 12) for i in range(n_docs)])
    system = Corpus("sys", [make_document(f"d{i}", KEY if i in differing else MERGED, 12) for i in range(n_docs)])
    return key, base, system


def random_clusters(rng: np.random.Generator, n_mentions: int) -> list[list[tuple[int, int]]]:
    """Single- and two-token mentions at distinct positions, grouped at random."""
    starts = sorted(rng.choice(N_TOKENS - 1, size=n_mentions, replace=False).tolist())
    n_entities = max(1, int(rng.integers(1, n_mentions + 1)))
    groups: dict[int, list[tuple[int, int]]] = {}
    for s in starts:
        groups.setdefault(int(rng.integers(0, n_entities)), []).append((s, s + int(rng.integers(0, 2))))
    return list(groups.values())


def perturb(
    rng: np.random.Generator, clusters: list[list[tuple[int, int]]], noise: float
) -> list[list[tuple[int, int]]]:
    """Drop, move and add mentions with probability ``noise`` each."""
    out: list[list[tuple[int, int]]] = [[] for _ in clusters]
    used = {m for c in clusters for m in c}
    for c in clusters:
        for m in c:
            if rng.random() < noise:
                continue
            target = int(rng.integers(0, len(out) + 1)) if rng.random() < noise else clusters.index(c)
            if target == len(out):
                out.append([])
            out[target].append(m)
    for _ in range(int(rng.binomial(4, noise))):
        s = int(rng.integers(0, N_TOKENS - 1))
        if (s, s) not in used:
            used.add((s, s))
            out[int(rng.integers(0, len(out)))].append((s, s))
    return [c for c in out if c]


def random_corpora(seed: int, n_docs: int, noises: Sequence[float]) -> tuple[Corpus, list[Corpus]]:
    """A key of ``n_docs`` documents and one response per noise level."""
    rng = np.random.default_rng(seed)
    key_docs = []
    responses: list[list[Document]] = [[] for _ in noises]
    for i in range(n_docs):
        clusters = random_clusters(rng, int(rng.integers(2, 14)))
        key_docs.append(make_document(f"doc{i}", clusters, N_TOKENS))
        for docs, noise in zip(responses, noises, strict=True):
            docs.append(make_document(f"doc{i}", perturb(rng, clusters, noise), N_TOKENS))
    return Corpus("key", key_docs), [Corpus(f"system{j}", d) for j, d in enumerate(responses)]


def renamed(doc: Document, name: str) -> Document:
    return Document(name, doc.starts, doc.ends, doc.entities, doc.labels, doc.n_tokens)


def rescored_f1(key: Corpus, response: Corpus, picks: Sequence[tuple[int, Corpus]]) -> dict[str, float]:
    """Corpus F1 of a corpus rebuilt from scratch: document ``i`` of ``key``, responded to by ``source``.

    ``picks`` lists (document index, response corpus it comes from); repeated documents are renamed.
    """
    new_key, new_response = [], []
    for n, (i, source) in enumerate(picks):
        new_key.append(renamed(key.documents[i], f"{n}"))
        new_response.append(renamed(source.documents[i], f"{n}"))
    result = score(Corpus("k", new_key), Corpus("r", new_response))
    return {m: s.f1 for m, s in result.corpus.items()}


def write_conll(corpus: Corpus, path) -> None:  # type: ignore[no-untyped-def]
    """Write single-token mentions as a minimal CoNLL-2012 file (one sentence per document)."""
    lines = []
    for doc in corpus.documents:
        marks: dict[int, list[str]] = {}
        for s, e, k in zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist(), strict=True):
            assert s == e, "only single-token mentions"
            marks.setdefault(s, []).append(f"({k})")
        lines.append(f"#begin document ({doc.name}); part 000")
        for t in range(doc.n_tokens):
            lines.append(f"{doc.name}\t0\t{t}\tw{t}\t" + ("|".join(marks[t]) if t in marks else "-"))
        lines += ["", "#end document"]
    path.write_text("\n".join(lines) + "\n")
