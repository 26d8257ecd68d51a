"""Time the CRAC mention modes, one at a time and all twelve at once, against the CorefUD scorer.

Every row is whole processes, as a user runs them, side by side in one run:

* start-up: ``python -c "import numpy"`` and ``corefeval score`` of the bundled example, in turn
  (``--startup-runs`` each), their ratio by medians and by minima, wall and CPU time;
* each mode alone, on the 350-document synthetic corpus of ``run_benchmark.py`` (``--seed 2012
  --docs 350 --mentions 19000``) converted to CorefUD with udapi as ``run_benchmark.py`` converts
  it for the CorefUD scorer (not timed): ``corefeval score KEY RESPONSE --match M --singletons S
  --zeros Z --heads first -m conll`` against ``corefud-scorer.py KEY RESPONSE -a M [-s] -z
  linear|dependent -m muc bcub ceafe`` (the CRAC 2024 primary mode is ``--preset crac2024``);
* the same on GUM Reddit train (the gold file against a response made from it by moving, dropping
  and regrouping mentions, written with its other columns);
* the same corpus as CoNLL-2012 and as CorefUD: ``corefeval score KEY RESPONSE -m conll``, with and
  without singletons (exact match; CoNLL-2012 has no heads);
* all twelve modes at once: ``corefeval leaderboard --modes all`` and the ``crac2024`` preset's
  four variants; ``--metrics muc,mor`` adds a row of the primary mode per metric.

The CoNLL F1 of every mode is compared between corefeval and the CorefUD scorer.

    python benchmarks/bench_crac.py --workdir ../scratch/crac-bench [--runs 3] [--no-peer] [--modes primary]
        [--metrics muc,mor] [--startup-runs 25]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import measure  # noqa: E402
import peers  # noqa: E402
from measure import series  # noqa: E402

SRC = HERE.parent / "src"
EXAMPLE = SRC / "corefeval" / "examples"
GUM = "shared/realdata/gum-reddit-corefud/en_gumreddit-ud-train.conllu"
MODES = [
    (match, singletons, zeros)
    for match in ("exact", "partial", "head")
    for singletons in ("keep", "remove")
    for zeros in ("include", "dependent")
]
PRIMARY = ("head", "remove", "dependent")  # --preset crac2024


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workdir", type=Path, help="folder for the inputs (kept; reused when present)")
    p.add_argument("--generator", type=Path, default=peers.beside_repository("shared/tools/make_synthetic_conll.py"))
    p.add_argument("--gum", type=Path, default=peers.beside_repository(GUM), help="GUM Reddit train (CorefUD)")
    p.add_argument("--peers-dir", type=Path, default=peers.default_peers_dir())
    p.add_argument("--corefud", type=Path, help="corefud-scorer.py (default: PEERS_DIR/corefud-scorer/)")
    p.add_argument("--corefud-python", type=Path, help="its Python, with udapi (default: PEERS_DIR/corefud-venv/)")
    p.add_argument("--python", type=Path, default=Path(sys.executable), help="the Python that runs corefeval")
    p.add_argument("--runs", type=int, default=3, help="runs of each corefeval row (default 3; the median is shown)")
    p.add_argument(
        "--startup-runs",
        type=int,
        help="runs of the two start-up rows, taken in turn (default --runs): their ratio by medians and by minima",
    )
    p.add_argument("--modes", choices=("all", "primary"), default="all", help="single modes timed (default all 12)")
    p.add_argument("--no-peer", action="store_true", help="leave out the CorefUD scorer")
    p.add_argument("--metrics", help="comma-separated metrics: a row of the primary mode for each")
    p.add_argument("--json", type=Path, help="write every measurement here")
    return p.parse_args(argv)


def corefud_paths(args: argparse.Namespace) -> tuple[Path, Path]:
    scorer, python = peers.corefud_paths(args.peers_dir)
    return args.corefud or scorer, args.corefud_python or python


def make_inputs(args: argparse.Namespace, folder: Path) -> dict[str, tuple[Path, Path]]:
    """The corpus as CoNLL-2012 and as CorefUD, and GUM Reddit train with its response (made once)."""
    key, response = folder / "key.conllu", folder / "response.conllu"
    if not (key.exists() and response.exists()):
        subprocess.run(
            [sys.executable, str(args.generator), "--seed", "2012", "--docs", "350", "--mentions", "19000"]
            + ["--out-key", str(folder / "key.conll"), "--out-response", str(folder / "response.conll")],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        _, python = corefud_paths(args)
        for role in ("key", "response"):
            renamed = folder / f"{role}.parts.conll"
            peers.unique_part_names(folder / f"{role}.conll", renamed)
            subprocess.run(
                [str(python), str(python.parent / "udapy"), "-q", "read.Conll2012", f"files={renamed}"]
                + ["attributes=docname,_,ord,form,_,_,_,_,_,_,_,coref", "emptyval=-", "write.Conllu"]
                + [f"files={folder / f'{role}.conllu'}"],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
    gum = folder / "gum.response.conllu"
    if not gum.exists():
        gum.write_text(gum_response(args.gum), encoding="utf-8")
    return {
        "conllu": (key, response),
        "conll": (folder / "key.parts.conll", folder / "response.parts.conll"),
        "gum": (args.gum, gum),
    }


def gum_response(key: Path, seed: int = 7) -> str:
    """A system-like response to the CorefUD ``key``: its lines with other ``Entity=`` brackets (a
    seeded copy of its mentions, some moved by a word, dropped or put in another entity, written by
    corefeval's CorefUD writer) and without ``SplitAnte=`` and ``Bridge=``, every other column kept."""
    sys.path.insert(0, str(SRC))
    from corefeval.readers import read
    from corefeval.writers import render

    sys.path.insert(0, str(HERE.parent))
    from tests.readers.noisy import noisy_corpus

    gold = read(str(key), heads="first")
    written = render(noisy_corpus(gold, gold.sentences, seed), "corefud")[0].splitlines()
    brackets = iter([line.split("\t")[9] for line in written if line[:1].isdigit()])
    out = []
    for line in key.read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if line.startswith("# global.Entity"):
            line = next(w for w in written if w.startswith("# global.Entity"))
        elif len(cols) == 10 and cols[0].isdigit():
            kept = [item for item in cols[9].split("|") if not item.startswith(("Entity=", "SplitAnte=", "Bridge="))]
            entity = next(brackets)
            cols[9] = "|".join(([entity] if entity != "_" else []) + [k for k in kept if k != "_"]) or "_"
            line = "\t".join(cols)
        out.append(line)
    return "\n".join(out) + "\n"


def mode_options(match: str, singletons: str, zeros: str) -> list[str]:
    """corefeval's options for one mode, as the CorefUD scorer reads head-less files (first word)."""
    if (match, singletons, zeros) == PRIMARY:
        return ["--preset", "crac2024"]
    return ["--match", match, "--singletons", singletons, "--zeros", zeros, "--heads", "first"]


def corefud_mode(
    args: argparse.Namespace, key: Path, response: Path, mode: tuple[str, str, str]
) -> measure.Measurement:
    scorer, python = corefud_paths(args)
    match, singletons, zeros = mode
    argv = [str(python), str(scorer), str(key), str(response), "-a", match]
    argv += ["-s"] if singletons == "keep" else []
    argv += ["-z", "linear" if zeros == "include" else "dependent", "-m", "muc", "bcub", "ceafe"]
    m = measure.run(argv, env=measure.child_environment())
    if m.failure:
        raise SystemExit(f"corefud-scorer: {m.failure}")
    return m


def ratio_row(name: str, ours: measure.Series, theirs: measure.Measurement | None) -> str:
    """A table row: corefeval's median wall and CPU time, the CorefUD scorer's, and their ratios."""
    low, high = ours.spread("wall")
    row = (
        f"| {name} | {ours.median('wall'):.2f} ({low:.2f}-{high:.2f}) | {ours.median('cpu'):.2f} | {ours.peak_mib:.0f}"
    )
    if theirs is None:
        return row + " | | | |"
    wall, cpu = theirs.wall / ours.median("wall"), theirs.cpu / ours.median("cpu")
    return row + f" | {theirs.wall:.2f} | {theirs.cpu:.2f} | {wall:.1f}x wall, {cpu:.1f}x CPU |"


def single_modes(args: argparse.Namespace, name: str, key: Path, response: Path, env: dict[str, str]) -> list[str]:
    """One row per mode: corefeval alone on it against the CorefUD scorer on it, and the F1 of each."""
    corefeval = [str(args.python), "-m", "corefeval", "score", str(key), str(response), "-m", "conll", "-q"]
    lines = []
    for mode in MODES if args.modes == "all" else [PRIMARY]:
        ours = series([*corefeval, *mode_options(*mode), "--format", "json"], args.runs, env)
        theirs = None if args.no_peer else corefud_mode(args, key, response, mode)
        f1 = json.loads(ours.runs[-1].stdout)["corpus"]["conll"]["f1"] * 100
        label = "/".join(mode) + (" (crac2024)" if mode == PRIMARY else "")
        note = f"F1 {f1:.2f}" + ("" if theirs is None else f" / {peers.parse_corefud(theirs.stdout)['conll']:.2f}")
        lines.append(ratio_row(f"{name}, {label}, {note}", ours, theirs))
    return lines


def startup(args: argparse.Namespace, env: dict[str, str]) -> tuple[measure.Series, measure.Series]:
    """``python -c "import numpy"`` and ``corefeval score`` of the bundled example, run in turn (so
    that both meet the same load), ``--startup-runs`` times each."""
    numpy, example = measure.Series(), measure.Series()
    score = [str(args.python), "-m", "corefeval", "score", str(EXAMPLE / "key.conll"), str(EXAMPLE / "response.conll")]
    for _ in range(args.startup_runs or args.runs):
        numpy.runs.append(measure.run([str(args.python), "-c", "import numpy"], env=measure.child_environment()))
        example.runs.append(measure.run(score, env=env))
    if numpy.failure or example.failure:
        raise SystemExit(f"start-up: {numpy.failure or example.failure}")
    return numpy, example


def startup_ratios(numpy: measure.Series, example: measure.Series) -> list[str]:
    """The bundled example's score over numpy's import: wall and CPU time, by medians and by minima."""
    out = []
    for what in ("wall", "cpu"):
        medians = example.median(what) / numpy.median(what)
        minima = example.spread(what)[0] / numpy.spread(what)[0]
        out.append(
            f"score of the bundled example / import numpy ({what}): {medians:.2f}x by medians, {minima:.2f}x by minima"
        )
    return out


def warm_up(args: argparse.Namespace, inputs: dict[str, tuple[Path, Path]], env: dict[str, str]) -> None:
    """One untimed run of each tool, which writes the bytecode of modules run for the first time."""
    measure.run([str(args.python), "-m", "corefeval", "score", *map(str, inputs["gum"]), "-q"], env=env)
    if not args.no_peer:
        corefud_mode(args, *inputs["gum"], PRIMARY)


HEADER = [
    "| run | corefeval wall s (min-max) | CPU s | peak MiB | CorefUD scorer wall s | CPU s | ratio |",
    "|---|---:|---:|---:|---:|---:|---:|",
]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    folder = args.workdir or Path(tempfile.mkdtemp(prefix="crac-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    inputs = make_inputs(args, folder)
    env = measure.child_environment(PYTHONPATH=str(SRC))
    lines = [f"load average before: {os.getloadavg()[0]:.2f}", "", *HEADER]
    warm_up(args, inputs, env)
    numpy, example = startup(args, env)
    lines += [ratio_row("python -c 'import numpy'", numpy, None), ratio_row("score, bundled example", example, None)]
    lines += single_modes(args, "350 docs", *inputs["conllu"], env)
    lines += single_modes(args, "GUM Reddit train", *inputs["gum"], env)
    formats = {}
    for fmt in ("conll", "conllu"):
        for singletons in ("keep", "remove"):
            argv = [str(args.python), "-m", "corefeval", "score", *map(str, inputs[fmt]), "-m", "conll", "-q"]
            formats[fmt, singletons] = series([*argv, "--singletons", singletons], args.runs, env)
            lines.append(
                ratio_row(f"350 docs as .{fmt}, exact, singletons {singletons}", formats[fmt, singletons], None)
            )
    for metric in filter(None, (args.metrics or "").split(",")):
        argv = [str(args.python), "-m", "corefeval", "score", *map(str, inputs["conllu"]), "--preset", "crac2024"]
        lines.append(
            ratio_row(f"350 docs, crac2024, -m {metric}", series([*argv, "-m", metric, "-q"], args.runs, env), None)
        )
    board = [str(args.python), "-m", "corefeval", "leaderboard", "--pair", "synth", *map(str, inputs["conllu"])]
    twelve = series([*board, "-m", "conll", "--format", "json", "--modes", "all"], args.runs, env)
    preset = series([*board, "-m", "conll", "--format", "json", "--preset", "crac2024"], args.runs, env)
    lines += [ratio_row("350 docs, 12 modes (leaderboard --modes all)", twelve, None)]
    lines += [ratio_row("350 docs, crac2024 preset (4 variants)", preset, None), ""]
    lines += startup_ratios(numpy, example)
    for singletons in ("keep", "remove"):
        conllu, conll = formats["conllu", singletons].median("wall"), formats["conll", singletons].median("wall")
        lines.append(f"CorefUD / CoNLL-2012, singletons {singletons} (wall): {conllu / conll:.2f}x")
    lines.append(f"load average after: {os.getloadavg()[0]:.2f}")
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps({"lines": lines}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
