"""coval's mention options (--match min, --np-only, --remove-nested): trees, minimum spans, filters,
coval's own numbers on files with parse trees, and the errors for missing or broken parse columns."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Hashable
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import corefeval
from corefeval.core.diagnostics import InputError, UsageError
from corefeval.core.options import Options
from corefeval.matching.minspans import min_span
from corefeval.matching.syntactic_filters import _nested
from corefeval.readers.parse_trees import DocumentParse, mention_tree, read_parses

DATA = Path(__file__).resolve().parent.parent / "data" / "coval"
RECORDED = json.loads((DATA / "coval_numbers.json").read_text())
COVAL_DIR = os.environ.get("COVAL_DIR", "/work/scratch/coval/coval")
HAS_COVAL = (Path(COVAL_DIR) / "coval" / "conll" / "reader.py").is_file() and importlib.util.find_spec("scipy")
NEEDS_COVAL = pytest.mark.skipif(not HAS_COVAL, reason=f"coval is not checked out at {COVAL_DIR} (set COVAL_DIR)")
METRICS = ("mentions", "muc", "bcub", "ceafe", "lea")


def _record_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("record_coval", DATA / "record_coval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ours(case: dict[str, object], folder: Path = DATA) -> dict[str, list[float]]:
    options = Options(
        metrics=METRICS,
        match="min" if case["min_span"] else "exact",
        np_only=bool(case["np_only"]),
        remove_nested=bool(case["remove_nested"]),
        singletons=str(case["singletons"]),
    )
    result = corefeval.score(str(folder / str(case["key"])), str(folder / str(case["response"])), options=options)
    return {m: [result[m].recall, result[m].precision, result[m].f1] for m in METRICS}  # type: ignore[union-attr]


def name(case: dict[str, object]) -> str:
    on = [k for k in ("min_span", "np_only", "remove_nested") if case[k]]
    return f"{case['key']}:{'+'.join(on) or 'plain'}:singletons-{case['singletons']}"


@pytest.mark.parametrize("case", RECORDED, ids=name)
def test_coval_numbers_on_files_with_trees(case: dict[str, object]) -> None:
    got = ours(case)
    for metric in METRICS:
        assert got[metric] == pytest.approx(case["coval"][metric], abs=1e-12), metric  # type: ignore[index]


def test_the_options_change_the_numbers() -> None:
    """The recorded cases are not all one number: each option changes some score."""
    plain = {json.dumps(c["coval"]) for c in RECORDED if not (c["min_span"] or c["np_only"] or c["remove_nested"])}
    for option in ("min_span", "np_only", "remove_nested"):
        changed = {json.dumps(c["coval"]) for c in RECORDED if c[option]}
        assert changed - plain, option


@NEEDS_COVAL
def test_recorded_numbers_are_coval_s() -> None:
    record = _record_module()
    assert [{**c, "coval": record.coval_scores(COVAL_DIR, c)} for c in record.cases()] == RECORDED


# Minimum spans, worked by hand from coval's rules.


def parse_of(rows: list[tuple[str, str, str]]) -> DocumentParse:
    return DocumentParse([w for w, _, _ in rows], [p for _, p, _ in rows], [b for _, _, b in rows], [0])


COORD = parse_of(
    [
        ("John", "NNP", "(TOP(S(NP(NP*)"),
        ("and", "CC", "*"),
        ("Mary", "NNP", "(NP*))"),
        ("met", "VBD", "(VP*"),
        ("the", "DT", "(NP*"),
        ("big", "JJ", "*"),
        ("board", "NN", "*))"),
        (".", ".", "*))"),
    ]
)


@pytest.mark.parametrize(
    "start,end,expected",
    [
        (0, 2, {("John", 0), ("Mary", 2)}),  # a conjunct each
        (2, 2, {("Mary", 2)}),
        (4, 6, {("the big board", 6)}),  # words no bracket separates are one leaf
        (3, 6, {("met", 4)}),  # a verb phrase: its verb, indexed where its leaf ends (at "the")
        (1, 1, {("and", 0)}),  # only a conjunction: coval's fallback, positions within the mention
    ],
)
def test_minimum_spans(start: int, end: int, expected: set[tuple[str, int]]) -> None:
    tree = mention_tree(COORD, 0, start, end)
    assert min_span(tree, COORD.words[start : end + 1]) == expected


def test_tree_root_and_leaves() -> None:
    tree = mention_tree(COORD, 0, 3, 6)
    assert tree is not None and tree.tag == "VP" and not tree.terminal
    assert [(c.tag, c.terminal) for c in tree.children] == [("met", True), ("NP", False)]


def test_no_tree_means_no_minimum_span() -> None:
    assert min_span(None, ["x"]) == frozenset()


def test_deep_brackets_are_linear_not_recursive() -> None:
    depth = 100_000
    deep = parse_of([("word", "NN", "(NP" * depth + "*" + ")" * depth)])
    tree = mention_tree(deep, 0, 0, 0)
    assert tree is not None and tree.tag == "NP"
    assert min_span(tree, ["word"]) == {("word", 0)}


def test_deep_brackets_in_a_file(tmp_path: Path) -> None:
    depth = 100_000
    bit = "(TOP" + "(NP" * depth + "*" + ")" * (depth + 1)
    key = tmp_path / "deep.conll"
    key.write_text(f"#begin document d\nd 0 0 word NN {bit} - - - - * (0)\n#end document\n")
    result = corefeval.score(
        str(key), str(key), ["mentions"], options=Options(match="min", np_only=True, remove_nested=True)
    )
    assert result["mentions"].f1 == 1.0  # type: ignore[union-attr]


# remove_nested's counting against the quadratic definition.


def brute_nested(spans: list[tuple[int, int, Hashable]]) -> tuple[int, set[Hashable]]:
    count, inner = 0, set()
    for i, (s1, e1, m1) in enumerate(spans):
        for s2, e2, m2 in spans[i + 1 :]:
            if m1 == m2:
                continue
            if s2 <= s1 and e1 <= e2:
                count += 1
                inner.add(m1)
            elif s1 <= s2 and e2 <= e1:
                count += 1
                inner.add(m2)
    return count, inner


SPANS = st.lists(st.tuples(st.integers(0, 8), st.integers(0, 4), st.integers(0, 2)), max_size=12)


@settings(max_examples=300, deadline=None)
@given(SPANS, st.booleans())
def test_nested_pairs_as_defined(raw: list[tuple[int, int, int]], by_min_span: bool) -> None:
    # with minimum spans, mentions of different spans may be the same mention (one identity)
    spans = [(s, s + n, ("m", g) if by_min_span else (s, s + n)) for s, n, g in raw]
    spans = [(s, e, m if by_min_span else (s, e)) for s, e, m in spans]
    if by_min_span:  # one span, one identity
        first: dict[tuple[int, int], Hashable] = {}
        spans = [(s, e, first.setdefault((s, e), m)) for s, e, m in spans]
    assert _nested(spans) == brute_nested(spans)


# Errors.


def write(tmp_path: Path, body: str) -> str:
    path = tmp_path / "k.conll"
    path.write_text(f"#begin document d\n{body}#end document\n")
    return str(path)


@pytest.mark.parametrize(
    "body,line,words",
    [
        ("d 0 0 a DT (0)\n", 2, "needs the parse column"),
        ("d 0 0 a DT - - - - - * (0)\n", 2, "a '-' means the file has no trees"),
        ("d 0 0 a DT (NP** - - - - * (0)\n", 2, "not brackets around one '*'"),
        ("d 0 0 a DT (S(NP*) - - - - * (0)\n\n", 2, "do not balance"),
        ("d 0 0 a DT *) - - - - * (0)\n", 2, "never opened"),
    ],
)
def test_broken_parse_columns(tmp_path: Path, body: str, line: int, words: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(InputError) as err:
        read_parses(path)
    assert err.value.diagnostic.line == line and words in str(err.value)


def test_cli_one_line_error(tmp_path: Path) -> None:
    path = write(tmp_path, "d 0 0 a DT (0)\n")
    run = subprocess.run(
        [sys.executable, "-m", "corefeval", "score", path, path, "--np-only"], capture_output=True, text=True
    )
    assert run.returncode == 1
    assert run.stderr.strip().count("\n") == 0 and run.stderr.startswith(f"{path}:2: error: --np-only needs")


def test_key_from_standard_input_is_refused() -> None:
    key = dataclasses.replace(corefeval.readers.read(str(DATA / "key.conll")), path="-")
    response = corefeval.readers.read(str(DATA / "response.conll"))
    with pytest.raises(UsageError, match="give the key as a file"):
        corefeval.score(key, response, options=Options(np_only=True))


def test_key_without_trees_format_is_refused(tmp_path: Path) -> None:
    key = tmp_path / "k.jsonlines"
    key.write_text('{"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[0, 0], [1, 1]]]}\n')
    with pytest.raises(UsageError, match="needs a CoNLL-2012 key"):
        corefeval.score(str(key), str(key), options=Options(match="min"))


def test_remove_nested_needs_no_trees(tmp_path: Path) -> None:
    path = write(tmp_path, "d 0 0 a (0|(0)\nd 0 1 b 0)\nd 0 2 c (0)\n")
    result = corefeval.score(path, path, ["mentions"], options=Options(remove_nested=True))
    # the mention (0,0) lies inside (0,1) of its entity and is left out; (0,1) and (2,2) stay
    assert result["mentions"].recall_den == 2  # type: ignore[union-attr]


def test_crossing_mention_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "d 0 0 a DT (TOP(NP*)) - - - - * (0\n\nd 0 0 b NN (TOP(NP*)) - - - - * 0)\n")
    with pytest.raises(InputError, match="crosses a sentence boundary"):
        corefeval.score(path, path, options=Options(match="min"))


def test_signature_names_the_options_only_when_set() -> None:
    plain = Options().signature(1, "x")
    assert "nponly" not in plain and "nested" not in plain
    both = Options(np_only=True, remove_nested=True, match="min").signature(1, "x")
    assert "nponly:yes" in both and "nested:removed" in both and "match:min" in both


def test_head_matching_cannot_be_combined() -> None:
    with pytest.raises(UsageError, match="cannot be combined"):
        corefeval.score(str(DATA / "key.conll"), str(DATA / "key.conll"), options=Options(match="head", np_only=True))


DUPLICATE = """#begin document d
d 0 0 The DT (TOP(S(NP(NP* - - - - * {0}
d 0 1 man NN *) - - - - * 1)
d 0 2 who WP (SBAR(WHNP*) - - - - * -
d 0 3 left VBD (S(VP*)))) - - - - * {1}
d 0 4 saw VBD (VP* - - - - * -
d 0 5 him PRP (NP*)) - - - - * (1)
d 0 6 . . *)) - - - - * -

