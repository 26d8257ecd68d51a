"""``--repeats``: the rule for a response span repeated in two entities is a run option, decided by
the key's format unless given, named in the signature and in the repeat warning, and the same data
gives the same number whatever the key's format when it is given."""

from __future__ import annotations

from pathlib import Path

import pytest

import corefeval
from corefeval.cli import main
from corefeval.core.diagnostics import UsageError
from corefeval.core.options import Options

from .test_corefud_peer import TWICE_KEY, TWICE_RESPONSE


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str, str]:
    key, response, converted = tmp_path / "key.conllu", tmp_path / "response.conllu", tmp_path / "key.conll"
    key.write_text(TWICE_KEY, encoding="utf-8")
    response.write_text(TWICE_RESPONSE, encoding="utf-8")
    assert main(["convert", str(key), str(converted), "--to", "conll2012"]) == 0
    return str(key), str(response), str(converted)


def _muc(key: str, response: str, **options: str) -> tuple[tuple[float, ...], str]:
    result = corefeval.score(key, response, options=Options(("muc",), **options))
    s = result["muc"]
    return (s.recall_num, s.recall_den, s.precision_num, s.precision_den), result.signature


def test_the_key_format_decides_by_default_and_the_signature_says_which(files: tuple[str, str, str]) -> None:
    key, response, converted = files
    corefud, signature = _muc(key, response)
    assert corefud == (0, 1, 1, 2) and "|repeats:corefud|" in signature
    reference, signature = _muc(converted, response)
    assert reference == (1, 1, 1, 1) and "|repeats:reference|" in signature


@pytest.mark.parametrize("rule", ["corefud", "reference"])
def test_a_chosen_rule_gives_one_number_whatever_the_key_format(files: tuple[str, str, str], rule: str) -> None:
    key, response, converted = files
    a, sa = _muc(key, response, repeats=rule)
    b, sb = _muc(converted, response, repeats=rule)
    assert a == b == ((0, 1, 1, 2) if rule == "corefud" else (1, 1, 1, 1))
    assert f"|repeats:{rule}|" in sa and f"|repeats:{rule}|" in sb


def test_the_warning_names_the_rule(files: tuple[str, str, str], capsys: pytest.CaptureFixture[str]) -> None:
    key, response, converted = files
    assert main(["score", key, response, "-m", "muc"]) == 0
    assert "(--repeats corefud)" in capsys.readouterr().err
    assert main(["score", converted, response, "-m", "muc"]) == 0
    assert "(--repeats reference)" in capsys.readouterr().err


def test_an_unknown_rule_is_refused() -> None:
    with pytest.raises(UsageError, match="unknown repeats option 'last'"):
        Options(repeats="last")
