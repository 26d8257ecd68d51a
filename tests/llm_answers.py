"""Seeded keys and language-model answers for the tests of ``--llm-marks official``.

:func:`key_text` makes a CorefUD key of one to three documents from :mod:`tests.corefud_generator`
(zeros with DEPS, discontinuous mentions, multiword tokens, a ``head`` field or none), with word
forms from a small vocabulary (words repeat, as in text, so alignments have ties; ``can not``; now
and then a form with a space) and enhanced DEPS on some words (a second parent, or an empty node).

:func:`text_answer` and :func:`json_answer` edit the official export of such a key (text2text-coref's
``conllu2text -s`` or ``conllu2json -s``, with or without ``--zero_mentions``) as a model does:
mentions dropped, added, moved, merged and split, ids renumbered; in the text format also every kind
of malformed mark (``w|``, ``(e3``, ``E3]``, ``[e3)``, ``w|[e1, e2]``, an unbalanced bracket, two
pipes), words misspelt, inserted, deleted, split and glued to punctuation, ``cannot`` for ``can
not``, ``##`` zeros dropped and invented, tabs and double spaces, a refusal line, an answer cut
short; in the JSON variant odd offsets, a token too many and a wrong ``doc_id``. Seed 0 of each
leaves the export as it is.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict

from tests.corefud_generator import Document, Mention, Pair, Side, _document, render

VOCABULARY = ("the", "cat", "sat", "on", "a", "mat", "it", "he", "John", "saw", "dog", "and", ",", ".", "can")
REFUSAL = "I cannot help with that."
Span = tuple[str, int, int]


def key_text(seed: int) -> str:
    """A CorefUD key (see the module's docstring)."""
    rng = random.Random(seed)
    documents = [_merged(rng, f"doc{i}") for i in range(rng.randint(1, 3))]
    text = render(Pair(documents, head_field=rng.randint(0, 2) > 0), "key")
    return "\n\n".join(_sentence(rng, block) for block in text.split("\n\n"))


def _merged(rng: random.Random, name: str) -> Document:
    """One document of the sentences of one to four generated documents (their mentions kept)."""
    sentences, empties, mentions = [], [], []
    for part in range(rng.randint(1, 4)):
        doc = _document(rng.randint, f"{name}-{part}", False)
        mentions += [Mention(m.entity, m.sentence + len(sentences), m.nodes, m.head) for m in doc.key.mentions]
        sentences += doc.sentences
        empties += doc.key.empties
    side = Side(empties, mentions)
    return Document(name, sentences, side, Side([dict(e) for e in empties]))


def _sentence(rng: random.Random, block: str) -> str:
    """A rendered sentence with word forms from the vocabulary, enhanced DEPS on some words (a
    second parent, an empty node), and the forms of some empty nodes ``_``."""
    rows = [line.split("\t") for line in block.split("\n")]
    empties = [cols[0] for cols in rows if len(cols) == 10 and "." in cols[0]]
    words = sum(1 for cols in rows if len(cols) == 10 and cols[0].isdigit())
    for cols in rows:
        if len(cols) != 10 or "-" in cols[0]:
            continue
        if "." in cols[0]:
            cols[1] = cols[1] if rng.random() < 0.5 else "_"
            continue
        r = rng.random()
        form = "not" if r < 0.08 else "New York" if r < 0.1 else VOCABULARY[rng.randrange(len(VOCABULARY))]
        cols[1] = cols[2] = form
        if rng.random() < 0.5:
            deps = {(int(cols[6]), cols[7])}
            if rng.random() < 0.5:
                deps.add((rng.randint(0, words), "conj"))
            items = [f"{head}:{relation}" for head, relation in sorted(deps)]
            if empties and rng.random() < 0.3:
                items.append(f"{rng.choice(empties)}:orphan")
            cols[8] = "|".join(items)
    return "\n".join("\t".join(cols) for cols in rows)


# The text format ---------------------------------------------------------------------------------


def text_answer(export: str, seed: int) -> str:
    """The exported text (one document a line) edited as a model edits it (seed 0: not at all)."""
    if seed == 0:
        return export
    rng = random.Random(seed)
    rate = rng.choice((0.02, 0.05, 0.1))
    lines = [_edited_line(rng, line, rate) for line in export.rstrip("\n").split("\n")]
    if rng.random() < 0.15:  # cut short: the last line stops before its end
        words = lines[-1].split(" ")
        lines[-1] = " ".join(words[: rng.randint(1, max(1, len(words)))])
    if rng.random() < 0.1:
        lines.insert(len(lines) if rng.random() < 0.7 else 0, REFUSAL)
    if rng.random() < 0.04 and len(lines) > 1:
        lines.pop()  # a document's line missing: the pipeline fails
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.3:
        text = "".join(rng.choice(("\t", "  ", " \t")) if c == " " and rng.random() < 0.1 else c for c in text)
    return text


def _edited_line(rng: random.Random, line: str, rate: float) -> str:
    words: list[str] = []
    marks: list[list[str]] = []
    for token in line.split():
        word, _, written = token.partition("|")
        words.append(word)
        marks.append(written.split(",") if written else [])
    spans, loose = _paired(marks)
    spans = _mention_edits(rng, spans, len(words), rate)
    marks = _marks(spans, loose, len(words))
    tokens = _word_edits(rng, words, marks, rate)
    return " ".join(_malformed(rng, tokens, rate))


def _paired(marks: list[list[str]]) -> tuple[list[Span], list[tuple[int, str]]]:
    """Mentions from marks paired per entity; marks that pair with none, kept as they are."""
    opened: dict[str, list[int]] = defaultdict(list)
    spans: list[Span] = []
    loose: list[tuple[int, str]] = []
    for i, found in enumerate(marks):
        for mark in found:
            eid = mark.strip("[]")
            if mark.startswith("[") and mark.endswith("]"):
                spans.append((eid, i, i))
            elif mark.startswith("["):
                opened[eid].append(i)
            elif opened[eid]:
                spans.append((eid, opened[eid].pop(), i))
            else:
                loose.append((i, mark))
    loose += [(i, f"[{eid}") for eid, stack in opened.items() for i in stack]
    return spans, loose


def _mention_edits(rng: random.Random, spans: list[Span], n: int, rate: float) -> list[Span]:
    """Mentions dropped, added, moved, merged and split; ids renumbered."""
    out = list(spans)
    eids = sorted({e for e, _, _ in out}) or ["e1"]
    for _ in range(rng.randint(0, 1 + int(rate * n))):
        kind = rng.randrange(6)
        if kind == 0 and out:
            out.pop(rng.randrange(len(out)))
        elif kind == 1 and n:
            start = rng.randrange(n)
            eid = rng.choice(eids) if rng.random() < 0.6 else f"e{len(eids) + rng.randint(1, 3)}"
            out.append((eid, start, min(n - 1, start + rng.randint(0, 4))))
        elif kind == 2 and out:
            eid, start, end = out.pop(rng.randrange(len(out)))
            start = min(max(0, start + rng.randint(-2, 2)), n - 1)
            out.append((eid, start, min(max(start, end + rng.randint(-2, 2)), n - 1)))
        elif kind == 3 and len(out) > 1:
            a, b = rng.sample(range(len(out)), 2)
            if rng.random() < 0.5:  # two entities merged
                out = [(out[a][0] if e == out[b][0] else e, s, t) for e, s, t in out]
            else:  # two mentions merged into one
                (ea, sa, ta), (_, sb, tb) = out[a], out[b]
                out = [m for k, m in enumerate(out) if k not in (a, b)] + [(ea, min(sa, sb), max(ta, tb))]
        elif kind == 4 and out:
            eid, start, end = out.pop(rng.randrange(len(out)))
            middle = rng.randint(start, end)
            out += [(eid, start, middle)] + ([(eid, middle + 1, end)] if middle < end else [])
        elif kind == 5:
            shift = rng.randint(1, 9)
            out = [(f"e{int(e[1:]) + shift}" if e[1:].isdigit() else e, s, t) for e, s, t in out]
    return out


def _marks(spans: list[Span], loose: list[tuple[int, str]], n: int) -> list[list[str]]:
    marks: list[list[str]] = [[] for _ in range(n)]
    for eid, start, end in spans:
        if start == end:
            marks[start].append(f"[{eid}]")
        else:
            marks[start].append(f"[{eid}")
            marks[end].append(f"{eid}]")
    for i, mark in loose:
        marks[i].append(mark)
    return [sorted(m) for m in marks]


def _word_edits(rng: random.Random, words: list[str], marks: list[list[str]], rate: float) -> list[str]:
    """Words misspelt, inserted, deleted, split and glued to punctuation; ``cannot``; zeros dropped
    and invented; each token with its marks."""
    out: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(words):
        word, found = words[i], marks[i]
        r = rng.random() / rate if rate else 9.0
        nxt = words[i + 1] if i + 1 < len(words) else None
        if word == "can" and nxt == "not" and rng.random() < 0.5:
            out.append(("cannot", found + marks[i + 1]))
            i += 2
            continue
        if r < 0.12 and word.startswith("##"):
            pass  # a zero dropped
        elif r < 0.25:
            out.append((word[:-1] + "x" if len(word) > 1 else word + "x", found))  # misspelt
        elif r < 0.37:
            out += [(rng.choice(("um", "the", "really", "then")), []), (word, found)]  # one of its own
        elif r < 0.45:
            pass  # left out
        elif r < 0.55 and len(word) > 3:
            out += [(word[:2], found), (word[2:], [])]  # split
        elif r < 0.65 and nxt in (".", ","):
            out.append((word + nxt, found + marks[i + 1]))  # glued to the punctuation after it
            i += 1
        elif r < 0.75:
            out += [(word, found), ("##", [f"[e{rng.randint(1, 3)}]"] if rng.random() < 0.5 else [])]  # a zero
        else:
            out.append((word, found))
        i += 1
    return [w + ("|" + ",".join(m) if m else "") for w, m in out]


def _malformed(rng: random.Random, tokens: list[str], rate: float) -> list[str]:
    """Tokens with now and then a malformed mark of each kind."""
    out = []
    for token in tokens:
        word, bar, marks = token.partition("|")
        if rng.random() >= rate:
            out.append(token)
            continue
        kind = rng.randrange(7)
        first = marks.split(",")[0] if marks else "[e1]"
        eid = first.strip("[]")
        if kind == 0:
            out.append(word + "|")
        elif kind == 1:
            out.append(f"{word}|({eid}")
        elif kind == 2:
            out.append(f"{word}|{eid.upper()}]")
        elif kind == 3:
            out.append(f"{word}|[{eid})")
        elif kind == 4:
            out += [f"{word}|[{eid},", f"{eid}]"]  # "w|[e1, e1]": the space splits the word
        elif kind == 5 and bar:
            out.append(word + "|" + ",".join(marks.split(",")[1:]) if "," in marks else word)  # a mark lost
        else:
            out.append(f"{token}|{first}" if bar else f"{word}|{first}|x")  # two pipes
    return out


# The JSON variant -------------------------------------------------------------------------------


def json_answer(export: str, seed: int) -> str:
    """The exported JSON edited as a model edits it (seed 0: not at all)."""
    if seed == 0:
        return export
    rng = random.Random(seed)
    data = json.loads(export)
    for doc in data:
        n = len(doc["tokens"])
        clusters = [list(map(list, c)) for c in doc["clusters_token_offsets"]]
        for _ in range(rng.randint(0, 3)):
            clusters = _cluster_edit(rng, clusters, n)
        doc["clusters_token_offsets"] = clusters
        doc.pop("clusters_text_mentions", None)
        if rng.random() < 0.2 and n:
            k = rng.randrange(n)
            doc["tokens"][k] = doc["tokens"][k] + "x"  # misspelt: taken as it is
        if rng.random() < 0.1:
            doc["doc_id"] = doc["doc_id"] + "_x"  # not read: paired by position
    if rng.random() < 0.05:
        data[-1]["tokens"].append("extra")  # a token too many: the pipeline fails
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _cluster_edit(rng: random.Random, clusters: list[list[list[int]]], n: int) -> list[list[list[int]]]:
    kind = rng.randrange(7)
    mentions = [(c, m) for c, cluster in enumerate(clusters) for m in range(len(cluster))]
    if kind == 0 and mentions:
        c, m = rng.choice(mentions)
        clusters[c].pop(m)
    elif kind == 1 and n:
        start = rng.randrange(n)
        span = [start, min(n - 1, start + rng.randint(0, 3))]
        if clusters and rng.random() < 0.6:
            rng.choice(clusters).append(span)
        else:
            clusters.append([span])
    elif kind == 2 and mentions:
        c, m = rng.choice(mentions)
        start, end = clusters[c][m]
        clusters[c][m] = [max(0, start + rng.randint(-2, 2)), min(n - 1, end + rng.randint(-2, 2))]
    elif kind == 3 and len(clusters) > 1:
        a, b = rng.sample(range(len(clusters)), 2)
        clusters[a] += clusters[b]
        clusters.pop(b)
    elif kind == 4 and clusters and len(clusters[0]) > 1:
        clusters.append([clusters[0].pop()])
    elif kind == 5:
        rng.shuffle(clusters)  # ids renumbered
    elif kind == 6 and clusters:
        odd = rng.choice(([-2, -1], [-3, 2], [2, n + 5], [3, 1]))  # sliced as Python slices
        rng.choice(clusters).append(odd)
    clusters = [c for c in clusters if c or rng.random() < 0.3]
    return clusters
