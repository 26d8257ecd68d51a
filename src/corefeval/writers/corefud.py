"""Write CorefUD 1.x: CoNLL-U with ``Entity=`` brackets (``# global.Entity = eid-etype-head-other``).

Only coreference is written, with split antecedents (``SplitAnte=``) and bridging (``Bridge=``, from
a CorefUD or a Universal Anaphora source): FORM holds the words when known, the other columns ``_``. Sentences
are those of the source when it had them (CoNLL-U), else one sentence per document. Empty nodes
that belong to a mention are written; each mention's head, when known, is its ``head`` field.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ..core.diagnostics import Diagnostic
from ..core.empty_nodes import empty_id, is_empty
from ..core.model import Corpus, Document
from .common import sentence_lengths, words

GLOBAL_ENTITY = "eid-etype-head-other"
_RESERVED = set("()[]-|=<>,\t ")
Node = tuple[int, int, int]


def eids(doc: Document) -> list[str]:
    """CorefUD entity ids: the labels when all are usable (distinct, no bracket characters),
    else ``e1``, ``e2``, ..."""

    def eid(label: str) -> str:
        return label if label and not _RESERVED & set(label) else ""

    out = [eid(label) for label in doc.labels] if len(doc.labels) == doc.n_entities else []
    if len(out) == doc.n_entities and all(out) and len(set(out)) == len(out):
        return out
    return [f"e{k + 1}" for k in range(doc.n_entities)]


def _node_key(position: int, sentence_of_word: list[int], sentence_start: list[int]) -> Node:
    """Sort key in file order: ``(sentence, word id, k)``; a word is ``(s, id, 0)``."""
    if is_empty(position):
        return empty_id(position)
    s = sentence_of_word[position]
    return s, position - sentence_start[s] + 1, 0


def bridge_links(corpus: Corpus, name: str) -> list[tuple[str, int, str, str]]:
    """The bridging links of document ``name`` that CorefUD holds: (anaphor entity, the anaphor
    mention's first position, anchor entity, relation); from a UA corpus, those whose anaphor is a
    referring identity markable (the anchor entity: its ``EntityAnchor``, else its anchor markable's)
    and whose anchor is another entity (CorefUD refuses a link within one entity)."""
    if not hasattr(corpus, "anaphora"):
        return [(b.anaphor, b.position, b.anchor, b.relation) for b in getattr(corpus, "bridges", {}).get(name, [])]
    zeros = getattr(corpus, "zero_lines", {}).get(name, {})
    lines = sorted(zeros)

    def position(line: int) -> int:  # a UA markable's line as the identity layer's position (zeros apart)
        return zeros[line] if line in zeros else line - bisect_left(lines, line)

    out = []
    for doc in corpus.anaphora:
        if doc.name != name:
            continue
        by_id = {m.markable_id: m for m in doc.identity}
        for b in doc.bridging:
            anaphor, anchor = by_id.get(b.anaphor), by_id.get(b.mention_anchor)
            entity = b.entity_anchor or (anchor.entity if anchor is not None else "")
            if anaphor is not None and anaphor.referring and entity and entity != anaphor.entity:
                out.append((anaphor.entity, position(anaphor.start), entity, b.relation))
    return out


def write_corefud(corpus: Corpus) -> tuple[str, list[Diagnostic]]:
    out: list[str] = []
    for number, doc in enumerate(corpus.documents):
        out.append(f"# newdoc id = {doc.name}")
        if number == 0:
            out.append(f"# global.Entity = {GLOBAL_ENTITY}")
        out += _document_lines(corpus, doc)
    return "\n".join(out) + "\n", []


def _document_lines(corpus: Corpus, doc: Document) -> list[str]:
    lengths = sentence_lengths(corpus, doc)
    sentence_start: list[int] = []
    sentence_of_word: list[int] = []
    for s, length in enumerate(lengths):
        sentence_start.append(len(sentence_of_word))
        sentence_of_word += [s] * length

    def key(p: int) -> Node:
        return _node_key(p, sentence_of_word, sentence_start)

    ids = eids(doc)
    types = getattr(corpus, "entity_types", {}).get(doc.name, {})
    heads = doc.heads.tolist() if doc.heads is not None else None
    mentions = []
    for row, (s, e, k) in enumerate(zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist(), strict=False)):
        positions = list(doc.parts.get(row, range(s, e + 1)))
        mentions.append((row, k, positions, sorted(key(p) for p in positions)))
    empties = {n for *_, nodes in mentions for n in nodes if n[2]}
    index = {n: i for i, n in enumerate(sorted({key(p) for p in range(doc.n_tokens)} | empties))}
    chunks: dict[Node, list[tuple[tuple[int, int], str]]] = {}
    first_node: dict[int, Node] = {}
    for row, k, positions, nodes in mentions:
        first_node.setdefault(k, nodes[0])
        fields = [ids[k], types.get(doc.labels[k], "") if doc.labels else ""]
        if heads is not None and heads[row] in positions:
            fields.append(str(nodes.index(key(heads[row])) + 1))
        while fields and not fields[-1]:
            fields.pop()
        runs = _runs(nodes, index)
        for i, (a, b) in enumerate(runs):
            eid = ids[k] + (f"[{i + 1}/{len(runs)}]" if len(runs) > 1 else "")
            body = "-".join([eid, *fields[1:]])
            size = index[b] - index[a]
            if a == b:
                chunks.setdefault(a, []).append(((2, 0), f"({body})"))
            else:
                chunks.setdefault(a, []).append(((1, -size), f"({body}"))
                chunks.setdefault(b, []).append(((0, size), f"{eid})"))
    split = getattr(corpus, "split_antecedents", {}).get(doc.name, [])
    split_at: dict[Node, list[str]] = {}
    label_to_eid = dict(zip(doc.labels, ids, strict=False)) if len(doc.labels) == len(ids) else {}
    for anaphor, antecedents in split:
        k = doc.labels.index(anaphor) if anaphor in doc.labels else -1
        if k >= 0 and all(a in label_to_eid for a in antecedents):
            split_at.setdefault(first_node[k], []).extend(f"{label_to_eid[a]}<{ids[k]}" for a in antecedents)

    bridge_at: dict[Node, list[str]] = {}
    for anaphor, position, anchor, relation in bridge_links(corpus, doc.name):
        k = doc.labels.index(anaphor) if anaphor in doc.labels else -1
        starts = [nodes[0] for _, kk, _, nodes in mentions if kk == k and nodes[0] <= key(position)]
        if starts and anchor in label_to_eid:
            link = f"{label_to_eid[anchor]}<{ids[k]}" + (f":{relation}" if relation else "")
            bridge_at.setdefault(max(starts), []).append(link)

    forms = words(doc)
    sentence_prefix = re.sub(r"\s+", "_", doc.name)
    lines: list[str] = []
    for s, length in enumerate(lengths):
        lines.append(f"# sent_id = {sentence_prefix}-{s + 1}")
        zero_after: dict[int, list[Node]] = {}
        for n in sorted(x for x in empties if x[0] == s):
            zero_after.setdefault(n[1], []).append(n)
        for w in range(length + 1):
            if w:
                node = (s, w, 0)
                form = forms[sentence_start[s] + w - 1]
                lines.append(_line(str(w), form, chunks.get(node), split_at.get(node), bridge_at.get(node)))
            for z in zero_after.get(w, []):
                lines.append(_line(f"{w}.{z[2]}", "_", chunks.get(z), split_at.get(z), bridge_at.get(z)))
        lines.append("")
    return lines


def _runs(nodes: list[Node], index: dict[Node, int]) -> list[tuple[Node, Node]]:
    """Maximal runs of ``nodes`` that are consecutive in the document's node order (``index``)."""
    runs = [[nodes[0], nodes[0]]]
    for n in nodes[1:]:
        if index[n] == index[runs[-1][1]] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return [(a, b) for a, b in runs]


def _line(
    ident: str,
    form: str,
    chunks: list[tuple[tuple[int, int], str]] | None,
    split: list[str] | None,
    bridge: list[str] | None = None,
) -> str:
    misc = []
    if chunks:
        # closings (innermost first), then openings (longest first), then one-word mentions
        misc.append("Entity=" + "".join(c for _, c in sorted(chunks, key=lambda x: x[0])))
    if split:
        misc.append("SplitAnte=" + ",".join(split))
    if bridge:
        misc.append("Bridge=" + ",".join(bridge))
    head, deprel = "_", "_"
    return "\t".join([ident, form, "_", "_", "_", "_", head, deprel, "_", "|".join(misc) if misc else "_"])
