"""Where input bytes come from: ``-`` (standard input), gzip, pipes, FIFOs and devices, for every
format; and what a reader will hold (a NUL byte, a line past the bound, trailing white space)."""

from __future__ import annotations

import gzip
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from corefeval.core.diagnostics import InputError
from corefeval.readers import read
from corefeval.readers.conll_blocks import scan_file
from corefeval.readers.sources import FIFO_TIMEOUT_VARIABLE, MAX_LINE_VARIABLE
from tests.readers.test_conll_blocks import KEY

RESPONSE = KEY.replace("(1)|(3", "(2)|(3")


def corefeval(
    *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the command line in a fresh process whose address space is capped at 2 GiB, so that an
    input read without bound ends in an error here instead of filling the machine."""

    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run(
        [sys.executable, "-m", "corefeval", *args],
        input=None if stdin is None else stdin.decode("latin-1"),
        capture_output=True,
        text=True,
        encoding="latin-1",
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1", **(env or {})},
        preexec_fn=cap_memory,
        timeout=120,
    )


def one_line_error(result: subprocess.CompletedProcess[str], where: str, what: str) -> None:
    """The run failed with exit status 1 and one ``PATH:LINE: error:`` line, no traceback."""
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"{where}: error: "), result.stderr
    assert what in result.stderr


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """The key and the response as CoNLL-2012, and the key in the other text formats."""
    out = {"key": tmp_path / "key.conll", "response": tmp_path / "response.conll"}
    out["key"].write_text(KEY)
    out["response"].write_text(RESPONSE)
    for fmt, name in (("jsonlines", "key.jsonlines"), ("corefud", "key.conllu")):
        out[fmt] = tmp_path / name
        subprocess.run(
            [sys.executable, "-m", "corefeval", "convert", str(out["key"]), "--to", fmt, str(out[fmt])], check=True
        )
    return out


def test_a_dash_reads_standard_input_for_the_key_or_the_response(files: dict[str, Path]) -> None:
    plain = corefeval("score", str(files["key"]), str(files["response"]))
    assert plain.returncode == 0, plain.stderr
    as_key = corefeval("score", "-", str(files["response"]), stdin=files["key"].read_bytes())
    as_response = corefeval("score", str(files["key"]), "-", stdin=files["response"].read_bytes())
    assert (as_key.returncode, as_response.returncode) == (0, 0), as_key.stderr + as_response.stderr
    signature_free = [r.stdout.replace("key:", "") for r in (plain, as_key, as_response)]
    assert signature_free[0] == signature_free[1] == signature_free[2]


def test_a_jsonlines_file_with_both_sides_is_scored_from_standard_input(files: dict[str, Path]) -> None:
    doc = json.loads(files["jsonlines"].read_text())
    doc["predicted_clusters"] = doc["clusters"][:1]
    line = (json.dumps(doc) + "\n").encode()
    from_file = files["jsonlines"].with_name("both.jsonlines")
    from_file.write_bytes(line)
    plain = corefeval("score", str(from_file), "-m", "muc", "--format", "json")
    piped = corefeval("score", "-", "-m", "muc", "--format", "json", stdin=line)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["corpus"] == json.loads(plain.stdout)["corpus"]
    assert json.loads(plain.stdout)["corpus"]["muc"]["recall"] < 1


def test_standard_input_can_be_only_one_of_the_inputs(files: dict[str, Path]) -> None:
    for command in (("score", "-", "-"), ("errors", "-", "-"), ("compare", str(files["key"]), "-", "-")):
        result = corefeval(*command, stdin=files["key"].read_bytes())
        assert result.returncode == 2, result.stderr
        assert "only one input can be '-'" in result.stderr
        assert "Traceback" not in result.stderr


@pytest.mark.parametrize("fmt", ["key", "jsonlines", "corefud"])
def test_gzip_is_read_whatever_the_name(files: dict[str, Path], tmp_path: Path, fmt: str) -> None:
    expected = read(str(files[fmt]), keep_tokens=True)
    for name in ("packed.gz", "packed.txt"):  # recognised by its first bytes, not by the name
        packed = tmp_path / name
        packed.write_bytes(gzip.compress(files[fmt].read_bytes()))
        got = read(str(packed), keep_tokens=True)
        assert got.format == expected.format
        assert [(d.name, d.tokens, d.starts.tolist(), d.ends.tolist(), d.entities.tolist()) for d in got] == [
            (d.name, d.tokens, d.starts.tolist(), d.ends.tolist(), d.entities.tolist()) for d in expected
        ]
    result = corefeval("score", str(tmp_path / "packed.txt"), str(files[fmt]), "-m", "muc")
    assert result.returncode == 0, result.stderr
    assert "MUC     100.00" in result.stdout


def test_gzip_is_decompressed_as_a_stream_block_by_block(tmp_path: Path) -> None:
    """Several members (as ``cat a.gz b.gz`` gives), blocks far smaller than the file: the same
    summary as the plain file; a truncated gzip file is a one-line error."""
    text = "".join(KEY.replace("(d)", f"(d{i})") for i in range(300)).encode()
    plain = tmp_path / "plain.conll"
    plain.write_bytes(text)
    packed = tmp_path / "packed.conll.gz"
    half = len(text) // 2
    cut = text.rindex(b"\n", 0, half) + 1
    packed.write_bytes(gzip.compress(text[:cut]) + gzip.compress(text[cut:]))
    got, expected = scan_file(str(packed), block_size=257), scan_file(str(plain), block_size=257)
    for name, value in expected._asdict().items():
        assert (
            np.array_equal(getattr(got, name), value) if isinstance(value, np.ndarray) else getattr(got, name) == value
        )
    truncated = tmp_path / "truncated.gz"
    truncated.write_bytes(gzip.compress(text)[:-50])
    with pytest.raises(InputError, match="truncated.gz: error: the gzip data is truncated"):
        read(str(truncated))


def test_a_fifo_without_a_writer_is_an_error_after_the_wait(tmp_path: Path, files: dict[str, Path]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    began = time.monotonic()
    result = corefeval("score", str(fifo), str(files["key"]), env={FIFO_TIMEOUT_VARIABLE: "0.2"})
    assert time.monotonic() - began < 60
    one_line_error(result, str(fifo), "no process writes to this FIFO (waited 0.2 s")


def test_a_fifo_with_a_writer_and_process_substitution_are_read(tmp_path: Path, files: dict[str, Path]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"sleep 0.5; cat '{files['key']}' > '{fifo}'"])
    by_fifo = corefeval("score", str(fifo), str(files["response"]), "-m", "muc")
    writer.wait()
    assert by_fifo.returncode == 0, by_fifo.stderr
    command = f"'{sys.executable}' -m corefeval score <(cat '{files['key']}') <(gzip -c '{files['response']}') -m muc"
    substituted = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert substituted.returncode == 0, substituted.stderr
    plain = corefeval("score", str(files["key"]), str(files["response"]), "-m", "muc")
    assert by_fifo.stdout.split("\n")[:2] == substituted.stdout.split("\n")[:2] == plain.stdout.split("\n")[:2]


def test_dev_zero_is_refused_at_once() -> None:
    one_line_error(corefeval("score", "/dev/zero", "/dev/zero"), "/dev/zero:1", "NUL byte at column 1")


def test_dev_urandom_and_a_directory_are_one_line(tmp_path: Path) -> None:
    result = corefeval("score", "/dev/urandom", "/dev/urandom")
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("/dev/urandom:") and "Traceback" not in result.stderr
    one_line_error(corefeval("score", str(tmp_path), str(tmp_path)), str(tmp_path), "it is a directory")


def test_a_nul_byte_is_located(tmp_path: Path) -> None:
    bad = tmp_path / "nul.conll"
    bad.write_bytes(KEY.replace("saw", "s\0w").encode())
    with pytest.raises(InputError, match=r"nul.conll:4: error: NUL byte at column 8"):
        read(str(bad))


def test_an_endless_line_stops_at_the_bound(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    long_line = tmp_path / "long.conll"
    long_line.write_bytes(KEY.encode() + b"y" * 5000 + b"\n" + KEY.encode())
    monkeypatch.setenv(MAX_LINE_VARIABLE, "4096")
    with pytest.raises(InputError, match="long.conll:8: error: line longer than 4096 bytes"):
        read(str(long_line))
    monkeypatch.setenv(MAX_LINE_VARIABLE, "5001")
    assert len(read(str(long_line)).documents) == 2
    # an endless input without a newline, as standard input: an error before memory runs out
    endless = subprocess.Popen(
        [sys.executable, "-c", "import sys\nwhile True: sys.stdout.write('y' * 65536)"], stdout=subprocess.PIPE
    )
    try:
        result = subprocess.run(
            [sys.executable, "-m", "corefeval", "score", "-", str(long_line)],
            stdin=endless.stdout,
            capture_output=True,
            text=True,
            env={**os.environ, MAX_LINE_VARIABLE: str(1 << 20)},
            timeout=120,
        )
    finally:
        endless.kill()
        endless.wait()
    one_line_error(result, "-:1", f"line longer than {1 << 20} bytes")
