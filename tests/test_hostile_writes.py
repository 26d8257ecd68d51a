"""Every command that writes a file: it never writes over an input (refused before anything is
read), it replaces its target only with a complete file, and a careless argument is one line."""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

INJECT = ["-m", "corefeval.studies.errors.inject"]
CLI = ["-m", "corefeval"]


def conll(name: str = "d", tokens: int = 8, chains: int = 2) -> str:
    """One document: ``chains`` chains of two one-token mentions, then tokens without mentions."""
    fields = [f"({t // 2})" for t in range(2 * chains)] + ["-"] * (tokens - 2 * chains)
    lines = [f"{name}\t0\t{t}\tw{t}\t{f}" for t, f in enumerate(fields)]
    return "\n".join([f"#begin document ({name}); part 000", *lines, "#end document"]) + "\n"


def run(args: list[str], file_size_limit: int | None = None) -> tuple[int, str, str]:
    """Run ``python ARGS``; with ``file_size_limit``, no file it writes may grow past that many bytes."""

    def limit() -> None:
        assert file_size_limit is not None
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    done = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=limit if file_size_limit else None,
    )
    return done.returncode, done.stdout, done.stderr


def one_line(err: str) -> str:
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err.strip()


@pytest.fixture
def key(tmp_path: Path) -> Path:
    path = tmp_path / "key.conll"
    path.write_text(conll())
    return path


def spellings(path: Path) -> list[str]:
    """The same file by other names: itself, a ``..`` detour, a symbolic link and a hard link."""
    (path.parent / "sub").mkdir(exist_ok=True)
    link, hard = path.parent / "link", path.parent / "hard"
    link.symlink_to(path)
    os.link(path, hard)
    return [str(path), f"{path.parent}/sub/../{path.name}", str(link), str(hard)]


@pytest.mark.parametrize("which", range(4))
@pytest.mark.parametrize("where", ["out", "record"])
def test_inject_never_writes_over_its_key(key: Path, which: int, where: str) -> None:
    """It used to truncate KEY to 0 bytes (OUT) or overwrite it with JSON (--record)."""
    before = key.read_bytes()
    target = spellings(key)[which]
    out, record = (target, str(key.parent / "made.jsonl")) if where == "out" else (str(key.parent / "o.conll"), target)
    status, _, err = run([*INJECT, str(key), out, "--noise", "1", "--record", record])
    assert status == 2 and "is the input" in one_line(err)
    assert key.read_bytes() == before
    assert not (key.parent / "o.conll").exists() and not (key.parent / "made.jsonl").exists()


def test_inject_refuses_before_reading(tmp_path: Path) -> None:
    """The refusal comes first: an unreadable key is not even opened."""
    key = tmp_path / "key.conll"
    key.write_text("not a CoNLL file\n")
    status, _, err = run([*INJECT, str(key), str(key)])
    assert status == 2 and "is the input" in one_line(err)
    assert key.read_text() == "not a CoNLL file\n"


@pytest.mark.parametrize(
    "args",
    [
        [*INJECT, "{key}", "{out}", "--record", "{out}"],
        [*CLI, "errors", "{key}", "{key}", "--log", "{out}", "--html", "{out}"],
    ],
)
def test_two_outputs_of_one_run_cannot_be_one_file(key: Path, args: list[str]) -> None:
    out = key.parent / "out"
    status, _, err = run([a.format(key=key, out=out) for a in args])
    assert status == 2 and "are the same file" in one_line(err)
    assert not out.exists()


