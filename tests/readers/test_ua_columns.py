"""The column-wise Universal Anaphora reader reads every regular file to the documents the
line-by-line reader reads, leaves every other file to it, and an error in a regular file is the
line-by-line reader's error."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import InputError
from corefeval.readers.ua import _read_lines, read_ua_documents
from corefeval.readers.ua_columns import WIDE_SPACES, read_regular
from corefeval.readers.ua_markup import UALayers
from tests.anaphora.generator import pair

HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS\n"


@pytest.fixture(autouse=True)
def _column_wise_at_any_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The files here are small: read them column-wise all the same."""
    monkeypatch.setattr("corefeval.readers.ua.COLUMN_WISE_FROM", 0)


def _row(word_id: str, form: str, identity: str = "_", bridging: str = "_", deixis: str = "_") -> str:
    return "\t".join([word_id, form, *["_"] * 8, identity, bridging, deixis])


#: A small regular file: two documents, a zero, a one-word markable, nested markables, bridging.
SMALL = (
    HEADER
    + "# newdoc id = d1\n# sent_id = 1\n"
    + "\n".join(
        [
            _row("1", "Mary", "(EntityID=1|MarkableID=m1)"),
            _row("1.1", "_", "(EntityID=1|MarkableID=m2)"),
            _row("2", "saw", "(EntityID=2|MarkableID=m3|Min=3|SemType=dn"),
            _row("3", "him", "(EntityID=3|MarkableID=m4|ElementOf=2)", "MarkableID=m4|Rel=poss|MentionAnchor=m1"),
            _row("4", ".", ")", deixis="(EntityID=d1|MarkableID=x1)"),
        ]
    )
    + "\n\n# newdoc id = d2\n"
    + "\n".join([_row("1", "They", "(EntityID=1|MarkableID=m1"), _row("2", "left", ")")])
    + "\n"
)


def _same(fast: UALayers, slow: UALayers) -> None:
    """Two readings are the same: documents (word fingerprints too), sentences, zeros, warnings."""
    assert fast.documents == slow.documents
    for a, b in zip(fast.documents, slow.documents):
        assert a.forms is not None and b.forms is not None and np.array_equal(a.forms, b.forms)
        assert [m.__dict__ for m in a.identity + a.deixis] == [m.__dict__ for m in b.identity + b.deixis]
    assert fast.sentences == slow.sentences
    assert fast.zero_lines == slow.zero_lines
    assert fast.warnings == slow.warnings


@pytest.mark.parametrize("keep_tokens", [False, True])
def test_a_small_regular_file(keep_tokens: bool) -> None:
    fast = read_regular("f", SMALL, keep_tokens)
    assert fast is not None
    _same(fast, _read_lines("f", SMALL, keep_tokens))
    assert [d.name for d in fast.documents] == ["d1", "d2"]
    assert fast.zero_lines == {"d1": {1: fast.zero_lines["d1"][1]}}
    assert fast.documents[0].tokens == (("Mary", "_", "saw", "him", ".") if keep_tokens else ())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_generated_files_read_the_same(seed: int, distinct: bool) -> None:
    for text in pair(seed, n_docs=3, distinct=distinct):
        fast = read_regular("f", text, False)
        assert fast is not None
        _same(fast, _read_lines("f", text, False))


#: Edits that leave a file irregular (read line by line) or keep it regular, with the same reading.
EDITS = [
    ("a space in a word", lambda t: t.replace("\tMary\t", "\tMa ry\t"), False),
    ("a no-break space in a word", lambda t: t.replace("\tMary\t", "\tMa\u00a0ry\t"), False),
    ("an ideographic space", lambda t: t.replace("\tMary\t", "\tMa\u3000ry\t"), False),
    ("a word not ASCII", lambda t: t.replace("\tMary\t", "\tMarié\t"), True),
    ("line ends CRLF", lambda t: t.replace("\n", "\r\n"), True),
    ("an empty cell", lambda t: t.replace("\tsaw\t", "\t\t", 1), False),
    ("a tab ending a line", lambda t: t.replace("\t_\n", "\t_\t\n", 1), False),
    ("a tab starting a line", lambda t: t.replace("\n1\t", "\n\t1\t", 1), False),
    ("a header after words", lambda t: t + HEADER, False),
    ("no header", lambda t: t.replace(HEADER, ""), True),
    ("a document without words", lambda t: t.replace("# newdoc id = d2", "# newdoc id = e\n# newdoc id = d2"), True),
    ("two documents of one name", lambda t: t.replace("id = d2", "id = d1"), True),
    ("spaces in comments", lambda t: t.replace("# sent_id = 1", "#  sent id  =  1 \t x"), True),
    ("a blank line of spaces", lambda t: t.replace("\n\n# newdoc", "\n   \n# newdoc"), False),
    ("a long zero id", lambda t: t.replace("\n1.1\t", "\n000000001.1\t"), True),
    ("a byte-order mark", lambda t: "\ufeff" + t, True),
    ("no final line break", lambda t: t.rstrip("\n"), True),
    ("comments before the first document", lambda t: "# note\n\n" + t, True),
]


