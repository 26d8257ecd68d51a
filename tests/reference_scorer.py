"""The reference scorer (Perl, v8.01) run side by side, and the record of its output that the tests
check ``corefeval reference`` against where it is not installed.

    COREFEVAL_REFERENCE_SCORER=CLONE python -m tests.reference_scorer     # writes FIXTURE

``CLONE`` is a checkout of conll/reference-coreference-scorers (run with ``perl``). The corpus is
the shared generator's, with the seed and sizes of :data:`GENERATOR_ARGS`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import SHARED

FIXTURE = Path(__file__).resolve().parent / "data" / "reference_documents.json"
GENERATOR = SHARED / "tools" / "make_synthetic_conll.py"
GENERATOR_ARGS = ("--seed", "2012", "--docs", "60", "--mentions", "3000")
#: The metrics whose per-document lines the reference prints (BLANC prints totals only).
METRICS = ("muc", "bcub", "ceafm", "ceafe")
#: Hash seeds of the reference's runs: it visits documents in hash order, so its totals' float sums
#: are added in another order on each.
HASH_SEEDS = tuple(range(1, 9))


def scorer() -> Path | None:
    """``scorer.pl`` of the checkout named by ``COREFEVAL_REFERENCE_SCORER``, if it and perl are there."""
    clone = os.environ.get("COREFEVAL_REFERENCE_SCORER")
    found = Path(clone) / "scorer.pl" if clone else None
    return found if found is not None and found.exists() and shutil.which("perl") else None


def generate(folder: Path) -> tuple[str, str]:
    key, response = folder / "key.conll", folder / "response.conll"
    out = ["--out-key", str(key), "--out-response", str(response)]
    subprocess.run([sys.executable, str(GENERATOR), *GENERATOR_ARGS, *out], check=True, capture_output=True)
    return str(key), str(response)


def document_lines(stdout: str) -> dict[str, str]:
    """Each document's metric line (``Recall: (...) ...``) of a verbose run, by document name."""
    out: dict[str, str] = {}
    name = None
    for line in stdout.split("\n====== TOTALS =======", 1)[0].splitlines():
        if line.startswith(("====> ", "File ", "Entity ")):
            continue
        if name is None and line.endswith(":") and not line.startswith(("Total ", "Recall:")):
            name = line[:-1]
        elif name is not None and re.match(r"(Coreference: )?Recall: \(", line):
            out[name] = line.removeprefix("Coreference: ")
            name = None
    return out


def totals_line(stdout: str) -> str:
    """The totals' ``Coreference:`` line."""
    return stdout.split("\n====== TOTALS =======", 1)[1].split("Coreference: ", 1)[1].split("\n", 1)[0]


def run(perl_scorer: Path, metric: str, key: str, response: str, *more: str, hash_seed: int | None = None) -> str:
    env = dict(os.environ, **({"PERL_HASH_SEED": str(hash_seed)} if hash_seed is not None else {}))
    done = subprocess.run(
        ["perl", str(perl_scorer), metric, key, response, *more], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout


def record(perl_scorer: Path, folder: Path) -> dict[str, object]:
    key, response = generate(folder)
    documents = {m: document_lines(run(perl_scorer, m, key, response)) for m in METRICS}
    totals = {str(s): totals_line(run(perl_scorer, "bcub", key, response, hash_seed=s)) for s in HASH_SEEDS}
    return {
        "what": "the reference scorer v8.01 (perl scorer.pl METRIC KEY RESPONSE) on the shared generator's corpus",
        "generator_args": list(GENERATOR_ARGS),
        "documents": documents,
        "bcub_totals_by_hash_seed": totals,
    }


if __name__ == "__main__":
    import tempfile

    found = scorer()
    if found is None:
        raise SystemExit("set COREFEVAL_REFERENCE_SCORER to a checkout of the reference scorer (and install perl)")
    with tempfile.TemporaryDirectory() as directory:
        FIXTURE.write_text(json.dumps(record(found, Path(directory)), indent=1) + "\n")
    print(f"wrote {FIXTURE}")