#end document
"""


def test_one_entity_naming_a_minimum_span_twice(tmp_path: Path) -> None:
    """'The man who left' and 'The man' have one minimum span: an entity with both has one mention
    there (coval counts it twice and gives CEAFe 120%; see docs/formats.md)."""
    key, response = tmp_path / "k.conll", tmp_path / "r.conll"
    key.write_text(DUPLICATE.format("(1|(1", "1)"))
    response.write_text(DUPLICATE.format("(1", "-"))
    result = corefeval.score(str(key), str(response), METRICS, options=Options(match="min"))
    assert [result[m].f1 for m in METRICS] == [1.0] * 5  # type: ignore[union-attr]
    assert result["mentions"].recall_den == 2  # type: ignore[union-attr]


# Random trees and mentions against coval itself.

LABELS = ("NP", "NP", "VP", "S", "PP", "NML", "QP", "ADJP")
WORDS = (("the", "DT"), ("man", "NN"), ("and", "CC"), ("of", "IN"), ("it", "PRP"), ("ran", "VBD"), (",", ","))


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, str]:
    """A CoNLL-2012 key of one or two sentences (random bracketings) and a response on its tokens."""
    lengths = draw(st.lists(st.integers(1, 6), min_size=1, max_size=2))
    bits: list[str] = []
    for length in lengths:
        depth = 0
        for i in range(length):
            opens = draw(st.lists(st.sampled_from(LABELS), min_size=1 if i == 0 else 0, max_size=2))
            if i == 0:
                opens = ["TOP", *opens]
            depth += len(opens)
            closes = depth if i == length - 1 else draw(st.integers(0, depth - 1))
            depth -= closes
            bits.append("".join(f"({o}" for o in opens) + "*" + ")" * closes)
    n = len(bits)
    firsts = [sum(lengths[:j]) for j in range(len(lengths))]
    words = [draw(st.sampled_from(WORDS)) for _ in range(n)]

    def within(p: tuple[int, int]) -> tuple[int, int]:
        sentence_end = min(f + n_ - 1 for f, n_ in zip(firsts, lengths) if f + n_ > p[0])
        return p[0], min(sentence_end, p[0] + p[1])

    spans = st.tuples(st.integers(0, n - 1), st.integers(0, 3)).map(within)

    def side() -> str:
        chosen = draw(st.lists(st.tuples(spans, st.integers(1, 3)), max_size=5, unique_by=lambda m: m[0]))
        fields: list[list[str]] = [[] for _ in range(n)]
        for (s, e), k in sorted(chosen, key=lambda m: (m[0][0], -m[0][1])):
            if s == e:
                fields[s].append(f"({k})")
            else:
                fields[s].append(f"({k}")
        for (s, e), k in sorted(chosen, key=lambda m: (m[0][1], -m[0][0]), reverse=False):
            if s != e:
                fields[e].append(f"{k})")
        rows = [
            ("\n" if i in firsts[1:] else "") + f"d\t0\t{i}\t{w}\t{p}\t{b}\t-\t-\t-\t-\t*\t{'|'.join(f) or '-'}"
            for i, ((w, p), b, f) in enumerate(zip(words, bits, fields))
        ]
        return "#begin document (d); part 000\n" + "\n".join(rows) + "\n\n#end document\n"

    return side(), side()


def _no_repeats(path: Path, by_min_span: bool) -> bool:
    """No span, or with ``by_min_span`` no minimum span, is named twice in the file: coval and
    corefeval (which follows the reference scorer there) count repeats differently."""
    doc = corefeval.readers.read(str(path)).documents[0]
    parse = read_parses(str(path))["(d); part 000"]
    seen: set[Hashable] = set()
    for s, e in zip(doc.starts.tolist(), doc.ends.tolist()):
        first = parse.sentence_starts[parse.sentence_of(s)]
        tree = mention_tree(parse, first, s, e)
        m = ((parse.sentence_of(s), min_span(tree, parse.words[s : e + 1])) if by_min_span else None) or (s, e)
        if m in seen:
            return False
        seen.add(m)
    return True


@NEEDS_COVAL
@settings(max_examples=150, deadline=None)
@given(documents(), st.booleans(), st.booleans(), st.booleans(), st.sampled_from(["keep", "remove"]))
def test_random_trees_against_coval(
    tmp_path_factory: pytest.TempPathFactory,
    files: tuple[str, str],
    min_span_: bool,
    np_only: bool,
    nested: bool,
    singletons: str,
) -> None:
    folder = tmp_path_factory.mktemp("random")
    (folder / "k.conll").write_text(files[0])
    (folder / "r.conll").write_text(files[1])
    assume(all(_no_repeats(folder / f, min_span_) for f in ("k.conll", "r.conll")))
    case = {"key": "k.conll", "response": "r.conll", "min_span": min_span_, "np_only": np_only}
    case |= {"remove_nested": nested, "singletons": singletons}
    want = _record_module().coval_scores(COVAL_DIR, case, folder)
    got = ours(case, folder)
    for metric in METRICS:
        assert got[metric] == pytest.approx(want[metric], abs=1e-12), (metric, files)


def _corefud_file(path: Path, misc: list[str]) -> str:
    words = "".join(
        f"{i}\tw{i}\tw{i}\tX\t_\t_\t{0 if i == 2 else 2}\t{'root' if i == 2 else 'dep'}\t_\t{m}\n"
        for i, m in enumerate(misc, 1)
    )
    path.write_text(
        f"# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n{words}\n", encoding="utf-8"
    )
    return str(path)


def test_remove_nested_follows_the_corefud_rule_for_a_span_in_two_entities(tmp_path: Path) -> None:
    """On CorefUD files, a response span in two entities is decided as without the filter (the
    CorefUD scorer's rule: both copies count), not by the CoNLL-2012 reference's rule."""
    key = _corefud_file(tmp_path / "key.conllu", ["Entity=(e1-x-1)", "Entity=(e1-x-1)", "_"])
    response = _corefud_file(
        tmp_path / "response.conllu", ["Entity=(e1-x-1)(e2-x-1)", "Entity=(e1-x-1)", "Entity=(e2-x-1)"]
    )
    plain = corefeval.score(key, response, ["muc"])["muc"]
    nested = corefeval.score(key, response, ["muc"], remove_nested=True)["muc"]
    counts = (plain.recall_num, plain.recall_den, plain.precision_num, plain.precision_den)
    assert counts == (0.0, 1.0, 1.0, 2.0)
    assert (nested.recall_num, nested.recall_den, nested.precision_num, nested.precision_den) == counts
