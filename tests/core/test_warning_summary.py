"""Warnings as every command prints them: each once, and past three of one kind, one line with the
count (``--verbose`` prints every one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from corefeval.cli import main
from corefeval.core.diagnostics import Diagnostic


def head_only_answer(folder: Path, sentences: int = 8) -> tuple[str, str]:
    """A CorefUD key whose sentences each have two mentions headed by one word ('The cat' and 'cat'),
    and an XML-tags answer that tags that head word once for each: every sentence repeats a mention."""
    rows = ["# newdoc id = d", "# global.Entity = eid-etype-head-other"]
    words = []
    for i in range(sentences):
        a, b = 2 * i + 1, 2 * i + 2
        rows += [
            f"# sent_id = s{i}",
            "# text = The cat sat .",
            f"1\tThe\tthe\tDET\t_\t_\t2\tdet\t_\tEntity=(e{a}-animal-2",
            f"2\tcat\tcat\tNOUN\t_\t_\t3\tnsubj\t_\tEntity=(e{b}-animal-1)e{a})",
            "3\tsat\tsit\tVERB\t_\t_\t0\troot\t_\t_",
            "4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_",
            "",
        ]
        words.append(f"The <m id={a}><m id={b}>cat</m></m> sat .")
    key, answer = folder / "key.conllu", folder / "answer.xml"
    key.write_text("\n".join(rows) + "\n")
    answer.write_text(" ".join(words) + "\n")
    return str(key), str(answer)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_past_three_of_one_kind_one_line_counts_the_rest(tmp_path: Path, capsys) -> None:
    key, answer = head_only_answer(tmp_path)
    code, _, err = run(capsys, "score", key, answer, "--match", "head", "-m", "muc")
    lines = err.strip().splitlines()
    repeats = [line for line in lines if "repeats a mention" in line]
    assert code == 0 and len(repeats) == 4, err
    assert repeats[-1].startswith(f"{answer}: warning: 5 more warnings of this kind not shown (line 1; --verbose")
    assert "document '…': response mention (…,…) repeats a mention" in repeats[-1]
    code, _, err = run(capsys, "score", key, answer, "--match", "head", "-m", "muc", "--verbose")
    assert code == 0 and err.count("repeats a mention") == 8 and "not shown" not in err


def test_one_summary_per_kind_across_a_command(tmp_path: Path, capsys) -> None:
    """``errors`` and ``compare`` print warnings of several results: still each once, counted once."""
    key, answer = head_only_answer(tmp_path)
    code, _, err = run(capsys, "compare", key, answer, answer, "--match", "head", "--resamples", "5", "-m", "muc")
    assert code == 0 and err.count("repeats a mention") == 4 and err.count("5 more warnings") == 1, err


def test_a_key_warning_is_printed_once_however_many_results_repeat_it(tmp_path: Path, capsys) -> None:
    """A gold file with a crossing mention (as LitBank has), compared with itself as two systems."""
    body = "".join(f"w\t{t}\tx\t{f}\n" for t, f in enumerate(["(1", "(2", "1)", "2)", "(3)"]))
    key = tmp_path / "gold.conll"
    key.write_text(f"#begin document (d); part 0\n{body}#end document\n")
    for command in (["score", str(key), str(key)], ["compare", str(key), str(key), str(key), "--resamples", "5"]):
        code, _, err = run(capsys, *command)
        assert code == 0 and err.count("crosses mention") == 1, err


def test_validate_still_lists_every_problem(tmp_path: Path, capsys) -> None:
    """Its problems are its output, not warnings: no summary line and no --verbose."""
    body = "".join(f"w\t{t}\tx\t(1)\n" for t in range(2))
    path = tmp_path / "f.conll"
    path.write_text("".join(f"#begin document (d{i}); part 000\n{body}" for i in range(6)))  # six unended
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1 and "not shown" not in out and len(out.splitlines()) >= 5


def test_kinds_differ_only_in_quoted_names_and_numbers() -> None:
    from corefeval.core.warning_summary import kind, summarised

    a = Diagnostic("r", 3, "document 'x': response mention (4,4) repeats a mention; 1.5 kept")
    b = Diagnostic("r", 9, "document 'y y': response mention (17,170) repeats a mention; 2 kept")
    c = Diagnostic("r", 9, "document 'y': key mention (17,17) is repeated")
    assert kind(a) == kind(b) != kind(c)
    many = [Diagnostic("r", n, f"document 'd{n}': response mention ({n},{n}) repeats a mention") for n in range(1, 8)]
    shown = summarised([*many, *many, c], "see all")
    assert shown[:3] == many[:3] and shown[3] == c
    assert shown[4] == Diagnostic(
        "r", 0, f"4 more warnings of this kind not shown (lines 4 to 7; see all): {kind(many[0])[1]}"
    )
    assert len(shown) == 5
