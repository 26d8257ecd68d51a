"""Invalid and hostile JSON-based input (jsonlines, model predictions, spaCy DocBins): one located
error line, never a traceback, a wrong number or memory that does not follow the file's size."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.readers import read
from corefeval.readers.validate import validate

#: Address space allowed to a command run under a limit: enough for Python, numpy and spaCy,
#: far below what the old readers and writers asked for (gigabytes).
MEMORY_LIMIT = 1536 << 20


def write(tmp_path: Path, records: list[str], name: str = "f.jsonlines") -> str:
    path = tmp_path / name
    path.write_text("".join(r + "\n" for r in records))
    return str(path)


def doc(clusters: str, extra: str = "") -> str:
    return '{"doc_key": "d", "sentences": [["a", "b", "c", "d"]], "clusters": ' + clusters + extra + "}"


def one_error_line(err: str, path: str, line: int | None = 1) -> str:
    """The single line of ``err``, checked to be ``PATH:LINE: error: ...`` (``PATH: error:``)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    where = f"{path}:{line}" if line else path
    assert lines[0].startswith(f"{where}: error: "), err
    return lines[0]


def run_limited(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``corefeval ARGS`` in a child process whose address space is capped at :data:`MEMORY_LIMIT`."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, "-m", "corefeval", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=cap,
        env=env,
    )


# Item 3: invalid data accepted


@pytest.mark.parametrize(
    ("subtoken_map", "what"),
    [("[0, 2, 1, 3]", "token 2 has 1"), ("[-1, 0, 1, 2]", "token 0 has -1"), ("[0, true, 1, 2]", "token 1 has True")],
)
def test_a_subtoken_map_that_decreases_or_is_not_integers_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], subtoken_map: str, what: str
) -> None:
    # with [0, 2, 1, 3], span [1, 2] used to become the mention (2, 1): start after end
    path = write(tmp_path, [doc("[[[1, 2], [3, 3]]]", ', "subtoken_map": ' + subtoken_map)])
    with pytest.raises(InputError, match="document 'd': 'subtoken_map' must give one word index per token") as err:
        read(path)
    assert what in str(err.value)
    problems = validate([path])
    assert [str(p) for p in problems] == [str(err.value)]
    assert main(["validate", path]) == 1
    capsys.readouterr()
    assert main(["convert", path, str(tmp_path / "out.conll"), "--to", "conll2012"]) == 1
    one_error_line(capsys.readouterr().err, path)
    assert not (tmp_path / "out.conll").exists()


@pytest.mark.parametrize("span", ["[false, true]", "[0, true]", "[0, 1.0]", '["0", 1]', "[null, 1]", "[0]", "7"])
def test_offsets_must_be_json_integers(tmp_path: Path, capsys: pytest.CaptureFixture[str], span: str) -> None:
    path = write(tmp_path, [doc(f"[[{span}, [3, 3]]]")])
    with pytest.raises(InputError, match=r"document 'd': .* in cluster 0 of 'clusters' is not \[start, end\]"):
        read(path)
    assert main(["score", path, path]) == 1
    one_error_line(capsys.readouterr().err, path)


@pytest.mark.parametrize("span", ["[false, true]", "[true, 1.0]", "[0, null]"])
def test_prediction_offsets_must_be_json_integers(tmp_path: Path, span: str) -> None:
    path = write(tmp_path, ['{"doc_key": "d", "clusters_token_offsets": [[' + span + ", [3, 3]]]}"])
    with pytest.raises(InputError, match=r"f.jsonlines:1: error: document 'd': .* is not \[start, end\]"):
        read(path)


def test_validate_agrees_with_score_on_a_booleans_file(tmp_path: Path) -> None:
    path = write(tmp_path, [doc("[[[false, true], [3, 3]]]")])
    assert [p.severity for p in validate([path])] == ["error"]


