"""Time the CRAC mention modes on the CorefUD benchmark input: one mode, all twelve at once, the
CorefUD scorer running the same twelve.

The input is the 350-document synthetic corpus of ``run_benchmark.py`` (``--seed 2012 --docs 350
--mentions 19000``) converted to CorefUD with udapi as ``run_benchmark.py`` converts it for the
CorefUD scorer (not timed). Every row is whole processes, as a user runs them:

* one mode: ``python -m corefeval score KEY RESPONSE --preset crac2024 -m conll`` (head match, no
  singletons, zeros by dependencies: the CRAC 2024 primary variant);
* 12 modes: ``python -m corefeval leaderboard --pair synth KEY RESPONSE --modes all -m conll``
  (every ``--match`` x ``--singletons`` x ``--zeros include|dependent``, files read once);
* the crac2024 preset: ``corefeval leaderboard ... --preset crac2024`` (its four variants);
* the CorefUD scorer: ``corefud-scorer.py KEY RESPONSE -a MATCH [-s] -z linear|dependent -m muc
  bcub ceafe`` once per mode (it scores one mode per run), times summed.

The CoNLL F1 of every mode is compared between corefeval and the CorefUD scorer. ``--metrics
muc,mor`` adds a one-mode row per metric (``score --preset crac2024 -m METRIC``), to compare the
cost of metrics.

    python benchmarks/bench_crac.py --workdir ../scratch/crac-bench [--runs 3] [--no-peer]
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

SRC = HERE.parent / "src"
MODES = [
    (match, singletons, zeros)
    for match in ("exact", "partial", "head")
    for singletons in ("keep", "remove")
    for zeros in ("include", "dependent")
]


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workdir", type=Path, help="folder for the inputs (kept; reused when present)")
    p.add_argument("--generator", type=Path, default=HERE.parent.parent / "shared/tools/make_synthetic_conll.py")
    p.add_argument("--peers-dir", type=Path, default=HERE.parent.parent / "scratch/peers")
    p.add_argument("--corefud", type=Path, help="corefud-scorer.py (default: PEERS_DIR/corefud-scorer/)")
    p.add_argument("--corefud-python", type=Path, help="its Python, with udapi (default: PEERS_DIR/corefud-venv/)")
    p.add_argument("--python", type=Path, default=Path(sys.executable), help="the Python that runs corefeval")
    p.add_argument("--runs", type=int, default=3, help="runs of each corefeval row (default 3; the median is shown)")
    p.add_argument("--no-peer", action="store_true", help="leave out the CorefUD scorer")
    p.add_argument("--metrics", help="comma-separated metrics: a one-mode row for each")
    p.add_argument("--json", type=Path, help="write every measurement here")
    return p.parse_args(argv)


def corefud_paths(args: argparse.Namespace) -> tuple[Path, Path]:
    scorer = args.corefud or args.peers_dir / "corefud-scorer" / "corefud-scorer.py"
    python = args.corefud_python or args.peers_dir / "corefud-venv" / "bin" / "python"
    return scorer, python


def make_inputs(args: argparse.Namespace, folder: Path) -> tuple[Path, Path]:
    """The CorefUD key and response (made once per folder)."""
    key, response = folder / "key.conllu", folder / "response.conllu"
    if key.exists() and response.exists():
        return key, response
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
    return key, response


def series(argv: list[str], runs: int, env: dict[str, str]) -> measure.Series:
    out = measure.Series()
    for _ in range(runs):
        m = measure.run(argv, env=env)
        if m.failure:
            raise SystemExit(f"{' '.join(argv)}: {m.failure}")
        out.runs.append(m)
    return out


def corefud_modes(args: argparse.Namespace, key: Path, response: Path) -> tuple[measure.Measurement, dict[str, float]]:
    """The CorefUD scorer run once per mode: summed costs, and each mode's CoNLL F1."""
    scorer, python = corefud_paths(args)
    total = measure.Measurement()
    f1 = {}
    for match, singletons, zeros in MODES:
        argv = [str(python), str(scorer), str(key), str(response), "-a", match]
        argv += ["-s"] if singletons == "keep" else []
        argv += ["-z", "linear" if zeros == "include" else "dependent", "-m", "muc", "bcub", "ceafe"]
        m = measure.run(argv)
        if m.failure:
            raise SystemExit(f"corefud-scorer: {m.failure}")
        total.add(m)
        f1[f"{match}/{singletons}/{zeros}"] = peers.parse_corefud(m.stdout)["conll"]
    return total, f1


def row(name: str, s: measure.Series | measure.Measurement, one: float) -> str:
    wall = s.median("wall") if isinstance(s, measure.Series) else s.wall
    cpu = s.median("cpu") if isinstance(s, measure.Series) else s.cpu
    peak = s.peak_mib if isinstance(s, measure.Series) else s.peak_kib / 1024
    spread = ""
    if isinstance(s, measure.Series) and len(s.runs) > 1:
        low, high = s.spread("wall")
        spread = f" ({low:.2f}-{high:.2f})"
    return f"| {name} | {wall:.2f}{spread} | {cpu:.2f} | {peak:.0f} | {wall / one:.2f}x |"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    folder = args.workdir or Path(tempfile.mkdtemp(prefix="crac-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    key, response = make_inputs(args, folder)
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    corefeval = [str(args.python), "-m", "corefeval"]
    one = series(
        [*corefeval, "score", str(key), str(response), "--preset", "crac2024", "-m", "conll", "-q"], args.runs, env
    )
    board = [*corefeval, "leaderboard", "--pair", "synth", str(key), str(response), "-m", "conll", "--format", "json"]
    twelve = series([*board, "--modes", "all"], args.runs, env)
    preset = series([*board, "--preset", "crac2024"], args.runs, env)
    base = one.median("wall")
    lines = [
        f"load average before: {os.getloadavg()[0]:.2f}",
        "",
        "| run | wall s (min-max) | CPU s | peak MiB | wall / one mode |",
        "|---|---:|---:|---:|---:|",
        row("corefeval, one mode (crac2024 primary)", one, base),
        row("corefeval, 12 modes (leaderboard --modes all)", twelve, base),
        row("corefeval, crac2024 preset (4 variants)", preset, base),
    ]
    for metric in (args.metrics or "").split(","):
        if metric:
            s = series(
                [*corefeval, "score", str(key), str(response), "--preset", "crac2024", "-m", metric, "-q"],
                args.runs,
                env,
            )
            lines.append(row(f"corefeval, one mode, -m {metric}", s, base))
    ours = {v: scores["f1"] * 100 for v, scores in json.loads(twelve.runs[-1].stdout)["rows"][0]["scores"].items()}
    report: dict[str, object] = {
        "one_mode": [r.wall for r in one.runs],
        "twelve_modes": [r.wall for r in twelve.runs],
        "preset": [r.wall for r in preset.runs],
        "corefeval_f1": ours,
    }
    if not args.no_peer:
        total, theirs = corefud_modes(args, key, response)
        lines.append(row("CorefUD scorer, the same 12 modes (12 runs)", total, base))
        lines.append("")
        lines.append(f"CorefUD scorer / corefeval 12 modes: {total.wall / twelve.median('wall'):.1f}x")
        diff = max(abs(round(ours[m], 2) - theirs[m]) for m in theirs)
        lines.append(f"largest CoNLL F1 difference over the 12 modes (percent, 2 decimals): {diff:.2f}")
        report.update(corefud_seconds=total.wall, corefud_f1=theirs)
    lines.append(f"load average after: {os.getloadavg()[0]:.2f}")
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
