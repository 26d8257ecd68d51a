"""``--match craft`` and the other matchings of ``corefeval score`` on Universal Anaphora files,
against ufal/corefud-scorer's copy of the UA scorer (``ua-scorer.py -f ua``): its test files and
generated pairs; a worked example of its greedy choice runs without it."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefeval
from corefeval.cli import main

from .generator import HEADER, pair
from .test_ua_score import _doc
from .ua_copy_peer import MEASURES, copy_options, copy_peer, our_scores
from .ua_peer import ua_test_pairs

DATA = Path(__file__).parents[1] / "data" / "ua" / "craft"
PEER = copy_peer()
needs_peer = pytest.mark.skipif(
    PEER is None,
    reason="ufal/corefud-scorer (its ua-scorer.py) is not installed: set COREFUD_SCORER and COREFUD_PYTHON",
)
#: The copy's UA test files, and the UA scorer's plural tests beside it (when present).
ROOTS = [Path("/work/scratch/peers/corefud-scorer/tests/tests-ua"), Path("/work/scratch/ua/uas/plural-tests")]
MODES = [(match, singletons) for match in ("exact", "craft", "partial") for singletons in ("keep", "remove")]


def test_craft_takes_the_first_key_mention_a_response_fits_even_a_taken_one() -> None:
    """Key {a=w0-w3, c} {b=w2-w3, d}; response {r1=w1-w2, c} {r2=w2, d}. r1 lies within a only and
    takes it; r2 lies within a and b, is offered a (first by start) and, a being taken, stays
    unmatched although b was free: MUC finds c-a (1 of 2 key links); B-cubed recall
    (1 + 1 + 0 + 1/2) / 4 = 2.5 / 4 (a one-to-one optimum would give b to r2: 1)."""
    result = corefeval.score(str(DATA / "greedy.key"), str(DATA / "greedy.response"), ["muc", "bcub"], match="craft")
    muc, bcub = result.corpus["muc"], result.corpus["bcub"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (1, 2, 1, 2)
    assert (bcub.recall, bcub.precision) == pytest.approx((2.5 / 4, 2.5 / 4))
    assert "|match:craft|" in result.signature


def test_craft_matches_a_response_within_the_key(tmp_path: Path) -> None:
    """Response {r=w2, c} {d}: r lies within a and b and takes a, the first by start: c-a is found."""
    cells = ["_", "_", "(EntityID=1|MarkableID=r)", "_", "_", "_", "(EntityID=1|MarkableID=c)", "_"]
    cells += ["(EntityID=2|MarkableID=d)", "_"]
    response = tmp_path / "r.conllu"
    response.write_text(HEADER + "\n" + _doc("d", cells), encoding="utf-8")
    key = str(DATA / "greedy.key")
    assert corefeval.score(key, str(response), ["muc"], match="craft").corpus["muc"].recall_num == 1
    assert corefeval.score(key, str(response), ["muc"]).corpus["muc"].recall_num == 0


def test_craft_on_another_format_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    data = Path(__file__).parents[1] / "data"
    key = str(next(p for p in sorted(data.rglob("*.conll")) if p.is_file()))
    assert main(["score", key, key, "--match", "craft"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"{key}:") and "--match craft" in err


def _named_closers(path: Path) -> bool:
    """Whether a file closes markables by name (``m1)``), which the copy reads only with
    ``--allow-boundary-crossing``."""
    for line in path.read_text(encoding="utf-8").splitlines():
        cols = line.split()
        if len(cols) > 10 and not line.startswith("#") and re.search(r"[^()]\)", cols[10].split("(")[0]):
            return True
    return False


def _discontinuous(path: Path) -> bool:
    """Whether a markable id opens twice (a discontinuous markable: the copy takes all its parts,
    corefeval, as the UA scorer 2.0, its last; see docs/anaphora.md)."""
    ids = re.findall(r"MarkableID=([^|)(\s]+)", path.read_text(encoding="utf-8"))
    return len(ids) != len(set(ids))


def _compare(jobs: list[tuple[Path, Path, str, str]]) -> tuple[int, list[str]]:
    """How many runs equal the copy's numbers, and what differs (runs where the copy fails are skipped)."""
    assert PEER is not None
    options = [copy_options(m, s) + (["--allow-boundary-crossing"] if _named_closers(k) else []) for k, _, m, s in jobs]
    theirs = PEER.many([(k, r, o) for (k, r, _, _), o in zip(jobs, options)])
    equal, differ = 0, []
    for (key, response, match, singletons), peer in zip(jobs, theirs):
        if "error" in peer:
            continue
        ours = our_scores(key, response, match, singletons)
        for m in MEASURES:
            if not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(ours[m], peer[m])):  # type: ignore[call-overload]
                differ.append(f"{key.name} {response.name} {match} {singletons} {m}: {ours[m]} != {peer[m]}")
        equal += 1
    return equal, differ


