"""One exit-status table for every command (the README's), the command a bare ``corefeval KEY
RESPONSE`` meant, and ``--doc`` naming the closest documents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corefeval.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "src" / "corefeval" / "examples"
KEY, RESPONSE = str(EXAMPLE / "key.conll"), str(EXAMPLE / "response.conll")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


#: Every command, with "MISSING" where it reads an input file.
COMMANDS = [
    ["score", "MISSING", RESPONSE],
    ["reference", "muc", "MISSING", RESPONSE],
    ["leaderboard", "--pair", "a", "MISSING", RESPONSE],
    ["compare", "MISSING", RESPONSE, RESPONSE],
    ["errors", "MISSING", RESPONSE],
    ["bias", "gap", "MISSING", RESPONSE],
    ["bias", "winobias", "MISSING", RESPONSE],
    ["report", "MISSING", RESPONSE, "-o", "OUT"],
    ["humans", "scores", "--key", "MISSING", "--response", RESPONSE],
    ["anaphora", "MISSING", RESPONSE],
    ["convert", "MISSING", "OUT", "--to", "corefud"],
    ["validate", "MISSING"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_every_command_exits_1_for_a_missing_input_and_2_for_a_bad_option(
    command: list[str], tmp_path: Path, capsys
) -> None:
    if command[:2] == ["humans", "scores"]:
        pytest.importorskip("pandas")
        pytest.importorskip("matplotlib")
    missing = str(tmp_path / "missing.conll")
    args = [missing if a == "MISSING" else str(tmp_path / "out") if a == "OUT" else a for a in command]
    code, _, err = run(capsys, *args)
    assert code == 1 and "Traceback" not in err, err
    with pytest.raises(SystemExit) as usage:  # argparse's own usage error
        main([*args, "--no-such-option"])
    assert usage.value.code == 2
    capsys.readouterr()


def test_the_readme_table_is_the_one_the_command_line_prints() -> None:
    from corefeval.cli import EXIT_STATUS, build_parser

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| (\d+) \| ([^|]+) \|$", readme.split("### Exit status", 1)[1], re.M))
    assert {int(k): v.strip() for k, v in table.items()} == EXIT_STATUS
    epilog = build_parser().epilog or ""
    assert all(f"{k} {v}" in epilog for k, v in EXIT_STATUS.items())


def test_a_bare_key_and_response_suggest_the_score_command(capsys) -> None:
    code, out, err = run(capsys, KEY, RESPONSE)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.endswith(f"to score a response against a key: corefeval score {KEY} {RESPONSE}\n")
    code, _, err = run(capsys, "socre", KEY, RESPONSE)
    assert code == 2 and "unknown command 'socre'; did you mean 'score'?" in err


def test_doc_lists_the_closest_names_never_the_first_ones(tmp_path: Path, capsys) -> None:
    body = "w\t0\tx\t(1)\nw\t1\tx\t(1)\n"
    names = [f"aaa_{i:02d}" for i in range(20)] + ["zeta_story", "zeta_poem"]
    key = tmp_path / "k.conll"
    key.write_text("".join(f"#begin document ({n}); part 000\n{body}#end document\n" for n in names))
    code, _, err = run(capsys, "score", str(key), str(key), "--doc", "zeta_stroy")
    assert code == 2 and "the closest names are '(zeta_story); part 000', '(zeta_poem); part 000'" in err
    code, _, err = run(capsys, "score", str(key), str(key), "--doc", "aaa_7")
    assert code == 2 and "the closest names are '(aaa_07); part 000'" in err, err
