"""The CorefUD scorer side by side with corefeval: its per-document counts, ours, and where they differ.

The CorefUD scorer (ufal/corefud-scorer, with udapi) is not on PyPI; it is found through the
environment variables ``COREFUD_SCORER`` (path to ``corefud-scorer.py``) and ``COREFUD_PYTHON`` (a
Python with udapi), else at the scratch paths of a development machine. It runs as one long-lived
subprocess (:class:`Peer`) that answers jobs one JSON line at a time.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
from pathlib import Path

import numpy as np

import corefeval
from corefeval.core.options import Options
from corefeval.readers.corefud import read_corefud

#: Every mode the CorefUD scorer has: (match, singletons, zeros).
MODES = list(itertools.product(("exact", "partial", "head"), ("keep", "remove"), ("include", "dependent")))
#: Our count fields for each of the peer's metrics, in the order recall num/den, precision num/den.
FIELDS = {
    "mentions": ("mentions", ("recall_num", "recall_den", "precision_num", "precision_den")),
    "muc": ("muc", ("recall_num", "recall_den", "precision_num", "precision_den")),
    "bcub": ("bcub", ("recall_num", "recall_den", "precision_num", "precision_den")),
    "ceafm": ("ceafm", ("recall_num", "recall_den", "precision_num", "precision_den")),
    "ceafe": ("ceafe", ("recall_num", "recall_den", "precision_num", "precision_den")),
    "lea": ("lea", ("recall_num", "recall_den", "precision_num", "precision_den")),
    "blanc_coref": (
        "blanc",
        ("coref_recall_num", "coref_recall_den", "coref_precision_num", "coref_precision_den"),
    ),
    "blanc_noncoref": (
        "blanc",
        ("noncoref_recall_num", "noncoref_recall_den", "noncoref_precision_num", "noncoref_precision_den"),
    ),
    "mor": ("mor", ("recall_num", "recall_den", "precision_num", "precision_den")),
    "zero": ("zero", ("recall_num", "recall_den", "precision_num", "precision_den")),
}
_SCRATCH = Path("/work/scratch/peers")
Counts = dict[str, dict[str, list[float]]]


def peer_paths() -> tuple[str, str] | None:
    """(python, scorer directory) of the CorefUD scorer, or ``None`` when it is not installed."""
    scorer = os.environ.get("COREFUD_SCORER", str(_SCRATCH / "corefud-scorer" / "corefud-scorer.py"))
    python = os.environ.get("COREFUD_PYTHON", str(_SCRATCH / "corefud-venv" / "bin" / "python"))
    if Path(scorer).is_file() and Path(python).is_file():
        return python, str(Path(scorer).parent)
    return None


class Peer:
    """A running CorefUD scorer answering count jobs."""

    def __init__(self, python: str, scorer_dir: str) -> None:
        script = Path(__file__).with_name("corefud_peer_counts.py")
        self.process = subprocess.Popen(
            [python, str(script), scorer_dir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=scorer_dir,
        )

    def counts(self, key: str, response: str, mode: tuple[str, str, str], every: bool = False) -> Counts | str:
        """The peer's counts per document and metric, or its error message. A document where the
        peer's alignment dictionary lost a pair (it keys response and key mentions alike by their
        words) is left out, there the peer is wrong (see docs/formats.md), unless ``every``."""
        match, singletons, zeros = mode
        job = {"key": key, "response": response, "match": match, "singletons": singletons, "zeros": zeros}
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "docs" not in answer:
            return str(answer["error"])
        return {name: c for name, c in answer["docs"].items() if every or name not in answer["aliased"]}

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def options(mode: tuple[str, str, str]) -> Options:
    """The corefeval options that score as the CorefUD scorer in ``mode``."""
    match, singletons, zeros = mode
    return Options(("all", "mor", "zero"), match=match, singletons=singletons, zeros=zeros, blanc="paper")


def our_counts(key: str, response: str, *mode: str) -> Counts:
    """corefeval's counts per document in ``mode`` (match, singletons, zeros), in the peer's layout;
    heads missing from a file are each mention's first node, as the CorefUD scorer takes them."""
    corpora = [read_corefud(path, Path(path).read_text(encoding="utf-8"), heads="first") for path in (key, response)]
    match, singletons, zeros = mode
    result = corefeval.score(*corpora, options=options((match, singletons, zeros)))
    columns: dict[tuple[str, str], int] = {}
    at = 0
    for m in result.metric_objects:
        for f in m.fields:
            columns[(m.name, f)] = at
            at += 1
    out: Counts = {}
    for i, name in enumerate(result.document_names):
        row = result.counts[i]
        out[name] = {peer: [float(row[columns[(ours, f)]]) for f in fields] for peer, (ours, fields) in FIELDS.items()}
    return out


def differences(ours: Counts, theirs: Counts) -> list[str]:
    """Every (document, metric) whose counts differ, as readable lines."""
    out = []
    for name in sorted(theirs):
        for metric in FIELDS:
            a = ours.get(name, {}).get(metric)
            b = theirs.get(name, {}).get(metric)
            if a is None or b is None or not np.allclose(a, b, rtol=1e-9, atol=1e-9):
                out.append(f"{name} {metric}: corefeval {a} CorefUD scorer {b}")
    return out
