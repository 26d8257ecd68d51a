"""Write Universal Anaphora CoNLL-U-Plus, and name what other formats lose of a UA corpus.

A corpus read from a UA file is written with all its layers (identity with ``Min``, ``SemType``
and ``ElementOf``, non-referring markables, bridging, discourse deixis). Any other corpus becomes
its identity layer: one markable per mention (``MarkableID=m1``...), entities by their labels,
CorefUD's split antecedents (``SplitAnte``) as ``ElementOf`` and its bridging (``Bridge``) as
bridging links (see :func:`_bridges_of`). Brackets are nested where the
markables nest; a markable closed while an inner one is still open is closed by name (``m1)``).

Given the text of a CoNLL-U source (CorefUD or UA), every line and column of it is kept: comments,
multiword-token and empty-node lines (positions in UA, which numbers every node line), and every
column, the layer columns written anew (a CorefUD source's MISC loses ``Entity``, ``SplitAnte``
and ``Bridge``, which the layers now hold); mentions of empty nodes are then markables on their
lines. Without it, the lines are the words (and a UA corpus's zeros), with ``_`` columns.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..anaphora.model import Bridge, Markable, UADocument
from ..core.diagnostics import Diagnostic
from ..core.empty_nodes import empty_id, is_empty
from ..core.model import Corpus, Document
from .common import sentence_lengths, words
from .source_lines import SourceDocument, source_documents

CONLLU = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")
LAYERS = ("IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS")
HEADER = "# global.columns = " + " ".join(CONLLU + LAYERS)
#: What a CorefUD source's MISC says that the UA layers now hold.
COREFERENCE_MISC = ("Entity=", "SplitAnte=", "Bridge=")
#: White space inside a cell, which the UA scorer (and reader) would take for a column break.
_SPACE = re.compile(r"\s")
#: Where a mention's position is written: a document position to its line (None: not written).
Place = Callable[[int], "int | None"]


def lost_layers(corpus: Corpus, fmt: str) -> list[Diagnostic]:
    """What writing a UA corpus as ``fmt`` (not UA) leaves out, one note per kind of layer."""
    notes: list[Diagnostic] = []
    kinds = {
        "non-referring markables": sum(len(d.non_referring()) for d in getattr(corpus, "anaphora", [])),
        "bridging links": sum(len(d.bridging) for d in getattr(corpus, "anaphora", [])),
        "discourse-deixis markables": sum(len(d.deixis) for d in getattr(corpus, "anaphora", [])),
        "minimum spans": sum(1 for d in getattr(corpus, "anaphora", []) for m in d.identity if m.min_span),
    }
    if fmt == "corefud":  # CorefUD holds bridging from a referring markable to an entity (Bridge=)
        from .corefud import bridge_links

        kinds["bridging links"] -= sum(len(bridge_links(corpus, d.name)) for d in getattr(corpus, "anaphora", []))
    else:
        kinds["split antecedents"] = sum(len(d.split_antecedents()) for d in getattr(corpus, "anaphora", []))
    for kind, n in kinds.items():
        if n:
            notes.append(Diagnostic(corpus.path, 0, f"{n} {kind} are not written: {fmt} has no place for them"))
    return notes


def _words_only(position: int) -> int | None:
    """Where a position is written without the source's lines: a word at its place, no empty node."""
    return None if is_empty(position) else position