@needs_peer
def test_the_copys_test_files() -> None:
    pairs = [(k, r) for k, r in ua_test_pairs([p for p in ROOTS if p.is_dir()])]
    if not pairs:
        pytest.skip("the UA test files are not at " + ", ".join(map(str, ROOTS)))
    # zeros (decimal word ids) and discontinuous markables are read differently (docs/anaphora.md)
    plain = [(k, r) for k, r in pairs if not (_discontinuous(k) or _discontinuous(r)) and "/zeros/" not in str(k)]
    equal, differ = _compare([(k, r, m, s) for k, r in plain for m, s in MODES])
    assert not differ, differ[:5]
    assert equal >= 300


@needs_peer
@pytest.mark.parametrize("distinct", [False, True])
def test_generated_pairs(distinct: bool, tmp_path: Path) -> None:
    jobs = []
    for seed in range(40):
        key_text, response_text = pair(seed, distinct=distinct)
        key, response = tmp_path / f"{seed}.key", tmp_path / f"{seed}.response"
        key.write_text(key_text, encoding="utf-8")
        response.write_text(response_text, encoding="utf-8")
        jobs += [(key, response, m, s) for m, s in MODES]
    equal, differ = _compare(jobs)
    assert not differ, differ[:5]
    assert equal == len(jobs)


