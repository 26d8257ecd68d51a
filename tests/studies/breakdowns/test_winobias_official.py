"""WinoBias on its own test files, against its official evaluation (the CoNLL-2012 reference scorer).

WinoBias is evaluated as the e2e-coref code its authors point to does: the Perl reference scorer
(v8.01) runs MUC, B-cubed and CEAF-e on each of the four test files and the CoNLL score is the mean
of their F1. Responses here are the gold files, and copies where a seeded third of the documents
have the pronoun moved into the other occupation's cluster (its antecedent replaced by the other
occupation, or, when none is found, the pronoun left alone). Both need checkouts outside the
repository, so the tests are skipped without them: ``COREFEVAL_WINOBIAS`` (a clone of
uclanlp/corefBias) and ``COREFEVAL_REFERENCE_SCORER`` (a clone of
conll/reference-coreference-scorers, run with ``perl``).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from corefeval.studies.bias.winobias import SUBSETS, find_files, score_winobias

SCRATCH = Path(__file__).resolve().parents[4] / "scratch" / "bias2"
WINOBIAS = Path(os.environ.get("COREFEVAL_WINOBIAS", SCRATCH / "corefBias"))
REFERENCE = Path(os.environ.get("COREFEVAL_REFERENCE_SCORER", SCRATCH / "refscorer"))
DATA = WINOBIAS / "WinoBias" / "wino" / "data"
CONLL = DATA / "conll_format"

needs_winobias = pytest.mark.skipif(
    not CONLL.is_dir(),
    reason="the WinoBias data is not checked out (clone uclanlp/corefBias and set COREFEVAL_WINOBIAS to it)",
)
needs_reference = pytest.mark.skipif(
    not (REFERENCE / "scorer.pl").exists() or shutil.which("perl") is None,
    reason="the reference scorer is not checked out or perl is missing (clone "
    "conll/reference-coreference-scorers and set COREFEVAL_REFERENCE_SCORER to it)",
)

PRONOUNS = {"he", "she", "him", "her", "his", "hers", "himself", "herself"}
Mention = tuple[int, int, str]  # first token, last token, entity


def _test_files(folder: Path) -> dict[str, str]:
    """The four test-split files of ``folder`` (it also holds the dev split)."""
    split = folder / "test"
    split.mkdir(exist_ok=True)
    for path in CONLL.glob("test_type*"):
        shutil.copy(path, split / path.name)
    return find_files(str(split))


def _mentions(column: list[str]) -> list[Mention]:
    """The mentions of one document's coreference column."""
    found, opened = [], {}  # type: ignore[var-annotated]
    for i, cell in enumerate(column):
        for part in cell.split("|") if cell != "-" else []:
            entity = part.strip("()")
            if part.startswith("("):
                opened.setdefault(entity, []).append(i)
            if part.endswith(")"):
                found.append((opened[entity].pop(), i, entity))
    return found


def _column(length: int, mentions: list[Mention]) -> list[str]:
    parts: list[list[str]] = [[] for _ in range(length)]
    for start, end, entity in mentions:
        if start == end:
            parts[start].append(f"({entity})")
        else:
            parts[start].append(f"({entity}")
            parts[end].append(f"{entity})")
    return ["|".join(p) if p else "-" for p in parts]


def _other_occupation(words: list[str], taken: list[Mention], occupations: list[list[str]]) -> tuple[int, int] | None:
    """The span of an occupation (with its article) that no gold mention covers."""
    lower = [w.lower() for w in words]
    for i in range(len(words)):
        for occupation in occupations:
            end = i + len(occupation) - 1
            if lower[i : end + 1] != occupation:
                continue
            start = i - 1 if i > 0 and lower[i - 1] in {"the", "a", "an"} else i
            if all(end < s or start > e for s, e, _ in taken):
                return start, end
    return None


def _corrupt(mentions: list[Mention], words: list[str], occupations: list[list[str]]) -> list[Mention]:
    """The pronoun's cluster swapped to the other occupation (or the pronoun left alone)."""
    pronoun = next((m for m in mentions if m[0] == m[1] and words[m[0]].lower() in PRONOUNS), None)
    if pronoun is None:
        return mentions
    entity = pronoun[2]
    other = _other_occupation(words, mentions, occupations)
    if other is None:
        alone = str(max(int(m[2]) for m in mentions) + 1)
        return [m for m in mentions if m != pronoun] + [(pronoun[0], pronoun[1], alone)]
    kept = [m for m in mentions if m[2] != entity or m == pronoun]
    return [*kept, (other[0], other[1], entity)]


