"""Cross-document units: one pair of files scored within documents and across them.

Cross-document coreference files give each entity one label across all documents (ECB+, GVC, FCC
as written by most systems). Scored as they are, each document is its own unit (within-document
scores). Scored **across documents**, the documents of a unit are laid end to end as one document,
entities joined by label: all documents as one unit, or each topic as one unit.

Topics and subtopics come from document names by a regular expression with the named groups
``topic`` and (optional) ``subtopic``. The ECB+ convention names a document ``T_Necb`` or
``T_Necbplus``: topic ``T``, and within it two subtopics (the ECB documents and the ECB+ ones), so
:data:`ECB_PLUS` is ``^(?P<topic>\\d+)_\\d+(?P<subtopic>ecbplus|ecb)``.

A link is a pair of mentions of one entity. Each key and response link is typed by where its two
mentions are: the same document (**within-document**), two documents of one subtopic
(**within-subtopic**), of one topic but two subtopics (**cross-subtopic**), or of two topics
(**cross-topic**; documents whose name the regex does not match are each a topic of their own).
Recall of a type is the share of the key's links of that type that the response has; precision the
share of the response's links of that type that the key has. Links are counted from entity sizes
(n mentions make n(n-1)/2 links), never listed, so any entity size costs linear time.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.diagnostics import UsageError
from ..core.model import Corpus, Document
from ..metrics.base import Score

ECB_PLUS = r"^(?P<topic>\d+)_\d+(?P<subtopic>ecbplus|ecb)"
LINK_TYPES = ("within-document", "within-subtopic", "cross-subtopic", "cross-topic")


def topics(names: Sequence[str], pattern: str = ECB_PLUS) -> list[tuple[str, str]]:
    """``(topic, subtopic)`` of each document name; an unmatched name is its own topic."""
    try:
        rx = re.compile(pattern)
    except re.error as err:
        raise UsageError(f"bad topic pattern '{pattern}': {err}") from None
    if "topic" not in rx.groupindex:
        raise UsageError(f"the topic pattern '{pattern}' needs a group named 'topic'")
    out = []
    for name in names:
        m = rx.search(name)
        if m is None:
            out.append((f"({name})", f"({name})"))
            continue
        sub = m.groupdict().get("subtopic") or ""
        out.append((m.group("topic"), f"{m.group('topic')}/{sub}"))
    return out


def joined(corpus: Corpus, units: Sequence[str] | None = None) -> Corpus:
    """The documents of ``corpus`` laid end to end, one document per unit (``units``: each
    document's unit name; default one unit, ``all``), entities joined by label."""
    units = ["all"] * len(corpus.documents) if units is None else list(units)
    order = list(dict.fromkeys(units))
    out = []
    for unit in order:
        docs = [d for d, u in zip(corpus.documents, units) if u == unit]
        out.append(_join(unit, docs))
    return Corpus(corpus.path, out, corpus.format, list(corpus.warnings))


def _join(name: str, docs: Sequence[Document]) -> Document:
    labels: dict[str, int] = {}
    starts, ends, entities = [], [], []
    offset = 0
    for d in docs:
        names = d.labels or tuple(str(i) for i in range(d.n_entities))
        index = np.array([labels.setdefault(names[e], len(labels)) for e in range(len(names))], dtype=np.int64)
        starts.append(d.starts + offset)
        ends.append(d.ends + offset)
        entities.append(index[d.entities] if d.n_mentions else d.entities)
        offset += max(d.n_tokens, int(d.ends.max()) + 1 if d.n_mentions else 0)
    z = np.zeros(0, dtype=np.int64)
    return Document(
        name,
        np.concatenate([z, *starts]),
        np.concatenate([z, *ends]),
        np.concatenate([z, *entities]),
        tuple(labels),
        offset,
    )


@dataclass(frozen=True)
class LinkCounts:
    """Key links, response links and links in both, of one link type."""

    key: int
    response: int
    common: int

    @property
    def score(self) -> Score:
        return Score.from_counts(self.common, self.key, self.common, self.response)


def _mentions(corpus: Corpus, place: dict[str, tuple[str, str]]) -> dict[tuple[str, int, int], tuple[str, str]]:
    """Each mention (document, start, end) to its entity label (first occurrence kept)."""
    out: dict[tuple[str, int, int], tuple[str, str]] = {}
    for d in corpus.documents:
        if d.name not in place:
            continue
        names = d.labels or tuple(str(i) for i in range(d.n_entities))
        for s, e, k in zip(d.starts.tolist(), d.ends.tolist(), d.entities.tolist()):
            out.setdefault((d.name, s, e), (names[k], d.name))
    return out


def _pairs(groups: list[tuple[object, ...]]) -> int:
    """Links within groups of equal keys: the sum of n(n-1)/2 over the groups."""
    return sum(n * (n - 1) // 2 for n in Counter(groups).values())


def _typed(entity_of: list[tuple[str, ...]], place: list[tuple[str, str, str]]) -> dict[str, int]:
    """Links of each type among mentions whose entity (any hashable, e.g. a key and response
    entity pair) is ``entity_of`` and whose (document, subtopic, topic) is ``place``."""
    same_doc = _pairs([(e, p[0]) for e, p in zip(entity_of, place)])
    same_sub = _pairs([(e, p[1]) for e, p in zip(entity_of, place)])
    same_topic = _pairs([(e, p[2]) for e, p in zip(entity_of, place)])
    every = _pairs([(e,) for e in entity_of])
    return {
        "within-document": same_doc,
        "within-subtopic": same_sub - same_doc,
        "cross-subtopic": same_topic - same_sub,
        "cross-topic": every - same_topic,
    }


def link_counts(key: Corpus, response: Corpus, pattern: str = ECB_PLUS) -> dict[str, LinkCounts]:
    """Key, response and common links of every type (see the module docstring); the documents are
    the key's, response documents it lacks are left out."""
    names = [d.name for d in key.documents]
    place = {n: (t, s) for n, (t, s) in zip(names, topics(names, pattern))}
    k, r = _mentions(key, place), _mentions(response, place)
    where = {m: (m[0], place[m[0]][1], place[m[0]][0]) for m in set(k) | set(r)}
    km = list(k)
    rm = list(r)
    both = [m for m in km if m in r]
    kc = _typed([(k[m][0],) for m in km], [where[m] for m in km])
    rc = _typed([(r[m][0],) for m in rm], [where[m] for m in rm])
    cc = _typed([(k[m][0], r[m][0]) for m in both], [where[m] for m in both])
    return {t: LinkCounts(kc[t], rc[t], cc[t]) for t in LINK_TYPES}
