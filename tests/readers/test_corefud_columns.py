"""The column-wise CorefUD reader gives what the line reader gives, on any file: the same corpus
(documents, mentions, heads, orders, warnings, and everything conversion keeps) or the same error.

Files are generated (nested, crossing, discontinuous mentions, zeros, multiword tokens, heads given
or not) and then damaged as users' files are: lines dropped, doubled or swapped, characters put into
or taken out of a column, carriage returns, blank lines of spaces, brackets and fields broken."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import InputError
from corefeval.core.model import Document
from corefeval.readers.corefud import CorefUDCorpus, read_corefud, read_lines
from corefeval.readers.corefud_lines import scan
from corefeval.readers.corefud_mentions import _Values, label_numbers, read_mentions

from ..corefud_generator import corefud_pairs, render, seeded_pair


def shown(doc: Document) -> tuple[Any, ...]:
    assert doc.lines is not None and doc.heads is not None
    return (
        type(doc),
        doc.name,
        doc.starts.tolist(),
        doc.ends.tolist(),
        doc.entities.tolist(),
        doc.labels,
        doc.n_tokens,
        doc.lines.tolist(),
        doc.begin_line,
        doc.parts,
        doc.heads.tolist(),
        doc.tokens,
        doc.pos,
        getattr(doc, "follows", None),
        getattr(doc, "head_copies", None),
        [a.dtype for a in (doc.starts, doc.ends, doc.entities, doc.lines, doc.heads)],
    )


#: The first mentions of entity ids in documents before the text (as a reader of one document at a
#: time gives them): ids of the generated files, and one of no file.
EARLIER = {"e0": (0, (3, -2, 4), "e0"), "d1e1": (1, (0, -1, 0), "d1e1"), "x": (0, (0, -1, 0), "x")}


def outcome(read: Any, text: str, keep_tokens: bool, first_line: int, heads: str, after: bool = False) -> Any:
    """What reading gives: the whole corpus, or the error's line (``after``: the text read as the
    end of a file whose first documents gave :data:`EARLIER`)."""
    try:
        context = {"earlier": dict(EARLIER), "first_index": 2} if after else {}
        c = read("f.conllu", text, keep_tokens, first_line, heads, **context)
    except InputError as err:
        return str(err)
    assert isinstance(c, CorefUDCorpus)
    return (
        [shown(d) for d in c.documents],
        [(w.path, w.line, w.message) for w in c.warnings],
        c.entity_types,
        c.split_antecedents,
        c.bridges,
        c.sentences,
        c.empty_deps,
        c.headless_line,
        [list(first.items()) for first in c.first_mentions],  # in order
    )


def same(text: str, first_line: int = 1) -> None:
    for keep_tokens, heads, after in ((False, "first", False), (True, "tree", False), (False, "first", True)):
        plain = outcome(read_lines, text.removeprefix("\ufeff"), keep_tokens, first_line, heads, after)
        assert outcome(read_corefud, text, keep_tokens, first_line, heads, after) == plain


def damaged(text: str, rng: random.Random, times: int) -> str:
    """``text`` with ``times`` damages of the kinds users' files have."""
    lines = text.split("\n")
    for _ in range(times):
        i = rng.randrange(len(lines))
        line = lines[i]
        cols = line.split("\t")
        kind = rng.randrange(14)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, line)
        elif kind == 2 and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], line
        elif kind == 3:
            lines[i] = line + rng.choice(["\r", "\r\r", " ", "\t", "\t_"])
        elif kind == 4:
            lines.insert(i, rng.choice(["", " ", "\t", " \t ", "\u3000", "#", "# newdoc", "# newdoc id = x"]))
        elif kind == 5 and len(cols) == 10:
            c = rng.choice([0, 6, 8, 9])
            cols[c] = rng.choice(["_", "", "0", "00", "1", "99", "1.1", "2-3", "x", "+1", "²", "1234567890", "3:obj"])
            lines[i] = "\t".join(cols)
        elif kind == 6 and len(cols) == 10 and cols[9] != "_":
            value = cols[9]
            at = rng.randrange(len(value) + 1)
            cols[9] = (
                value[:at]
                + rng.choice(["(", ")", "[1/2]", "[2/2]", "-", "|", "e1)", "(e1", "(e9-x-0)", "="])
                + value[at:]
            )
            lines[i] = "\t".join(cols)
        elif kind == 7 and len(cols) == 10 and cols[9] != "_":
            at = rng.randrange(len(cols[9]))
            cols[9] = cols[9][:at] + cols[9][at + 1 :]
            lines[i] = "\t".join(cols)
        elif kind == 8 and len(cols) == 10:
            cols[9] = rng.choice(
                ["Entity=(e1-ent-1)", "SplitAnte=e1<e2", "Bridge=e1<e2:part", "Entity=", "X=1|Entity=e1)"]
            )
            lines[i] = "\t".join(cols)
        elif kind == 9 and line.startswith("# global.Entity"):
            lines[i] = rng.choice(
                ["# global.Entity = eid-head", "# global.Entity = GRP-etype", "# global.Entity = x-y"]
            )
        elif kind == 10:
            lines.insert(
                i, "# global.Entity = " + rng.choice(["eid-etype-head-other", "eid-eid-head", "head-eid", "eid"])
            )
        elif kind == 11 and len(cols) == 10:
            del cols[rng.randrange(10)]
            lines[i] = "\t".join(cols)
        elif kind == 12 and len(cols) == 10:
            cols[1] = rng.choice(["é", "\u2028", "a b", "#"])
            lines[i] = "\t".join(cols)
        elif kind == 13:
            lines[i] = "\ufeff" + line if i == 0 else line
    return "\n".join(lines)