@pytest.mark.parametrize(
    "args",
    [
        [*CLI, "convert", "{key}", "{out}", "--to", "jsonlines"],
        [*CLI, "errors", "{key}", "{response}", "--no-costs", "--log", "{out}"],
        [*CLI, "errors", "{key}", "{response}", "--no-costs", "--html", "{out}"],
        [*INJECT, "{key}", "{out}", "--noise", "1"],
    ],
    ids=["convert", "errors --log", "errors --html", "inject"],
)
def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, args: list[str]) -> None:
    """A write that fails half-way (here: past a file size limit, as on a full disk) is one line,
    and the target keeps its old bytes; no temporary file is left behind."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(conll(tokens=400, chains=200))
    response.write_text(conll(tokens=400, chains=0))
    out = tmp_path / "out"
    out.write_text("old\n")
    status, _, err = run([a.format(key=key, response=response, out=out) for a in args], file_size_limit=4096)
    assert status == 2 and f"cannot write {out}" in one_line(err)
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["key.conll", "out", "response.conll"]


def test_a_replaced_file_keeps_its_mode_and_a_link_stays_a_link(key: Path, tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "out.json"
    link.symlink_to(real)
    status, _, err = run([*CLI, "convert", str(key), str(link), "--to", "jsonlines"])
    assert status == 0 and err == ""
    assert link.is_symlink() and real.read_text().startswith("{")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_a_new_file_gets_the_usual_mode(key: Path, tmp_path: Path) -> None:
    out = tmp_path / "new.json"
    status, _, _ = run([*CLI, "convert", str(key), str(out), "--to", "jsonlines"])
    mask = os.umask(0)
    os.umask(mask)
    assert status == 0 and stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask


def test_dash_is_standard_output_and_a_device_is_written_in_place(key: Path) -> None:
    status, out, _ = run([*CLI, "convert", str(key), "-", "--to", "jsonlines"])
    assert status == 0 and out.startswith("{")
    status, _, _ = run([*CLI, "convert", str(key), os.devnull, "--to", "jsonlines"])
    assert status == 0 and stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([*INJECT, "{key}", "{tmp}"], "cannot write {tmp}: it is a folder"),
        (
            [*INJECT, "{key}", "{tmp}/no/such/out"],
            "cannot write {tmp}/no/such/out: the folder {tmp}/no/such does not exist",
        ),
        ([*INJECT, "{key}", "{tmp}/out", "--record", "{tmp}"], "cannot write {tmp}: it is a folder"),
        ([*CLI, "errors", "{key}", "{key}", "--html", "{tmp}/no/page.html"], "the folder {tmp}/no does not exist"),
        ([*CLI, "convert", "{key}", "{tmp}/no/out", "--to", "corefud"], "the folder {tmp}/no does not exist"),
    ],
)
def test_an_output_that_cannot_be_written_is_one_line_before_reading(
    key: Path, tmp_path: Path, args: list[str], expected: str
) -> None:
    key.write_text("unreadable\n")  # refused outputs are found before the input is read
    status, _, err = run([a.format(key=key, tmp=tmp_path) for a in args])
    assert status == 2 and expected.format(tmp=tmp_path) in one_line(err)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["score", "{key}", "{key}"],
        ["score", "{key}", "{key}", "--per-doc", "--format", "csv"],
        ["reference", "all", "{key}", "{key}"],
        ["errors", "{key}", "{key}", "--no-costs"],
        ["compare", "{key}", "{key}", "{key}", "--resamples", "5", "--format", "csv"],
        ["convert", "{key}", "-", "--to", "corefud"],
    ],
    ids=lambda a: " ".join(a[:1] + a[3:5]),
)
def test_a_full_disk_under_standard_output_is_one_line(key: Path, args: list[str]) -> None:
    """Standard output on /dev/full (every write: 'No space left on device'): one line, exit 2, as an
    output file that cannot be written; never an OSError traceback, at once or when Python exits."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, *CLI, *[a.format(key=key) for a in args]],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    assert done.returncode == 2
    err = "\n".join(line for line in done.stderr.splitlines() if ": warning: " not in line)  # compare: one document
    assert one_line(err) == f"corefeval {args[0]}: error: cannot write standard output: No space left on device"


def test_a_reader_that_stops_early_is_no_error(key: Path, tmp_path: Path) -> None:
    """``| head -1``: the rest of the output has nowhere to go, which is not a failure."""
    big = tmp_path / "big.conll"
    big.write_text("".join(conll(f"d{i}") for i in range(3000)))
    command = subprocess.Popen(
        [sys.executable, *CLI, "score", str(big), str(big), "--per-doc"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert command.stdout is not None and command.stderr is not None
    command.stdout.readline()
    command.stdout.close()
    err = command.stderr.read().decode()
    assert command.wait(timeout=300) == 0 and err == ""
