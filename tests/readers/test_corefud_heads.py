"""The head of a CorefUD mention whose file gives no ``head`` field: the run option ``heads``.

``first`` (the default) takes the mention's first node, as udapi and so the CorefUD scorer do,
``tree`` the syntactic head; the CRAC presets read with ``first``. The pair below makes the two disagree:
the key mention "The big dog" has the tree head "dog" and the first word "The"; the response has
the one-word mention "dog" in the same entity.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import corefeval
from corefeval.cli import main
from corefeval.core.diagnostics import InputError, UsageError
from corefeval.core.options import Options
from corefeval.readers import read
from corefeval.scoring.distributed.documents import score_by_documents
from corefeval.scoring.distributed.unit import unit_options
from corefeval.scoring.presets import ALL_MODES, PRESETS, preset, preset_options
from corefeval.scoring.variants import score_variants
from corefeval.writers import render

WARNING = "no 'head' field"


def _document(name: str, eid: str, dog: tuple[str, str, str], it: str) -> list[str]:
    words = [
        ("1", "The", "the", "DET", "3", "det", dog[0]),
        ("2", "big", "big", "ADJ", "3", "amod", dog[1]),
        ("3", "dog", "dog", "NOUN", "4", "nsubj", dog[2]),
        ("4", "barked", "bark", "VERB", "0", "root", "_"),
        ("5", ".", ".", "PUNCT", "4", "punct", "_"),
    ]
    more = [
        ("1", "It", "it", "PRON", "2", "nsubj", it),
        ("2", "slept", "sleep", "VERB", "0", "root", "_"),
        ("3", ".", ".", "PUNCT", "2", "punct", "_"),
    ]
    lines = [f"# newdoc id = {name}", f"# sent_id = {name}-1"]
    lines += ["\t".join((i, f, lem, pos, "_", "_", h, rel, "_", misc)) for i, f, lem, pos, h, rel, misc in words]
    lines += ["", f"# sent_id = {name}-2"]
    lines += ["\t".join((i, f, lem, pos, "_", "_", h, rel, "_", misc)) for i, f, lem, pos, h, rel, misc in more]
    return [*lines, ""]


def _file(path: Path, response: bool, fields: str = "eid-etype") -> str:
    lines = [f"# global.Entity = {fields}"]
    for name, eid in (("d1", "e1"), ("d2", "e2")):
        whole = (f"Entity=({eid}-animal", "_", f"Entity={eid})")
        if fields != "eid-etype":
            whole = (f"Entity=({eid}-animal-3", "_", f"Entity={eid})")
        dog = ("_", "_", f"Entity=({eid}-animal-1)" if fields != "eid-etype" else f"Entity=({eid}-animal)")
        it = f"Entity=({eid}-animal-1)" if fields != "eid-etype" else f"Entity=({eid}-animal)"
        lines += _document(name, eid, dog if response else whole, it)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def pair(tmp_path: Path) -> tuple[str, str]:
    return _file(tmp_path / "key.conllu", False), _file(tmp_path / "response.conllu", True)


def _f1(result: corefeval.ScoreResult) -> dict[str, float]:
    return {m: round(100 * result[m].f1, 2) for m in ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "conll")}


# The CorefUD scorer 1.2 (corefud-scorer.py KEY RESPONSE -a head|partial, with and without -s) run on
# this pair gave these F1 for every one of those four settings (it takes the first word as the head).
COREFUD_SCORER = {"muc": 0.0, "bcub": 25.0, "ceafe": 50.0, "ceafm": 50.0, "blanc": 0.0, "lea": 0.0, "conll": 25.0}


def test_options_take_heads_and_refuse_others() -> None:
    assert Options().heads == "first"
    assert Options(heads="tree").heads == "tree"
    with pytest.raises(UsageError, match="unknown heads option 'last'"):
        Options(heads="last")


def test_signature_names_heads_where_a_corefud_file_is_read_or_not_the_default() -> None:
    assert "heads" not in Options().signature(1, "x")
    assert "|heads:tree|" in Options(heads="tree").signature(1, "x")
    assert "|heads:first|" in Options(key_format="corefud", response_format="text2text").signature(1, "x")


def test_presets_read_first_words_as_heads() -> None:
    for name, (variants, _) in PRESETS.items():
        assert preset_options(name, Options()).heads == "first"
        assert {v.options(Options()).heads for v in variants} == {"first"}
    assert {v.options(Options(heads="tree")).heads for v in ALL_MODES} == {"tree"}
    assert {v.options(Options()).heads for v in ALL_MODES} == {"first"}


@pytest.mark.parametrize("singletons", ["keep", "remove"])
@pytest.mark.parametrize("match", ["head", "partial"])
def test_first_words_give_the_corefud_scorers_numbers(pair: tuple[str, str], match: str, singletons: str) -> None:
    tree = corefeval.score(*pair, options=Options(match=match, singletons=singletons, heads="tree"))
    first = corefeval.score(*pair, options=Options(match=match, singletons=singletons))
    assert _f1(tree) == dict.fromkeys(COREFUD_SCORER, 100.0)  # "dog" heads both mentions
    assert _f1(first) == COREFUD_SCORER


def test_exact_match_does_not_depend_on_heads(pair: tuple[str, str]) -> None:
    tree = corefeval.score(*pair, options=Options(singletons="remove"))
    first = corefeval.score(*pair, options=Options(singletons="remove", heads="first"))
    assert _f1(tree) == _f1(first) == COREFUD_SCORER
    assert not [w for w in first.warnings if WARNING in w.message]


@pytest.mark.parametrize("heads", ["tree", "first"])
def test_one_warning_per_file_without_head_field(pair: tuple[str, str], heads: str) -> None:
    result = corefeval.score(*pair, options=Options(match="head", heads=heads))
    found = [w for w in result.warnings if WARNING in w.message]
    # both documents of the key have such a mention; the response's mentions are one word each
    assert [(w.path, w.line) for w in found] == [(pair[0], 4)]  # the first such mention's line
    assert ("from the tree" in found[0].message) == (heads == "tree")


def test_no_warning_when_the_file_gives_heads(tmp_path: Path) -> None:
    key = _file(tmp_path / "key.conllu", False, "eid-etype-head-other")
    response = _file(tmp_path / "response.conllu", True, "eid-etype-head-other")
    for heads in ("tree", "first"):
        result = corefeval.score(key, response, options=Options(match="head", heads=heads))
        assert not [w for w in result.warnings if WARNING in w.message]
        assert _f1(result) == dict.fromkeys(COREFUD_SCORER, 100.0)  # head 3 of "The big dog" is "dog"
        key_heads = read(key, heads=heads).documents[0].heads
        assert key_heads is not None and key_heads.tolist() == [2, 5]


def test_variants_equal_separate_runs(pair: tuple[str, str]) -> None:
    variants, blanc = preset("crac2024")
    runs = [v.options(Options(blanc=blanc, preset="crac2024")) for v in variants]
    together = score_variants(*pair, runs)
    for opts, result in zip(runs, together, strict=True):
        alone = corefeval.score(*pair, options=opts)
        assert result.counts.tolist() == alone.counts.tolist()
        assert result.warnings == alone.warnings
        assert result.signature == alone.signature
        assert "heads:first" in result.signature


def test_variants_read_with_one_head_source(pair: tuple[str, str]) -> None:
    with pytest.raises(UsageError, match="heads"):
        score_variants(*pair, [Options(match="head"), Options(match="head", heads="tree")])


def test_document_by_document_reading_honours_heads_and_warns_once(pair: tuple[str, str]) -> None:
    for heads in ("tree", "first"):
        opts = Options(match="head", heads=heads)
        split, whole = score_by_documents(*pair, opts), corefeval.score(*pair, options=opts)
        assert split.counts.tolist() == whole.counts.tolist()
        assert sorted(map(str, split.warnings)) == sorted(map(str, whole.warnings))  # one head warning
        assert sum(WARNING in w.message for w in split.warnings) == 1


def test_a_parquet_unit_refuses_tree_heads() -> None:
    with pytest.raises(InputError, match="heads=tree"):
        unit_options("key.parquet", Options(heads="tree"))


def test_command_line(pair: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *pair, "--match", "head", "--heads", "first", "-m", "conll"]) == 0
    out, err = capsys.readouterr()
    assert "25.00" in out and "heads:first" in out
    assert err.count(WARNING) == 1 and f"{pair[0]}:4: warning:" in err
    assert main(["score", *pair, "--preset", "crac2024", "--heads", "tree"]) == 2
    assert "--heads" in capsys.readouterr().err
    assert main(["score", *pair, "--preset", "crac2024", "-m", "conll"]) == 0
    assert "heads:first" in capsys.readouterr().out


# The CorefUD scorer 1.2 on GUM Reddit's dev file (no head field) against the response below
# (corefud-scorer.py KEY RESPONSE -a head|partial [-s]): F1 of MUC, B-cubed, CEAFe and LEA.
GUM_COREFUD_SCORER = {
    ("head", "remove"): (54.77, 51.33, 58.53, 43.39),
    ("head", "keep"): (54.77, 45.56, 42.59, 39.58),
    ("partial", "remove"): (54.77, 50.93, 58.53, 43.39),
    ("partial", "keep"): (54.77, 44.41, 41.49, 39.39),
}


def test_real_file_without_head_field_scores_as_the_corefud_scorer(shared: Path, tmp_path: Path) -> None:
    """The response: every contiguous mention of several words of the key loses its first word
    (discontinuous mentions left out), written without heads or tree."""
    key = str(shared / "realdata" / "gum-reddit-corefud" / "en_gumreddit-ud-dev.conllu")
    gold = read(key, keep_tokens=True)
    docs = []
    for d in gold.documents:
        keep = np.array([row not in d.parts for row in range(d.n_mentions)], dtype=bool)
        starts, ends = d.starts[keep].copy(), d.ends[keep]
        starts[ends > starts] += 1
        docs.append(replace(d, starts=starts, ends=ends, entities=d.entities[keep], lines=None, parts={}, heads=None))
    response = tmp_path / "response.conllu"
    response.write_text(render(replace(gold, documents=docs), "corefud")[0], encoding="utf-8")
    for (match, singletons), expected in GUM_COREFUD_SCORER.items():
        opts = Options(match=match, singletons=singletons, zeros="dependent", heads="first")
        result = corefeval.score(key, str(response), options=opts)
        assert tuple(round(100 * result[m].f1, 2) for m in ("muc", "bcub", "ceafe", "lea")) == expected
