"""CorefUD files that are missing heads, malformed or built to be slow: a one-line error or a
linear-time answer, never a guessed head, a traceback or memory that grows as mentions x words."""

from __future__ import annotations

import random
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.core.options import Options
from corefeval.matching.head_and_partial import _common, _within, match_alignment
from corefeval.readers import corefud, read
from corefeval.readers.corefud import NO_HEAD, read_corefud
from corefeval.scoring.pipeline import score
from corefeval.writers import render

HEADER = "# newdoc id = d\n# global.Entity = eid-etype-head-other\n"


def conllu(rows: list[tuple[str, str, str]], extra: str = "_") -> str:
    """One sentence from ``(id, HEAD, Entity value)`` rows (an empty value is no entity)."""
    lines = [HEADER.rstrip("\n")]
    for ident, head, entity in rows:
        misc = f"Entity={entity}" if entity else "_"
        lines.append("\t".join([ident, "w", "_", "_", "_", "_", head, "dep", extra, misc]))
    return "\n".join(lines) + "\n\n"


def write(tmp_path: Path, text: str, name: str = "f.conllu") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- item 1: no head is not the first word ------------------------------------------------------


def test_words_without_a_tree_give_no_tree_head_but_one_word_mentions_keep_theirs(tmp_path: Path) -> None:
    path = write(tmp_path, conllu([("1", "_", "(e1"), ("2", "_", "e1)"), ("3", "_", "(e1)")]))
    doc = read(path, heads="tree").documents[0]
    assert doc.heads is not None
    assert sorted(doc.heads.tolist()) == [NO_HEAD, 2]
    first = read(path).documents[0]  # by default a head is the first node, as the CorefUD scorer takes it
    assert first.heads is not None and sorted(first.heads.tolist()) == [0, 2]


def test_a_tree_in_some_sentences_gives_heads_there_only(tmp_path: Path) -> None:
    with_tree = conllu([("1", "2", "(e1"), ("2", "0", "e1)")])
    without = conllu([("1", "_", "(e1"), ("2", "_", "e1)")]).replace(HEADER, "")
    doc = read(write(tmp_path, with_tree + without), heads="tree").documents[0]
    assert doc.heads is not None
    assert doc.heads.tolist() == [1, NO_HEAD]


@pytest.mark.parametrize("mode", ["head", "partial"])
def test_matching_by_heads_refuses_a_side_without_them(tmp_path: Path, mode: str) -> None:
    with_heads = write(tmp_path, conllu([("1", "2", "(e1"), ("2", "0", "e1)"), ("3", "_", "(e1)")]), "k.conllu")
    without = write(tmp_path, conllu([("1", "_", "(e1"), ("2", "_", "e1)"), ("3", "_", "(e1)")]), "r.conllu")
    tree = Options(match=mode, heads="tree")
    with pytest.raises(InputError, match=rf"r\.conllu:3: error: --match {mode} needs the head of every mention"):
        score(without, with_heads, options=tree)
    if mode == "head":
        with pytest.raises(InputError, match=r"r\.conllu:3: error: --match head"):
            score(with_heads, without, options=tree)
    else:  # partial matching uses the key's heads only
        assert score(with_heads, without, ("muc",), options=tree)["muc"].f1 == 1.0


