"""Time corefeval on corpora of many small documents (one mention each) in three formats.

Corpora of many short documents (PreCo, GAP, WinoBias, language-model answers) cost what is done
once per document. Each corpus is N documents of one three-word sentence with one mention, as
CoNLL-2012, CorefUD and jsonlines (the response moves every third mention by one word), written
once into ``--workdir``. Every row is a whole process, ``corefeval score KEY RESPONSE -m all -q``
(the median of ``--runs``), with its peak memory; the same command on a one-document corpus of the
same format is its start-up, and "per document" is ``(time - start-up) / N``. ``--corefud`` adds
the CorefUD scorer (one run, head match as ``--preset crac2024``) on the CorefUD corpora of at most
``--corefud-below`` documents.

    python benchmarks/bench_small_docs.py --workdir ../scratch/small-docs [--docs 10000 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import measure  # noqa: E402
import peers  # noqa: E402
from measure import series  # noqa: E402

SRC = HERE.parent / "src"
FORMATS = ("conll2012", "corefud", "jsonlines")
SUFFIX = {"conll2012": "conll", "corefud": "conllu", "jsonlines": "jsonlines"}
WORDS = (("The", "DET", 2), ("cat", "NOUN", 3), ("sat", "VERB", 0))  # form, UPOS, HEAD


def mention(role: str, i: int) -> tuple[int, int]:
    """Document ``i``'s one mention (first and last word): the key's "The cat", the response's
    moved one word on every third document."""
    return (1, 2) if role == "response" and i % 3 == 0 else (0, 1)


def conll2012(role: str, n: int) -> str:
    lines = []
    for i in range(n):
        first, last = mention(role, i)
        lines.append(f"#begin document (small/d{i}); part 000")
        for t, (form, _, _) in enumerate(WORDS):
            field = "(0)" if first == last == t else "(0" if t == first else "0)" if t == last else "-"
            lines.append(f"small/d{i}\t0\t{t}\t{form}\tNN\t-\t-\t-\t-\t-\t{field}")
        lines += ["", "#end document"]
    return "\n".join(lines) + "\n"


def corefud(role: str, n: int) -> str:
    lines = []
    for i in range(n):
        first, last = mention(role, i)
        lines.append(f"# newdoc id = small/d{i}")
        if i == 0:
            lines.append("# global.Entity = eid-etype-head-other")
        lines += [f"# sent_id = small/d{i}-1", "# text = " + " ".join(w for w, _, _ in WORDS)]
        for t, (form, upos, head) in enumerate(WORDS):
            misc = f"Entity=(e1--{2 - first}" if t == first else "Entity=e1)" if t == last else "_"
            lines.append(f"{t + 1}\t{form}\t{form.lower()}\t{upos}\t_\t_\t{head}\t_\t_\t{misc}")
        lines.append("")
    return "\n".join(lines) + "\n"


def jsonlines(role: str, n: int) -> str:
    words = [[w for w, _, _ in WORDS]]
    return "".join(
        json.dumps({"doc_key": f"small/d{i}", "sentences": words, "clusters": [[list(mention(role, i))]]}) + "\n"
        for i in range(n)
    )


WRITERS = {"conll2012": conll2012, "corefud": corefud, "jsonlines": jsonlines}


def corpus(folder: Path, fmt: str, n: int) -> tuple[Path, Path]:
    """The key and response of ``n`` documents in ``fmt`` (written once)."""
    paths = tuple(folder / f"{n}.{role}.{SUFFIX[fmt]}" for role in ("key", "response"))
    for role, path in zip(("key", "response"), paths):
        if not path.exists():
            path.write_text(WRITERS[fmt](role, n), encoding="utf-8")
    return paths[0], paths[1]


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workdir", type=Path, required=True, help="folder for the corpora (kept; reused)")
    p.add_argument("--docs", type=int, nargs="+", default=[10_000, 100_000], help="corpus sizes (documents)")
    p.add_argument("--formats", nargs="+", choices=FORMATS, default=list(FORMATS))
    p.add_argument("--runs", type=int, default=3, help="runs of each corefeval row (median)")
    p.add_argument("--python", type=Path, default=Path(sys.executable), help="the Python that runs corefeval")
    p.add_argument("--corefud", action="store_true", help="also run the CorefUD scorer on the CorefUD corpora")
    p.add_argument("--corefud-below", type=int, default=20_000, help="largest corpus given to the CorefUD scorer")
    p.add_argument("--peers-dir", type=Path, default=peers.default_peers_dir())
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    env = measure.child_environment(PYTHONPATH=str(SRC))
    corefeval = [str(args.python), "-m", "corefeval", "score"]
    lines = [
        f"load average before: {os.getloadavg()[0]:.2f}",
        "",
        "| format | documents | tool | wall s (min-max) | CPU s | peak MiB | per document past start-up (wall, CPU) |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for fmt in args.formats:
        folder = args.workdir / fmt
        folder.mkdir(exist_ok=True)
        start = series([*corefeval, *map(str, corpus(folder, fmt, 1)), "-m", "all", "-q"], args.runs, env)
        lines.append(_row(fmt, 1, "corefeval", start, None))
        for n in args.docs:
            s = series([*corefeval, *map(str, corpus(folder, fmt, n)), "-m", "all", "-q"], args.runs, env)
            lines.append(_row(fmt, n, "corefeval", s, start))
            if args.corefud and fmt == "corefud" and n <= args.corefud_below:
                scorer, python = peers.corefud_paths(args.peers_dir)
                key, response = corpus(folder, fmt, n)
                argv = [str(python), str(scorer), str(key), str(response), "-a", "head", "-z", "dependent"]
                m = measure.run(argv, env=measure.child_environment())
                lines.append(_row(fmt, n, "CorefUD scorer (head match)", m, None))
    lines.append(f"load average after: {os.getloadavg()[0]:.2f}")
    print("\n".join(lines))
    return 0


def _row(fmt: str, n: int, tool: str, s: measure.Series | measure.Measurement, start: measure.Series | None) -> str:
    if isinstance(s, measure.Measurement):
        return f"| {fmt} | {n:,} | {tool} | {s.wall:.2f} | {s.cpu:.2f} | {s.peak_kib / 1024:.0f} | |"
    low, high = s.spread("wall")
    per = ""
    if start is not None:
        wall = (s.median("wall") - start.median("wall")) / n * 1e6
        cpu = (s.median("cpu") - start.median("cpu")) / n * 1e6
        per = f"{wall:.1f} µs, {cpu:.1f} µs"
    return (
        f"| {fmt} | {n:,} | {tool} | {s.median('wall'):.2f} ({low:.2f}-{high:.2f}) | {s.median('cpu'):.2f} "
        f"| {s.peak_mib:.0f} | {per} |"
    )


if __name__ == "__main__":
    raise SystemExit(main())
