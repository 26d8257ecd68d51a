"""The CoNLL-2012 reader's ways through a file of many documents give what its plain ways give:
documents found from '#' lines in turn without a loop, sentence lengths of every document in one
pass, documents made without the dataclass's ``__init__``."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import Diagnostic
from corefeval.core.model import Document, ViewDocument, from_fields
from corefeval.readers.conll2012 import Segments, _paired_segments, _segments, _sentence_lengths, read_conll2012
from corefeval.readers.conll_blocks import scan_bytes
from corefeval.readers.corefud import CorefUDDocument

HASH_LINES = [
    "#begin document (a); part 000",
    "#begin document (b); part 001",
    "#begin document ",
    "#begin document(c)",
    "#  begin document (d)",
    "#end document",
    "#end document x",
    "# end document",
    "# a comment",
    "#",
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(HASH_LINES), max_size=12), st.lists(st.integers(0, 3), max_size=12), st.integers(1, 5))
def test_documents_in_turn_are_found_as_the_loop_finds_them(
    hashes: list[str], gaps: list[int], first_line: int
) -> None:
    text = "".join(line + "\n" + "x 0 0 w\n" * (gaps[i] if i < len(gaps) else 1) for i, line in enumerate(hashes))
    lines = scan_bytes(text.encode())
    fast = _paired_segments(lines, first_line)
    warnings: list[Diagnostic] = []
    plain = _segments("f", lines, first_line, warnings)
    if fast is not None:
        assert fast == plain and not warnings


def test_a_plain_file_takes_the_way_without_a_loop() -> None:
    text = "".join(f"#begin document (d{i}); part 000\nd 0 0 w (0)\n\n#end document\n" for i in range(3))
    assert _paired_segments(scan_bytes(text.encode()), 1) is not None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 40), min_size=1, max_size=30).map(sorted),
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 8)), min_size=1, max_size=6),
)
def test_sentence_lengths_of_all_documents_at_once(breaks: list[int], spans: list[tuple[int, int]]) -> None:
    """Each document's lengths as the per-document computation gave them: the steps between the
    distinct edges (its start, its blank lines after the start up to its end, its end)."""
    segments, base = [], 0
    for start, size in sorted(spans):
        base = max(base, start)
        segments.append((f"d{len(segments)}", 1, 0, 0, base, base + size, 0, ""))
        base += size
    array = np.asarray(breaks, dtype=np.int64)
    lengths, bounds = _sentence_lengths(array, Segments.of(segments))
    for d, (_, _, _, _, low, high, _, _) in enumerate(segments):
        lo, hi = np.searchsorted(array, [low, high], side="right")
        edges = np.unique(np.concatenate([[low], array[lo:hi], [high]]))
        assert lengths[bounds[d] : bounds[d + 1]].tolist() == np.diff(edges).tolist()


def test_documents_made_from_their_fields_are_the_dataclasses() -> None:
    z = np.zeros(2, dtype=np.int64)
    for cls, extra in ((Document, {}), (CorefUDDocument, {"follows": {5: 4}})):
        values = {f.name: getattr(Document("n", z, z, z), f.name, None) for f in dataclasses.fields(cls)}
        values.update(name="d", labels=("a",), n_tokens=3, begin_line=7, parts={1: (1, 2)}, **extra)
        made = from_fields(cls, dict(values))
        assert vars(made) == vars(cls(**values)) and type(made) is cls  # documents compare by identity
        assert set(vars(made)) == {f.name for f in dataclasses.fields(cls)}


def test_read_documents_give_every_field_and_copy_as_plain_documents() -> None:
    """A document read column-wise is a view of the file's columns (its arrays made when asked
    for): it reads as its fields say, and a copy (pickled, replaced) has every field of its own."""
    text = "#begin document (a); part 000\na 0 0 w (0)\nb 0 1 v (0)\n\n#end document\n"
    names = {f.name for f in dataclasses.fields(Document)}
    for keep in (False, True):
        (doc,) = read_conll2012("f", text + text.replace("(a)", "(b)"), keep_tokens=keep).documents[1:]
        assert type(doc) is ViewDocument and set(vars(doc)) <= names | {"_columns", "_at"}
        values = {name: getattr(doc, name) for name in names}
        assert values["tokens"] == (("w", "v") if keep else None) and values["forms"].size == 2
        assert values["starts"].tolist() == [0, 1] and values["lines"].tolist() == [7, 8]
        for copy in (pickle.loads(pickle.dumps(doc)), dataclasses.replace(doc)):
            assert set(vars(copy)) == names and copy.starts.tolist() == [0, 1]
        assert type(pickle.loads(pickle.dumps(doc))) is Document


def test_sentence_lengths_by_name_keep_the_last_occurrence_in_first_order() -> None:
    """A corpus's sentence lengths are looked up by document name as a dictionary built in file
    order would give them: a repeated name has its last occurrence's lengths, at its first place."""
    one = "#begin document a\nx 0 0 w -\n\nx 0 1 w -\nx 0 2 w -\n\n#end document\n"
    two = "#begin document b\nx 0 0 w -\n\n#end document\n"
    three = "#begin document a\nx 0 0 w -\nx 0 1 w -\nx 0 2 w -\n#end document\n"
    corpus = read_conll2012("f", one + two + three)
    assert dict(corpus.sentences) == {"a": [3], "b": [1]} and list(corpus.sentences) == ["a", "b"]
    assert corpus.sentences.get("c") is None and len(corpus.sentences) == 2
    assert [w.message.split(" (")[0] for w in corpus.warnings] == ["document 'a' appears again"]
