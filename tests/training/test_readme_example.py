"""The README's training-loop example runs as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_training_loop_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    loop = next(b for b in blocks if "ev = Evaluator(" in b)
    assert len(loop.strip().splitlines()) <= 12
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(loop, str(README), "exec"), {})
    lines = out.getvalue().split("\n")
    assert lines[0].startswith("0 ") and lines[0].split()[1] == lines[1].split()[1]
    assert 0 < float(lines[0].split()[1]) < 1
