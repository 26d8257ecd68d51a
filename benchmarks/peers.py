"""The other scorers the benchmark compares against: where to find them, how to run them, how to read them.

Each peer is run through its own documented command line, from a folder outside the repository. Its
printed scores are read back (F1 in percent, per metric, with corefeval's metric names) so that the
benchmark can show the numbers side by side as well as the times.
"""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

Command = tuple[list[str], Path | None]  # argv, working directory
REPOSITORY = Path(__file__).resolve().parent.parent


def beside_repository(relative: str) -> Path:
    """``relative`` next to the repository or next to the first folder above it that has it (a
    worktree may sit deeper than the checkout whose ``shared`` and ``scratch`` folders it uses)."""
    for folder in REPOSITORY.parents:
        if (folder / relative).exists():
            return folder / relative
    return REPOSITORY.parent / relative


def default_peers_dir() -> Path:
    """Where the peers are looked for by default (layout in benchmarks/README.md)."""
    return beside_repository("scratch/peers")


def corefud_paths(peers_dir: Path) -> tuple[Path, Path]:
    """corefud-scorer.py and the Python that runs it (with udapi), in ``peers_dir``."""
    return peers_dir / "corefud-scorer" / "corefud-scorer.py", peers_dir / "corefud-venv" / "bin" / "python"


@dataclass
class Case:
    """One benchmark input: a key and a response file in CoNLL-2012 format."""

    name: str
    key: Path
    response: Path
    workdir: Path  # scratch space for conversions


@dataclass
class Peer:
    """A peer scorer: ``steps`` gives the timed commands of one run; ``prepare`` untimed input conversion."""

    name: str
    computes: str
    steps: Callable[[Case], list[Command]]
    parse: Callable[[str], dict[str, float]]
    unavailable: str | None = None
    slow_on: frozenset[str] = field(default_factory=frozenset)  # case names skipped by --quick
    prepare: Callable[[Case], str] | None = None  # returns a note (e.g. conversion time)


def conll_average(f1: dict[str, float]) -> dict[str, float]:
    """Add the CoNLL score (mean of MUC, B-cubed and CEAFe F1) when the peer did not print it."""
    if "conll" not in f1 and all(name in f1 for name in ("muc", "bcub", "ceafe")):
        f1["conll"] = statistics.fmean(f1[name] for name in ("muc", "bcub", "ceafe"))
    return f1


# --- the Perl reference scorer -------------------------------------------------------------------


def parse_perl(stdout: str) -> dict[str, float]:
    """``scorer.pl all KEY RESPONSE none``: one TOTALS block per metric.

    F1 is recomputed from the printed recall and precision fractions (the percentages are truncated
    to two decimals); BLANC is the mean of the coreference-link and non-coreference-link F1.
    """
    f1: dict[str, float] = {}
    blanc_parts: list[float] = []
    metric = None
    for line in stdout.splitlines():
        header = re.match(r"METRIC (\w+):", line)
        if header:
            metric = header.group(1)
            continue
        fractions = re.search(r"Recall: \(([\d.]+) / ([\d.]+)\).*Precision: \(([\d.]+) / ([\d.]+)\)", line)
        if metric is None or fractions is None:
            continue
        value = _f1_from_fractions(*(float(number) for number in fractions.groups()))
        if line.startswith("Identification of Mentions"):
            f1.setdefault("mentions", value)
        elif line.startswith("Coreference:") and metric != "blanc":
            f1[metric] = value
        elif line.startswith(("Coreference links:", "Non-coreference links:")):
            blanc_parts.append(value)
    if len(blanc_parts) == 2:
        f1["blanc"] = statistics.fmean(blanc_parts)
    return conll_average(f1)


def _f1_from_fractions(recall_num: float, recall_den: float, precision_num: float, precision_den: float) -> float:
    recall = recall_num / recall_den if recall_den else 0.0
    precision = precision_num / precision_den if precision_den else 0.0
    return 100 * 2 * recall * precision / (recall + precision) if recall + precision else 0.0


