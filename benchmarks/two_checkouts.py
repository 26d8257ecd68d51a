"""Time one corefeval command under two checkouts, run in turn: whole processes, wall and CPU time.

Each turn runs ``python -m corefeval ARGS`` with the older checkout's ``src`` on ``PYTHONPATH``,
then with the newer one's (and with ``--numpy``, ``python -c "import numpy"`` first), so that both
meet the same load; a busy machine moves every time, and their ratio much less. Prints each one's
median and minimum and the newer over the older (and over numpy's import):

    python benchmarks/two_checkouts.py --before OLD/src --runs 15 -- score KEY RESPONSE --preset crac2024
    python benchmarks/two_checkouts.py --before OLD/src --runs 25 --numpy -- score EX/key.conll EX/response.conll
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import measure  # noqa: E402


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", type=Path, required=True, help="the older checkout's src folder")
    p.add_argument("--after", type=Path, default=HERE.parent / "src", help="the newer one's (default: this one)")
    p.add_argument("--python", type=Path, default=Path(sys.executable))
    p.add_argument("--runs", type=int, default=15, help="turns (default 15)")
    p.add_argument("--numpy", action="store_true", help='also run python -c "import numpy" in each turn')
    p.add_argument("args", nargs="+", help="the corefeval command line (after --)")
    return p.parse_args(argv)


def timed(args: argparse.Namespace) -> dict[str, measure.Series]:
    """Every run of each command, the commands taken in turn."""
    command = [str(args.python), "-m", "corefeval", *args.args]
    runs = {"before": (command, args.before), "after": (command, args.after)}
    if args.numpy:
        runs = {"import numpy": ([str(args.python), "-c", "import numpy"], None), **runs}
    out = {name: measure.Series() for name in runs}
    for argv, src in runs.values():  # once untimed: bytecode written
        measure.run(argv, env=_environment(src))
    for _ in range(args.runs):
        for name, (argv, src) in runs.items():
            m = measure.run(argv, env=_environment(src))
            if m.failure:
                raise SystemExit(f"{name}: {m.failure}")
            out[name].runs.append(m)
    return out


def _environment(src: Path | None) -> dict[str, str]:
    return measure.child_environment(**({"PYTHONPATH": str(src)} if src else {}))


def report(series: dict[str, measure.Series]) -> list[str]:
    lines = ["| run | wall s median (min) | CPU s median (min) |", "|---|---:|---:|"]
    for name, s in series.items():
        wall, cpu = (f"{s.median(what):.3f} ({s.spread(what)[0]:.3f})" for what in ("wall", "cpu"))
        lines.append(f"| {name} | {wall} | {cpu} |")
    pairs = [("after", "before")] + ([("before", "import numpy"), ("after", "import numpy")] if len(series) > 2 else [])
    for top, bottom in pairs:
        for what in ("wall", "cpu"):
            a, b = series[top], series[bottom]
            lines.append(
                f"{top} / {bottom} ({what}): {a.median(what) / b.median(what):.3f} by medians, "
                f"{a.spread(what)[0] / b.spread(what)[0]:.3f} by minima"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    before = os.getloadavg()[0]
    lines = report(timed(args))
    print(f"load average before: {before:.2f}, after: {os.getloadavg()[0]:.2f}")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