def test_spans_lie_within_the_sentences_even_when_there_are_none(tmp_path: Path) -> None:
    path = write(tmp_path, ['{"doc_key": "d", "sentences": [], "clusters": [[[0, 1000000000]]]}'])
    with pytest.raises(InputError, match=r"span \[0, 1000000000\] .* ends after the document's tokens \(it has none\)"):
        read(path)
    assert validate([path])[0].severity == "error"


# Item 7: tracebacks


def test_an_integer_of_5000_digits_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, [doc("[[[0, " + "9" * 5000 + "]]]")])
    assert main(["score", path, path]) == 1
    line = one_error_line(capsys.readouterr().err, path)
    assert "<a 5000-digit integer>" in line and len(line) < 300


def test_a_doc_key_of_5000_digits_is_not_a_name(tmp_path: Path) -> None:
    path = write(tmp_path, ['{"doc_key": ' + "7" * 5000 + ', "sentences": [["a"]], "clusters": []}'])
    with pytest.raises(InputError, match="'doc_key' \\(a string\\) is missing"):
        read(path)


def test_an_integer_of_5000_digits_outside_the_offsets_is_not_read(tmp_path: Path) -> None:
    path = write(tmp_path, [doc("[[[0, 1], [3, 3]]]", ', "id": ' + "7" * 5000)])
    assert read(path).documents[0].clusters() == [[(0, 1), (3, 3)]]


@pytest.mark.parametrize("fmt", ["jsonlines", "predictions"])
def test_an_offset_past_int64_is_a_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    field = "clusters" if fmt == "jsonlines" else "clusters_token_offsets"
    path = write(tmp_path, ['{"doc_key": "d", "' + field + '": [[[0, ' + str(2**70) + "]]]}"])
    assert main(["score", path, path, "--key-format", fmt, "--response-format", fmt]) == 1
    assert "is not [start, end]" in one_error_line(capsys.readouterr().err, path)


def test_a_huge_list_in_an_error_is_shown_cut(tmp_path: Path) -> None:
    path = write(tmp_path, [doc("[[" + json.dumps(list(range(100_000))) + "]]")])
    with pytest.raises(InputError) as err:
        read(path)
    assert len(str(err.value)) < len(path) + 200


# Item 5: memory that follows the file's size


def test_a_93_byte_file_with_a_span_ending_at_token_1e9_is_refused_by_convert(tmp_path: Path) -> None:
    path = write(tmp_path, ['{"doc_key": "d", "clusters": [[[0, 1000000000]], [[5, 6]]]}'])
    for to in ("conll2012", "corefud", "jsonlines"):
        out = tmp_path / f"out.{to}"
        done = run_limited("convert", path, str(out), "--to", to)
        assert done.returncode == 1, done.stderr
        line = one_error_line(done.stderr, path)
        assert "document 'd': the input gives no words and a mention ends at token 1000000000" in line
        assert not out.exists()
    assert [p.message for p in validate([path])] == [line.split(": error: ", 1)[1]]


def test_a_subtoken_map_cannot_claim_more_words_than_tokens(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        ['{"doc_key": "d", "sentences": [["a", "b"]], "subtoken_map": [0, 1000000000], "clusters": [[[0, 1]]]}'],
    )
    done = run_limited("convert", path, str(tmp_path / "out.conll"), "--to", "conll2012")
    assert done.returncode == 1
    assert "token 1 has 1000000000" in one_error_line(done.stderr, path)


def test_errors_html_shows_a_far_span_without_a_token_per_offset(tmp_path: Path) -> None:
    key = write(tmp_path, ['{"doc_key": "d", "clusters": [[[0, 1000000000]], [[5, 6]]]}'], "k.jsonlines")
    response = write(tmp_path, ['{"doc_key": "d", "clusters": [[[0, 1000000000], [5, 6]]]}'], "r.jsonlines")
    page = tmp_path / "errors.html"
    done = run_limited("errors", key, response, "--html", str(page))
    assert done.returncode == 0, done.stderr
    html = page.read_text()
    assert "[1000000000]" in html and "[999999998]" in html and "[999999997]" not in html
    assert "[4]" in html and "…" in html


