"""``--np-only`` and ``--remove-nested`` on Universal Anaphora files (the UA scorers offer them for
CoNLL-2012 only): coval's rules, a verb phrase told by the key's HEAD and UPOS columns."""

from __future__ import annotations

from pathlib import Path

import pytest

import corefeval
from corefeval.cli import main
from corefeval.readers.ua_syntax import read_syntax

DATA = Path(__file__).parents[1] / "data" / "ua" / "filters"


def _muc(key: str, response: str, **options: object) -> tuple[float, float, float, float]:
    muc = corefeval.score(str(DATA / key), str(DATA / response), ["muc"], **options).corpus["muc"]  # type: ignore[arg-type]
    return muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den


def test_np_only_leaves_out_markables_headed_by_a_verb() -> None:
    """Key: {John, He} {saw Mary, that} {Mary}; "saw Mary" is headed by "saw" (VERB): NP_only leaves
    it out and its entity, left with one markable, whole. The response lacks that entity: MUC
    recall 1/2 without the option, 1/1 with it."""
    assert _muc("key.conllu", "response.conllu") == (1, 2, 1, 1)
    assert _muc("key.conllu", "response.conllu", np_only=True) == (1, 1, 1, 1)


def test_the_head_is_the_first_word_whose_parent_lies_outside() -> None:
    syntax = read_syntax(str(DATA / "key.conllu"))["d"]
    assert syntax.verbal("k", 1, 2)  # "saw Mary": saw's parent (the root) is outside
    assert syntax.verbal("k", 0, 3)  # "John saw Mary .": John's parent (saw) is inside; saw heads it
    assert not syntax.verbal("k", 2, 2)  # "Mary"
    assert not syntax.verbal("k", 6, 7)  # "that .": that's parent (did) is outside: a pronoun


def test_np_only_without_syntax_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "k.conllu"
    key.write_text((DATA / "key.conllu").read_text(encoding="utf-8").replace("\tVERB\t", "\t_\t"), encoding="utf-8")
    assert main(["score", str(key), str(key), "--np-only"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"{key}:5: error: --np-only on a Universal Anaphora")


def test_remove_nested_leaves_out_a_markable_inside_one_of_its_entity() -> None:
    """Key {w0-w2, w0, w4}: w0 lies inside w0-w2 of its entity and goes; the response {w0-w2, w4}
    then finds every link (1/1), where without the option it finds 1 of 2."""
    assert _muc("nested.key", "nested.response") == (1, 2, 1, 1)
    assert _muc("nested.key", "nested.response", remove_nested=True) == (1, 1, 1, 1)