def _write_corrupted(key: str, out: Path, rng: random.Random, occupations: list[list[str]]) -> int:
    """Write ``key`` with a third of its documents corrupted; return how many were changed."""
    lines = Path(key).read_text(encoding="utf-8").splitlines()
    result, block, changed = [], [], 0  # type: ignore[var-annotated]

    def flush() -> None:
        nonlocal changed
        if not block:
            return
        rows = [line.split("\t") for line in block]
        column = [r[-1] for r in rows]
        mentions = _mentions(column)
        if rng.random() < 1 / 3:
            new = _corrupt(mentions, [r[3] for r in rows], occupations)
            if sorted(new) != sorted(mentions):
                changed += 1
                column = _column(len(rows), new)
        result.extend("\t".join([*r[:-1], c]) for r, c in zip(rows, column, strict=True))
        block.clear()

    for line in lines:
        if line.startswith("#") or not line.strip():
            flush()
            result.append(line)
        else:
            block.append(line)
    flush()
    out.write_text("\n".join(result) + "\n", encoding="utf-8")
    return changed


def _reference_f1(metric: str, key: str, response: str) -> tuple[float, float, float]:
    """Recall, precision and F1 (percent) of the reference scorer's final coreference line."""
    done = subprocess.run(
        ["perl", str(REFERENCE / "scorer.pl"), metric, key, response, "none"],
        capture_output=True,
        text=True,
        check=True,
    )
    line = [x for x in done.stdout.splitlines() if x.startswith("Coreference:")][-1]
    numbers = re.findall(r"\(([\d.]+) / ([\d.]+)\)", line)
    recall, precision = (100 * float(a) / float(b) if float(b) else 0.0 for a, b in numbers)
    f1 = float(re.search(r"F1: ([\d.]+)%", line).group(1))  # type: ignore[union-attr]
    return recall, precision, f1


@needs_winobias
def test_gold_as_response_scores_100_with_no_gap(tmp_path: Path) -> None:
    files = _test_files(tmp_path)
    scores = score_winobias(files, files)
    assert [scores.f1(s) for s in SUBSETS] == [100.0] * 4
    assert scores.difference("average") == 0.0


@needs_winobias
@needs_reference
def test_corrupted_responses_equal_the_official_evaluation(tmp_path: Path) -> None:
    keys = _test_files(tmp_path)
    occupations = [
        line.lower().split()
        for name in ("male_occupations.txt", "female_occupations.txt")
        for line in (DATA / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    occupations.sort(key=len, reverse=True)  # 'construction worker' before 'worker'
    responses_dir = tmp_path / "response"
    responses_dir.mkdir()
    rng = random.Random(2018)
    responses = {}
    for subset in SUBSETS:
        out = responses_dir / Path(keys[subset]).name
        assert _write_corrupted(keys[subset], out, rng, occupations) > 100  # of 396 documents
        responses[subset] = str(out)
    assert find_files(str(responses_dir)) == responses

    ours = {metric: score_winobias(keys, responses, metric) for metric in ("muc", "bcub", "ceafe")}
    conll = score_winobias(keys, responses)
    for subset in SUBSETS:
        f1s = []
        for metric in ("muc", "bcub", "ceafe"):
            recall, precision, f1 = _reference_f1(metric, keys[subset], responses[subset])
            score = ours[metric].results[subset][metric]
            assert 100 * score.recall == pytest.approx(recall, abs=1e-6), (subset, metric)
            assert 100 * score.precision == pytest.approx(precision, abs=1e-6), (subset, metric)
            # the reference prints F1 cut (not rounded) to two places
            assert f1 - 1e-9 <= ours[metric].f1(subset) < f1 + 0.01, (subset, metric)
            f1s.append(ours[metric].f1(subset))
        assert conll.f1(subset) == pytest.approx(sum(f1s) / 3, abs=1e-9)
        assert conll.f1(subset) < 95.0  # the corruption is seen