FIELDS = ("eid-etype-head-other", "eid-etype", "GRP-etype-infstat", "eid-head", "etype-eid-head", "entity-eid")


@st.composite
def plain_files(draw: st.DrawFn) -> str:
    """CoNLL-U files of contiguous mentions of words (no zeros, nothing discontinuous), nested,
    crossing and repeated at will, heads in a field or in trees (HEAD ``_`` at times), entity types,
    multiword tokens, other MISC items and several ``# global.Entity`` lines."""
    pick = lambda low, high: draw(st.integers(low, high))  # noqa: E731
    lines = []
    for _ in range(pick(1, 3)):
        lines.append(f"# newdoc id = d{pick(0, 2)}")
        fields = FIELDS[pick(0, len(FIELDS) - 1)]
        if pick(0, 2):
            lines.append(f"# global.Entity = {fields}")
        for _ in range(pick(1, 3)):
            n = pick(1, 8)
            mentions = []
            for _ in range(pick(0, 6)):
                a = pick(1, n)
                b = pick(a, min(n, a + pick(0, 4)))
                mentions.append((a, b, f"e{pick(0, 3)}", ("", "person", "thing")[pick(0, 2)], pick(0, b - a + 1)))
            lines.append(f"# text = {n} words")
            for w in range(1, n + 1):
                if pick(0, 6) == 0 and w < n:
                    lines.append(f"{w}-{w + 1}\tmw\t_\t_\t_\t_\t_\t_\t_\t_")
                chunks = [f"{eid})" for a, b, eid, _, _ in sorted(mentions, key=lambda m: -m[0]) if b == w and a < w]
                for a, b, eid, etype, head in sorted(mentions, key=lambda m: -m[1]):
                    if a == w:
                        values = {"eid": eid, "GRP": eid, "etype": etype, "entity": etype, "head": str(head or "")}
                        body = "-".join(values.get(f, "x") for f in fields.split("-"))
                        chunks.append(f"({body})" if a == b else f"({body}")
                misc = [f"Entity={''.join(chunks)}"] if chunks else []
                misc += ["SpaceAfter=No"] if pick(0, 3) == 0 else []
                head = "_" if pick(0, 9) == 0 else str(pick(0, n))
                lines.append(f"{w}\tw{w}\t_\t{('X', 'NOUN')[pick(0, 1)]}\t_\t_\t{head}\t_\t_\t{'|'.join(misc) or '_'}")
            lines.append("")
    return "\n".join(lines)


@settings(max_examples=500, deadline=None)
@given(plain_files())
def test_plain_files_read_alike(text: str) -> None:
    same(text)


@settings(max_examples=300, deadline=None)
@given(plain_files(), st.integers(0, 2**32), st.integers(1, 4))
def test_damaged_plain_files_read_alike(text: str, seed: int, times: int) -> None:
    same(damaged(text, random.Random(seed), times))


@settings(max_examples=300, deadline=None)
@given(corefud_pairs())
def test_generated_files_read_alike(pair: Any) -> None:
    for role in ("key", "response"):
        same(render(pair, role))


@settings(max_examples=300, deadline=None)
@given(corefud_pairs(), st.integers(0, 2**32), st.integers(1, 6))
def test_damaged_files_read_alike(pair: Any, seed: int, times: int) -> None:
    same(damaged(render(pair, "key"), random.Random(seed), times))


@pytest.mark.parametrize("seed", range(200))
def test_seeded_damaged_files_read_alike(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(render(seeded_pair(s), rng.choice(["key", "response"])) for s in range(seed, seed + 3))
    same(text)
    same(damaged(text, rng, rng.randint(1, 8)), first_line=rng.choice([1, 7]))


def test_plain_documents_are_read_column_wise() -> None:
    """The column-wise path is the one taken for files of plain mentions (none left to the
    per-document path), and documents with discontinuous mentions or zeros inside mentions are
    left to it: the fast path is not dead code, nor the slow one."""
    plain = "# newdoc id = a\n# global.Entity = eid-etype-head-other\n1\tx\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1--1)\n\n"
    gappy = "# newdoc id = b\n1\tx\t_\t_\t_\t_\t0\t_\t_\tEntity=(e2[1/2]--1)\n2\ty\t_\t_\t_\t_\t1\t_\t_\t_\n"
    gappy += "3\tz\t_\t_\t_\t_\t1\t_\t_\tEntity=(e2[2/2]--1)\n"
    scanned = scan(plain + gappy)
    assert scanned is not None
    assert read_mentions(scanned, first_heads=False).per_document == [False, True]
    same(plain + gappy)
    assert scan(plain + "1\tx\n") is None  # a line of two columns: the line reader says where
    for doc in read_corefud("f", plain + gappy).documents:  # made from their fields, every one given
        assert set(vars(doc)) == {f.name for f in dataclasses.fields(type(doc))}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab\x00é-_1", max_size=70), max_size=40))
def test_entity_ids_are_numbered_as_their_texts(ids: list[str]) -> None:
    """Equal ids get equal numbers and each number's text is its ids'."""
    data = "".join(ids).encode()
    lengths = np.asarray([len(i.encode()) for i in ids], dtype=np.int64)
    ends = np.cumsum(lengths)
    starts = ends - lengths
    values = _Values(data, np.frombuffer(data, dtype=np.uint8), starts, ends)
    numbers, names = label_numbers(values, starts, ends)
    assert [names[k] for k in numbers.tolist()] == ids
    assert len(names) == len(set(ids))