def perl_peer(scorer: Path | None) -> Peer:
    def steps(case: Case) -> list[Command]:
        assert scorer is not None
        return [(["perl", str(scorer), "all", str(case.key), str(case.response), "none"], scorer.parent)]

    unavailable = None
    if scorer is None or not scorer.is_file():
        unavailable = f"scorer.pl not found ({scorer})" if scorer else "scorer.pl not found"
    elif shutil.which("perl") is None:
        unavailable = "perl not on PATH"
    return Peer(
        "Perl reference (all)",
        "muc bcub ceafm ceafe blanc",
        steps,
        parse_perl,
        unavailable,
        slow_on=frozenset({"350 docs", "20k mentions"}),
    )


# --- coval ---------------------------------------------------------------------------------------


def parse_coval(stdout: str) -> dict[str, float]:
    """``python scorer.py KEY RESPONSE``: ``name Recall: r Precision: p F1: f`` lines, then CoNLL."""
    f1: dict[str, float] = {}
    for line in stdout.splitlines():
        row = re.match(r"(\w+)\s+Recall: [\d.]+\s+Precision: [\d.]+\s+F1: ([\d.]+)", line)
        if row:
            f1[row.group(1)] = float(row.group(2))
        conll = re.match(r"CoNLL score: ([\d.]+)", line)
        if conll:
            f1["conll"] = float(conll.group(1))
    return f1


def coval_peer(scorer: Path | None, python: Path | None) -> Peer:
    def steps(case: Case) -> list[Command]:
        assert scorer is not None and python is not None
        return [([str(python), str(scorer), str(case.key), str(case.response)], scorer.parent)]

    return Peer(
        "coval",
        "mentions muc bcub ceafe lea",
        steps,
        parse_coval,
        _missing(scorer, "coval scorer.py", python),
        slow_on=frozenset({"20k mentions"}),
    )


# --- corefud-scorer ------------------------------------------------------------------------------


def parse_corefud(stdout: str) -> dict[str, float]:
    """``corefud-scorer.py``: a metric name on its own line, then ``Recall: r Precision: p F1: f``."""
    f1: dict[str, float] = {}
    metric = None
    for line in stdout.splitlines():
        row = re.match(r"Recall: [\d.]+\s+Precision: [\d.]+\s+F1: ([\d.]+)", line)
        if row and metric:
            f1[metric] = float(row.group(1))
        conll = re.match(r"CoNLL score: ([\d.]+)", line)
        if conll:
            f1["conll"] = float(conll.group(1))
        metric = line.strip() if re.fullmatch(r"[a-z]+", line.strip()) else None
    f1.pop("zero", None)  # zero anaphora: nothing to score in CoNLL-2012 input
    return f1


def unique_part_names(source: Path, target: Path) -> None:
    """Copy a CoNLL-2012 file, renaming each document part ``NAME`` to ``NAME_pPART``.

    udapi's CoNLL-2012 reader names a CorefUD document (and its entity ids) after the document name
    only, so the parts of one document would share entity ids and be merged; unique names keep each
    part a document of its own, as the other scorers treat it.
    """
    begin = re.compile(r"#begin document \((.*)\); part (\d+)")
    name = renamed = None
    with source.open(encoding="utf-8") as lines, target.open("w", encoding="utf-8") as out:
        for line in lines:
            match = begin.match(line)
            if match:
                name, part = match.groups()
                renamed = f"{name}_p{part}"
                line = f"#begin document ({renamed}); part {part}\n"
            elif name and renamed and line.startswith(name):
                line = renamed + line[len(name) :]
            out.write(line)


