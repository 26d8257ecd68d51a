"""Time ``corefeval report`` for three systems on the benchmark's 350-document corpus.

The key and three responses (response seeds 1, 2, 3) are made by the shared generator as in
``run_benchmark.py``; the report is written ``--runs`` times (the median wall time and the child's
CPU time are reported) with the default bootstrap (1000 resamples, 10,000 randomisation rounds),
the default breakdowns (genre and length), with and without the error analysis and its pages.

    PYTHONPATH=src python benchmarks/bench_report.py [--runs 3] [--generator PATH]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ["--seed", "2012", "--docs", "350", "--mentions", "19000"]
ROWS = {
    "report": [],
    "report --no-errors": ["--no-errors"],
    "report --by mention-type --no-errors": ["--by", "mention-type", "--no-errors"],
}


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    assert status == 0, command
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--generator", type=Path, default=ROOT.parent / "shared" / "tools" / "make_synthetic_conll.py")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        responses = []
        for seed in (1, 2, 3):
            response = folder / f"system{seed}.conll"
            make = [
                sys.executable,
                str(args.generator),
                *CORPUS,
                "--response-seed",
                str(seed),
                "--out-key",
                str(folder / "key.conll"),
                "--out-response",
                str(response),
            ]
            subprocess.run(make, check=True, stdout=subprocess.DEVNULL)
            responses.append(str(response))
        base = [sys.executable, "-m", "corefeval", "report", str(folder / "key.conll"), *responses]
        print("| command | median wall (s) | median CPU (s) |")
        print("|---|---:|---:|")
        for name, extra in ROWS.items():
            runs = [timed(base + ["-o", str(folder / "report.html"), *extra]) for _ in range(args.runs)]
            wall = statistics.median(w for w, _ in runs)
            cpu = statistics.median(c for _, c in runs)
            print(f"| {name} | {wall:.2f} | {cpu:.2f} |")


if __name__ == "__main__":
    main()
