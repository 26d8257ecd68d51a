"""The official CRAC LLM-track pipeline (text2text-coref ``clean`` + ``text2conllu``, then the CorefUD
scorer), run on a key and a language model's markup, and the LLM-like edits the tests make.

text2text-coref (ondfa/text2text-coref, with udapi) is not on PyPI: it is found through the
environment variable ``TEXT2TEXT_COREF`` (its ``src`` folder), run by the CorefUD scorer's Python
(``COREFUD_PYTHON``, see :mod:`.corefud_peer`), else at the scratch paths of a development machine.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from pathlib import Path

from .corefud_peer import peer_paths

_SCRATCH = Path("/work/scratch/llm/t2t/src")
_MARKED = re.compile(r"\|")


def pipeline_paths() -> tuple[str, str, str] | None:
    """(python, text2text-coref source folder, CorefUD scorer folder), or ``None`` when absent."""
    peer = peer_paths()
    source = Path(os.environ.get("TEXT2TEXT_COREF", str(_SCRATCH)))
    if peer is None or not (source / "text2text_coref" / "output_cleaner.py").is_file():
        return None
    return peer[0], str(source), peer[1]


class Pipeline:
    """text2text-coref's commands run in one long-lived process (see ``llm_pipeline_runs.py``)."""

    def __init__(self, python: str, source: str) -> None:
        script = Path(__file__).with_name("llm_pipeline_runs.py")
        self.process = subprocess.Popen(
            [python, str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": source},
        )

    def run(self, command: str, *args: str) -> str | None:
        """Run one command; its error message when it fails, else ``None``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"command": command, "args": list(args)}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        return None if answer.get("ok") else str(answer["error"])

    def response(self, key: str, answer: str, folder: Path, json_variant: bool = False) -> str:
        """The CoNLL-U response the official pipeline makes of ``answer`` (``clean`` + ``text2conllu``,
        or ``json2conllu``), or, starting with ``error:``, why it fails."""
        out = folder / "response.conllu"
        out.unlink(missing_ok=True)
        if json_variant:
            failed = self.run("json2conllu", answer, key, "-o", str(out))
        else:
            cleaned = folder / "cleaned.txt"
            failed = self.run("clean", answer, key, "-o", str(cleaned)) or self.run(
                "text2conllu", str(cleaned), key, "-o", str(out)
            )
        return f"error: {failed}" if failed else str(out)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def text2text(python: str, source: str, *args: str) -> None:
    """Run one text2text-coref command."""
    subprocess.run(
        [python, "-m", "text2text_coref", *args],
        env={**os.environ, "PYTHONPATH": source},
        check=True,
        capture_output=True,
    )


def official_response(python: str, source: str, key: str, markup: str, folder: Path) -> str:
    """The CoNLL-U file ``clean`` + ``text2conllu`` make of ``markup`` (without zeros, as the CRAC
    LLM track runs them)."""
    cleaned, out = folder / "cleaned.txt", folder / "response.conllu"
    text2text(python, source, "clean", markup, key, "-o", str(cleaned))
    text2text(python, source, "text2conllu", str(cleaned), key, "-o", str(out))
    return str(out)


def named_forms(source: str, target: Path) -> None:
    """``source`` with every word form replaced by a short made-up word (GUM Reddit ships its forms
    as ``_``): a small vocabulary, so that words repeat as they do in text and ties are common."""
    out = []
    for line in Path(source).read_text(encoding="utf-8").split("\n"):
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            cols[1] = f"{cols[3].lower()}{(int(cols[0]) * 7 + len(out)) % 5}"
        out.append("\t".join(cols))
    target.write_text("\n".join(out), encoding="utf-8")


def llm_edits(text: str, seed: int, rate: float) -> str:
    """``text`` (one document a line) with about ``rate`` of its words edited as a model edits them:
    a word left out (with its marks), a word of its own added, or a word changed (keeping its marks)."""
    rng = random.Random(seed)
    lines = []
    for line in text.split("\n"):
        out: list[str] = []
        for token in line.split():
            r = rng.random()
            if r < rate / 3:
                continue
            if r < 2 * rate / 3:
                out.append(rng.choice(["um", "the", "really", "noun1"]))
                out.append(token)
            elif r < rate:
                word, bar, marks = token.partition("|")
                out.append(word.upper() + "x" + bar + marks)
            else:
                out.append(token)
        lines.append(" ".join(out))
    return "\n".join(lines)
