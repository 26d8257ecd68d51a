"""Speed of the significance tests on the 350-document synthetic benchmark corpus.

Generates the key and two responses with ``make_synthetic_conll.py`` into a temporary folder, then
times 1,000 bootstrap resamples plus 10,000 approximate-randomisation rounds for two systems
(``corefeval.stats.compare``), once with reading and scoring included and once on the count matrices
alone. Usage::

    PYTHONPATH=src python benchmarks/bench_significance.py [--tool PATH] [--repeat N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT.parent / "shared" / "tools" / "make_synthetic_conll.py"
CORPUS = ["--seed", "2012", "--docs", "350", "--mentions", "19000"]


def generate(tool: Path, folder: Path) -> tuple[Path, Path, Path]:
    key, first, second = folder / "key.conll", folder / "response1.conll", folder / "response2.conll"
    responses = ((first, ["--response-seed", "1"]), (second, ["--response-seed", "2", "--drop", "0.2"]))
    for response, extra in responses:
        subprocess.run(
            [
                sys.executable,
                str(tool),
                *CORPUS,
                *extra,
                "--out-key",
                str(key),
                "--out-response",
                str(response),
                "--summary",
                str(folder / "summary.json"),
            ],
            check=True,
        )
    return key, first, second


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", type=Path, default=TOOL, help="make_synthetic_conll.py")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the fastest is reported")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10000)
    args = parser.parse_args()

    from corefeval.readers import read
    from corefeval.scoring.pipeline import score
    from corefeval.stats.compare import compare
    from corefeval.stats.confidence import bootstrap_samples, intervals_from
    from corefeval.stats.paired import approximate_randomization, observed_differences, paired_bootstrap
    from corefeval.stats.resampling import bootstrap_draws, streams, swap_masks

    with tempfile.TemporaryDirectory() as tmp:
        key, first, second = generate(args.tool, Path(tmp))
        corpora = [read(str(p)) for p in (key, first, second)]
        totals, resampling = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            c = compare(str(key), str(first), [str(second)], resamples=args.resamples, rounds=args.rounds)
            totals.append(time.perf_counter() - start)

            base, system = score(corpora[0], corpora[1]), score(corpora[0], corpora[2])
            start = time.perf_counter()
            boot_rng, swap_rng = streams(12345)
            n = len(base.document_names)
            draws = bootstrap_draws(boot_rng, n, args.resamples)
            masks = swap_masks(swap_rng, n, args.rounds)
            samples = [bootstrap_samples(r, draws) for r in (base, system)]
            for r, s in zip((base, system), samples, strict=True):
                intervals_from(r.corpus, s, 0.95)
            observed = observed_differences(base, system)
            paired_bootstrap(samples[0], samples[1], observed, 0.95)
            approximate_randomization(base, system, masks, observed)
            resampling.append(time.perf_counter() - start)

    key_mentions = int(base.counts[:, base.columns["mentions"]].sum(axis=0)[1])
    print(f"corpus: {n} documents, {key_mentions} key mentions")
    print(f"{args.resamples} bootstrap resamples + {args.rounds} randomisation rounds, two systems")
    print(f"resampling on the count matrices: {min(resampling):.3f} s (best of {args.repeat})")
    print(f"whole compare (read 3 files, score 2 systems, resample): {min(totals):.3f} s (best of {args.repeat})")
    tests = c.systems[1].tests
    assert tests is not None
    f1 = [s.result.corpus["conll"].f1 for s in c.systems]
    print(
        f"CoNLL F1 {f1[0]:.4f} vs {f1[1]:.4f}, paired bootstrap p = {tests.paired_bootstrap['conll']:.4g}, "
        f"approximate randomisation p = {tests.approximate_randomization['conll']:.4g}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
