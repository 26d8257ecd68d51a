"""Random CorefUD key/response pairs for property tests and fixtures.

A pair is two CoNLL-U texts over the same documents, sentences, words, dependency trees and
multiword tokens; each side has its own empty nodes (zeros, with DEPS) and its own ``Entity=``
brackets. Mentions are nested, crossing, discontinuous (``[1/2]`` parts), zeros (one empty node),
singletons, repeated spans (in one entity and across entities), and many share their head with a
mention of the other side or of their own (head ties). A pair has a ``head`` field in
``# global.Entity`` or none (then heads are a reader's choice).

The generator draws its choices through one function ``pick(low, high)`` (inclusive bounds), so that
the same code serves hypothesis (:func:`corefud_pairs`) and seeded fixtures (:func:`seeded_pair`)::

    from tests.corefud_generator import corefud_pairs, seeded_pair
    key_text, response_text = seeded_pair(7)

Brackets are written so that both bracket readers (corefeval's and udapi's, which pairs a closing
bracket with the latest open mention of its entity) read the same mentions: two mentions of one
entity are either disjoint or properly nested, and a discontinuous mention shares no node with
another mention of its entity.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import strategies as st

Pick = Callable[[int, int], int]
#: A node of a sentence: ``(word, k)``; ``k = 0`` is the word itself, ``k >= 1`` the empty node ``word.k``.
Node = tuple[int, int]
RELATIONS = ("nsubj", "obj", "iobj")


@dataclass
class Sentence:
    """Words (1-based ids), their HEADs (0: root), and multiword tokens as ``(first, last)`` word ids."""

    heads: list[int]
    multiword: list[tuple[int, int]]

    @property
    def n_words(self) -> int:
        return len(self.heads)


@dataclass
class Mention:
    """One mention: its entity, its sentence, its nodes (file order) and its head node."""

    entity: int
    sentence: int
    nodes: list[Node]
    head: Node

    def runs(self, order: list[Node]) -> list[list[Node]]:
        """The mention's nodes cut into runs that are contiguous in ``order`` (the sentence's nodes)."""
        index = {n: i for i, n in enumerate(order)}
        out: list[list[Node]] = []
        for n in self.nodes:
            if out and index[out[-1][-1]] + 1 == index[n]:
                out[-1].append(n)
            else:
                out.append([n])
        return out


@dataclass
class Side:
    """One file's annotation of a document: empty nodes with their DEPS, and mentions."""

    empties: list[dict[Node, list[tuple[int, str]]]]  # per sentence: empty node -> DEPS (parent word, relation)
    mentions: list[Mention] = field(default_factory=list)

    def nodes(self, sentence: Sentence, s: int) -> list[Node]:
        out: list[Node] = sorted(n for n in self.empties[s] if n[0] == 0)  # 0.k: before the first word
        for w in range(1, sentence.n_words + 1):
            out.append((w, 0))
            out += sorted(n for n in self.empties[s] if n[0] == w)
        return out


@dataclass
class Document:
    name: str
    sentences: list[Sentence]
    key: Side
    response: Side


@dataclass
class Pair:
    documents: list[Document]
    head_field: bool
    #: Whether every document numbers its entities from ``e0`` (as models and converters write
    #: them), so that an id recurs in later documents; else each document's ids are its own.
    shared_ids: bool = False

    def texts(self) -> tuple[str, str]:
        return render(self, "key"), render(self, "response")


def _tree(pick: Pick, n: int) -> list[int]:
    """HEADs of a random tree over words ``1..n``: each word's parent comes earlier in a random order."""
    order = list(range(1, n + 1))
    for i in range(n - 1, 0, -1):
        j = pick(0, i)
        order[i], order[j] = order[j], order[i]
    heads = [0] * n
    for i, w in enumerate(order[1:], 1):
        heads[w - 1] = order[pick(0, i - 1)]
    return heads