def _from_document(
    corpus: Corpus, doc: Document, notes: list[Diagnostic], src: SourceDocument | None = None
) -> UADocument:
    """A plain document's identity layer as UA markables: on the source's node lines (``src``),
    else on its words."""
    place: Place = src.place if src is not None else _words_only
    labels = doc.labels if len(doc.labels) == doc.n_entities else tuple(str(k) for k in range(doc.n_entities))
    elements: dict[str, list[str]] = {}
    for plural, parts in getattr(corpus, "split_antecedents", {}).get(doc.name, []):
        for label in parts:
            elements.setdefault(label, []).append(plural)
    markables: list[Markable] = []
    seen: set[str] = set()
    skipped = widened = 0
    for row, (s, e, k) in enumerate(zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist())):
        parts = doc.parts.get(row) if src is not None else None
        at = [place(p) for p in parts or (s, e)]
        if None in at and (src is None or all(a is None for a in at)):
            skipped += 1
            continue
        lines = sorted({a for a in at if a is not None})
        widened += src is not None and parts is not None and src.content_between(lines[0], lines[-1]) > len(lines)
        label = labels[k]
        element_of = tuple(elements.get(label, ())) if label not in seen else ()
        seen.add(label)
        markables.append(Markable(f"m{row + 1}", label, lines[0], lines[-1], 0, element_of=element_of))
    if skipped:
        notes.append(
            Diagnostic(corpus.path, 0, f"document '{doc.name}': {skipped} mentions of empty nodes are not written")
        )
    if widened if src is not None else doc.parts:
        notes.append(
            Diagnostic(
                corpus.path, 0, f"document '{doc.name}': discontinuous mentions are written as their covering span"
            )
        )
    bridging = _bridges_of(corpus, doc, markables, notes, place)
    return UADocument(doc.name, doc.n_tokens, tuple(markables), bridging=bridging)


def _bridges_of(
    corpus: Corpus, doc: Document, markables: list[Markable], notes: list[Diagnostic], place: Place
) -> tuple[Bridge, ...]:
    """CorefUD's bridging links of ``doc`` (``Bridge=e12<e15:part``) between its ``markables``:
    the anaphor is the mention of e15 the link stands on (the last opened at or before its node),
    the anchor the entity e12 (``EntityAnchor``) and, as the UA measures compare anchor markables,
    e12's last mention opened before the anaphor, else its first (``MentionAnchor``)."""
    links = getattr(corpus, "bridges", {}).get(doc.name, [])
    by_entity: dict[str, list[Markable]] = {}
    for m in markables:
        by_entity.setdefault(m.entity, []).append(m)
    out, lost = [], 0
    for link in links:
        at = place(link.position)
        before = [m for m in by_entity.get(link.anaphor, ()) if at is not None and m.start <= at]
        anchors = by_entity.get(link.anchor, [])
        if not before or not anchors:
            lost += 1
            continue
        anaphor = max(before, key=lambda m: m.start)
        earlier = [m for m in anchors if m.start < anaphor.start]
        anchor = max(earlier, key=lambda m: m.start) if earlier else anchors[0]
        out.append(Bridge(anaphor.markable_id, anchor.markable_id, link.anchor, link.relation, link.line))
    if lost:
        notes.append(
            Diagnostic(
                corpus.path,
                0,
                f"document '{doc.name}': {lost} bridging links name an entity with no mention written (or none before "
                "the link); they are left out",
            )
        )
    return tuple(out)


def anaphora_documents(corpus: Corpus) -> tuple[list[UADocument], list[Diagnostic]]:
    """The corpus's documents with all their anaphora layers: a UA corpus's own, any other's
    identity layer with CorefUD's split antecedents and bridging."""
    if hasattr(corpus, "anaphora"):
        return list(corpus.anaphora), []
    notes: list[Diagnostic] = []
    return [_from_document(corpus, doc, notes) for doc in corpus.documents], notes


def _opening(m: Markable) -> str:
    attrs = [f"EntityID={m.entity}", f"MarkableID={m.markable_id}"]
    if m.min_span is not None:
        a, b = m.min_span
        attrs.append(f"Min={a + 1}" if a == b else f"Min={a + 1},{b + 1}")
    if m.sem_type:
        attrs.append(f"SemType={m.sem_type}")
    if m.element_of:
        attrs.append("ElementOf=" + ",".join(m.element_of))
    return "(" + "|".join(attrs) + (")" if m.start == m.end else "")


