"""coval's mention options: ``NP_only``, ``remove_nested`` and minimum-span matching (``--match min``).

They are applied where the other mention options are (:func:`corefeval.scoring.pipeline.preparation`), in
coval's order: singletons are removed first (``--singletons remove``), then

* ``NP_only`` (``--np-only``) leaves out the mentions whose tree (built from the *key's* parse
  column, for response mentions too) is a verb phrase; an entity that loses one keeps the rest only
  if more than one mention remains, otherwise it disappears whole (singletons kept or not);
* ``remove_nested`` (``--remove-nested``) leaves out each mention that lies inside another mention
  of its entity (inside its span, and not the same mention); as in coval, when this would leave an
  entity with exactly one mention, counting one removal per nesting pair, the entity is kept as it
  was (singletons kept) or removed (singletons removed);
* ``--match min`` pairs a response mention with the key mention of the same sentence with the same
  minimum span (:mod:`corefeval.matching.minspans`); an entity's mentions with one minimum span are one
  mention (the first is kept); mentions of different entities with one minimum span are repeats of
  one mention, treated as repeated spans always are (see :mod:`corefeval.matching.alignment`).

``NP_only`` and ``--match min`` need the key to be CoNLL-2012 with a parse column; the response may
be in any format whose tokens are the key's. On a Universal Anaphora key, which has no parse column,
``NP_only`` takes a markable as a verb phrase when its head (from the key's HEAD column) is a
``VERB`` (see :mod:`corefeval.readers.ua_syntax`).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Hashable

import numpy as np

from ..core.diagnostics import InputError, UsageError
from ..core.empty_nodes import is_empty
from ..core.model import Corpus, Document
from ..core.options import Options
from ..readers.parse_trees import DocumentParse, Node, mention_tree, read_parses
from ..readers.ua_syntax import Syntax, read_syntax
from .alignment import Alignment, align
from .minspans import identity
from .repeat_rules import repeat_rule
from .selection import select, subset


def needs_trees(options: Options, key_format: str = "conll2012") -> bool:
    """Whether ``options`` need the key's parse trees (a UA key's ``--np-only`` reads its syntax instead)."""
    return (options.np_only and key_format != "ua") or options.match == "min"


def option_names(options: Options) -> str:
    """The tree-based options set, as the command line spells them (for messages)."""
    names = ["--match min"] if options.match == "min" else []
    return " and ".join(names + (["--np-only"] if options.np_only else []))


def key_parses(options: Options, key: Corpus) -> dict[str, DocumentParse]:
    """The key's parse columns, read again from its file (a usage error for a key that is not
    a CoNLL-2012 file or cannot be read twice)."""
    wanted = option_names(options)
    if key.format != "conll2012":
        raise UsageError(f"{wanted} needs a CoNLL-2012 key with a parse column; the key {key.path} is {key.format}")
    if key.path == "-":
        raise UsageError(f"{wanted} reads the key's parse column again: give the key as a file, not '-'")
    return read_parses(key.path, option=wanted)


class _Facts:
    """Per mention of one document: its sentence, its tree (when trees are read) and its identity."""

    def __init__(
        self,
        doc: Document,
        parse: DocumentParse | None,
        path: str,
        match_min: bool,
        known: dict[tuple[int, int], tuple[Node | None, Hashable]] | None = None,
    ) -> None:
        n = doc.n_mentions
        self.trees: list[Node | None] = [None] * n
        starts, ends = doc.starts.tolist(), doc.ends.tolist()
        self.ids: list[Hashable] = list(zip(starts, ends))
        if parse is None:
            return
        known = {} if known is None else known  # spans already seen in this document (key or response)
        for row, (s, e) in enumerate(zip(starts, ends)):
            if (s, e) in known:
                self.trees[row], self.ids[row] = known[s, e]
                continue
            line = int(doc.lines[row]) if doc.lines is not None and doc.lines.size > row else doc.begin_line
            if e >= len(parse.words) or s < 0:
                raise InputError(path, line, f"mention ({s},{e}) of document '{doc.name}' lies beyond the key's tokens")
            sentence = parse.sentence_of(e)
            first = parse.sentence_starts[sentence]
            if s < first:
                raise InputError(
                    path,
                    line,
                    f"mention ({s},{e}) of document '{doc.name}' crosses a sentence boundary; parse trees "
                    "and minimum spans need mentions within one sentence",
                )
            tree = mention_tree(parse, first, s, e)
            self.trees[row] = tree
            if match_min:
                self.ids[row] = identity(tree, parse.words[s : e + 1], sentence, s, e)
            known[s, e] = (tree, self.ids[row])


def verb_phrases(facts: _Facts) -> np.ndarray:
    """Per mention: whether its tree is a verb phrase."""
    return np.array([t is not None and t.tag == "VP" for t in facts.trees], dtype=bool)


def np_only(doc: Document, verbal: np.ndarray) -> np.ndarray:
    """Rows kept by ``NP_only``: no verb-phrase mention (``verbal``), nor an entity left with one
    mention by it."""
    keep = np.ones(doc.n_mentions, dtype=bool)
    if not verbal.any():
        return keep
    for entity in np.unique(doc.entities[verbal]).tolist():
        rows = np.flatnonzero(doc.entities == entity)
        rest = rows[~verbal[rows]]
        keep[rows if rest.size <= 1 else rows[verbal[rows]]] = False
    return keep


def _nested(spans: list[tuple[int, int, Hashable]]) -> tuple[int, set[Hashable]]:
    """For one entity's mentions ``(start, end, identity)``: how many pairs of different mentions
    have one inside the other, and the identities of those inside another (in O(n log n))."""

    def pairs(group: list[tuple[int, int, Hashable]]) -> int:
        ends: list[int] = []
        count = 0
        for _, e, _ in sorted(group, key=lambda m: (m[0], -m[1])):
            count += len(ends) - bisect_left(ends, e)
            insort(ends, e)
        return count

    by_id: dict[Hashable, list[tuple[int, int, Hashable]]] = {}
    for mention in spans:
        by_id.setdefault(mention[2], []).append(mention)
    count = pairs(spans) - sum(pairs(g) for g in by_id.values() if len(g) > 1)
    inner: set[Hashable] = set()
    best: tuple[int, Hashable] | None = None  # the largest end seen, and its identity
    other = -1  # the largest end seen of an identity other than best's
    for _, e, m in sorted(spans, key=lambda x: (x[0], -x[1])):
        if best is not None and (best[0] if best[1] != m else other) >= e:
            inner.add(m)
        if best is None or e > best[0]:
            if best is not None and best[1] != m:
                other = best[0]
            best = (e, m)
        elif m != best[1]:
            other = max(other, e)
    return count, inner


def remove_nested(doc: Document, ids: list[Hashable], keep_singletons: bool) -> np.ndarray:
    """Rows kept by ``remove_nested`` (coval's rule, see the module's docstring); ``ids`` tell which
    mentions are the same. Mentions do not cross sentences, so containment is within a sentence."""
    keep = np.ones(doc.n_mentions, dtype=bool)
    groups: dict[int, list[int]] = {}
    for row, entity in enumerate(doc.entities.tolist()):
        groups.setdefault(entity, []).append(row)
    starts, ends = doc.starts.tolist(), doc.ends.tolist()
    for rows in groups.values():
        if len(rows) < 2:
            continue
        count, inner = _nested([(starts[r], ends[r], ids[r]) for r in rows])
        if not inner:
            continue
        if len(rows) - count == 1:
            if not keep_singletons:
                keep[rows] = False
            continue
        for r in rows:
            if ids[r] in inner:
                keep[r] = False
    return keep


def _verbal(doc: Document, syntax: dict[str, Syntax], path: str) -> np.ndarray:
    """Per mention of a UA document: whether the key's syntax makes it a verb phrase (zeros never)."""
    words = syntax.get(doc.name)
    if words is None:
        raise InputError(path, doc.begin_line, f"document '{doc.name}': its words could not be read again")
    return np.array(
        [not is_empty(s) and words.verbal(path, s, e) for s, e in zip(doc.starts.tolist(), doc.ends.tolist())],
        dtype=bool,
    )


