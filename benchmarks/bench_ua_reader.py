"""Time the Universal Anaphora reader in-process: ``read_ua_documents`` on each given file.

The file's text is read once; each run times only the parse (the median and minimum of ``--runs``
runs are printed, in seconds). Run it with a checkout's own copy (``PYTHONPATH=src``) to compare two
versions of the reader on the same files::

    PYTHONPATH=src python benchmarks/bench_ua_reader.py --runs 5 KEY.conllu RESPONSE.conllu
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path

from corefeval.readers.ua import read_ua_documents


def time_reading(path: str, text: str, runs: int) -> list[float]:
    """The seconds each of ``runs`` readings of ``text`` took (garbage collected before each, left on
    while timing as in a real run; what was read is freed after the clock stops, as a run ends)."""
    times = []
    for _ in range(runs):
        gc.collect()
        started = time.perf_counter()
        layers = read_ua_documents(path, text)
        times.append(time.perf_counter() - started)
        del layers
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="Universal Anaphora CoNLL-U-Plus files")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per file (default 5)")
    args = parser.parse_args()
    print(f"{'file':<40} {'lines':>8} {'markables':>10} {'median s':>9} {'min s':>8}")
    for path in args.files:
        text = Path(path).read_text(encoding="utf-8")
        layers = read_ua_documents(path, text)  # also warms up
        markables = sum(len(d.identity) + len(d.deixis) for d in layers.documents)
        times = time_reading(path, text, args.runs)
        lines = text.count("\n")
        print(f"{Path(path).name:<40} {lines:>8} {markables:>10} {statistics.median(times):>9.4f} {min(times):>8.4f}")


if __name__ == "__main__":
    main()