@pytest.mark.parametrize(("what", "edit", "regular"), EDITS, ids=[e[0] for e in EDITS])
def test_edited_files_read_as_line_by_line(what: str, edit: object, regular: bool) -> None:
    text = edit(SMALL)  # type: ignore[operator]
    _read_as_line_by_line(text)
    assert (read_regular("f", text.lstrip("\ufeff"), False) is not None) == regular, what


def _read_as_line_by_line(text: str) -> None:
    """``read_ua_documents`` reads ``text`` as the line-by-line reader does, or fails as it fails."""
    try:
        slow = _read_lines("f", text.lstrip("\ufeff"), False)
    except InputError as err:
        with pytest.raises(InputError) as read:
            read_ua_documents("f", text)
        assert str(read.value) == str(err)
        return
    _same(read_ua_documents("f", text), slow)


def test_small_files_are_read_line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("corefeval.readers.ua.COLUMN_WISE_FROM", len(SMALL) + 1)
    monkeypatch.setattr("corefeval.readers.ua._column_wise", None)  # not called
    _same(read_ua_documents("f", SMALL), _read_lines("f", SMALL, False))


def test_every_white_space_str_split_splits_at_is_known() -> None:
    """The characters beyond ASCII that make a line irregular are those ``str.split()`` splits at."""
    assert set(WIDE_SPACES) == {c for c in range(128, 0x110000) if chr(c).isspace()}


@pytest.mark.parametrize(
    "edit",
    [
        lambda t: t.replace("(EntityID=2|MarkableID=m3|Min=3|SemType=dn", "(EntityID=2|MarkableID=m3|Min=9"),
        lambda t: t.replace("\n\n# newdoc id = d2", "\n" + _row("5", "x", "(EntityID=9|MarkableID=m9") + "\n"),
        lambda t: t.replace("(EntityID=1|MarkableID=m1)", "(MarkableID=m1)"),
        lambda t: t.replace("\n1.1\t", "\n1.x\t"),
        lambda t: t.replace("\t)\t_\t(EntityID=d1", "\tm7)\t_\t(EntityID=d1"),
    ],
)
def test_an_error_in_a_regular_file_is_the_line_by_line_error(edit: object) -> None:
    text = edit(SMALL)  # type: ignore[operator]
    with pytest.raises(InputError):
        _read_lines("f", text, False)
    _read_as_line_by_line(text)


def test_random_cells_read_the_same() -> None:
    """Seeded files whose markup cells are drawn from usual, unusual and malformed spellings."""
    cells = [
        "_",
        ")",
        "))",
        "(EntityID=1|MarkableID=m1",
        "(EntityID=2|MarkableID=m2)",
        "m1)",
        "(mentionid=m3|entityid=3)",
        ")(EntityID=4|MarkableID=m4",
        "(EntityID=5|MarkableID=m5|Min=1(EntityID=6|MarkableID=m6)",
    ]
    rng = random.Random(7)
    for _ in range(400):
        rows = [_row(str(i + 1), "w", rng.choice(cells)) for i in range(rng.randint(1, 6))]
        _read_as_line_by_line(HEADER + "# newdoc id = d\n" + "\n".join(rows) + "\n")