def corefud_peer(scorer: Path | None, python: Path | None) -> Peer:
    converted: dict[str, tuple[Path, Path]] = {}

    def prepare(case: Case) -> str:
        assert python is not None
        udapy = python.parent / "udapy"
        seconds = 0.0
        paths = []
        for role, source in (("key", case.key), ("response", case.response)):
            renamed = case.workdir / f"{role}.parts.conll"
            conllu = case.workdir / f"{role}.conllu"
            unique_part_names(source, renamed)
            started = time.perf_counter()
            subprocess.run(
                [
                    str(python),
                    str(udapy),
                    "-q",
                    "read.Conll2012",
                    f"files={renamed}",
                    "attributes=docname,_,ord,form,_,_,_,_,_,_,_,coref",
                    "emptyval=-",
                    "write.Conllu",
                    f"files={conllu}",
                ],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            seconds += time.perf_counter() - started
            paths.append(conllu)
        converted[case.name] = (paths[0], paths[1])
        return f"CoNLL-2012 -> CorefUD conversion with udapi (untimed): {seconds:.1f} s"

    def steps(case: Case) -> list[Command]:
        assert scorer is not None and python is not None
        key, response = converted[case.name]
        return [([str(python), str(scorer), str(key), str(response), "-x", "-s", "-m", "all"], scorer.parent)]

    unavailable = _missing(scorer, "corefud-scorer.py", python)
    if unavailable is None and python is not None and not (python.parent / "udapy").is_file():
        unavailable = "udapi (udapy) not installed next to its Python"
    return Peer(
        "corefud-scorer (exact, -s)",
        "muc bcub ceafe ceafm blanc lea mor",
        steps,
        parse_corefud,
        unavailable,
        slow_on=frozenset({"350 docs", "20k mentions"}),
        prepare=prepare,
    )


# --- scorch --------------------------------------------------------------------------------------

SCORCH_NAMES = {"MUC": "muc", "B³": "bcub", "CEAF_m": "ceafm", "CEAF_e": "ceafe", "BLANC": "blanc"}


def parse_scorch(stdout: str) -> dict[str, float]:
    """``scorch GOLD_DIR SYS_DIR``: ``NAME:<tab>R=r<tab>P=p<tab>F₁=f`` (fractions), then the average."""
    f1: dict[str, float] = {}
    for line in stdout.splitlines():
        row = re.match(r"(\S+):\tR=\S+\tP=\S+\tF₁=(\S+)", line)
        if row and row.group(1) in SCORCH_NAMES:
            f1[SCORCH_NAMES[row.group(1)]] = 100 * float(row.group(2))
        conll = re.match(r"CoNLL-2012 average score: (\S+)", line)
        if conll:
            f1["conll"] = 100 * float(conll.group(1))
    return f1


def scorch_peer(python: Path | None) -> Peer:
    def steps(case: Case) -> list[Command]:
        assert python is not None
        run_dir = Path(tempfile.mkdtemp(prefix="scorch-", dir=case.workdir))
        key_dir, response_dir = run_dir / "key", run_dir / "response"
        key_dir.mkdir()
        response_dir.mkdir()
        return [
            ([str(python), "-m", "scorch.conll", str(case.key), str(key_dir)], None),
            ([str(python), "-m", "scorch.conll", str(case.response), str(response_dir)], None),
            ([str(python), "-m", "scorch.main", str(key_dir), str(response_dir)], None),
        ]

    unavailable = None
    if python is None or not python.is_file():
        unavailable = f"no Python with scorch ({python})" if python else "no Python with scorch"
    elif subprocess.run([str(python), "-c", "import scorch.main, scorch.conll"], capture_output=True).returncode != 0:
        unavailable = f"scorch not importable by {python}"
    return Peer(
        "scorch (conversion + scoring)",
        "muc bcub ceafm ceafe blanc",
        steps,
        parse_scorch,
        unavailable,
        slow_on=frozenset({"20k mentions"}),
    )


# --- helpers -------------------------------------------------------------------------------------


def _missing(scorer: Path | None, what: str, python: Path | None) -> str | None:
    if scorer is None or not scorer.is_file():
        return f"{what} not found ({scorer})" if scorer else f"{what} not found"
    if python is None or not python.is_file():
        return f"no Python for {what} ({python})" if python else f"no Python for {what}"
    return None