def _sentence(pick: Pick) -> Sentence:
    n = pick(2, 7)
    multiword = []
    w = 1
    while w < n:
        if pick(0, 4) == 0:
            multiword.append((w, w + 1))
            w += 2
        else:
            w += 1
    return Sentence(_tree(pick, n), multiword)


def _empties(pick: Pick, sentence: Sentence) -> dict[Node, list[tuple[int, str]]]:
    out: dict[Node, list[tuple[int, str]]] = {}
    for w in range(1, sentence.n_words + 1):
        for k in range(1, 1 + (pick(0, 5) // 4)):  # one empty node after a third of the words
            out[(w, k)] = _deps(pick, sentence)
    return out


def _deps(pick: Pick, sentence: Sentence) -> list[tuple[int, str]]:
    deps = {(pick(1, sentence.n_words), RELATIONS[pick(0, len(RELATIONS) - 1)]) for _ in range(pick(1, 2))}
    return sorted(deps)


def _compatible(m: Mention, others: list[Mention], order: list[Node]) -> bool:
    """Whether ``m`` can be written next to ``others`` so that every reader reads it back."""
    index = {n: i for i, n in enumerate(order)}
    lo, hi = index[m.nodes[0]], index[m.nodes[-1]]
    gappy = len(m.runs(order)) > 1
    for o in others:
        if o.entity != m.entity or o.sentence != m.sentence:
            continue
        olo, ohi = index[o.nodes[0]], index[o.nodes[-1]]
        if ohi < lo or hi < olo:
            continue
        if gappy or len(o.runs(order)) > 1:
            return False
        if not (olo <= lo and hi <= ohi) and not (lo <= olo and ohi <= hi):
            return False  # crossing brackets of one entity
    return True


def _mention(pick: Pick, s: int, order: list[Node], entity: int) -> Mention:
    """A random mention of sentence ``s``: contiguous nodes, a zero, or two parts."""
    kind = pick(0, 9)
    empties = [n for n in order if n[1]]
    if kind == 0 and empties:
        zero = empties[pick(0, len(empties) - 1)]
        return Mention(entity, s, [zero], zero)
    first = pick(0, len(order) - 1)
    nodes = order[first : first + pick(1, 3)]
    if kind == 1:
        after = order.index(nodes[-1]) + 2 + pick(0, 1)
        nodes = nodes + order[after : after + pick(1, 2)]
    return Mention(entity, s, nodes, nodes[pick(0, len(nodes) - 1)])


def _variant(pick: Pick, m: Mention, order: list[Node], entity: int) -> Mention | None:
    """A mention like ``m``: the same, one node more or less on one side (keeping the head when it
    can), or another head; ``None`` when it would be empty."""
    how = pick(0, 5)
    nodes = list(m.nodes)
    if how == 1 and len(nodes) > 1:
        nodes = nodes[1:]
    elif how == 2 and len(nodes) > 1:
        nodes = nodes[:-1]
    elif how == 3 and order.index(nodes[-1]) + 1 < len(order):
        nodes = nodes + [order[order.index(nodes[-1]) + 1]]
    elif how == 4 and order.index(nodes[0]) > 0:
        nodes = [order[order.index(nodes[0]) - 1]] + nodes
    if not nodes:
        return None
    head = m.head if m.head in nodes and how != 5 else nodes[pick(0, len(nodes) - 1)]
    return Mention(entity, m.sentence, nodes, head)


def _add(mentions: list[Mention], m: Mention | None, order: list[Node], nodes: set[Node], shared: bool) -> None:
    """Add ``m`` if it can be written; ``shared``: whether its words may be those of a mention of
    another entity, or of a mention of its entity with another head."""
    if m is None or not all(n in nodes for n in m.nodes) or not _compatible(m, mentions, order):
        return
    if shared or not any(o.nodes == m.nodes and (o.entity != m.entity or o.head != m.head) for o in mentions):
        mentions.append(m)


def _document(pick: Pick, name: str, shared: bool) -> Document:
    sentences = [_sentence(pick) for _ in range(pick(1, 3))]
    key = Side([_empties(pick, s) for s in sentences])
    response = Side([dict(e) for e in key.empties])
    for s, sentence in enumerate(sentences):  # the response misses some zeros, and gives others other DEPS
        for node in list(response.empties[s]):
            change = pick(0, 5)
            if change == 0:
                del response.empties[s][node]
            elif change == 1:
                response.empties[s][node] = _deps(pick, sentence)
    orders = [key.nodes(x, s) for s, x in enumerate(sentences)]
    rorders = [response.nodes(x, s) for s, x in enumerate(sentences)]
    n_entities = pick(1, 4)
    for _ in range(pick(0, 9)):
        s = pick(0, len(sentences) - 1)
        entity = pick(0, n_entities - 1)
        if key.mentions and pick(0, 3) == 0:  # a mention sharing words (often the head) with an earlier one
            base = key.mentions[pick(0, len(key.mentions) - 1)]
            s = base.sentence
            _add(key.mentions, _variant(pick, base, orders[s], entity), orders[s], set(orders[s]), shared)
        else:
            _add(key.mentions, _mention(pick, s, orders[s], entity), orders[s], set(orders[s]), shared)
    for m in key.mentions:
        s = m.sentence
        action = pick(0, 5)
        present = [n for n in m.nodes if n in rorders[s]]
        if action == 0 or not present:
            continue  # missed
        m = Mention(m.entity, s, present, m.head if m.head in present else present[0])
        entity = m.entity if action < 4 else pick(0, n_entities)
        m2 = m if action in (1, 4) else _variant(pick, m, rorders[s], entity)
        if m2 is not None:
            m2 = Mention(entity, s, m2.nodes, m2.head)
        _add(response.mentions, m2, rorders[s], set(rorders[s]), shared)
    for _ in range(pick(0, 3)):  # invented mentions
        s = pick(0, len(sentences) - 1)
        _add(response.mentions, _mention(pick, s, rorders[s], pick(0, n_entities)), rorders[s], set(rorders[s]), shared)
    return Document(name, sentences, key, response)


def generate(pick: Pick, shared: bool = True) -> Pair:
    """A random pair of one to three documents; ``shared``: whether the words of a mention may be
    those of a mention of another entity, or of its entity with another head, on the same side
    (the same draws give the same pair, less those mentions, when they may not)."""
    documents = [_document(pick, f"doc{i}", shared) for i in range(pick(1, 3))]
    return Pair(documents, head_field=pick(0, 2) > 0, shared_ids=pick(0, 1) > 0)


@st.composite
def corefud_pairs(draw: st.DrawFn, shared: bool = True) -> Pair:
    """Hypothesis strategy of :class:`Pair` (shrinks towards few, small documents)."""
    return generate(lambda low, high: draw(st.integers(low, high)), shared)


def seeded_pair(seed: int, shared: bool = True) -> Pair:
    """The pair that seed ``seed`` gives (stable across runs and platforms)."""
    rng = random.Random(seed)
    return generate(rng.randint, shared)


def _node_id(n: Node) -> str:
    return f"{n[0]}.{n[1]}" if n[1] else str(n[0])


def _brackets(pair: Pair, side: Side, s: int, order: list[Node], prefix: str) -> dict[Node, str]:
    """The ``Entity=`` value of each node of sentence ``s``; entity ids start with ``prefix``."""
    opens: dict[Node, list[tuple[int, str]]] = {}
    closes: dict[Node, list[tuple[int, str]]] = {}
    index = {n: i for i, n in enumerate(order)}
    for m in side.mentions:
        if m.sentence != s:
            continue
        runs = m.runs(order)
        head = str(m.nodes.index(m.head) + 1)
        for p, run in enumerate(runs, 1):
            eid = f"{prefix}e{m.entity}" + (f"[{p}/{len(runs)}]" if len(runs) > 1 else "")
            body = "-".join([eid, "ent", head] if pair.head_field else [eid, "ent"])
            first, last = index[run[0]], index[run[-1]]
            if first == last:
                opens.setdefault(run[0], []).append((-first - 1, f"({body})"))  # after longer openings
            else:
                opens.setdefault(run[0], []).append((-last, f"({body}"))  # outer mentions open first
                closes.setdefault(run[-1], []).append((-first, f"{eid})"))  # inner mentions close first
    out = {}
    for n in order:
        # closing brackets first: an opening followed by a closing would read as one bracket
        chunks = [c for _, c in sorted(closes.get(n, []), key=lambda x: x[0])]
        chunks += [c for _, c in sorted(opens.get(n, []), key=lambda x: x[0])]
        if chunks:
            out[n] = "".join(chunks)
    return out


def render(pair: Pair, role: str) -> str:
    """The CoNLL-U text of the key (``role="key"``) or the response."""
    fields = "eid-etype-head-other" if pair.head_field else "eid-etype"
    lines: list[str] = []
    for number, doc in enumerate(pair.documents):
        side: Side = getattr(doc, role)
        for s, sentence in enumerate(doc.sentences):
            if s == 0:
                lines += [f"# newdoc id = {doc.name}", f"# global.Entity = {fields}"]
            lines.append(f"# sent_id = {doc.name}-{s + 1}")
            lines.append("# text = " + " ".join(f"w{w}" for w in range(1, sentence.n_words + 1)))
            order = side.nodes(sentence, s)
            # udapi orders the entities of a whole file: an id shared with an earlier document takes
            # its place from there (docs/formats.md)
            entity = _brackets(pair, side, s, order, f"d{number}" if number and not pair.shared_ids else "")
            starts = dict(sentence.multiword)
            for n in order:
                misc = f"Entity={entity[n]}" if n in entity else "_"
                w, k = n
                if k:
                    deps = "|".join(f"{p}:{r}" for p, r in side.empties[s][n])
                    lines.append(f"{_node_id(n)}\tz{w}\t_\tPRON\t_\t_\t_\t_\t{deps}\t{misc}")
                    continue
                if w in starts:
                    lines.append(f"{w}-{starts[w]}\tm{w}\t_\t_\t_\t_\t_\t_\t_\t_")
                head = sentence.heads[w - 1]
                relation = "root" if head == 0 else "dep"
                lines.append(f"{w}\tw{w}\tw{w}\tX\t_\t_\t{head}\t{relation}\t_\t{misc}")
            lines.append("")
    return "\n".join(lines) + "\n"


def _notation_node(token: str) -> Node:
    word, _, k = token.partition(".")
    return int(word), int(k or 0)


def from_notation(key: str, response: str) -> tuple[str, str]:
    """A key file and a response file (texts) of one document ``example`` of one sentence, from
    entities written as in docs/metrics.md: ``{1-3 6} {8-9}`` (``1-3``: the nodes from word 1 to
    word 3; ``2.1``: empty node 1 after word 2, a zero whose DEPS is ``nsubj`` of its word); a
    mention's head is its last node."""
    sides = []
    for text in (key, response):
        entities = [group.split() for group in text.strip().strip("{}").split("} {")]
        sides.append([[[_notation_node(t) for t in m.split("-")] for m in e] for e in entities])
    n_words = max(n[0] for side in sides for e in side for m in e for n in m)
    sentence = Sentence(list(range(n_words)), [])  # word w's HEAD is w - 1
    out = []
    for side in sides:
        empties = {n: [(max(n[0], 1), "nsubj")] for e in side for m in e for n in m if n[1]}
        annotation = Side([empties])
        order = annotation.nodes(sentence, 0)
        for entity, mentions in enumerate(side):
            for m in mentions:
                nodes = order[order.index(m[0]) : order.index(m[-1]) + 1]
                annotation.mentions.append(Mention(entity, 0, nodes, nodes[-1]))
        out.append(annotation)
    pair = Pair([Document("example", [sentence], out[0], out[1])], head_field=True)
    return pair.texts()
