"""A file without heads (CoNLL-2012) is refused with one usage error for the options that need heads,
even where every document is left without mentions (all its entities singletons that the options
remove): it was a traceback (an assertion in the pairing of zeros)."""

from __future__ import annotations

from pathlib import Path

import pytest

from corefeval.cli import main

SINGLETONS = "".join(
    f"#begin document (d{i}); part 000\nd{i} 0 0 w (0)\nd{i} 0 1 x -\n\n#end document\n" for i in range(3)
)


@pytest.mark.parametrize(
    "options",
    [
        ["--preset", "crac2024"],
        ["--singletons", "remove", "--zeros", "dependent"],
        ["--match", "partial", "--singletons", "remove"],
    ],
)
def test_options_that_need_heads_are_refused_on_a_file_without_them(
    tmp_path: Path, options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    key = tmp_path / "k.conll"
    key.write_text(SINGLETONS)
    assert main(["score", str(key), str(key), "-q", *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("corefeval score: error: --") and "needs mention heads" in err and "Traceback" not in err
