"""The GAP scorer: a small worked file pair, and the published scorer on its own test data."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from corefeval.core.diagnostics import InputError
from corefeval.studies.bias.gap import answers_from_clusters, score_gap

HEADER = "ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB\tB-offset\tB-coref\tURL\n"
GOLD = HEADER + (
    "t-1\tAnn met Bob. She left.\tShe\t13\tAnn\t0\tTRUE\tBob\t8\tFALSE\tu\n"
    "t-2\tCid met Dan. He left.\tHe\t13\tCid\t0\tFALSE\tDan\t8\tTRUE\tu\n"
    "t-3\tEve met Fay. Her cat.\tHer\t13\tEve\t0\tFALSE\tFay\t8\tFALSE\tu\n"
)
# t-1: A right (tp), B wrongly TRUE (fp); t-2: A right (tn), B missed (fn); t-3 absent: 2 fn.
SYSTEM = "t-1\tTRUE\tTRUE\nt-2\tfalse\tFALSE\nt-2\tTRUE\tTRUE\n"


def _files(tmp_path: Path, gold: str = GOLD, system: str = SYSTEM) -> tuple[str, str]:
    g, s = tmp_path / "gold.tsv", tmp_path / "system.tsv"
    g.write_text(gold, encoding="utf-8")
    s.write_text(system, encoding="utf-8")
    return str(g), str(s)


def test_a_worked_file_pair(tmp_path: Path) -> None:
    result = score_gap(*_files(tmp_path))
    t = result.tallies
    assert (t["feminine"].tp, t["feminine"].fp, t["feminine"].fn, t["feminine"].tn) == (1, 1, 2, 0)
    assert (t["masculine"].tp, t["masculine"].fp, t["masculine"].fn, t["masculine"].tn) == (0, 0, 1, 1)
    assert (t["overall"].tp, t["overall"].fp, t["overall"].fn, t["overall"].tn) == (1, 1, 3, 1)
    assert t["feminine"].recall == pytest.approx(100 / 3) and t["feminine"].precision == 50.0
    assert result.bias is None  # masculine F1 is 0
    assert "Bias (F/M): -" in result.scorecard()
    assert [w.line for w in result.warnings] == [3, 0]  # the repeated t-2, and t-3 without an answer


def test_bad_gold_is_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="gold.tsv:2: error: pronoun 'They'"):
        score_gap(*_files(tmp_path, GOLD.replace("\tShe\t", "\tThey\t")))


def test_answers_from_clusters() -> None:
    rows = [line.split("\t") for line in GOLD.splitlines()[1:]]
    clusters = {"t-1": [[(0, 3), (13, 16)], [(8, 11)]], "t-2": [[(13, 15), (8, 11), (0, 3)]]}
    answers = answers_from_clusters(rows, clusters)
    assert answers == {"t-1": (True, False), "t-2": (True, True), "t-3": (False, False)}


GAP = Path(
    os.environ.get("COREFEVAL_GAP_SCORER", Path(__file__).resolve().parents[4] / "scratch" / "breakdowns" / "gap")
)
SHIM = """import builtins, collections, sys
sys.path.insert(0, sys.argv[1])
import gap_scorer
class D(collections.defaultdict):
    def iteritems(self):
        return iter(self.items())
gap_scorer.defaultdict = D
gap_scorer.open = lambda p, m='r': builtins.open(p, m.replace('U', ''))
print(gap_scorer.run_scorer(sys.argv[2], sys.argv[3]))
"""


@pytest.mark.skipif(
    not (GAP / "gap_scorer.py").exists(),
    reason="the published GAP scorer is not checked out (clone google-research-datasets/gap-coreference and "
    "set COREFEVAL_GAP_SCORER to it)",
)
@pytest.mark.parametrize("split", ["development", "test", "validation"])
def test_equals_the_published_scorer(tmp_path: Path, split: str) -> None:
    gold = GAP / f"gap-{split}.tsv"
    rng = random.Random(split)
    lines = []
    for row in gold.read_text(encoding="utf-8").splitlines()[1:]:
        cols = row.split("\t")
        if rng.random() < 0.03:
            continue  # no answer
        answer = [rng.choice(["TRUE", "FALSE", cols[6], cols[6]]), rng.choice(["false", cols[9], cols[9]])]
        lines.append("\t".join([cols[0], *answer]))
    system = tmp_path / "system.tsv"
    system.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shim = tmp_path / "shim.py"
    shim.write_text(SHIM, encoding="utf-8")
    done = subprocess.run([sys.executable, str(shim), str(GAP), str(gold), str(system)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    published = done.stdout[done.stdout.index("Overall recall") :]
    assert score_gap(str(gold), str(system)).scorecard() + "\n" == published
