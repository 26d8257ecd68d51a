"""Benchmark corefeval against the read-and-split floor and the other coreference scorers.

Generates the inputs with the shared synthetic-corpus generator, times every tool as a whole process
(wall time, CPU time, peak memory; median and spread over several runs) in the same run, and prints
Markdown tables: times with the ratio of each tool to corefeval, then each tool's F1 scores.
See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import re
import resource
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import measure
import peers
from measure import Measurement, Series
from peers import Case, Command, Peer

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parent

CASES = {
    "350 docs": ["--seed", "2012", "--docs", "350", "--mentions", "19000"],
    "20k mentions": ["--seed", "7", "--docs", "1", "--mentions", "20000", "--max-entity-size", "400"],
}
MILLION = ("1M mentions", ["--seed", "2012", "--docs", "50", "--mentions", "1000000"])
PART_ID_STRIDE = 1_000_000  # entity ids of part p become p * stride + id when parts are merged
METRIC_COLUMNS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll")
GIB = 2**30
GENERATOR = "make_synthetic_conll.py"


@dataclass
class Row:
    """One line of a timing table."""

    tool: str
    series: Series | None = None
    note: str = ""
    scores: dict[str, float] = field(default_factory=dict)


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="fewer runs, skip peers known to take more than a few seconds (under a minute)",
    )
    parser.add_argument(
        "--million", action="store_true", help="also score a one-document, 1,000,000-mention input with corefeval alone"
    )
    parser.add_argument(
        "--ten-million",
        action="store_true",
        help="with --million, also score ten copies of its parts merged into one document (10,000,000 mentions)",
    )
    parser.add_argument(
        "--million-limits",
        type=float,
        nargs=2,
        default=(1800.0, 16.0),
        metavar=("SECONDS", "GIB"),
        help="time-out and address-space cap for the million-mention run (default 1800 16)",
    )
    parser.add_argument("--runs", type=int, help="runs of corefeval and the floor (default 5, --quick 3)")
    parser.add_argument("--peer-runs", type=int, help="runs of each peer (default 3, --quick 1)")
    parser.add_argument(
        "--repeat-below",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="run a peer once only if its first run took longer than this (default 30)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="give up on a peer run after this long (default 600, --quick 60)",
    )
    parser.add_argument(
        "--peer-memory",
        type=float,
        default=6.0,
        metavar="GIB",
        help="cap each peer's address space (default 6 GiB; 0 = no cap)",
    )
    parser.add_argument(
        "--python",
        type=Path,
        default=Path(sys.executable),
        help="the Python that runs `python -m corefeval` (default: this one; the "
        "environment, PYTHONPATH included, is passed on)",
    )
    parser.add_argument(
        "--corefeval-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument(s) for `corefeval score`, e.g. --corefeval-arg='--singletons=remove' (repeatable)",
    )
    parser.add_argument(
        "--generator",
        type=Path,
        default=ROOT.parent / "shared" / "tools" / GENERATOR,
        help=f"the synthetic corpus generator (default ../shared/tools/{GENERATOR})",
    )
    parser.add_argument(
        "--workdir", type=Path, help="keep the generated inputs and conversions here (default: a temporary folder)"
    )
    parser.add_argument(
        "--peers-dir",
        type=Path,
        default=ROOT.parent / "scratch" / "peers",
        help="where to look for peers not given explicitly (default ../scratch/peers; layout in benchmarks/README.md)",
    )
    parser.add_argument("--no-peers", action="store_true", help="time corefeval and the floor only")
    parser.add_argument("--perl", type=Path, help="the reference scorer's scorer.pl")
    parser.add_argument("--coval", type=Path, help="coval's scorer.py (or its checkout folder)")
    parser.add_argument("--coval-python", type=Path, help="the Python with coval's requirements")
    parser.add_argument("--corefud", type=Path, help="corefud-scorer.py (or its checkout folder)")
    parser.add_argument("--corefud-python", type=Path, help="the Python with corefud-scorer's requirements (udapi)")
    parser.add_argument("--scorch", type=Path, metavar="PYTHON", help="a Python in which scorch is installed")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write all measurements as JSON here")
    args = parser.parse_args(argv)
    args.runs = args.runs or (3 if args.quick else 5)
    args.peer_runs = args.peer_runs or (1 if args.quick else 3)
    args.timeout = args.timeout or (60.0 if args.quick else 600.0)
    args.corefeval_timeout = args.corefeval_memory = None
    return args


# --- set-up ----------------------------------------------------------------------------------------


def machine_description(python: Path) -> list[str]:
    """nproc, CPU model, memory, Python and load, for the record."""
    cpu = "unknown"
    memory = "unknown"
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
        kib = next(
            int(line.split()[1])
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        )
        memory = f"{kib / 2**20:.1f} GiB"
    except (OSError, StopIteration):
        pass
    version = subprocess.run(
        [str(python), "-c", "import sys; print(sys.version.split()[0])"], capture_output=True, text=True
    ).stdout.strip()
    return [
        *corefeval_source(python),
        f"- CPUs (nproc): {os.cpu_count()}; CPU model: {cpu}",
        f"- memory: {memory}; OS: {platform.system()} {platform.release()}",
        f"- Python (corefeval): {version} ({python}); load average at start: "
        + " ".join(f"{load:.2f}" for load in os.getloadavg()),
    ]


def corefeval_source(python: Path) -> list[str]:
    """Which corefeval the runs use: its folder and, when it is a git checkout, the commit."""
    found = subprocess.run(
        [str(python), "-c", "import corefeval; print(corefeval.__file__)"], capture_output=True, text=True
    )
    if found.returncode != 0:
        return ["- corefeval: not importable by this Python"]
    folder = Path(found.stdout.strip()).parent
    commit = subprocess.run(
        ["git", "-C", str(folder), "describe", "--always", "--dirty"], capture_output=True, text=True
    ).stdout.strip()
    return [f"- corefeval: {folder}" + (f" (git {commit})" if commit else "")]


def generate(generator: Path, name: str, options: list[str], folder: Path) -> Case:
    """Write one key/response pair with the shared generator."""
    stem = name.replace(" ", "_")
    key, response = folder / f"{stem}.key.conll", folder / f"{stem}.response.conll"
    subprocess.run(
        [
            sys.executable,
            str(generator),
            *options,
            "--out-key",
            str(key),
            "--out-response",
            str(response),
            "--summary",
            str(folder / f"{stem}.summary.json"),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    workdir = folder / f"{stem}.work"
    workdir.mkdir(exist_ok=True)
    return Case(name, key, response, workdir)


def merge_parts(source: Path, target: Path, name: str, copies: int = 1) -> None:
    """Concatenate all document parts of a CoNLL-2012 file, ``copies`` times over, into one document
    called ``name``.

    The generator's cost grows with the square of a part's size, so the million-mention unit is made
    from parts of a few ten thousand mentions each, scored as one unit (as a cross-document corpus
    is); entity ids are made distinct per part and per copy. The ten-million-mention unit is ten
    copies of the million-mention unit's parts.
    """
    part = -1
    with target.open("w", encoding="utf-8") as out:
        out.write(f"#begin document ({name}); part 000\n")
        for _ in range(copies):
            with source.open(encoding="utf-8") as lines:
                for line in lines:
                    if line.startswith("#begin document"):
                        part += 1
                        continue
                    if line.startswith("#end document"):
                        continue
                    fields = line.rstrip("\n").split("\t")
                    if len(fields) < 2:
                        out.write(line)
                        continue
                    fields[0], fields[1] = name, "0"
                    fields[-1] = renumber(fields[-1], part * PART_ID_STRIDE)
                    out.write("\t".join(fields) + "\n")
        out.write("#end document\n")


def renumber(coref: str, offset: int) -> str:
    """Shift every entity id in a CoNLL-2012 coreference cell by ``offset``."""
    return re.sub(r"\d+", lambda number: str(offset + int(number.group())), coref)


def find_peers(args: argparse.Namespace) -> list[Peer]:
    """The four peers, each either runnable or with the reason it is not."""
    home = args.peers_dir

    def script(given: Path | None, default: Path) -> Path:
        path = given or default
        return path / default.name if path.is_dir() else path

    def python(given: Path | None, venv: str) -> Path:
        return given or home / venv / "bin" / "python"

    return [
        peers.perl_peer(script(args.perl, home / "perl" / "scorer.pl")),
        peers.coval_peer(script(args.coval, home / "coval" / "scorer.py"), python(args.coval_python, "venv-coval")),
        peers.corefud_peer(
            script(args.corefud, home / "corefud" / "corefud-scorer.py"), python(args.corefud_python, "venv-corefud")
        ),
        peers.scorch_peer(python(args.scorch, "venv-scorch")),
    ]


# --- measuring -------------------------------------------------------------------------------------


def repeat(
    commands: Callable[[], list[Command]],
    runs: int,
    *,
    env: dict[str, str],
    timeout: float | None = None,
    memory_limit: int | None = None,
    repeat_below: float | None = None,
) -> Series:
    """Run ``runs`` times the steps ``commands()`` gives (fresh each run); stop early on failure or when
    one run took longer than ``repeat_below`` seconds."""
    series = Series()
    for _ in range(runs):
        steps = commands()
        total = Measurement()
        for argv, cwd in steps:
            total.add(measure.run(argv, cwd=cwd, env=env, timeout=timeout, memory_limit=memory_limit))
            if total.failure:
                break
        series.runs.append(total)
        if total.failure or (repeat_below is not None and total.wall > repeat_below):
            break
    return series


def corefeval_scores(stdout: str) -> dict[str, float]:
    """F1 in percent per metric from `corefeval score --format json`."""
    corpus = json.loads(stdout)["corpus"]
    return {name: 100 * value["f1"] for name, value in corpus.items() if "f1" in value}


def benchmark_case(
    case: Case, args: argparse.Namespace, peer_list: list[Peer], env: dict[str, str], peer_env: dict[str, str]
) -> list[Row]:
    python = str(args.python)
    extra = [part for arg in args.corefeval_arg for part in shlex.split(arg)]
    floor_command = [python, str(BENCHMARKS / "read_floor.py"), str(case.key), str(case.response)]
    floor = repeat(functools.partial(single, floor_command), args.runs, env=env)
    in_process = min(float(run.stdout) for run in floor.runs) if not floor.failure else float("nan")
    rows = [Row("floor: read + split both files", floor, f"in-process part alone: {in_process:.3f} s (best)")]
    command = [
        python,
        "-m",
        "corefeval",
        "score",
        str(case.key),
        str(case.response),
        "-m",
        "all",
        "--format",
        "json",
        *extra,
    ]
    own = repeat(
        functools.partial(single, command),
        args.runs,
        env=env,
        timeout=args.corefeval_timeout,
        memory_limit=args.corefeval_memory,
    )
    rows.append(
        Row(
            "corefeval (8 metrics)",
            own,
            " ".join(["-m all", *extra]),
            {} if own.failure else corefeval_scores(own.runs[-1].stdout),
        )
    )
    memory_limit = int(args.peer_memory * GIB) or None
    for peer in peer_list:
        row = Row(f"{peer.name}", note=peer.computes)
        rows.append(row)
        if peer.unavailable:
            row.note = f"not available: {peer.unavailable}"
            continue
        if args.quick and case.name in peer.slow_on:
            row.note = "skipped (--quick: takes more than a few seconds here)"
            continue
        if peer.prepare:
            row.note += "; " + peer.prepare(case)
        row.series = repeat(
            functools.partial(peer.steps, case),
            args.peer_runs,
            env=peer_env,
            timeout=args.timeout,
            memory_limit=memory_limit,
            repeat_below=args.repeat_below,
        )
        if not row.series.failure:
            row.scores = peer.parse(row.series.runs[-1].stdout)
        print(
            f"  {case.name}: {peer.name}: " + (row.series.failure or f"{row.series.median('wall'):.2f} s"),
            file=sys.stderr,
            flush=True,
        )
    return rows


#: The smallest whole run through the API: import, then score the example bundled with the package.
SCORE_EXAMPLE = (
    "import os, corefeval; d = os.path.join(os.path.dirname(corefeval.__file__), 'examples'); "
    "corefeval.score(os.path.join(d, 'key.conll'), os.path.join(d, 'response.conll'))"
)
IMPORT_NUMPY = "python -c 'import numpy'"
SCORE_EXAMPLE_LABEL = "import corefeval; corefeval.score(bundled example)"


def startup_rows(args: argparse.Namespace, env: dict[str, str]) -> list[Row]:
    """Fixed costs: a bare interpreter, `import numpy`, `corefeval --help`, and scoring the bundled
    example through the API."""
    python = str(args.python)
    probes = [
        ("python -c pass", [python, "-c", "pass"]),
        (IMPORT_NUMPY, [python, "-c", "import numpy"]),
        ("corefeval --help (python -m corefeval --help)", [python, "-m", "corefeval", "--help"]),
        (SCORE_EXAMPLE_LABEL, [python, "-c", SCORE_EXAMPLE]),
    ]
    return [Row(label, repeat(functools.partial(single, argv), max(args.runs, 5), env=env)) for label, argv in probes]


def single(argv: list[str]) -> list[Command]:
    """A run of one step, in the current folder."""
    return [(argv, None)]


# --- reporting -------------------------------------------------------------------------------------


def seconds(series: Series, attribute: str) -> str:
    low, high = series.spread(attribute)
    median = series.median(attribute)
    if len(series.runs) == 1:
        return f"{median:.2f}"
    return f"{median:.2f} ({low:.2f}–{high:.2f})"


def ratio(value: float, reference: float) -> str:
    return f"{value / reference:.1f}x" if reference > 0 else "–"


def timing_table(rows: list[Row], reference: Series | None) -> list[str]:
    lines = [
        "| tool | runs | wall s, median (min–max) | CPU s, median | peak MiB | wall / corefeval "
        "| CPU / corefeval | memory / corefeval | notes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    usable = reference is not None and not reference.failure
    for row in rows:
        series = row.series
        if series is None:
            lines.append(f"| {row.tool} | – | – | – | – | – | – | – | {row.note} |")
            continue
        failure = series.failure
        if failure and len(series.runs) == 1:
            run = series.runs[0]
            lines.append(
                f"| {row.tool} | 1 | > {run.wall:.1f} ({failure}) | {run.cpu:.1f} | "
                f"{run.peak_kib / 1024:.0f} | – | – | – | {row.note} |"
            )
            continue
        wall, cpu, peak = series.median("wall"), series.median("cpu"), series.peak_mib
        ratios = ["–"] * 3
        if usable and reference is not None:
            ratios = [
                ratio(wall, reference.median("wall")),
                ratio(cpu, reference.median("cpu")),
                ratio(peak, reference.peak_mib),
            ]
        note = row.note + (f"; {failure}" if failure else "")
        lines.append(
            f"| {row.tool} | {len(series.runs)} | {seconds(series, 'wall')} | {cpu:.2f} "
            f"| {peak:.0f} | " + " | ".join(ratios) + f" | {note} |"
        )
    return lines


def score_table(rows: list[Row], reference: dict[str, float]) -> list[str]:
    """F1 per metric, and the largest difference from corefeval over the metrics both compute."""
    lines = [
        "| tool | " + " | ".join(METRIC_COLUMNS) + " | max abs. difference from corefeval |",
        "|---|" + "---|" * (len(METRIC_COLUMNS) + 1),
    ]
    for row in rows:
        if row.scores:
            cells = [f"{row.scores[name]:.2f}" if name in row.scores else "–" for name in METRIC_COLUMNS]
            shared = [name for name in METRIC_COLUMNS if name in row.scores and name in reference]
            gap = max((abs(row.scores[name] - reference[name]) for name in shared), default=float("nan"))
            lines.append(f"| {row.tool} | " + " | ".join(cells) + f" | {gap:.2g} |")
    return lines


def as_json(rows: list[Row]) -> list[dict]:
    return [
        {
            "tool": row.tool,
            "note": row.note,
            "scores": row.scores,
            "runs": []
            if row.series is None
            else [
                {"wall": run.wall, "cpu": run.cpu, "peak_kib": run.peak_kib, "failure": run.failure}
                for run in row.series.runs
            ],
        }
        for row in rows
    ]


def save(path: Path | None, report: dict[str, object]) -> None:
    """Write the measurements so far (after each input, so an interrupted run keeps them)."""
    if path:
        path.write_text(json.dumps(report, indent=1), encoding="utf-8")


# --- main ------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    if not args.generator.is_file():
        print(f"{args.generator}: generator not found (use --generator)", file=sys.stderr)
        return 2
    # Compiled bytecode is cached as on any installation (an environment that forbids writing it
    # would make every run compile every module again).
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    peer_env = {name: value for name, value in env.items() if name != "PYTHONPATH"}
    report: dict[str, object] = {}
    print("## Machine\n")
    print("\n".join(machine_description(args.python)))
    with tempfile.TemporaryDirectory(prefix="corefeval-bench-") as temporary:
        folder = args.workdir or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        peer_list = [] if args.no_peers else find_peers(args)
        print("\n## Start-up\n")
        rows = startup_rows(args, env)
        print("\n".join(timing_table(rows, None)))
        by_label = {row.tool: row.series for row in rows}
        numpy_series, example = by_label[IMPORT_NUMPY], by_label[SCORE_EXAMPLE_LABEL]
        if numpy_series and example and not (numpy_series.failure or example.failure):
            print(
                f"\nimport + score of the bundled example / `import numpy` (wall, medians): "
                f"{ratio(example.median('wall'), numpy_series.median('wall'))}; "
                f"CPU: {ratio(example.median('cpu'), numpy_series.median('cpu'))}"
            )
        report["start-up"] = as_json(rows)
        for name, options in CASES.items():
            print(f"generating {name} ...", file=sys.stderr, flush=True)
            case = generate(args.generator, name, options, folder)
            rows = benchmark_case(case, args, peer_list, env, peer_env)
            corefeval_row, floor_row = rows[1], rows[0]
            print(f"\n## {name} (generator options: {' '.join(options)})\n")
            print("\n".join(timing_table(rows, corefeval_row.series)))
            if corefeval_row.series and floor_row.series and not corefeval_row.series.failure:
                print(
                    f"\ncorefeval / floor (wall, medians): "
                    f"{ratio(corefeval_row.series.median('wall'), floor_row.series.median('wall'))}"
                )
            print(f"\nF1 (%) on {name}:\n")
            print("\n".join(score_table(rows, rows[1].scores)))
            report[name] = as_json(rows)
            save(args.json, report)
        if args.million:
            name, options = MILLION
            print(f"generating {name} ...", file=sys.stderr, flush=True)
            parts = generate(args.generator, f"{name} in parts", options, folder)
            case = Case(name, folder / "1M_mentions.key.conll", folder / "1M_mentions.response.conll", parts.workdir)
            merge_parts(parts.key, case.key, "million")
            merge_parts(parts.response, case.response, "million")
            limit_seconds, limit_gib = args.million_limits
            once = argparse.Namespace(
                **{
                    **vars(args),
                    "runs": 1,
                    "corefeval_timeout": limit_seconds,
                    "corefeval_memory": int(limit_gib * GIB),
                }
            )
            units = [(name, case)]
            if args.ten_million:
                big = Case("10M mentions", folder / "10M.key.conll", folder / "10M.response.conll", parts.workdir)
                merge_parts(parts.key, big.key, "tenmillion", copies=10)
                merge_parts(parts.response, big.response, "tenmillion", copies=10)
                units.append(("10M mentions", big))
            for unit_name, unit in units:
                rows = benchmark_case(unit, once, [], env, peer_env)
                print(f"\n## {unit_name} (parts of {' '.join(options)} merged into one document), corefeval only\n")
                print("\n".join(timing_table(rows, rows[1].series)))
                print(f"\nF1 (%) on {unit_name}:\n")
                print("\n".join(score_table(rows, rows[1].scores)))
                report[unit_name] = as_json(rows)
                save(args.json, report)
    print("\nload average at end: " + " ".join(f"{load:.2f}" for load in os.getloadavg()))
    own_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"peak memory is the child's ru_maxrss, which on Linux includes this benchmark process's "
        f"resident size at the fork ({own_kib / 1024:.0f} MiB here): smaller peaks are not resolved"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
