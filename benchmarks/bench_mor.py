"""Time MOR (and the zero score) against MUC on the benchmark's inputs written as CorefUD.

The inputs are made by the shared generator as in ``run_benchmark.py`` (the OntoNotes-test-sized
corpus and the 20k-mention document), written as CorefUD by corefeval's writer and read once; each
metric is then scored alone, in process, ``--runs`` times (the best time is reported), so that the
ratio compares the metrics and not the reading.

    PYTHONPATH=src python benchmarks/bench_mor.py [--runs 5] [--generator PATH]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corefeval import score
from corefeval.readers import read
from corefeval.writers import render

ROOT = Path(__file__).resolve().parent.parent
INPUTS = {
    "350 docs": ["--seed", "2012", "--docs", "350", "--mentions", "19000"],
    "20k mentions": ["--seed", "7", "--docs", "1", "--mentions", "20000", "--max-entity-size", "400"],
}
METRICS = ("muc", "mor", "zero")


def corefud_pair(generator: Path, options: list[str], folder: Path) -> tuple[str, str]:
    """The generator's key and response, rewritten as CorefUD files."""
    key, response = folder / "key.conll", folder / "response.conll"
    cmd = [sys.executable, str(generator), *options, "--out-key", str(key), "--out-response", str(response)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    out = []
    for path in (key, response):
        target = path.with_suffix(".conllu")
        target.write_text(render(read(str(path)), "corefud")[0])
        out.append(str(target))
    return out[0], out[1]


def best_time(key: object, response: object, metric: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        score(key, response, (metric,))  # type: ignore[arg-type]
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--generator", type=Path, default=ROOT.parent / "shared" / "tools" / "make_synthetic_conll.py")
    args = parser.parse_args()
    print("| input | " + " | ".join(f"{m} (s)" for m in METRICS) + " | MOR / MUC |")
    print("|---|" + "---:|" * (len(METRICS) + 1))
    for name, options in INPUTS.items():
        with tempfile.TemporaryDirectory() as tmp:
            kpath, rpath = corefud_pair(args.generator, options, Path(tmp))
            key, response = read(kpath), read(rpath)
            seconds = {m: best_time(key, response, m, args.runs) for m in METRICS}
        cells = " | ".join(f"{seconds[m]:.3f}" for m in METRICS)
        print(f"| {name} | {cells} | {seconds['mor'] / seconds['muc']:.2f} |")


if __name__ == "__main__":
    main()