def _column(markables: Sequence[Markable], n: int) -> list[str]:
    """One layer's cells: closings (``)`` for the innermost open markable, else ``id)``), then
    openings, the longer first."""
    by_start: dict[int, list[Markable]] = {}
    by_end: dict[int, list[Markable]] = {}
    for m in markables:
        by_start.setdefault(m.start, []).append(m)
        if m.end > m.start:
            by_end.setdefault(m.end, []).append(m)
    cells = ["_"] * n
    stack: list[str] = []
    for w in range(n):
        text = ""
        for m in sorted(by_end.get(w, ()), key=lambda m: -m.start):
            if stack and stack[-1] == m.markable_id:
                text += ")"
                stack.pop()
            else:
                text += f"{m.markable_id})"
                stack.remove(m.markable_id)
        for m in sorted(by_start.get(w, ()), key=lambda m: -m.end):
            text += _opening(m)
            if m.end > m.start:
                stack.append(m.markable_id)
        cells[w] = text or "_"
    return cells


def _bridging(doc: UADocument, n: int) -> list[str]:
    cells = [""] * n
    start = {m.markable_id: m.start for m in doc.identity}
    for b in doc.bridging:
        attrs = [f"MarkableID={b.anaphor}"]
        attrs += [f"{k}={v}" for k, v in (("Rel", b.relation), ("MentionAnchor", b.mention_anchor)) if v]
        attrs += [f"EntityAnchor={b.entity_anchor}"] if b.entity_anchor else []
        at = start.get(b.anaphor)
        if at is not None:
            cells[at] += "(" + "|".join(attrs) + ")"
    return [c or "_" for c in cells]


def write_ua(corpus: Corpus, source: str | None = None) -> tuple[str, list[Diagnostic]]:
    """The corpus as UA text, and what could not be written exactly; ``source``: the text the
    corpus was read from, whose every line and column is then kept (see the module docstring)."""
    notes: list[Diagnostic] = []
    kept = _sources(corpus, source, notes)
    if kept is None:
        return _plain(corpus, notes), notes
    columns = _columns(source or "") if corpus.format == "ua" else CONLLU + LAYERS
    layers = {d.name: d for d in getattr(corpus, "anaphora", [])}
    out = ["# global.columns = " + " ".join(columns)]
    for doc, src in zip(corpus.documents, kept):
        ua = layers.get(doc.name) or _from_document(corpus, doc, notes, src)
        out += _kept_lines(doc.name, src, ua, columns, corpus.format == "corefud")
    spaced = _spaced(source or "", kept) if corpus.format == "corefud" else 0
    if spaced:
        notes.append(
            Diagnostic(
                corpus.path,
                0,
                f"{spaced} cells hold white space, written '_' (UA columns are split at white space)",
            )
        )
    return "\n".join(out) + "\n", notes


def _sources(corpus: Corpus, source: str | None, notes: list[Diagnostic]) -> list[SourceDocument] | None:
    """The source's documents, one per document of ``corpus``; None without a CoNLL-U source, or
    (with a note) when its documents are not the corpus's."""
    if source is None or corpus.format not in ("corefud", "ua"):
        return None
    found = source_documents(source)
    same = [d.name for d in found] == [d.name for d in corpus.documents]
    if same and corpus.format == "corefud":
        same = all(len(s.words) == d.n_tokens for s, d in zip(found, corpus.documents))
    if not same:
        notes.append(
            Diagnostic(corpus.path, 0, "its lines could not be matched to its documents: only the words are written")
        )
        return None
    return found


def _columns(source: str) -> tuple[str, ...]:
    """The columns a UA source names (``# global.columns``), the three layers added if missing."""
    for line in source.lstrip("\ufeff").split("\n", 50)[:50]:
        key, eq, value = line.rstrip("\r").partition("=")
        if eq and key.lstrip("#").strip() == "global.columns":
            names = tuple(value.split())
            return names + tuple(layer for layer in LAYERS if layer not in names)
    return CONLLU + LAYERS


