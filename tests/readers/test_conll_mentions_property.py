"""The column-wise reading of CoNLL-2012 coreference fields gives exactly what the line-by-line reader
gives: the same mentions, entities, labels and lines, the same warnings, the same errors."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import InputError
from corefeval.readers import conll2012, conll_blocks, read
from corefeval.readers.conll_mentions import FIELD, Found, compiled, simple_fields

LABELS = st.sampled_from(["0", "1", "2", "7", "10", "01", "007", "123456789012345678", "1234567890123456789"])
JUNK = st.sampled_from(["x", "(1+2)", "|", "(3||3)", "()", "(", ")", "(1)|", "1-", "(-1)", " (4)", "(5)\u00a0"])


@st.composite
def fields_of_a_document(draw: st.DrawFn) -> list[str]:
    """Coreference fields of one document: mostly well formed (spans written as the writer does,
    in a drawn order within each token), with drawn damage."""
    n = draw(st.integers(1, 12))
    parts: list[list[str]] = [[] for _ in range(n)]
    for _ in range(draw(st.integers(0, 8))):
        start = draw(st.integers(0, n - 1))
        end = draw(st.integers(start, min(n - 1, start + 4)))
        label = draw(LABELS)
        if start == end:
            parts[start].append(f"({label})")
        else:
            parts[start].append(f"({label}")
            parts[end].append(f"{label})")
    fields = []
    for token_parts in parts:
        shuffled = draw(st.permutations(token_parts))
        glue = draw(st.sampled_from(["|", "|", ""]))
        fields.append(glue.join(shuffled) or draw(st.sampled_from(["-", "_"])))
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, n - 1))
        damage = draw(st.one_of(JUNK, LABELS, LABELS.map(lambda label: f"({label}"), LABELS.map(lambda x: f"{x})")))
        fields[at] = damage if draw(st.booleans()) else f"{fields[at]}|{damage}"
    return fields


def as_file(documents: list[list[str]], separator: str) -> str:
    lines = []
    for d, fields in enumerate(documents):
        lines.append(f"#begin document (d{d % 2}); part 000")
        lines.extend(f"d{separator}0{separator}{t}{separator}w{separator}{field}" for t, field in enumerate(fields))
        lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


def outcome(text: str, lenient: bool) -> object:
    try:
        corpus = conll2012.read_conll2012("f.conll", text, lenient=lenient)
    except InputError as err:
        return ("error", str(err))
    documents = [
        (d.name, d.starts.tolist(), d.ends.tolist(), d.entities.tolist(), d.labels, d.lines.tolist(), d.n_tokens)
        for d in corpus
    ]
    return documents, [str(w) for w in corpus.warnings]


def line_by_line(text: str, lenient: bool, monkeypatch: pytest.MonkeyPatch) -> object:
    """The reading with every document sent to the line-by-line reader."""

    def nothing_found(*args: object) -> tuple[Found, dict[int, list[object]]]:
        n = len(args[-1][1])  # type: ignore[index]
        z = np.zeros(0, dtype=np.int64)
        return Found(z, z, z, z, [0] * (n + 1), [], [0] * (n + 1), [True] * n), {}

    with monkeypatch.context() as patch:
        patch.setattr(conll2012, "document_mentions", nothing_found)
        return outcome(text, lenient)


@settings(max_examples=400, deadline=None)
@given(st.lists(fields_of_a_document(), min_size=1, max_size=3), st.sampled_from(["\t", " "]), st.booleans())
@example([["(1", "(1)|1)"]], "\t", False)
@example([["0)|(1)|(0"]], "\t", False)
@example([["(01)", "(1)", "(1|(01", "01)|1)"]], "\t", False)
def test_columnwise_reading_equals_line_by_line(documents: list[list[str]], separator: str, lenient: bool) -> None:
    text = as_file(documents, separator)
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert outcome(text, lenient) == line_by_line(text, lenient, monkeypatch)


def test_simple_fields_reads_one_part_fields_and_leaves_the_rest() -> None:
    fields = ["(12)", "(3", "45)", "(0)", "(012)", "(1)|(2", "(7+1)", "()", "9", "(1234567890123456789)", "(5))"]
    data = "".join(fields).encode()
    ends = np.cumsum([len(f) for f in fields])
    kind, value = simple_fields(np.frombuffer(data, dtype=np.uint8), ends - [len(f) for f in fields], ends)
    assert kind.tolist() == [0, 1, 2, 0, -1, -1, -1, -1, -1, -1, -1]
    assert value[:4].tolist() == [12, 3, 45, 0]


def last_column_one_by_one(data: bytes, start: np.ndarray, end: np.ndarray) -> list[int]:
    """The straightforward search: the last TAB of each line, else its last space."""
    out = []
    for line_start, line_end in zip(start.tolist(), end.tolist()):
        cut = data.rfind(b"\t", line_start, line_end)
        cut = data.rfind(b" ", line_start, line_end) if cut < 0 else cut
        out.append(cut + 1 if cut >= 0 else line_start)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab \t(0)|-_", max_size=50), min_size=1, max_size=8))
def test_last_column_search_equals_one_by_one(lines: list[str]) -> None:
    data = "\n".join(lines).encode()
    assume(data.strip())  # the reader refuses an empty file before looking at its lines
    table = conll_blocks.LineTable.of(data)
    assert table.field.tolist() == last_column_one_by_one(data, table.start, table.end)


#: The field grammar written plainly (ambiguous: a digit run can be split between parts in many ways).
PLAIN_FIELD = re.compile(r"(?:\(\d+\+\d\)|\(\d+\)|\(\d+|\d+\)|\d+|\||-|_)*")


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="()|0123456789-_+ x", max_size=12))
def test_the_field_grammar_accepts_what_the_plain_one_accepts(field: str) -> None:
    assert bool(compiled(FIELD).fullmatch(field)) == bool(PLAIN_FIELD.fullmatch(field))


def test_an_unreadable_field_with_long_numbers_is_a_located_error(tmp_path: Path) -> None:
    """The plain grammar needs exponential time to refuse this field."""
    field = "(" + "1" * 40 + ")|" + "2" * 40 + ")|()"
    path = tmp_path / "long.conll"
    path.write_text(f"#begin document (d); part 000\nd\t0\t0\tw\t{field}\n#end document\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read(str(path))
    assert err.value.diagnostic.line == 2
