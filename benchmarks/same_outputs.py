"""Check that two checkouts of corefeval print the same bytes on the same inputs, in every mode.

For each pair of files, ``corefeval score KEY RESPONSE --format json --per-doc`` is run in each of
the twelve modes (``--match`` exact, partial, head x ``--singletons`` keep, remove x ``--zeros``
include, dependent) with each ``--heads`` choice, plus ``leaderboard --modes all`` and a text
report of the ``crac2024`` preset; standard output, standard error and the exit status of every
run are compared byte for byte. The older checkout's outputs are kept in ``--cache`` (made once),
so that a change can be checked again quickly:

    python benchmarks/same_outputs.py --before OLD/src --cache W/outputs \\
        --pair crac W/key.conllu W/response.conllu --pair gum GUM.conllu GUM.noisy.conllu

Exit status 0 when every output is the same, 1 otherwise (the differing runs are listed). Runs
that crash in both checkouts with the same exception are listed apart (their tracebacks name each
checkout's own files), and so are runs that crashed before and end with one error line now.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODES = [
    ["--match", match, "--singletons", singletons, "--zeros", zeros, "--heads", heads]
    for match in ("exact", "partial", "head")
    for singletons in ("keep", "remove")
    for zeros in ("include", "dependent")
    for heads in ("tree", "first")
]


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", type=Path, required=True, help="the older checkout's src folder")
    p.add_argument("--after", type=Path, default=HERE.parent / "src", help="the newer one's (default: this one)")
    p.add_argument("--cache", type=Path, required=True, help="folder keeping the older checkout's outputs")
    p.add_argument("--pair", nargs=3, action="append", metavar=("NAME", "KEY", "RESPONSE"), required=True)
    p.add_argument("--python", type=Path, default=Path(sys.executable))
    p.add_argument("--metrics", default="all,mor,zero", help="-m for every score run (default all,mor,zero)")
    p.add_argument("--record", action="store_true", help="only fill the cache with the older checkout's outputs")
    return p.parse_args(argv)


def commands(key: str, response: str, metrics: str) -> list[list[str]]:
    """Every command run on one pair."""
    out = [["score", key, response, "-m", metrics, "--format", "json", "--per-doc", *mode] for mode in MODES]
    out.append(["leaderboard", "--pair", "x", key, response, "--modes", "all", "-m", "conll", "--format", "json"])
    out.append(["score", key, response, "--preset", "crac2024"])
    return out


def run(python: Path, src: Path, argv: list[str]) -> dict[str, str]:
    """One run's exit status, standard output and standard error."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([str(python), "-m", "corefeval", *argv, "-q"], capture_output=True, text=True, env=env)
    return {"status": str(done.returncode), "stdout": done.stdout, "stderr": done.stderr}


def _one_line_error(run: dict[str, str]) -> bool:
    """Whether a run ended with one error line (and exit status 1 or 2), as every refusal should."""
    return run["status"] in ("1", "2") and len(run["stderr"].strip().splitlines()) == 1 and not run["stdout"]


def _same_crash(before: dict[str, str], after: dict[str, str]) -> bool:
    """Whether both runs end in the same traceback's last line (whose other lines name each
    checkout's files and lines): a crash that was there before, not one of this change."""
    crashed = [run["stderr"].startswith("Traceback") for run in (before, after)]
    last = [run["stderr"].strip().splitlines()[-1:] for run in (before, after)]
    return all(crashed) and last[0] == last[1] and before["stdout"] == after["stdout"]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    differing = total = crashes = fixed = 0
    for name, key, response in args.pair:
        for argv_ in commands(key, response, args.metrics):
            total += 1
            tag = hashlib.sha256(json.dumps([name, argv_]).encode()).hexdigest()[:16]
            cached = args.cache / f"{name}-{tag}.json"
            if not cached.exists():
                cached.write_text(json.dumps(run(args.python, args.before, argv_)))
            if args.record:
                continue
            before = json.loads(cached.read_text())
            after = run(args.python, args.after, argv_)
            if before["stderr"].startswith("Traceback") and _one_line_error(after):
                fixed += 1
                error = after["stderr"].strip()
                print(f"{name}: a crash before, one error line now ({error}): corefeval {' '.join(argv_)}")
            elif _same_crash(before, after):
                crashes += 1
                crash = after["stderr"].strip().splitlines()[-1]
                print(f"{name}: both crash alike ({crash}): corefeval {' '.join(argv_)}")
            elif before != after:
                differing += 1
                what = [part for part in ("status", "stdout", "stderr") if before[part] != after[part]]
                print(f"{name}: differs in {', '.join(what)}: corefeval {' '.join(argv_)}")
    if not args.record:
        same = total - differing - crashes - fixed
        print(f"{same} of {total} runs print the same bytes; {crashes} crash alike; {fixed} crashes now one error")
    return 1 if differing else 0  # a crash turned into an error line is listed, not a difference


if __name__ == "__main__":
    raise SystemExit(main())
