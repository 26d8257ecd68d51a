"""The UA benchmark's own parts: its real-sized input and how it reads both scorers' output."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from corefeval.readers.ua import read_ua

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_ua import MEASURES, ONE_MARKABLE, numbers, ua_numbers  # noqa: E402
from benchmarks.real_ua import converted, real_pair  # noqa: E402

UA_OUTPUT = """The scorer is evaluating  corferent markables, singletons, split-antecedents, non-referring mentions
lea
Recall: 50.08  Precision: 60.24  F1: 54.69
muc
Recall: 63.49  Precision: 67.07  F1: 65.23
bcub
Recall: 66.44  Precision: 75.49  F1: 70.68
ceafe
Recall: 67.56  Precision: 79.71  F1: 73.14
ceafm
Recall: 71.11  Precision: 79.36  F1: 75.01
blanc
Recall: 60.08  Precision: 80.27  F1: 68.60
CoNLL score: 69.68
============================================
Non-referring markable identification scores:
Recall: 71.34  Precision: 69.57  F1: 70.44
============================================
Bridging anaphora recognition scores:
Recall: 62.84  Precision: 77.00  F1: 69.20
Full bridging scores (Markable Level):
Recall: 51.34  Precision: 62.91  F1: 56.54
Full bridging scores (Entity Level):
Recall: 51.72  Precision: 63.38  F1: 56.96
"""

OUR_OUTPUT = """measure           recall precision       F1
lea                50.08     60.24    54.69
muc                63.49     67.07    65.23
bcub               66.44     75.49    70.68
ceafe              67.56     79.71    73.14
ceafm              71.11     79.36    75.01
blanc              60.08     80.27    68.60
non-referring      71.34     69.57    70.44
bridging-ar        62.84     77.00    69.20
bridging-fbm       51.34     62.91    56.54
bridging-fbe       51.72     63.38    56.96
CoNLL                                 69.68
"""


def test_both_outputs_give_the_ten_measures() -> None:
    theirs, ours = ua_numbers(UA_OUTPUT), numbers(OUR_OUTPUT, tuple(MEASURES))
    assert len(theirs) == 10 and theirs == ours
    assert theirs["bridging-fbm"] == ("51.34", "62.91", "56.54")
    assert theirs["non-referring"] == ("71.34", "69.57", "70.44")
    changed = OUR_OUTPUT.replace("51.72     63.38", "51.72     63.39")
    assert numbers(changed, tuple(MEASURES)) != theirs


def test_real_sized_input_is_seeded_and_has_every_layer(tmp_path: Path) -> None:
    for path in sorted((ROOT / "tests" / "data" / "corefud_peer").glob("key*.conllu")):
        shutil.copy(path, tmp_path / path.name)
    key, response, markables = real_pair(tmp_path, 4)
    assert real_pair(tmp_path, 4) == (key, response, markables)
    keys, responses = read_ua("k", key).anaphora, read_ua("r", response).anaphora
    source = converted(tmp_path).anaphora
    assert [d.name for d in keys] == [f"{d.name}.{c}" for c in range(1, 5) for d in source]
    assert [d.name for d in responses] == [d.name for d in keys]
    assert markables == sum(len(d.identity) for d in keys + responses)
    spans = [sorted(m.span for m in d.identity) for d in keys]
    assert spans == [sorted(m.span for m in d.identity) for _ in range(4) for d in source]
    for docs in (keys, responses):
        assert any(m.element_of for d in docs for m in d.identity)
        assert any(not m.referring for d in docs for m in d.identity)
        assert any(d.bridging for d in docs)
    assert keys != responses


def test_the_start_up_row_scores_one_markable() -> None:
    docs = read_ua("one", ONE_MARKABLE).anaphora
    assert [(d.name, [m.span for m in d.identity]) for d in docs] == [("d", [(0, 0)])]
