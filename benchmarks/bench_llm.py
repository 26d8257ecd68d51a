"""Time scoring a language model's markup (text2text-coref format) against its key: corefeval
aligning and scoring it, corefeval scoring the same clusters given as token offsets, and the
official pipeline (text2text-coref ``clean`` + ``text2conllu`` + the CorefUD scorer).

The key is GUM Reddit (train, dev, test) with made-up word forms (it ships its forms as ``_``),
copied until it has ``--words`` words and cut into documents of 1000, 2500 and 5000 words in turn
(entity ids renamed per copy); the markup is its ``conllu2text -s`` with ``--rate`` of its words
edited (left out, added or changed) as ``tests/readers/llm_pipeline.py`` edits them. Every timed row
is whole processes, as a user runs them:

* ours: ``python -m corefeval score KEY MARKUP -m conll`` (alignment included);
* offsets: ``python -m corefeval score KEY OFFSETS.jsonlines -m conll``, the clusters corefeval put
  on the key, written as ``clusters_token_offsets``;
* official: ``clean`` + ``text2conllu`` + ``corefud-scorer.py KEY RESPONSE -m muc bcub ceafe``.

Then the alignment alone, in process, on one document of growing length (edits at ``--rate``) and
on a 5000-word document with a growing rate of edits, to show how its cost grows.

    python benchmarks/bench_llm.py --workdir ../scratch/llm-bench [--words 100000] [--rate 0.03]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

import measure  # noqa: E402
from readers.llm_pipeline import llm_edits, pipeline_paths, text2text  # noqa: E402

from corefeval.readers import read  # noqa: E402
from corefeval.readers.word_alignment import align_words  # noqa: E402

GUM = ROOT.parent / "shared" / "realdata" / "gum-reddit-corefud"
SIZES = (1000, 2500, 5000)
ENTITY_FIELDS = "GRP-etype-infstat-salience-centering-minspan-link-identity"
_EID = re.compile(r"(?<=\()(\d+)|(\d+)(?=\))")


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workdir", required=True, type=Path)
    p.add_argument("--words", type=int, default=100_000)
    p.add_argument("--rate", type=float, default=0.03)
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--no-peer", action="store_true", help="leave out the official pipeline")
    return p.parse_args(argv)


def sentences() -> list[list[str]]:
    """GUM Reddit's sentences (word lines only, made-up forms), entity ids renamed per document."""
    out: list[list[str]] = []
    doc = 0
    for split in ("train", "dev", "test"):
        current: list[str] = []
        for line in (GUM / f"en_gumreddit-ud-{split}.conllu").read_text(encoding="utf-8").split("\n"):
            if line.startswith("# newdoc"):
                doc += 1
            cols = line.split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                cols[1] = f"{cols[3].lower()}{(int(cols[0]) * 7 + len(current)) % 5}"
                entity = [f for f in cols[9].split("|") if f.startswith("Entity=")]  # no bridging
                cols[9] = _EID.sub(lambda m, d=doc: f"{d}0{m.group(0)}", entity[0]) if entity else "_"
                current.append("\t".join(cols))
            elif not line.strip() and current:
                out.append(current)
                current = []
    return out


def make_key(path: Path, words: int) -> int:
    """Write the key; returns its number of documents."""
    pool = sentences()
    lines = []
    total = docs = 0
    k = 0
    while total < words:
        docs += 1
        lines += [
            f"# newdoc id = doc{docs}",
            "# global.Entity = GRP-etype-infstat-salience-centering-minspan-link-identity",
        ]
        size = 0
        target = SIZES[(docs - 1) % len(SIZES)]
        copy = k // len(pool)
        while size < target and total < words:
            sentence = pool[k % len(pool)]
            lines.append(f"# sent_id = s{k}")
            renamed = [_copy(w, copy) for w in sentence] if copy else sentence
            lines += renamed + [""]
            size += len(sentence)
            total += len(sentence)
            k += 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return docs


def _copy(line: str, copy: int) -> str:
    cols = line.split("\t")
    cols[9] = _EID.sub(lambda m: f"{copy}9{m.group(0)}", cols[9])
    return "\t".join(cols)


