"""Random pairs of small CorefUD files (key, response) with zeros, for differential tests against
the CorefUD scorer: empty nodes with DEPS, mentions over words and empty nodes, singletons, and a
response that keeps, trims, moves, relinks, drops and invents mentions and moves some zeros."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

#: A node of a sentence: ``(word, k)``; ``k == 0`` is word ``word``, else empty node ``word.k``.
Node = tuple[int, int]


@dataclass
class Sentence:
    words: int
    #: Empty nodes in file order with their DEPS ``(parent word, relation)``.
    empties: dict[Node, tuple[int, str]] = field(default_factory=dict)

    def nodes(self) -> list[Node]:
        out: list[Node] = [(0, k) for (w, k) in sorted(self.empties) if w == 0]
        for w in range(1, self.words + 1):
            out.append((w, 0))
            out += [(w, k) for (v, k) in sorted(self.empties) if v == w]
        return out


#: A mention: sentence, first and last index into that sentence's nodes, head index (0-based).
Mention = tuple[int, int, int, int]


@dataclass
class Doc:
    name: str
    sentences: list[Sentence]
    mentions: list[tuple[Mention, int]]  # (mention, entity)


def _crosses(a: Mention, b: Mention) -> bool:
    if a[0] != b[0]:
        return False
    return (a[1] < b[1] <= a[2] < b[2]) or (b[1] < a[1] <= b[2] < a[2]) or (a[1:3] == b[1:3])


def _laminar(mentions: list[tuple[Mention, int]]) -> list[tuple[Mention, int]]:
    kept: list[tuple[Mention, int]] = []
    for m, e in mentions:
        if not any(_crosses(m, o) for o, _ in kept):
            kept.append((m, e))
    return kept


def key_doc(rng: random.Random, name: str) -> Doc:
    sentences = []
    for _ in range(rng.randint(1, 3)):
        s = Sentence(rng.randint(3, 7))
        for _ in range(rng.randint(0, 3)):
            w = rng.randint(0, s.words)
            k = 1 + sum(1 for v, _ in s.empties if v == w)
            s.empties[(w, k)] = (rng.randint(1, s.words), rng.choice(("nsubj", "obj")))
        sentences.append(s)
    n_entities = rng.randint(1, 5)
    mentions = []
    for si, s in enumerate(sentences):
        nodes = s.nodes()
        for i, (_, k) in enumerate(nodes):
            if k and rng.random() < 0.7:
                mentions.append(((si, i, i, i), rng.randrange(n_entities)))
        for _ in range(rng.randint(1, 5)):
            a = rng.randrange(len(nodes))
            b = min(len(nodes) - 1, a + rng.choice((0, 0, 1, 1, 2, 3)))
            mentions.append(((si, a, b, rng.randint(a, b)), rng.randrange(n_entities)))
    rng.shuffle(mentions)
    return Doc(name, sentences, _laminar(mentions))


def response_doc(rng: random.Random, key: Doc) -> Doc:
    sentences = []
    moved: list[dict[int, int]] = []  # per sentence: key node index -> response node index
    for s in key.sentences:
        r = Sentence(s.words)
        for (w, k), deps in s.empties.items():
            roll = rng.random()
            if roll < 0.1:
                continue
            if roll < 0.25:
                w = rng.randint(0, s.words)
                deps = (deps[0], rng.choice(("nsubj", "obj")))
            k = 1 + sum(1 for v, _ in r.empties if v == w)
            r.empties[(w, k)] = deps
        sentences.append(r)
        knodes, rnodes = s.nodes(), r.nodes()
        words = {n: i for i, n in enumerate(rnodes) if n[1] == 0}
        mapping = {i: words[n] for i, n in enumerate(knodes) if n[1] == 0}
        empties = [i for i, n in enumerate(rnodes) if n[1]]
        for i, n in enumerate(knodes):
            if n[1] and empties:
                mapping[i] = empties.pop(0)
        moved.append(mapping)
    n_entities = 1 + max((e for _, e in key.mentions), default=0)
    out = []
    for (si, a, b, h), e in key.mentions:
        roll = rng.random()
        if roll < 0.12:
            continue
        mapping = moved[si]
        if a not in mapping or b not in mapping or h not in mapping:
            continue
        a, b, h = mapping[a], mapping[b], mapping[h]
        if a > b:
            a, b = b, a
        size = len(sentences[si].nodes())
        if roll < 0.3:
            a = min(max(0, a + rng.choice((-1, 0, 1))), size - 1)
            b = min(max(0, b + rng.choice((-1, 0, 1))), size - 1)
            if a > b:
                a, b = b, a
        h = min(max(h, a), b)
        if rng.random() < 0.25:
            e = rng.randrange(n_entities + 2)
        out.append(((si, a, b, h), e))
    for _ in range(rng.randint(0, 3)):
        si = rng.randrange(len(sentences))
        size = len(sentences[si].nodes())
        a = rng.randrange(size)
        b = min(size - 1, a + rng.choice((0, 1, 2)))
        out.append(((si, a, b, rng.randint(a, b)), rng.randrange(n_entities + 2)))
    rng.shuffle(out)
    return Doc(key.name, sentences, _laminar(out))


def render(docs: list[Doc]) -> str:
    """The documents as one CorefUD file."""
    lines = ["# global.Entity = eid-etype-head-other"]
    for doc in docs:
        lines.append(f"# newdoc id = {doc.name}")
        for si, s in enumerate(doc.sentences):
            nodes = s.nodes()
            brackets: list[list[str]] = [[] for _ in nodes]
            mine = sorted(
                ((m, e) for m, e in doc.mentions if m[0] == si), key=lambda x: (x[0][1], -(x[0][2] - x[0][1]))
            )
            opens: list[list[str]] = [[] for _ in nodes]
            singles: list[list[str]] = [[] for _ in nodes]
            closes: list[list[tuple[int, str]]] = [[] for _ in nodes]
            for (_, a, b, h), e in mine:
                head = h - a + 1
                if a == b:
                    singles[a].append(f"(e{e + 1}-t-{head})")
                else:
                    opens[a].append(f"(e{e + 1}-t-{head}")
                    closes[b].append((b - a, f"e{e + 1})"))
            for i in range(len(nodes)):
                brackets[i] = opens[i] + singles[i] + [c for _, c in sorted(closes[i])]
            lines.append(f"# sent_id = {doc.name}-{si + 1}")
            lines.append("# text = " + " ".join(f"w{w}" for w in range(1, s.words + 1)))
            for i, (w, k) in enumerate(nodes):
                misc = "Entity=" + "".join(brackets[i]) if brackets[i] else "_"
                if k:
                    parent, rel = s.empties[(w, k)]
                    cols = [f"{w}.{k}", "_", "_", "PRON", "_", "_", "_", "_", f"{parent}:{rel}", misc]
                else:
                    cols = [str(w), f"w{w}", "_", "X", "_", "_", str(w - 1), "root" if w == 1 else "dep", "_", misc]
                lines.append("\t".join(cols))
            lines.append("")
    return "\n".join(lines) + "\n"


def pair(seed: int, n_docs: int = 3) -> tuple[str, str]:
    """A key file and a response file (texts) of ``n_docs`` documents from ``seed``."""
    rng = random.Random(seed)
    keys = [key_doc(rng, f"d{seed}x{i}") for i in range(n_docs)]
    return render(keys), render([response_doc(rng, k) for k in keys])


def _node(token: str) -> Node:
    word, _, k = token.partition(".")
    return int(word), int(k or 0)


def from_notation(key: str, response: str) -> tuple[str, str]:
    """A key file and a response file of one sentence from entities written as in docs/metrics.md:
    ``{1-3 6} {8-9}`` (``1-3``: words 1 to 3; ``2.1``: empty node 1 after word 2); a mention's head
    is its last node."""
    sides = []
    for text in (key, response):
        entities = [group.split() for group in text.strip().strip("{}").split("} {")]
        sides.append([[tuple(_node(t) for t in m.split("-")) for m in e] for e in entities])
    words = max(n[0] for side in sides for e in side for m in e for n in m)
    out = []
    for side in sides:
        sentence = Sentence(words)
        for e in side:
            for m in e:
                for w, k in m:
                    if k:
                        sentence.empties[(w, k)] = (max(w, 1), "nsubj")
        nodes = sentence.nodes()
        mentions = [
            ((0, nodes.index(m[0]), nodes.index(m[-1]), nodes.index(m[-1])), i) for i, e in enumerate(side) for m in e
        ]
        out.append(render([Doc("example", [sentence], mentions)]))
    return out[0], out[1]