@pytest.mark.parametrize("to", ["conll2012", "corefud", "jsonlines"])
def test_convert_writes_words_with_tabs_and_line_breaks_so_that_they_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], to: str
) -> None:
    record = {
        "doc_key": "d",
        "sentences": [["New York", "a\tb", "x\ny", "#begin", "z\u2028"]],
        "clusters": [[[0, 0], [3, 3]]],
    }
    path = write(tmp_path, [json.dumps(record)])
    out = str(tmp_path / f"out.{to}")
    assert main(["convert", path, out, "--to", to]) == 0
    assert validate([out]) == []
    assert read(out, keep_tokens=True).documents[0].tokens == ("New York", "a_b", "x_y", "#begin", "z_")
    assert main(["score", path, out, "-m", "muc", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["corpus"]["muc"]["f1"] == 1.0


@pytest.mark.parametrize("to", ["conll2012", "corefud", "jsonlines"])
def test_a_document_name_with_a_line_break_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], to: str
) -> None:
    path = write(tmp_path, [json.dumps({"doc_key": "d\n#end document", "sentences": [["a"]], "clusters": [[[0, 0]]]})])
    out = tmp_path / f"out.{to}"
    assert main(["convert", path, str(out), "--to", to]) == 1
    line = one_error_line(capsys.readouterr().err, path)
    assert line.endswith("document 'd\\n#end document': a document name cannot hold a line break")
    assert not out.exists()
    assert [p.message for p in validate([path])] == [line.split(": error: ", 1)[1]]


# Item 5 and 7: spaCy DocBins


def docbin_bytes(payload: object) -> bytes:
    import srsly

    return zlib.compress(srsly.msgpack_dumps(payload))


def test_a_real_docbin_reads_within_the_memory_limit(tmp_path: Path) -> None:
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    d = nlp("John saw him and he left")
    d.spans["coref_clusters_1"] = [d[0:1], d[2:3], d[4:5]]
    d.user_data["doc_key"] = "d"
    path = tmp_path / "docs.spacy"
    DocBin(docs=[d], store_user_data=True).to_disk(path)
    assert read(str(path)).documents[0].clusters() == [[(0, 0), (2, 2), (4, 4)]]
    done = run_limited("score", str(path), str(path), "-m", "muc")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("payload", "reason"),
    [({}, "KeyError: 'attrs'"), ([1, 2, 3], "TypeError"), ({"attrs": 7, "strings": 1}, "TypeError")],
)
def test_unexpected_msgpack_in_a_docbin_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], payload: object, reason: str
) -> None:
    pytest.importorskip("spacy")
    path = tmp_path / "bad.spacy"
    path.write_bytes(docbin_bytes(payload))
    assert main(["score", str(path), str(path)]) == 1
    line = one_error_line(capsys.readouterr().err, str(path), None)
    assert "expected zlib-compressed msgpack of a map with 'attrs'" in line and reason in line


@pytest.mark.parametrize("data", [b"", b"not zlib at all", zlib.compress(b"\x80" * 100)[:-5]])
def test_a_docbin_that_is_not_zlib_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes
) -> None:
    pytest.importorskip("spacy")
    path = tmp_path / "bad.spacy"
    path.write_bytes(data)
    assert main(["score", str(path), str(path)]) == 1
    assert "not a spaCy DocBin" in one_error_line(capsys.readouterr().err, str(path), None)


def test_a_docbin_zlib_bomb_is_refused_before_it_inflates(tmp_path: Path) -> None:
    pytest.importorskip("spacy")
    path = tmp_path / "bomb.spacy"
    squeeze = zlib.compressobj(9)
    block = b"\0" * (1 << 20)
    with open(path, "wb") as fh:  # 2 GiB of zeros in about 2 MB
        for _ in range(2048):
            fh.write(squeeze.compress(block))
        fh.write(squeeze.flush())
    done = run_limited("score", str(path), str(path))
    assert done.returncode == 1, done.stderr
    assert "inflates to more than 64 times its size" in one_error_line(done.stderr, str(path), None)