def offsets_file(key: Path, markup: Path, out: Path) -> None:
    """The clusters corefeval puts on the key, as ``clusters_token_offsets`` (model output jsonlines)."""
    words = read(str(key), keep_tokens=True)
    corpus = read(str(markup), key=words, lenient=True, max_edits=1.0)
    with out.open("w", encoding="utf-8") as f:
        for doc, kdoc in zip(corpus.documents, words.documents):
            clusters = [[list(span) for span in c] for c in doc.clusters()]
            record = {"doc_key": doc.name, "tokens": list(kdoc.tokens or ()), "clusters_token_offsets": clusters}
            f.write(json.dumps(record) + "\n")


def timed(commands: list[list[str]], runs: int) -> measure.Measurement:
    best: measure.Measurement | None = None
    for _ in range(runs):
        m = measure.Measurement()
        for c in commands:
            m.add(measure.run(c))
        if m.failure:
            raise SystemExit(f"{' '.join(commands[0][:4])}...: {m.failure}")
        best = m if best is None or m.wall < best.wall else best
    assert best is not None
    return best


def growth(rate: float) -> list[str]:
    rng = random.Random(7)
    vocabulary = [f"w{i}" for i in range(300)]
    rows = []
    for n, r in [(1000, rate), (2000, rate), (4000, rate), (8000, rate), (5000, 0.01), (5000, 0.02), (5000, 0.08)]:
        key = [rng.choice(vocabulary) for _ in range(n)]
        written = llm_edits(" ".join(key), n, r).split()
        start = time.perf_counter()
        a = align_words(written, key, most_equal=True)
        rows.append(f"| {n} | {r:.0%} | {a.edits} | {time.perf_counter() - start:.3f} |")
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_arguments(argv)
    work = args.workdir
    work.mkdir(parents=True, exist_ok=True)
    key, gold, markup, offsets = work / "key.conllu", work / "gold.txt", work / "llm.txt", work / "offsets.jsonlines"
    docs = make_key(key, args.words)
    paths = pipeline_paths()
    if paths is None:
        raise SystemExit("text2text-coref is needed to write the key's markup (see tests/readers/llm_pipeline.py)")
    python, source, scorer = paths
    text2text(python, source, "conllu2text", str(key), "-s", "-o", str(gold))
    markup.write_text(llm_edits(gold.read_text(encoding="utf-8"), 1, args.rate), encoding="utf-8")
    offsets_file(key, markup, offsets)
    ours_cmd = [sys.executable, "-m", "corefeval", "score", str(key), str(markup), "-m", "conll", "--lenient"]
    rows = {
        "corefeval, markup aligned": timed([ours_cmd], args.runs),
        "corefeval, token offsets": timed(
            [[sys.executable, "-m", "corefeval", "score", str(key), str(offsets), "-m", "conll"]], args.runs
        ),
    }
    if not args.no_peer:
        t2t = [
            python,
            "-c",
            f"import sys; sys.path.insert(0, {source!r}); from text2text_coref.__main__ import main; main()",
        ]
        response = str(work / "response.conllu")
        rows["official clean + text2conllu + scorer"] = timed(
            [
                [*t2t, "clean", str(markup), str(key), "-o", str(work / "cleaned.txt")],
                [*t2t, "text2conllu", str(work / "cleaned.txt"), str(key), "-o", response],
                [
                    python,
                    str(Path(scorer) / "corefud-scorer.py"),
                    str(key),
                    response,
                    "-m",
                    "muc",
                    "bcub",
                    "ceafe",
                ],
            ],
            args.runs,
        )
    ours = rows["corefeval, markup aligned"].wall
    print(f"{args.words} words, {docs} documents of up to {max(SIZES)} words, {args.rate:.0%} edited\n")
    print("| run | wall s | CPU s | peak MiB | wall / ours |")
    print("|---|---|---|---|---|")
    for name, m in rows.items():
        print(f"| {name} | {m.wall:.2f} | {m.cpu:.2f} | {m.peak_kib / 1024:.0f} | {m.wall / ours:.2f} |")
    summary = [
        line for line in rows["corefeval, markup aligned"].stdout.splitlines() if "CoNLL" in line or "signature" in line
    ]
    print("\n" + "\n".join(summary))
    print("\nAlignment alone (in process, most equal words):\n")
    print("| key words | edit rate | edits | seconds |")
    print("|---|---|---|---|")
    print("\n".join(growth(args.rate)))


if __name__ == "__main__":
    main()
