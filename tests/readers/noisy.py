"""A reproducible imperfect "system output" made from a gold CorefUD file, for matching tests.

Each mention, with a seeded generator: 10 % extended by one word (within its sentence), 10 %
shortened by one word at the start, 10 % given its first word as head, 10 % moved to a random
entity, 5 % dropped; repeats of a span are left out (scorers disagree on repeated mentions).
"""

from __future__ import annotations

import numpy as np

from corefeval.core.model import Corpus, Document
from corefeval.readers.corefud import CorefUDCorpus


def noisy_corpus(gold: Corpus, sentences: dict[str, list[int]], seed: int = 7) -> Corpus:
    rng = np.random.default_rng(seed)
    docs = []
    for d in gold.documents:
        assert d.heads is not None
        sentence_starts = set(np.cumsum([0, *sentences[d.name]]).tolist())
        s, e, h, ent = d.starts.copy(), d.ends.copy(), d.heads.copy(), d.entities.copy()
        keep = np.ones(d.n_mentions, dtype=bool)
        for r in range(d.n_mentions):
            x = rng.random()
            if x < 0.1 and e[r] + 1 < d.n_tokens and e[r] + 1 not in sentence_starts:
                e[r] += 1
            elif x < 0.2 and s[r] < e[r]:
                s[r] += 1
                h[r] = max(h[r], s[r])
            elif x < 0.3:
                h[r] = s[r]
            elif x < 0.4:
                ent[r] = rng.integers(0, d.n_entities)
            elif x < 0.45:
                keep[r] = False
        seen: set[tuple[int, int]] = set()
        for r in range(d.n_mentions):
            span = (int(s[r]), int(e[r]))
            if keep[r] and span in seen:
                keep[r] = False
            seen.add(span)
        docs.append(
            Document(
                d.name,
                s[keep],
                e[keep],
                ent[keep],
                d.labels,
                d.n_tokens,
                d.lines[keep],
                d.begin_line,
                {},
                h[keep],
            )
        )
    return CorefUDCorpus(gold.path, docs, "corefud", sentences=sentences)
