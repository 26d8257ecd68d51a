"""The worked examples of docs/metrics.md are what corefeval computes: every table and the command output."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from corefeval import metrics
from corefeval.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")

# row title -> (metric, BLANC side or None)
ROWS = {
    "mentions": ("mentions", None),
    "MUC": ("muc", None),
    "B-cubed": ("bcub", None),
    "CEAFm": ("ceafm", None),
    "CEAFe": ("ceafe", None),
    "BLANC": ("blanc", None),
    "BLANC coreference links": ("blanc", "coref"),
    "BLANC non-coreference links": ("blanc", "noncoref"),
    "LEA": ("lea", None),
    "CoNLL": ("conll", None),
}
EXAMPLE = re.compile(r"```text\n(key .*?)```\n\n(\| metric .*?)\n\n", re.S)


def _entities(text: str) -> list[list[str]]:
    return [group.split() for group in re.findall(r"\{([^}]*)\}", text)]


def _examples() -> list[tuple[dict[str, str], list[list[str]]]]:
    found = []
    for block, table in EXAMPLE.findall(PAGE + "\n\n"):
        fields = dict(line.split(None, 1) for line in block.strip().splitlines())
        rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()[2:]]
        found.append((fields, rows))
    return found


EXAMPLES = _examples()


def test_the_page_has_its_examples() -> None:
    assert len(EXAMPLES) == 13
    assert sum(len(rows) for _, rows in EXAMPLES) == 26


def _check_cell(cell: str, value: float) -> None:
    """``a / b = PP.PP`` or ``PP.PP``: the fraction (if given) equals ``value``, the percentage is it rounded."""
    *fraction, percent = (part.strip() for part in cell.split("="))
    assert f"{100 * value:.2f}" == percent, cell
    if fraction:
        numerator, denominator = (Fraction(x.strip()) for x in fraction[0].rsplit(" / ", 1))
        assert float(numerator / denominator) == pytest.approx(value), cell


@pytest.mark.parametrize(("fields", "rows"), EXAMPLES, ids=[f"{f['key']} | {f['response']}" for f, _ in EXAMPLES])
def test_example_table(fields: dict[str, str], rows: list[list[str]]) -> None:
    key, response = _entities(fields["key"]), _entities(fields["response"])
    variant = fields.get("blanc", "reference").strip()
    for title, recall, precision, f1 in rows:
        metric, side = ROWS[title]
        score = (
            metrics.blanc(key, response, variant=variant)
            if metric == "blanc"
            else getattr(metrics, metric)(key, response)
        )
        if side is not None:
            score = getattr(score, side)
        _check_cell(f1, score.f1)
        for cell, value in ((recall, "recall"), (precision, "precision")):
            if cell:
                _check_cell(cell, getattr(score, value))


def test_luo_examples_agree_between_the_variants() -> None:
    """The page says so of Luo et al.'s four examples (the ones marked ``blanc paper`` with an ``Example`` heading)."""
    luo = [f for f, _ in EXAMPLES if f.get("blanc", "").strip() == "paper"][:4]
    for fields in luo:
        key, response = _entities(fields["key"]), _entities(fields["response"])
        assert metrics.blanc(key, response).f1 == pytest.approx(metrics.blanc(key, response, variant="paper").f1)


def test_command_output(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    block = re.search(r"```console\n\$ corefeval (.*?)\n(.*?)```", PAGE, re.S)
    assert block is not None
    monkeypatch.chdir(ROOT)
    assert main(block.group(1).split()) == 0
    printed = capsys.readouterr().out.split("\n\nsignature:")[0]
    assert printed + "\n" == block.group(2)
