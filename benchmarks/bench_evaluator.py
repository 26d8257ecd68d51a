"""Time the in-memory Evaluator against the common neural-coref ``metrics.py`` CorefEvaluator.

The 350-document benchmark corpus is generated (as run_benchmark.py does), read once, and held in
memory as clusters of ``(start, end)`` spans; then, in one run, each contestant scores every
document through its ``update`` and gives the corpus score:

- corefeval ``Evaluator`` with MUC, B-cubed and CEAFe, then with all eight metrics;
- the ``CorefEvaluator`` of a repository's own ``metrics.py`` (MUC, B-cubed, CEAFe), loaded from
  ``--metrics-py`` with its removed scikit-learn import replaced in memory;
- one ``Evaluator.update`` of a 100-mention document, in microseconds (an update only checks and
  keeps the document; counting waits for ``result()``), and the same with its share of
  ``result()``.

Times are the median (and minimum) of ``--runs`` rounds in which the contestants take turns;
ratios are to the CorefEvaluator.

    python benchmarks/bench_evaluator.py [--runs 5] [--metrics-py PATH]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import common_metrics

from corefeval import Evaluator, read

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ["--seed", "2012", "--docs", "350", "--mentions", "19000"]
Clusters = list[list[tuple[int, int]]]


def corpus_in_memory(generator: Path) -> list[tuple[Clusters, Clusters]]:
    """The benchmark corpus as (key clusters, response clusters) per document."""
    with tempfile.TemporaryDirectory() as folder:
        key, response = Path(folder) / "key.conll", Path(folder) / "response.conll"
        subprocess.run(
            [sys.executable, str(generator), *CORPUS, "--out-key", str(key), "--out-response", str(response)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        keys, responses = read(str(key)), read(str(response)).by_name()
        return [(k.clusters(), responses[k.name].clusters()) for k in keys]


def timed(contestants: list[Callable[[], object]], runs: int) -> list[tuple[float, float, object]]:
    """Median and minimum seconds of ``runs`` calls of each contestant, and its last value; the
    contestants take turns, so that a change in the machine's load falls on all of them alike."""
    times: list[list[float]] = [[] for _ in contestants]
    values: list[object] = [None] * len(contestants)
    for _ in range(runs):
        for i, run in enumerate(contestants):
            start = time.perf_counter()
            values[i] = run()
            times[i].append(time.perf_counter() - start)
    return [(statistics.median(t), min(t), v) for t, v in zip(times, values)]


def evaluator_run(docs: list[tuple[Clusters, Clusters]], metrics: list[str]) -> Callable[[], float]:
    def run() -> float:
        ev = Evaluator(metrics)
        for key, response in docs:
            ev.update(key, response)
        return float(ev.result().corpus["conll"].f1)

    return run


def peer_run(module: object, docs: list[tuple[Clusters, Clusters]]) -> Callable[[], float]:
    def run() -> float:
        ev = module.CorefEvaluator()  # type: ignore[attr-defined]
        for key, response in docs:
            common_metrics.update(ev, key, response)
        return float(ev.get_f1())

    return run


def one_update_microseconds(docs: list[tuple[Clusters, Clusters]], repeat: int = 2000) -> tuple[int, float, float]:
    """Mentions of the document closest to 100 key mentions, the median microseconds of one update
    (which only checks and keeps the document), and the microseconds per document of ``repeat``
    updates followed by ``result()`` (which counts them), the cost a training loop pays."""
    size = lambda d: sum(len(c) for c in d[0])  # noqa: E731
    key, response = min(docs, key=lambda d: abs(size(d) - 100))
    ev = Evaluator(["muc", "bcub", "ceafe", "conll"])
    samples = []
    start = time.perf_counter()
    for _ in range(repeat):
        before = time.perf_counter()
        ev.update(key, response)
        samples.append(time.perf_counter() - before)
    ev.result()
    per_document = (time.perf_counter() - start) / repeat
    return size((key, response)), statistics.median(samples) * 1e6, per_document * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--metrics-py", type=Path, default=common_metrics.default_path(ROOT))
    parser.add_argument("--generator", type=Path, default=ROOT.parent / "shared" / "tools" / "make_synthetic_conll.py")
    args = parser.parse_args()
    if args.metrics_py is None:
        parser.error("no metrics.py found; give --metrics-py PATH")
    docs = corpus_in_memory(args.generator)
    n_key = sum(len(c) for k, _ in docs for c in k)
    n_response = sum(len(c) for _, r in docs for c in r)
    peer = common_metrics.load(args.metrics_py)
    names = [
        "corefeval Evaluator, MUC+B3+CEAFe",
        "corefeval Evaluator, all eight metrics",
        f"CorefEvaluator ({args.metrics_py}), MUC+B3+CEAFe",
    ]
    contestants = [
        evaluator_run(docs, ["muc", "bcub", "ceafe", "conll"]),
        evaluator_run(docs, ["all"]),
        peer_run(peer, docs),
    ]
    rows = [(name, *measured) for name, measured in zip(names, timed(contestants, args.runs))]
    mentions, micro, amortised = one_update_microseconds(docs)
    base = rows[-1][1]
    print(f"corpus: {len(docs)} documents, {n_key} key / {n_response} response mentions, in memory")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; runs: {args.runs}\n")
    print("| contestant | median s | min s | CoNLL F1 | CorefEvaluator time / this |")
    print("|---|---|---|---|---|")
    for name, median, fastest, f1 in rows:
        print(f"| {name} | {median:.3f} | {fastest:.3f} | {100 * float(f1):.4f} | {base / median:.1f}x |")
    print(f"\none Evaluator.update (MUC+B3+CEAFe) of a {mentions}-mention document: {micro:.0f} µs (median);")
    print(f"with its share of result(), which counts it: {amortised:.0f} µs per document")
    return 0


if __name__ == "__main__":
    sys.exit(main())
