"""One local scoring path: ``--stream`` is gone, ``-j`` sizes the local Dask cluster only, and the
documents engine refuses, in one line, a file it cannot read back by byte ranges (a pipe)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..cli.test_cli import KEY, RESPONSE, run, write

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    return write(tmp_path, "key.conll", KEY), write(tmp_path, "response.conll", RESPONSE)


def test_stream_is_refused_with_the_reason(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", *files, "--stream")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "--stream is removed: a plain run reads files in blocks" in err


@pytest.mark.parametrize("extra", [[], ["--scheduler", "tcp://127.0.0.1:1"]])
def test_jobs_without_a_local_dask_cluster_is_refused(
    extra: list[str], files: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    engine = ["--engine", "dask"] if extra else []
    code, out, err = run(capsys, "score", *files, "-j", "2", *engine, *extra)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "-j/--jobs is the size of the local Dask cluster" in err


def test_one_job_is_a_plain_run(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "score", *files, "-j", "1", "-m", "muc") == run(capsys, "score", *files, "-m", "muc")


def _shell(command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize(("options", "status"), [("--stream", 2), ("-j 2", 2), ("--engine dask", 1)])
def test_a_pipe_gets_one_line_and_no_traceback(options: str, status: int, files: tuple[str, str]) -> None:
    key, response = files
    done = _shell(f"{sys.executable} -m corefeval score <(cat {key}) <(cat {response}) {options} -q")
    assert done.returncode == status and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    if status == 1:
        assert ": error: documents are read back from their byte ranges, so this needs a regular file" in done.stderr


def test_a_pipe_scores_in_a_plain_run(files: tuple[str, str]) -> None:
    key, response = files
    piped = _shell(f"{sys.executable} -m corefeval score <(cat {key}) <(cat {response}) -m muc --format json -q")
    plain = _shell(f"{sys.executable} -m corefeval score {key} {response} -m muc --format json -q")
    assert piped.returncode == 0 and json.loads(piped.stdout)["corpus"] == json.loads(plain.stdout)["corpus"]


def test_a_fifo_without_a_writer_is_refused_before_a_cluster_starts(files: tuple[str, str], tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.conll"
    os.mkfifo(fifo)
    done = _shell(f"{sys.executable} -m corefeval score {fifo} {files[1]} --engine dask -q")
    assert done.returncode == 1 and done.stderr == (
        f"{fifo}: error: documents are read back from their byte ranges, so this needs a regular file, "
        "not a pipe or device\n"
    )