def test_gum_against_its_headless_round_trip_is_refused_not_scored(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gum = str(shared / "realdata" / "gum-reddit-corefud" / "en_gumreddit-ud-test.conllu")
    jsonl, back = str(tmp_path / "gum.jsonlines"), str(tmp_path / "back.conllu")
    assert main(["convert", gum, jsonl, "--to", "jsonlines"]) == 0
    assert main(["convert", jsonl, back, "--to", "corefud"]) == 0  # jsonlines has no heads to write
    capsys.readouterr()
    assert main(["score", gum, back, "--match", "head", "--heads", "tree", "-m", "muc"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{back}:") and "error: --match head needs the head of every mention" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    # where the source knew the heads, conversion writes them and head matching is perfect
    direct = str(tmp_path / "direct.conllu")
    assert main(["convert", gum, direct, "--to", "corefud"]) == 0
    assert score(gum, direct, ("muc",), match="head")["muc"].f1 == 1.0


# -- item 7: every number on file text through one checked conversion --------------------------

BIG = "9" * 5000


@pytest.mark.parametrize(
    ("rows", "line", "what"),
    [
        ([("²", "0", "")], 3, "the word id '²'"),
        ([(BIG, "0", "")], 3, "the word id"),
        ([("1", "²", "")], 3, "HEAD '²'"),
        ([("1", BIG, "")], 3, "HEAD"),
        ([("1", "+1", "")], 3, "HEAD '\\+1'"),
        ([("1", "0", ""), ("1.²", "_", "")], 4, "empty node number"),
        ([("1", "0", ""), (f"{BIG}.1", "_", "")], 4, "word id before the dot"),
        ([("1", "0", "(e1[²/2])")], 3, "part number"),
        ([("1", "0", f"(e1[1/{BIG}])")], 3, "part count"),
        ([("1", "0", "(e1-x-²)")], 3, "the head of"),
        ([("1", "0", f"(e1-x-{BIG})")], 3, "the head of"),
        ([("1", "2", "")], 3, "HEAD 2 points past the sentence's 1 words"),
    ],
)
def test_bad_numbers_are_one_line_errors(
    tmp_path: Path, rows: list[tuple[str, str, str]], line: int, what: str
) -> None:
    path = write(tmp_path, conllu(rows))
    with pytest.raises(InputError, match=rf"^{path}:{line}: error: .*{what}"):
        read(path)


@pytest.mark.parametrize(
    ("deps", "what"), [("²:nsubj", "a DEPS head '²' is not a number"), ("1.0:nsubj", "DEPS head '1.0' is not")]
)
def test_bad_deps_numbers_are_one_line_errors(tmp_path: Path, deps: str, what: str) -> None:
    text = conllu([("1", "0", "")]).replace("\n\n", "\n") + f"1.1\tw\t_\t_\t_\t_\t_\t_\t{deps}\t_\n\n"
    path = write(tmp_path, text)
    with pytest.raises(InputError, match=rf"^{path}:4: error: {what}"):
        read(path)


# -- item 5: linear time and memory on many nested and discontinuous mentions -------------------


def nested(n: int) -> str:
    """``n`` words in a chain (each word's parent the next one) and ``n`` mentions of ``n`` words each."""
    rows = []
    for w in range(1, n + 1):
        entity = "".join(f"(e{i}" for i in range(n)) if w == 1 else ""
        if w == n:
            entity += "".join(f"e{i})" for i in reversed(range(n)))
        rows.append((str(w), str(w + 1) if w < n else "0", entity))
    return conllu(rows)


def discontinuous(n: int) -> str:
    """``n`` open mentions of one entity over ``n`` discontinuous ones waiting for their second part."""
    rows = [(str(w), "_", "(e1(e1[1/2])") for w in range(1, n + 1)]
    rows += [(str(w), "_", "(e1[2/2])") for w in range(n + 1, 2 * n + 1)]
    rows += [(str(w), "_", "e1)") for w in range(2 * n + 1, 3 * n + 1)]
    return conllu(rows)


def line_events(run: Callable[[], object]) -> int:
    """Python lines the CorefUD reader executes during ``run()``: a measure of work free of timing."""
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if frame.f_code.co_filename != corefud.__file__:
            return None
        if event == "line":
            count += 1
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        run()
    finally:
        sys.settrace(previous)
    return count


def peak_memory(run: Callable[[], object]) -> int:
    """The peak of memory allocated by ``run``, once warm: a first run fills the interpreter's free
    lists (of tuples, say) as a reader may or may not have left them, which tracemalloc would count."""
    run()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("make", "n"), [(nested, 400), (discontinuous, 60)])
def test_work_grows_linearly_with_the_file(make: Callable[[int], str], n: int) -> None:
    small, large = make(n), make(2 * n)
    ratio = line_events(lambda: read_corefud("f", large)) / line_events(lambda: read_corefud("f", small))
    assert ratio < 2.5  # mentions x words (old: 4) or cubic pairing of parts (old: about 8) is refused


def test_memory_follows_the_mentions_not_mentions_times_words() -> None:
    small, large = nested(1000), nested(2000)
    ratio = peak_memory(lambda: read_corefud("f", large)) / peak_memory(lambda: read_corefud("f", small))
    assert ratio < 2.5


def test_long_mentions_get_the_syntactic_head_the_definition_gives() -> None:
    """First word whose parent is outside the mention (found in a segment tree for long mentions)."""
    rng = random.Random(7)
    n = 600
    parents = [rng.randrange(0, n + 1) for _ in range(n)]  # 1-based HEAD, 0 for the root
    spans = [tuple(sorted(rng.sample(range(n), 2))) for _ in range(200)] + [(0, n - 1), (5, 5 + corefud.SHORT)]
    opening: dict[int, list[str]] = {}
    closing: dict[int, list[str]] = {}
    for i, (a, b) in enumerate(spans):
        opening.setdefault(a, []).append(f"(e{i}")
        closing.setdefault(b, []).insert(0, f"e{i})")
    rows = [(str(w + 1), str(parents[w]), "".join(closing.get(w, []) + opening.get(w, []))) for w in range(n)]
    doc = read_corefud("f", conllu(rows), heads="tree").documents[0]
    assert doc.heads is not None
    got = {(s, e): h for s, e, h in zip(doc.starts.tolist(), doc.ends.tolist(), doc.heads.tolist(), strict=True)}
    for a, b in spans:
        outside = [w for w in range(a, b + 1) if not a <= parents[w] - 1 <= b]
        assert got[(a, b)] == (outside[0] if outside else a)


def test_parts_pair_with_the_earliest_mention_waiting_for_them() -> None:
    rows = [("1", "_", "(e1[1/2])"), ("2", "_", "(e1[1/2])"), ("3", "_", "(e1[2/2])"), ("4", "_", "(e1[2/2])")]
    doc = read_corefud("f", conllu(rows)).documents[0]
    assert sorted(doc.parts.values()) == [(0, 2), (1, 3)]


def test_nodes_held_one_by_one_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corefud, "MAX_HELD", 5)
    monkeypatch.setattr(corefud, "HELD_PER_NODE", 0)
    rows = [("1", "_", "(e1[1/2]"), *[(str(w), "_", "") for w in range(2, 8)], ("8", "_", "e1[1/2])")]
    rows += [("9", "_", ""), ("10", "_", "(e1[2/2])")]
    with pytest.raises(InputError, match=r"^f:3: error: discontinuous mentions .* cover 9 nodes in all"):
        read_corefud("f", conllu(rows))


def staircase(n: int) -> str:
    """``n`` words in a chain and ``n`` distinct mentions, word ``i`` to the last word."""
    rows = [(str(w), str(w + 1) if w < n else "0", f"(e{w}") for w in range(1, n + 1)]
    rows[-1] = (str(n), "0", f"(e{n}" + "".join(f"e{i})" for i in reversed(range(1, n + 1))))
    return conllu(rows)


@pytest.mark.parametrize("mode", ["head", "partial"])
def test_matching_memory_follows_the_mentions_not_mentions_times_words(mode: str) -> None:
    def run(n: int) -> Callable[[], object]:
        doc = read_corefud("f", staircase(n), heads="tree").documents[0]
        return lambda: match_alignment(doc, doc, mode)

    small, large = run(500), run(1000)
    assert peak_memory(large) / peak_memory(small) < 2.5


def test_runs_and_word_sets_share_words_as_sets_do() -> None:
    rng = random.Random(3)
    for _ in range(500):
        a, b = sorted(rng.sample(range(30), 2)), sorted(rng.sample(range(30), 2))
        sets = [frozenset(rng.sample(range(30), rng.randrange(1, 8))) for _ in range(2)]
        for x, y in [((a[0], a[1]), (b[0], b[1])), ((a[0], a[1]), sets[0]), (sets[0], (b[0], b[1])), tuple(sets)]:
            as_set = [frozenset(range(w[0], w[1] + 1)) if isinstance(w, tuple) else w for w in (x, y)]
            assert _common(x, y) == len(as_set[0] & as_set[1])
            assert _within(x, y) == (as_set[0] <= as_set[1])


def test_conversion_writes_the_heads_its_source_knew_and_no_others(tmp_path: Path) -> None:
    with_tree = conllu([("1", "2", "(e1"), ("2", "0", "e1)")])
    without = conllu([("1", "_", "(e2"), ("2", "_", "e2)"), ("3", "_", "(e2)")]).replace(HEADER, "")
    source = read(write(tmp_path, with_tree + without), heads="tree")
    text = render(source, "corefud")[0]
    assert "Entity=(e1--2\n" in text and "Entity=(e2\n" in text  # a head field where known only
    back = read(write(tmp_path, text, "back.conllu"), heads="tree").documents[0]
    assert back.heads is not None and source.documents[0].heads is not None
    assert back.heads.tolist() == source.documents[0].heads.tolist() == [1, NO_HEAD, 4]
    assert [line.split("\t")[6] for line in text.splitlines() if line[:1].isdigit()] == ["_"] * 5
