"""A span held by many entities of each side makes a pair of entities for every two of them: the
literal definitions (CEAF's cells, B-cubed's shared counts, the UA scorer's overlaps) would need
time and memory quadratic in them. Past the limit a document is one located error line, in time
linear in the mentions; at the limit it is scored."""

from __future__ import annotations

from pathlib import Path

import pytest

from corefeval.cli import main
from corefeval.metrics.ua import scores as ua_scores
from corefeval.scoring.batch import counts

HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS\n"


def _nested(n: int) -> str:
    """One document whose first word opens ``n`` markables of ``n`` entities, all closed on the second."""
    openings = "".join(f"(EntityID={i}|MarkableID=m{i}" for i in range(n))
    rows = ["\t".join(["1", "w", *["_"] * 8, openings, "_", "_"]), "\t".join(["2", "w", *["_"] * 8, ")" * n, "_", "_"])]
    return HEADER + "# newdoc id = d\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize(
    ("module", "limit", "command"),
    [(counts, "CHAIN_PAIR_LIMIT", ["score"]), (ua_scores, "OVERLAP_CELL_LIMIT", ["anaphora"])],
)
def test_a_span_in_many_entities_of_each_side_is_a_one_line_error_past_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], module, limit, command
) -> None:
    path = tmp_path / "nested.conllu"
    path.write_text(_nested(5), encoding="utf-8")  # 5 x 5 pairs sharing the span
    monkeypatch.setattr(module, limit, 25)
    assert main([*command, str(path), str(path)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(module, limit, 24)
    assert main([*command, str(path), str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith(f"{path}:") and "document 'd'" in err and "25 pairs" in err and "limit of 24" in err


@pytest.mark.parametrize("command", [["score"], ["anaphora"], ["score", "-m", "ua-ceafe"]])
def test_a_hundred_thousand_entities_on_one_span_fail_fast(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """Ten billion pairs: refused at once (before, ``score`` and ``anaphora`` ran out of memory)."""
    path = tmp_path / "nested.conllu"
    path.write_text(_nested(100_000), encoding="utf-8")
    assert main([command[0], str(path), str(path), *command[1:]]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "10,000,000,000 pairs" in err
