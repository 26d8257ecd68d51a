"""The CoNLL-2012 reader reads a file block by block and gives exactly what reading it in one block
gives, wherever the block boundaries fall: the same documents, warnings and errors."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import InputError
from corefeval.readers import conll_mentions, decode, detect_format, read, sniff_format
from corefeval.readers.conll2012 import read_conll2012
from corefeval.readers.conll_blocks import LineTable

WORDS = st.sampled_from(["w", "dog", "Straße", "日本語", "naïve", "é", "𝔘", "x_y"])
JUNK = st.sampled_from(["x", "(1+2)", "|", "(3||3)", "()", "(", "7", "(01)", "(5)(6)", "1)|(1", "(2)|(2", "(é)"])
LINE_ENDS = st.sampled_from(["\n", "\n", "\r\n", " \n", "\t\r\n"])


@st.composite
def documents(draw: st.DrawFn, separator: str) -> list[str]:
    """The lines of one document: a '#begin document' line in one of its spellings, tokens with
    well-formed spans and drawn damage, blank and comment lines, and usually '#end document'."""
    name = draw(st.sampled_from(["(d); part 000", "(d); part 001", "(ünï)", "", "x ", "(d)\t"]))
    begin = draw(st.sampled_from(["#begin document ", "#begin document", "# begin document ", "#  begin document "]))
    n = draw(st.integers(0, 10))
    parts: list[list[str]] = [[] for _ in range(n)]
    for _ in range(draw(st.integers(0, 6)) if n else 0):
        start = draw(st.integers(0, n - 1))
        end = draw(st.integers(start, min(n - 1, start + 3)))
        label = draw(st.sampled_from(["0", "1", "2", "12", "007"]))
        if start == end:
            parts[start].append(f"({label})")
        else:
            parts[start].append(f"({label}")
            parts[end].append(f"{label})")
    lines = [begin + name]
    for t, token_parts in enumerate(parts):
        field = draw(st.sampled_from(["|", ""])).join(token_parts) or draw(st.sampled_from(["-", "_"]))
        if draw(st.integers(0, 19)) == 0:
            field = draw(JUNK)
        sep = "\t" if separator == "\t" and draw(st.integers(0, 9)) else " "
        columns = draw(st.sampled_from([["d", "0", str(t), draw(WORDS), "NN"], ["d", draw(WORDS)], []]))
        lines.append(sep.join([*columns, field]))
        extra = draw(st.integers(0, 11))
        if extra == 0:
            lines.append(draw(st.sampled_from(["", "  ", "\t", "\x0b"])))
        elif extra == 1:
            lines.append(draw(st.sampled_from(["# a comment", "#", "#\tnote é"])))
    if draw(st.integers(0, 5)):
        lines.append(draw(st.sampled_from(["#end document", "#end document  ", "# end document"])))
    return lines


@st.composite
def conll_files(draw: st.DrawFn) -> bytes:
    """A CoNLL-2012 file: documents separated by TABs or spaces (sometimes with a first TAB late in
    the file), drawn line ends, perhaps a byte-order mark, comments before, after and between
    documents, and perhaps no final newline."""
    separator = draw(st.sampled_from(["\t", " "]))
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "# header", "#end document", "\t"])))
        lines.extend(draw(documents(separator)))
    if separator == " " and draw(st.booleans()):
        lines.append(draw(st.sampled_from(["# a late\tTAB", "late\tTAB\t(0)", "t a b\t-"])))
    text = "".join(line + draw(LINE_ENDS) for line in lines)
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    if draw(st.integers(0, 5)) == 0:
        text = "\ufeff" + text
    return text.encode("utf-8")


def outcome(read_it: object) -> object:
    """Every field of every document and every warning, or the error."""
    try:
        corpus = read_it()  # type: ignore[operator]
    except InputError as err:
        return ("error", str(err))
    docs = [
        (
            d.name,
            d.starts.tolist(),
            d.ends.tolist(),
            d.entities.tolist(),
            d.labels,
            d.n_tokens,
            None if d.lines is None else d.lines.tolist(),
            d.begin_line,
            d.tokens,
        )
        for d in corpus
    ]
    return docs, [(w.path, w.line, w.message, w.severity) for w in corpus.warnings]


def same_in_blocks(path: Path, data: bytes, block_size: int, lenient: bool, first_line: int = 1) -> None:
    """Reading ``data`` (given, and from ``path``) in blocks of ``block_size`` gives what one block gives."""
    one_block = len(data) + 1
    for keep_tokens in (False, True):

        def given(size: int, keep_tokens: bool = keep_tokens) -> object:
            return read_conll2012(str(path), data, keep_tokens, first_line, lenient, block_size=size)

        assert outcome(lambda: given(block_size)) == outcome(lambda: given(one_block))
    path.write_bytes(data)

    def from_file(size: int) -> object:
        return read_conll2012(str(path), None, True, lenient=lenient, block_size=size)

    whole = outcome(lambda: from_file(one_block))
    assert outcome(lambda: from_file(block_size)) == whole
    if data.strip():
        assert outcome(lambda: read_conll2012(str(path), data, True, lenient=lenient)) == whole
    else:
        assert whole == ("error", f"{path}:1: error: the file is empty")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conll_files(), st.integers(1, 300), st.booleans(), st.sampled_from([1, 1, 40]))
@example(b"\xef\xbb\xbf#begin document (d)\r\nd\t(0)\r\n#end document", 1, False, 1)
@example(b"#begin document (d)\nd a (0)\nd b -\nd c\t(1)\n#end document\n", 3, False, 1)
@example(b"#begin document (d)\nd\t\xc3\xa9\t(0\n", 2, True, 1)
@example(b" \n\t\r\n", 1, False, 1)
def test_blocks_give_what_one_block_gives(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, block_size: int, lenient: bool, first_line: int
) -> None:
    path = tmp_path_factory.mktemp("blocks") / "f.conll"
    same_in_blocks(path, data, block_size, lenient, first_line)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    conll_files(),
    st.integers(0, 1 << 16),
    st.sampled_from([b"\xff", b"\xe2\x82", b"\xc3", b"\xed\xa0"]),
    st.integers(1, 300),
)
def test_a_byte_that_is_not_utf8_is_the_error_decoding_the_file_gives(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, at: int, bad: bytes, block_size: int
) -> None:
    at = at % (len(data) + 1)
    data = data[:at] + bad + data[at:]
    path = tmp_path_factory.mktemp("utf8") / "f.conll"
    path.write_bytes(data)
    with pytest.raises(InputError) as whole:
        decode(str(path), data)
    for size in (block_size, len(data) + 1):
        with pytest.raises(InputError) as blocks:
            read_conll2012(str(path), block_size=size)
        assert str(blocks.value) == str(whole.value)
    with pytest.raises(InputError) as auto:
        read(str(path))
    assert str(auto.value) == str(whole.value)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conll_files(), st.integers(1, 5), st.booleans())
def test_fields_read_in_chunks_give_what_one_chunk_gives(data: bytes, chunk: int, lenient: bool) -> None:
    whole = outcome(lambda: read_conll2012("f.conll", data, lenient=lenient))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(conll_mentions, "_CHUNK", chunk)
        assert outcome(lambda: read_conll2012("f.conll", data, lenient=lenient)) == whole


LEADS = st.sampled_from(["", "\n", "  \r\n", "# comment\n", "#\n", "\ufeff", "\ufeff\ufeff\n", "\u2028\n"])
FIRSTS = st.sampled_from(
    [
        "#begin document (d); part 000",
        "# begin document x",
        '{"doc_key": "a", "sentences": [], "clusters": []}',
        "# newdoc id = d",
        "# global.Entity = eid-etype-head-other",
        "1\tw\t_\t_\t_\t_\t0\troot\t_\t_",
        "1-2\tw\t_\t_\t_\t_\t_\t_\t_\t_",
        "d\t0\t0\tw\t(0)",
        "# just a comment",
        "",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LEADS, max_size=30), FIRSTS, st.sampled_from(["\n", "\r\n", ""]), st.integers(1, 64))
def test_the_format_found_from_the_first_lines_is_the_format_of_the_whole_file(
    tmp_path_factory: pytest.TempPathFactory, leads: list[str], first: str, end: str, block_size: int
) -> None:
    text = "".join(leads) + first + end + "d\t0\t0\tw\t-\n"
    path = tmp_path_factory.mktemp("sniff") / "f"
    path.write_bytes(text.encode("utf-8"))
    assert sniff_format(str(path), block_size) == detect_format(str(path), text)


def test_a_line_longer_than_a_block_is_read_whole(tmp_path: Path) -> None:
    word = "é" * 5000
    data = f"#begin document (d)\nd\t0\t0\t{word}\t(0)\nd\t0\t1\tw\t-\n#end document\n".encode()
    path = tmp_path / "long.conll"
    path.write_bytes(data)
    corpus = read_conll2012(str(path), keep_tokens=True, block_size=16)
    assert corpus.documents[0].tokens == (word, "w")
    assert corpus.documents[0].starts.tolist() == [0]


def test_an_empty_or_unreadable_file_is_a_located_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.conll"
    empty.write_bytes(b"  \r\n\n")
    with pytest.raises(InputError, match="empty.conll:1: error: the file is empty"):
        read(str(empty))
    with pytest.raises(InputError, match="cannot read the file"):
        read(str(tmp_path / "missing.conll"))
    with pytest.raises(InputError, match="cannot read the file"):
        read(str(tmp_path))


def conll_files_under(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and b"begin document" in p.read_bytes())


def spread_by_size(files: list[Path], root: Path, per_folder: int = 6) -> list[Path]:
    """Up to ``per_folder`` files of each top folder of ``root``, from its smallest to its largest
    file: every corpus and every size class, without reading each of hundreds of similar files eight
    times."""
    folders: dict[str, list[Path]] = {}
    for f in files:
        folders.setdefault(f.relative_to(root).parts[0], []).append(f)
    chosen: list[Path] = []
    for group in folders.values():
        group.sort(key=lambda f: (f.stat().st_size, str(f)))
        step = max(1, (len(group) - 1) / max(1, per_folder - 1))
        chosen += sorted({group[min(len(group) - 1, round(i * step))] for i in range(per_folder)})
    return chosen


@pytest.mark.parametrize("folder", ["conformance", "realdata"])
def test_shared_files_read_the_same_in_blocks(shared: Path, tmp_path: Path, folder: str) -> None:
    files = conll_files_under(shared / folder)
    assert files
    if folder == "realdata":
        files = spread_by_size(files, shared / folder)
    for source in files:
        data = source.read_bytes()
        for block_size in (1, 97, 4093, 65521):
            if len(data) // block_size > 2000:
                continue  # tiny blocks for small files only: a block costs a few numpy calls
            for lenient in (False, True):
                same_in_blocks(tmp_path / source.name, data, block_size, lenient)


def test_a_pipe_is_read_once(tmp_path: Path) -> None:
    """A named pipe (as from a shell's process substitution) cannot be read twice: it is read once, its
    first blocks deciding the format and then given to the reader."""
    data = "#begin document (d)\nd\t0\t0\tw\t(0)\nd\t0\t1\tw\t(0)\n#end document\n"
    path = tmp_path / "k.conll"
    path.write_text(data, encoding="utf-8")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for fmt in ("auto", "conll2012"):
        writer = threading.Thread(target=pipe.write_text, args=(data,))
        writer.start()
        corpus = read(str(pipe), fmt)
        writer.join()
        assert [d.clusters() for d in corpus] == [d.clusters() for d in read(str(path))] == [[[(0, 0), (1, 1)]]]


def test_trailing_white_space_is_cut_in_linear_time() -> None:
    """One line with a long run of trailing spaces among many short lines: cutting them used to
    take a numpy pass over every line for each space."""
    data = b"x (1)" + b" " * 100_000 + b"\n" + b"x -\n" * 50_000 + b"y\t \r\x0b\x0c\n \n"
    began = time.monotonic()
    table = LineTable.of(data)
    assert time.monotonic() - began < 5
    lines = data.split(b"\n")
    assert table.end.tolist() == [int(s) + len(line.rstrip()) for s, line in zip(table.start.tolist(), lines)]
    rng = np.random.default_rng(7)
    noisy = bytes(rng.choice(list(b"ab \t\r\x0b\x0c\n"), size=20_000).tolist())
    table = LineTable.of(noisy)
    expected = [int(s) + len(line.rstrip()) for s, line in zip(table.start.tolist(), noisy.split(b"\n"))]
    assert table.end.tolist() == expected


KEY = (
    "#begin document (d); part 000\n"
    "d 0 0 The x (1\n"
    "d 0 1 dog x 1)\n"
    "d 0 2 saw x (2)\n"
    "d 0 3 it x (1)|(3\n"
    "d 0 4 there x 3)|(2)\n"
    "#end document\n"
)


def test_entity_numbers_are_ascii_digits(tmp_path: Path) -> None:
    """'(٣)' (an Arabic-Indic three) is no more an entity number than '(²)' is."""
    for digit in ("\u0663", "\u00b2"):
        bad = tmp_path / "digit.conll"
        bad.write_text(KEY.replace("(1)|", f"({digit})|"), encoding="utf-8")
        with pytest.raises(InputError, match=f"digit.conll:5: error: cannot read coreference field '\\({digit}\\)"):
            read(str(bad))


@pytest.mark.parametrize("label", ["9" * 5000, str(2**70), str(2**63), "0" + "9" * 30])
def test_giant_entity_numbers_are_labels_like_any_other(tmp_path: Path, label: str) -> None:
    """Numbers past int64 or Python's int-string limit are read as labels, both column-wise and line
    by line (a field with several parts), never as a traceback."""
    giant, plain = tmp_path / "giant.conll", tmp_path / "plain.conll"
    giant.write_text(KEY.replace("(1", "(@").replace("1)", "@)").replace("@", label))
    plain.write_text(KEY)
    got, expected = read(str(giant)), read(str(plain))
    assert [(d.starts.tolist(), d.ends.tolist(), d.entities.tolist()) for d in got] == [
        (d.starts.tolist(), d.ends.tolist(), d.entities.tolist()) for d in expected
    ]
    assert got.documents[0].labels == (label, "2", "3")
