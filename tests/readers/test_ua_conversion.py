"""``convert`` between Universal Anaphora and CorefUD: zeros (empty nodes) kept both ways."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import corefeval
from corefeval.cli import main
from corefeval.readers import read
from corefeval.readers.ua import UACorpus
from tests.anaphora.generator import pair
from tests.anaphora.test_ua_score_peer import _with_zeros


def _ua_with_zeros(tmp_path: Path, seed: int) -> Path:
    """A generated UA key with zeros; no span twice (CorefUD makes one mention of a span twice in an entity)."""
    key, _ = pair(seed, distinct=True)
    path = tmp_path / f"{seed}.conllu"
    path.write_text(_with_zeros(key, seed, 1.0), encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", range(8))
def test_ua_with_zeros_to_ua_keeps_every_line(seed: int, tmp_path: Path) -> None:
    source = _ua_with_zeros(tmp_path, seed)
    again = tmp_path / "again.conllu"
    assert main(["convert", str(source), str(again), "--to", "ua"]) == 0
    before, after = read(str(source)), read(str(again))
    assert isinstance(before, UACorpus) and isinstance(after, UACorpus)
    assert after.zero_lines == before.zero_lines and after.sentences == before.sentences
    assert [d.identity for d in after.anaphora] == [
        tuple(m.__class__(**{**m.__dict__, "line": a.line}) for m, a in zip(d.identity, e.identity))
        for d, e in zip(before.anaphora, after.anaphora)
    ]


@pytest.mark.parametrize("seed", range(8))
def test_ua_with_zeros_to_corefud_scores_perfectly_against_itself(seed: int, tmp_path: Path) -> None:
    source = _ua_with_zeros(tmp_path, seed)
    corefud = tmp_path / "corefud.conllu"
    assert main(["convert", str(source), str(corefud), "--to", "corefud"]) == 0
    assert read(str(corefud)).format == "corefud"
    result = corefeval.score(str(source), str(corefud), ["muc", "bcub", "ceafe", "mentions"], blanc="reference")
    zeros = sum(len(parts) for d in read(str(source)).documents for parts in d.parts.values())
    assert zeros > 0
    for metric in ("muc", "bcub", "ceafe", "mentions"):
        assert result.corpus[metric].f1 == pytest.approx(1.0) or result.corpus[metric].recall_den == 0, metric


# Issue 32, item 8: a CoNLL-U source's every column and line, multiword tokens and empty nodes too.

DATA = Path(__file__).resolve().parents[1] / "data" / "ua"
#: A CorefUD document with a multiword token (``1-2``), an empty node (``2.1``) in a mention, a
#: mention across the multiword token, comments, and MISC besides ``Entity``.
COREFUD = DATA / "multiword.conllu"
#: What ``convert --to ua`` writes of it: every line, every column, the layers on the node lines,
#: MISC without ``Entity`` (the IDENTITY column holds it).
UA = DATA / "multiword.ua.conllu"


def test_corefud_to_ua_keeps_every_column_and_line(tmp_path: Path) -> None:
    out = tmp_path / "out.conllu"
    assert main(["convert", str(COREFUD), str(out), "--to", "ua"]) == 0
    assert out.read_text(encoding="utf-8") == UA.read_text(encoding="utf-8")


def test_ua_to_ua_keeps_multiword_and_empty_node_lines(tmp_path: Path) -> None:
    out = tmp_path / "out.conllu"
    assert main(["convert", str(UA), str(out), "--to", "ua"]) == 0
    assert out.read_text(encoding="utf-8") == UA.read_text(encoding="utf-8")


def test_markables_stand_on_the_source_s_nodes() -> None:
    """Positions as the UA scorer numbers them, every node line counted: ``1-2`` is position 0, the
    empty node 2.1 position 8 (a zero of the identity layer)."""
    corpus = read(str(UA))
    assert isinstance(corpus, UACorpus)
    (doc,) = corpus.anaphora
    assert sorted((m.entity, m.start, m.end) for m in doc.identity) == [
        ("e1", 1, 1),
        ("e1", 8, 8),
        ("e3", 7, 7),
        ("e4", 1, 3),
        ("e4", 6, 6),
    ]
    assert list(corpus.zero_lines["d1"]) == [8]


def test_standard_input_keeps_them_and_a_pipe_says_what_it_cannot(tmp_path: Path) -> None:
    out = tmp_path / "out.conllu"
    argv = [sys.executable, "-m", "corefeval", "convert", "-", str(out), "--to", "ua"]
    done = subprocess.run(argv, input=COREFUD.read_bytes(), capture_output=True)
    assert done.returncode == 0 and done.stderr == b""
    assert out.read_text(encoding="utf-8") == UA.read_text(encoding="utf-8")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    runner = subprocess.Popen([*argv[:4], str(fifo), *argv[5:]], stderr=subprocess.PIPE, text=True)
    fifo.write_bytes(COREFUD.read_bytes())
    _, err = runner.communicate(timeout=60)
    assert runner.returncode == 0 and "a pipe cannot be read twice" in err
    assert "LEMMA" in out.read_text(encoding="utf-8") and "\tJohn\tJohn\t" not in out.read_text(encoding="utf-8")


def _node_lines(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize("split", ["dev", "test"])
def test_gum_to_ua_keeps_its_lines_mentions_and_syntax(shared: Path, split: str, tmp_path: Path) -> None:
    source = shared / "realdata" / "gum-reddit-corefud" / f"en_gumreddit-ud-{split}.conllu"
    out = tmp_path / "gum.ua.conllu"
    assert main(["convert", str(source), str(out), "--to", "ua"]) == 0
    text, written = source.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")
    comments = [x for x in text.splitlines() if x.startswith("#") and not x.startswith(("# global.", "# newdoc"))]
    assert [x for x in written.splitlines()[1:] if x.startswith("#") and not x.startswith("# newdoc")] == comments
    before, after = _node_lines(text), _node_lines(written)
    assert len(after) == len(before) and any("-" in cells[0] for cells in after)  # multiword tokens kept
    for old, new in zip(before, after):
        misc = [m for m in old[9].split("|") if not m.startswith(("Entity=", "SplitAnte=", "Bridge="))]
        assert new[:10] == [re.sub(r"\s", "_", c) for c in [*old[:9], "|".join(misc) or "_"]]
    # the mentions, from node lines back to words, are the CorefUD reader's
    corefud, ua = read(str(source)), read(str(out))
    assert isinstance(ua, UACorpus)
    for doc, layers in zip(corefud.documents, ua.anaphora):
        ids = [
            cells[0] for cells in _node_lines(written.split(f"# newdoc id = {doc.name}\n", 1)[1].split("# newdoc")[0])
        ]
        word_of = {node: w for w, node in enumerate(i for i, x in enumerate(ids) if x.isdigit())}
        clusters = {(doc.labels[k], s, e) for s, e, k in zip(doc.starts, doc.ends, doc.entities)}
        assert {(m.entity, word_of[m.start], word_of[m.end]) for m in layers.identity} == clusters
    # --np-only reads the key's UPOS and HEAD columns
    assert main(["score", str(out), str(out), "--np-only", "-m", "muc"]) == 0