def _first_in_entity(doc: Document, ids: list[Hashable]) -> np.ndarray:
    """Rows that are not a later mention of their entity with the same minimum span (coval counts
    such a mention twice, which can put CEAFe above 100%)."""
    seen: set[tuple[int, Hashable]] = set()
    keep = np.ones(doc.n_mentions, dtype=bool)
    for row, (entity, m) in enumerate(zip(doc.entities.tolist(), ids)):
        if (entity, m) in seen:
            keep[row] = False
        seen.add((entity, m))
    return keep


def _coded(doc: Document, ids: list[Hashable], table: dict[Hashable, int]) -> Document:
    """``doc`` whose mentions are known by ``ids`` (coded in ``table``, shared by both sides)."""
    parts: dict[int, tuple[int, ...]] = {row: (-1 - table.setdefault(m, len(table)),) for row, m in enumerate(ids)}
    return Document(
        doc.name, doc.starts, doc.ends, doc.entities, doc.labels, doc.n_tokens, doc.lines, doc.begin_line, parts
    )


def coval_preparation(
    options: Options, key_corpus: Corpus, response_corpus: Corpus
) -> Callable[[Document, Document], tuple[Alignment, Document, Document]]:
    """The :data:`corefeval.scoring.pipeline.Prepare` of a run with ``--np-only``, ``--remove-nested`` or
    ``--match min``: the selection options, then coval's filters, then exact or minimum-span matching."""
    if options.match in ("head", "partial"):
        raise UsageError(f"--match {options.match} cannot be combined with --np-only or --remove-nested")
    parses = key_parses(options, key_corpus) if needs_trees(options, key_corpus.format) else {}
    syntax = read_syntax(key_corpus.path) if options.np_only and key_corpus.format == "ua" else None
    match_min = options.match == "min"
    keep_singletons = options.singletons == "keep"

    def prepare(kdoc: Document, rdoc: Document) -> tuple[Alignment, Document, Document]:
        kdoc = select(kdoc, options.zeros, options.singletons)
        rdoc = select(rdoc, options.zeros, options.singletons)
        parse = parses.get(kdoc.name) if parses else None
        if parses and (parse is None or len(parse.words) != kdoc.n_tokens):
            raise InputError(
                key_corpus.path,
                kdoc.begin_line,
                f"the parse column of document '{kdoc.name}' could not be read with its tokens",
            )
        sides = []
        known: dict[tuple[int, int], tuple[Node | None, Hashable]] = {}
        for doc, path in ((kdoc, key_corpus.path), (rdoc, response_corpus.path)):
            facts = _Facts(doc, parse, path, match_min, known)
            keep = np.ones(doc.n_mentions, dtype=bool)
            if options.np_only:
                verbal = verb_phrases(facts) if syntax is None else _verbal(doc, syntax, key_corpus.path)
                keep &= np_only(doc, verbal)
            if options.remove_nested:
                rows = np.flatnonzero(keep)
                chosen = [facts.ids[r] for r in rows.tolist()]
                chosen_doc = doc if keep.all() else subset(doc, keep)
                keep[rows[~remove_nested(chosen_doc, chosen, keep_singletons)]] = False
            if match_min:
                keep &= _first_in_entity(doc, facts.ids)
            ids = [facts.ids[r] for r in np.flatnonzero(keep).tolist()]
            sides.append((subset(doc, keep) if not keep.all() else doc, ids))
        (kdoc, kids), (rdoc, rids) = sides
        if not match_min:
            return align(kdoc, rdoc, repeat_rule(kdoc, options.repeats)), kdoc, rdoc
        table: dict[Hashable, int] = {}
        rule = repeat_rule(kdoc, options.repeats)
        return align(_coded(kdoc, kids, table), _coded(rdoc, rids, table), rule), kdoc, rdoc

    return prepare
