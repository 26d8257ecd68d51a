"""Run one command as a child process and measure it: wall time, CPU time and peak memory.

CPU time and peak resident memory come from the child's own resource usage (``os.wait4``), so they
describe the whole process, interpreter start-up included, and nothing of the benchmark itself.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Measurement:
    """One run of one or more commands (a peer may need several steps; their costs add up)."""

    wall: float = 0.0
    cpu: float = 0.0
    peak_kib: int = 0
    stdout: str = ""
    failure: str | None = None  # None when every step exited 0 in time

    def add(self, other: Measurement) -> None:
        """Account for a further step of the same run: times add, peak memory is the largest."""
        self.wall += other.wall
        self.cpu += other.cpu
        self.peak_kib = max(self.peak_kib, other.peak_kib)
        self.stdout = other.stdout
        self.failure = other.failure


@dataclass
class Series:
    """Several runs of the same thing."""

    runs: list[Measurement] = field(default_factory=list)

    @property
    def failure(self) -> str | None:
        return next((run.failure for run in self.runs if run.failure), None)

    def median(self, attribute: str) -> float:
        return statistics.median(getattr(run, attribute) for run in self.runs)

    @property
    def peak_mib(self) -> float:
        return max(run.peak_kib for run in self.runs) / 1024

    def spread(self, attribute: str) -> tuple[float, float]:
        values = [getattr(run, attribute) for run in self.runs]
        return min(values), max(values)


def child_environment(**extra: str) -> dict[str, str]:
    """The environment of a timed child: this one without ``PYTHONDONTWRITEBYTECODE`` (with which
    every run would compile every module again, as no installed package does), plus ``extra``."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **extra}


def _limit_memory(limit_bytes: int | None):
    """A pre-exec hook capping the child's address space (so a runaway peer fails instead of swapping)."""

    def apply() -> None:
        if limit_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    return apply


def run(
    argv: Sequence[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    memory_limit: int | None = None,
) -> Measurement:
    """Run ``argv`` to completion (or until ``timeout`` seconds) and measure it."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
            preexec_fn=_limit_memory(memory_limit),
        )
        timed_out = threading.Event()

        def kill() -> None:
            timed_out.set()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)

        watchdog = threading.Timer(timeout, kill) if timeout else None
        if watchdog:
            watchdog.start()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        if watchdog:
            watchdog.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    measurement = Measurement(wall=wall, cpu=usage.ru_utime + usage.ru_stime, peak_kib=usage.ru_maxrss, stdout=stdout)
    if timed_out.is_set():
        measurement.failure = f"timed out after {timeout:g} s"
    elif child.returncode != 0:
        measurement.failure = _describe_failure(child.returncode, stderr, memory_limit)
    return measurement


def _describe_failure(returncode: int, stderr: str, memory_limit: int | None) -> str:
    """A one-line reason for a failed run, recognising the usual out-of-memory messages."""
    if "Out of memory" in stderr or "MemoryError" in stderr or "Unable to allocate" in stderr:
        cap = f" (address space capped at {memory_limit / 2**30:.0f} GiB)" if memory_limit else ""
        return f"out of memory{cap}"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    last = lines[-1][:120] if lines else "no message"
    return f"exit {returncode}: {last}"


def series(argv: list[str], runs: int, env: dict[str, str] | None = None) -> Series:
    """``runs`` whole runs of ``argv`` (:func:`run`); a failed run stops the benchmark with its reason."""
    out = Series()
    for _ in range(runs):
        m = run(argv, env=env)
        if m.failure:
            raise SystemExit(f"{' '.join(argv)}: {m.failure}")
        out.runs.append(m)
    return out