def _kept_lines(name: str, src: SourceDocument, ua: UADocument, columns: tuple[str, ...], corefud: bool) -> list[str]:
    """A document's source lines, each node line with its layer cells (and, from CorefUD, its MISC
    without what the layers hold). Columns are split as each format's readers split them: CorefUD
    at TABs, UA at white space; white space inside a CorefUD cell (CoNLL-U allows spaces in FORM,
    LEMMA and MISC) is written ``_``, since the UA scorer splits at white space."""
    n = len(src.nodes)
    layer = dict(zip(LAYERS, (_column(ua.identity, n), _bridging(ua, n), _column(ua.deixis, n))))
    at = {c: columns.index(c) for c in LAYERS}
    out = [f"# newdoc id = {name}"]
    node = 0
    for line in src.lines:
        if not line or line.startswith("#"):
            out.append(line)
            continue
        cells = line.split("\t") if corefud else line.split()
        if corefud:
            misc = [m for m in cells[9].split("|") if not m.startswith(COREFERENCE_MISC)] if len(cells) > 9 else []
            cells = [_SPACE.sub("_", c) for c in [*cells[:9], "|".join(misc) or "_"]]
        cells += ["_"] * (len(columns) - len(cells))
        for column, i in at.items():
            cells[i] = layer[column][node]
        out.append("\t".join(cells[: len(columns)]))
        node += 1
    out.append("")
    return out


def _spaced(source: str, kept: list[SourceDocument]) -> int:
    """How many cells of a CorefUD source's node lines hold white space (written ``_``)."""
    return sum(1 for d in kept for i in d.nodes for c in d.lines[i].split("\t") if _SPACE.search(c))


def _plain(corpus: Corpus, notes: list[Diagnostic]) -> str:
    """The corpus as UA text without its source's lines: words (and zeros) with ``_`` columns."""
    source = {d.name: d for d in getattr(corpus, "anaphora", [])}
    out = [HEADER]
    for doc in corpus.documents:
        ua = source.get(doc.name) or _from_document(corpus, doc, notes)
        lengths = sentence_lengths(corpus, doc)
        zeros = getattr(corpus, "zero_lines", {}).get(doc.name, {}) if doc.name in source else {}
        n = sum(lengths) + len(zeros)
        identity, deixis, bridging = _column(ua.identity, n), _column(ua.deixis, n), _bridging(ua, n)
        forms = list(ua.tokens) if len(ua.tokens) == n else ["_" if w in zeros else "" for w in range(n)]
        if len(ua.tokens) != n:
            plain = iter(words(doc))
            forms = [f or next(plain) for f in forms]
        out.append(f"# newdoc id = {doc.name}")
        for s, line_ids in enumerate(_line_ids(lengths, zeros)):
            out.append(f"# sent_id = {doc.name}-{s + 1}")
            for w, word_id in line_ids:
                out.append("\t".join([word_id, forms[w], *["_"] * 8, identity[w], bridging[w], deixis[w]]))
            out.append("")
    return "\n".join(out) + "\n"


def _line_ids(lengths: list[int], zeros: dict[int, int]) -> list[list[tuple[int, str]]]:
    """Per sentence, its lines: (line position, id), words numbered 1, 2... and zeros ``W.K``."""
    out: list[list[tuple[int, str]]] = [[] for _ in lengths]
    line, s, done = 0, 0, 0  # the sentence being written and its words written
    while s < len(lengths):
        if line in zeros:
            sentence, word, k = empty_id(zeros[line])
            out[sentence].append((line, f"{word}.{k}"))
        elif done < lengths[s]:
            done += 1
            out[s].append((line, str(done)))
        else:
            s, done = s + 1, 0
            continue
        line += 1
    return out
