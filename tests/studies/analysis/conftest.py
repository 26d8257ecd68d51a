"""A small synthetic study: a key, responses with known injected errors, simulated raters.

Every item is the same 60-token document with three key chains; errors are injected on disjoint
mentions so that any combination can be applied and the true count of each type is known.
One extra item's response equals its key although a noise error is counted (a planted data error).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

Span = tuple[int, int]
N_TOKENS = 60
KEY: list[list[Span]] = [[(0, 1), (10, 10), (20, 21), (30, 30)], [(5, 5), (15, 16), (25, 25)], [(40, 41), (50, 50)]]
TYPES = ("border", "type", "noise", "silence", "irrelevant", "absence")
#: How much one error of each type lowers a simulated rater's 0-7 answer.
SEVERITY = {"border": 0.5, "type": 1.5, "noise": 0.7, "silence": 1.0, "irrelevant": 0.8, "absence": 2.0}
MAX_COUNT = {"border": 2, "type": 2, "noise": 2, "silence": 2, "irrelevant": 2, "absence": 1}


def _find(chains: list[list[Span]], span: Span) -> int:
    return next(k for k, c in enumerate(chains) if span in c)


def inject(counts: dict[str, int]) -> list[list[Span]]:
    """The key with the requested number of errors of each type (at most MAX_COUNT each)."""
    chains = [list(c) for c in KEY]
    for n, (old, new) in enumerate([((20, 21), (20, 22)), ((15, 16), (15, 17))]):
        if counts.get("border", 0) > n:
            chain = chains[_find(chains, old)]
            chain[chain.index(old)] = new
    for n, (span, target) in enumerate([((10, 10), 1), ((5, 5), 0)]):
        if counts.get("type", 0) > n:
            chains[_find(chains, span)].remove(span)
            chains[target].append(span)
    for n, (span, target) in enumerate([((45, 45), 0), ((55, 55), 1)]):
        if counts.get("noise", 0) > n:
            chains[target].append(span)
    for n, span in enumerate([(30, 30), (25, 25)]):
        if counts.get("silence", 0) > n:
            chains[_find(chains, span)].remove(span)
    if counts.get("absence", 0):
        chains[2] = []
    for n, chain in enumerate([[(35, 36), (58, 59)], [(8, 8), (12, 12)]]):
        if counts.get("irrelevant", 0) > n:
            chains.append(list(chain))
    return [sorted(c) for c in chains if c]


def conll(documents: list[tuple[str, list[list[Span]]]]) -> str:
    """CoNLL-2012 text of documents given as (name, chains)."""
    lines = []
    for name, chains in documents:
        fields: list[list[str]] = [[] for _ in range(N_TOKENS)]
        for k, chain in enumerate(chains):
            for s, e in chain:
                if s == e:
                    fields[s].append(f"({k})")
                else:
                    fields[s].append(f"({k}")
                    fields[e].append(f"{k})")
        lines.append(f"#begin document ({name}); part 000")
        lines += [f"{name} 0 {t} w{t} {'|'.join(f) or '-'}" for t, f in enumerate(fields)]
        lines.append("#end document")
    return "\n".join(lines) + "\n"


@dataclass
class Synthetic:
    key: Path
    response: Path
    errors: Path
    ratings: Path
    counts: dict[str, dict[str, int]]
    planted: str
    noisy_rater: str
    types: tuple[str, ...] = TYPES


@pytest.fixture(scope="session")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Synthetic:
    rng = np.random.default_rng(7)
    folder = tmp_path_factory.mktemp("synthetic")
    counts: dict[str, dict[str, int]] = {}
    for item in range(1, 61):
        c = {t: int(rng.integers(1, MAX_COUNT[t] + 1)) if rng.random() < 0.3 else 0 for t in TYPES}
        counts[str(item)] = c if item > 4 else {t: 0 for t in TYPES}
    planted = "61"
    counts[planted] = {t: (1 if t == "noise" else 0) for t in TYPES}
    key_docs = [(f"doc{i}", KEY) for i in counts]
    response_docs = [(f"doc{i}", KEY if i == planted else inject(c)) for i, c in counts.items()]
    paths = Synthetic(
        folder / "key.conll",
        folder / "response.conll",
        folder / "errors.csv",
        folder / "ratings.csv",
        counts,
        planted,
        "R6",
    )
    paths.key.write_text(conll(key_docs))
    paths.response.write_text(conll(response_docs))
    paths.errors.write_text(
        "item,"
        + ",".join(TYPES)
        + "\n"
        + "".join(f"{i}," + ",".join(str(c[t]) for t in TYPES) + "\n" for i, c in counts.items())
    )
    rows = ["annotator,item,value"]
    for rater in ("R1", "R2", "R3", "R4", "R5", "R6"):
        for i, c in counts.items():
            latent = 7 - sum(SEVERITY[t] * n for t, n in c.items())
            if rater == paths.noisy_rater:
                value = int(rng.integers(0, 8))
            else:
                value = int(np.clip(np.round(latent + rng.normal(0, 0.3)), 0, 7))
            rows.append(f"{rater},{i},{value}")
    paths.ratings.write_text("\n".join(rows) + "\n")
    return paths