def _literal_craft(key: list[tuple[int, int]], response: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The copy's rule written out item by item (the oracle): pairs of (key span, response span)
    beyond the equal spans; each response, in span order, takes the first key span containing it,
    and only if that one is still free."""
    twins = set(key) & set(response)
    keys = sorted(set(key) - twins)
    used: set[tuple[int, int]] = set()
    out = set()
    for r in sorted(set(response) - twins):
        for k in keys:
            if k[0] <= r[0] and r[1] <= k[1]:
                if k not in used:
                    used.add(k)
                    out.add((k, r))
                break
    return out


spans = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 4)).map(lambda t: (t[0], t[0] + t[1])), max_size=12)


@settings(max_examples=200, deadline=None)
@given(spans, spans)
def test_craft_pairs_follow_the_copys_rule(key: list[tuple[int, int]], response: list[tuple[int, int]]) -> None:
    from corefeval.core.model import make_document
    from corefeval.matching.head_and_partial import candidates, craft_pairs

    kdoc = make_document("d", [[s] for s in key], n_tokens=20)
    rdoc = make_document("d", [[s] for s in response], n_tokens=20)
    twins, _ = candidates(kdoc, rdoc, "exact")
    pairs = craft_pairs(kdoc, rdoc, twins)

    def span(doc: object, row: int) -> tuple[int, int]:
        return int(doc.starts[row]), int(doc.ends[row])  # type: ignore[attr-defined]

    assert {(span(kdoc, k), span(rdoc, r)) for k, r in pairs} == _literal_craft(key, response)


ZEROS = Path(__file__).parents[1] / "data" / "ua" / "zeros"


@pytest.mark.parametrize(("zeros", "recall"), [("include", (2, 3)), ("exclude", (2, 2))])
def test_zeros_are_empty_nodes(zeros: str, recall: tuple[int, int]) -> None:
    """Key {a b} {c he d}, "he" the zero 5.1; the response has no zero line: its words are the key's.
    MUC recall: with zeros, c-he-d has 2 links and the response finds 1 (c-d): 2 of 3; without, 2 of 2."""
    result = corefeval.score(str(ZEROS / "key.conllu"), str(ZEROS / "response.conllu"), ["muc"], zeros=zeros)
    muc = result.corpus["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (*recall, 2, 2)


def test_zeros_stay_lines_for_the_anaphora_measures() -> None:
    """The UA scorer 2.0 numbers every line, a zero's too: its measures still see the response's d
    one line earlier than the key's (so c-d is not found there)."""
    result = corefeval.score(str(ZEROS / "key.conllu"), str(ZEROS / "response.conllu"), ["ua-muc"])
    assert result.corpus["ua-muc"].recall_num == 1


def test_zeros_dependent_on_a_ua_key_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    key = str(ZEROS / "key.conllu")
    assert main(["score", key, key, "--zeros", "dependent"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"{key}:") and "DEPS" in err


def _with_zeros(text: str, seed: int, keep: float) -> str:
    """``text`` with zero lines added after some words (the same places for the same seed), each a
    one-word markable of an entity of its document or of a new one, or no markable; ``keep``: the
    share of zero lines written (a response may lack some)."""
    import random

    rng, out, entities = random.Random(seed), [], ["z"]
    for line in text.split("\n"):
        out.append(line)
        cells = line.split("\t")
        if line.startswith("# newdoc"):
            entities = ["z"]
        if len(cells) < 11 or line.startswith("#"):
            continue
        entities += re.findall(r"EntityID=([^|)(]+)", cells[10])
        written = 0  # zero ids after a word run 1, 2... (the copy numbers zeros by their order)
        for k in range(1, 3):
            if rng.random() < 0.2:
                entity = rng.choice(entities)
                cell = f"(EntityID={entity}|MarkableID=z{cells[0]}_{k})" if rng.random() < 0.8 else "_"
                if rng.random() < keep:
                    written += 1
                    out.append("\t".join([f"{cells[0]}.{written}", "zero", *["_"] * 8, cell, "_", "_"]))
    return "\n".join(out)


ZERO_MODES = [(s, z) for s in ("keep", "remove") for z in ("include", "exclude")]


@needs_peer
def test_zeros_against_the_copy(tmp_path: Path) -> None:
    """The copy's zero test files and generated pairs with zeros, exact match (the copy fails on
    zeros under -a partial-craft)."""
    assert PEER is not None
    jobs = [(k, r) for k, r in ua_test_pairs([ROOTS[0] / "zeros"])]
    for seed in range(30):
        key_text, response_text = pair(seed, distinct=seed % 2 == 0)
        key, response = tmp_path / f"{seed}.key", tmp_path / f"{seed}.response"
        key.write_text(_with_zeros(key_text, seed, 1.0), encoding="utf-8")
        response.write_text(_with_zeros(response_text, seed, 0.8), encoding="utf-8")
        jobs.append((key, response))
    runs = [(k, r, s, z) for k, r in jobs for s, z in ZERO_MODES]
    theirs = PEER.many([(k, r, copy_options("exact", s, z)) for k, r, s, z in runs])
    compared, differ = 0, []
    for (key, response, singletons, zeros), peer in zip(runs, theirs):
        if "error" in peer:
            # responses whose words differ; its division by zero (see "Faithful to the UA scorer")
            assert str(peer["error"]).startswith(("DataAlignError", "ZeroDivisionError")), peer
            continue
        ours = our_scores(key, response, "exact", singletons, zeros)
        for m in MEASURES:
            if not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(ours[m], peer[m])):  # type: ignore[call-overload]
                differ.append(f"{key.name} {response.name} {singletons} {zeros} {m}: {ours[m]} != {peer[m]}")
        compared += 1
    assert not differ, differ[:5]
    assert compared >= 100


@pytest.mark.parametrize(("cell", "found"), [("(EntityID=1|MarkableID=r1", 1), ("_", 0)])
def test_partial_on_ua_needs_the_key_min_span(cell: str, found: int, tmp_path: Path) -> None:
    """Key {w0-w2 (Min w1), w4}; the response's w1-w2 holds the minimum span and lies within: it
    matches (MUC finds the link); w2 alone does not hold it, and matches nothing."""
    key_cells = ["(EntityID=1|MarkableID=k1|Min=2", "_", ")", "_", "(EntityID=1|MarkableID=k2)"]
    last = ")" if cell != "_" else "(EntityID=1|MarkableID=r1)"
    response_cells = ["_", cell, last, "_", "(EntityID=1|MarkableID=r2)"]
    key, response = tmp_path / "k.conllu", tmp_path / "r.conllu"
    key.write_text(HEADER + "\n" + _doc("d", key_cells), encoding="utf-8")
    response.write_text(HEADER + "\n" + _doc("d", response_cells), encoding="utf-8")
    assert corefeval.score(str(key), str(response), ["muc"], match="partial").corpus["muc"].recall_num == found
    assert corefeval.score(str(key), str(response), ["muc"]).corpus["muc"].recall_num == 0


def test_partial_on_ua_with_zeros_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    key = str(ZEROS / "key.conllu")
    assert main(["score", key, key, "--match", "partial"]) == 2
    assert "--match partial on a Universal Anaphora file with zeros" in capsys.readouterr().err
