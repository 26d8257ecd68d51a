"""Time :mod:`corefeval.rewards` as a GRPO step uses it: many answers of one prompt scored in-process
against the same gold, on one core.

The gold is a seeded document of ``--words`` words (nested mentions, singletons, long entities)
written as CoNLL-2012. The answers are what a model writes back, in this mix: its words exactly with
the gold's mentions or a few of them wrong (text2text-coref marks, Markdown links, XML tags), its
words edited and its marks now and then malformed as ``tests/llm_answers.py`` edits them (read
strictly, so that most of these are 0.0), answers cut short, refusals, empty answers, and answers
in a thinking block or a code fence. Each answer is scored once; three ways of calling are timed:

* calls of ``--group`` answers (one prompt's), the least a ``GRPOTrainer`` step passes to the
  function ``make_reward(...)`` makes;
* calls of ``--batch`` answers (a generation batch of several prompts, as the trainer passes them);
* every answer in one ``score_answers`` call.

The gold is read once before timing (a GRPO step reads it once for its 8 to 16 answers; its cost is
printed on its own). CPU time is ``time.process_time`` of this one process, wall time
``time.perf_counter``.

    PYTHONPATH=src python benchmarks/bench_rewards.py [--answers 2000] [--words 300] [--group 16] [--profile]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from corefeval.rewards import answer_rewards, make_reward, prepare_gold  # noqa: E402
from tests.llm_answers import REFUSAL, text_answer  # noqa: E402
from tests.reward_answers import conll_gold, edited_document, gold_document, markup  # noqa: E402


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--answers", type=int, default=2000)
    p.add_argument("--words", type=int, default=300)
    p.add_argument("--group", type=int, default=16, help="answers of one prompt (a GRPO group)")
    p.add_argument("--batch", type=int, default=128, help="answers of a generation batch")
    p.add_argument("--runs", type=int, default=3, help="timed runs; the best is reported")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", action="store_true", help="print where the time of one run goes")
    return p.parse_args(argv)


def answers_for(seed: int, n_words: int, count: int) -> tuple[list[str], Counter[str]]:
    """``count`` answers to the gold of ``seed`` (see the module's docstring), and their kinds."""
    rng = random.Random(seed)
    gold = gold_document(seed, n_words)
    export = markup(gold, "text2text")
    kinds: Counter[str] = Counter()
    out = []
    for k in range(count):
        r = rng.random()
        if r < 0.35:
            kind, answer = (
                "its words, mentions edited",
                markup(edited_document(gold, rng, rng.randint(0, 8)), "text2text"),
            )
        elif r < 0.45:
            style = rng.choice(("markdown-links", "xml-tags"))
            kind, answer = "Markdown or XML", markup(edited_document(gold, rng, rng.randint(0, 8)), style)
        elif r < 0.75:
            kind, answer = "words and marks edited", text_answer(export + "\n", seed * 100_003 + k)
        elif r < 0.85:
            words = markup(edited_document(gold, rng, 2), "text2text").split(" ")
            kind, answer = "cut short", " ".join(words[: rng.randint(1, len(words))])
        elif r < 0.9:
            kind, answer = "refusal", REFUSAL
        elif r < 0.93:
            kind, answer = "empty", ""
        else:
            body = markup(edited_document(gold, rng, 3), "text2text")
            kind, answer = "thinking or fenced", f"<think>Let me mark the mentions.</think>\n```\n{body}\n```"
        kinds[kind] += 1
        out.append(answer)
    return out, kinds


def timed(call: Callable[[], object], runs: int) -> tuple[float, float]:
    """The best CPU and wall times of ``runs`` calls."""
    best_cpu = best_wall = float("inf")
    for _ in range(runs):
        cpu, wall = time.process_time(), time.perf_counter()
        call()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    gold = conll_gold(args.seed, args.words)
    answers, kinds = answers_for(args.seed, args.words, args.answers)
    cpu = time.process_time()
    prepare_gold(gold)
    print(f"gold of {args.words} words read and prepared once: {(time.process_time() - cpu) * 1e3:.1f} ms CPU")
    rewards = answer_rewards(gold, answers)
    scored = sum(1 for r in rewards if not r.reason)
    print(f"{len(answers)} answers: {scored} scored, {len(answers) - scored} 0.0 with a reason; kinds: {dict(kinds)}")
    reward = make_reward("gold")

    def calls_of(size: int) -> Callable[[], None]:
        chunks = [answers[i : i + size] for i in range(0, len(answers), size)]

        def call() -> None:
            for chunk in chunks:
                reward(completions=chunk, gold=[gold] * len(chunk))

        return call

    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx("call()", globals(), {"call": calls_of(args.group)}, "/tmp/bench_rewards.prof")
        pstats.Stats("/tmp/bench_rewards.prof").sort_stats("tottime").print_stats(25)
    load = os.getloadavg()[0]
    print(f"load average {load:.2f}; best of {args.runs} runs")
    ways = (
        (f"calls of {args.group} (make_reward)", calls_of(args.group)),
        (f"calls of {args.batch} (make_reward)", calls_of(args.batch)),
        (f"one call of {len(answers)} (score_answers)", lambda: answer_rewards(gold, answers)),
    )
    for label, call in ways:
        cpu, wall = timed(call, args.runs)
        print(
            f"{label:36s} {len(answers) / cpu:6.0f} answers/s CPU {len(answers) / wall:6.0f} answers/s wall "
            f"({cpu / len(answers) * 1e6:.0f} us CPU an answer)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
