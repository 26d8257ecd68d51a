"""Time the ways of scoring one pair of CoNLL-2012 files locally: a plain run against the others.

Each row is one ``python -m corefeval score KEY RESPONSE -m all --format json -q [OPTIONS]`` as a
whole process, run with ``PYTHONPATH`` set to a checkout's ``src`` (``--before SRC`` adds the rows of
an older checkout, such as the commit before ``--stream`` and the local ``-j`` were removed). Wall
and CPU time come from the process's own resource usage; peak memory is the largest sum of the
resident memory of the process and its children (worker processes), sampled every 50 ms. Prints a
Markdown table, the CoNLL F1 of every row (they must agree) and the load average before and after.

    python benchmarks/bench_paths.py KEY RESPONSE --before ../old/src --before-options '' '--stream' '-j 2'
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PAGE = os.sysconf("SC_PAGE_SIZE")


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("key")
    p.add_argument("response")
    p.add_argument("--src", type=Path, default=SRC, help="the checkout measured (default: this one)")
    p.add_argument("--options", nargs="*", default=[""], help="option strings of its rows (default: a plain run)")
    p.add_argument("--before", type=Path, help="an older checkout's src folder, measured too")
    p.add_argument("--before-options", nargs="*", default=["", "--stream", "-j 2"], help="option strings of its rows")
    p.add_argument("--runs", type=int, default=1)
    return p.parse_args(argv)


def _tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and every process below it."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * PAGE
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def measure(src: Path, key: str, response: str, options: str) -> tuple[float, float, float, float]:
    """(wall s, CPU s, peak MiB of the process tree, CoNLL F1) of one run."""
    argv = [sys.executable, "-m", "corefeval", "score", key, response, "-m", "all", "--format", "json", "-q"]
    env = {**os.environ, "PYTHONPATH": str(src)}
    start = time.perf_counter()
    child = subprocess.Popen([*argv, *shlex.split(options)], env=env, stdout=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(child.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    out = child.stdout.read() if child.stdout else b""
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {options or 'plain'} with {src}")
    f1 = json.loads(out)["corpus"]["conll"]["f1"]
    return wall, usage.ru_utime + usage.ru_stime, peak / 2**20, f1


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    rows = [(args.before, o) for o in args.before_options] if args.before else []
    rows += [(args.src, o) for o in args.options]
    print(f"load average before: {os.getloadavg()}")
    print("\n| checkout | options | wall s (best) | CPU s | peak MiB (all processes) | CoNLL F1 |")
    print("|---|---|---|---|---|---|")
    for src, options in rows:
        runs = [measure(src, args.key, args.response, options) for _ in range(args.runs)]
        wall, cpu, peak, f1 = min(runs)
        label = "before" if src == args.before else "after"
        print(
            f"| {label} | `{options or '(plain)'}` | {wall:.2f} | {cpu:.2f} | {peak:.0f} | {f1 * 100:.10f} |",
            flush=True,
        )
    print(f"\nload average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