#: Markup cells (one per word) that the brackets' column-wise reading reads (True) or leaves to the
#: cell-by-cell reading (False); both read them alike.
BRACKETS = [
    (["(EntityID=1|MarkableID=m1", "(EntityID=3|MarkableID=m3", ")(EntityID=2|MarkableID=m2)", ")"], True),
    (["(EntityID=1|MarkableID=m1|Min=1(EntityID=2|MarkableID=m2|SemType=x)", ")"], True),
    (["(EntityID=1|MarkableID=m1(EntityID=2|MarkableID=m2|ElementOf=1,3)", ")"], True),
    (["(EntityID=1|MarkableID=m1)@(EntityID=2|MarkableID=m2)"], False),
    (["(EntityID=1|MarkableID=m1", "m1)"], False),
    (["(EntityID=1|MarkableID=m1", ")", "(EntityID=1|MarkableID=m1)"], False),
    (["(entityid=1|markableid=m1)", "(MarkableID=m2|EntityID=2)"], True),
    (["(EntityID=1|MarkableID=m1))"], False),
]


@pytest.mark.parametrize(("cells", "column_wise"), BRACKETS)
def test_brackets_read_column_wise_or_cell_by_cell_alike(
    cells: list[str], column_wise: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import corefeval.readers.ua_brackets as brackets
    import corefeval.readers.ua_columns as columns

    read: list[bool] = []

    def recorded(*args: object) -> object:
        found = brackets.column_markables(*args)  # type: ignore[arg-type]
        read.append(found is not None)
        return found

    monkeypatch.setattr(columns, "column_markables", recorded)
    rows = [_row(str(i + 1), "w", cell) for i, cell in enumerate(cells)]
    text = HEADER + "# newdoc id = d\n" + "\n".join(rows) + "\n\n# newdoc id = e\n" + "\n".join(rows) + "\n"
    _read_as_line_by_line(text)
    assert read[:1] == [column_wise]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([1, 200, 5000]))
def test_files_read_in_stretches_read_the_same(seed: int, chunk: int) -> None:
    """A file cut into stretches of whole documents (to bound the numpy passes' memory) reads to
    the same documents, lines included, as read at once and line by line."""
    import corefeval.readers.ua_columns as columns

    for text in [*pair(seed, n_docs=4), SMALL, SMALL.replace("\n1.1\t", "\n1.2\t")]:
        whole = _read_lines("f", text, False)
        original = columns.CHUNK
        columns.CHUNK = chunk
        try:
            cut = read_regular("f", text, False)
        finally:
            columns.CHUNK = original
        assert cut is not None
        _same(cut, whole)


def test_a_header_after_the_first_stretch_is_read_line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("corefeval.readers.ua_columns.CHUNK", 1)
    text = SMALL.replace("# newdoc id = d2\n", HEADER + "# newdoc id = d2\n")
    assert read_regular("f", text, False) is None
    _read_as_line_by_line(text)


def test_markables_read_column_wise_are_kept_as_columns_and_behave_as_their_tuple() -> None:
    """An identity layer read column-wise is :class:`Markables`: no markable is made until one is
    read, and it then equals, hashes, prints, adds, indexes and pickles as the tuple the
    line-by-line reader makes."""
    import pickle

    from corefeval.anaphora.model import Markables

    fast, slow = read_ua_documents("f", SMALL).documents[0], _read_lines("f", SMALL, False).documents[0]
    columns = fast.identity
    assert isinstance(columns, Markables) and isinstance(slow.identity, tuple)
    assert columns._made is None and len(columns) == 4 and columns.ids == ["m1", "m2", "m3", "m4"]
    assert columns.starts.tolist() == [0, 1, 2, 3] and columns.entities == ["1", "1", "2", "3"]
    assert columns.has_elements() and fast.first_line() == slow.first_line() == 4
    assert columns._made is None  # none of the above makes a markable
    assert columns == slow.identity and slow.identity == columns and hash(columns) == hash(slow.identity)
    assert (
        repr(columns) == repr(slow.identity) and columns[2] == slow.identity[2] and list(columns) == list(slow.identity)
    )
    assert columns + () == slow.identity == () + columns and columns + fast.deixis == slow.identity + slow.deixis
    assert pickle.loads(pickle.dumps(columns)) == slow.identity and columns.made() is columns.made()
