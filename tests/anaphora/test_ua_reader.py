"""The Universal Anaphora reader: every layer of a small file, detection, located errors."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.anaphora.model import AnaphoraDocument, Bridge, Markable, from_fields
from corefeval.anaphora.ua_sides import UASettings
from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.metrics.ua.scores import literal_scores
from corefeval.readers import detect_format, read
from corefeval.readers.corefud import empty_position
from corefeval.readers.ua import UACorpus, read_ua, read_ua_documents

from .generator import pair

HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS"


def ua(*rows: tuple[str, str, str, str], name: str = "d1") -> str:
    """A UA file of one document: rows of (form, identity, bridging, deixis)."""
    lines = [HEADER, f"# newdoc id = {name}", "# sent_id = s1"]
    for i, (form, ident, bridge, dd) in enumerate(rows, 1):
        lines.append("\t".join([str(i), form, *["_"] * 8, ident, bridge, dd]))
    return "\n".join(lines) + "\n"


EXAMPLE = ua(
    ("John", "(EntityID=1|MarkableID=m1|Min=1|SemType=dn|ElementOf=3)", "_", "(EntityID=1-DD|MarkableID=d1"),
    ("met", "_", "_", "_"),
    ("Mary", "(EntityID=2|MarkableID=m2|ElementOf=3)", "_", "d1)"),
    ("and", "_", "_", "_"),
    ("they", "(EntityID=3|MarkableID=m3|Min=5)@(EntityID=4-Pseudo|MarkableID=m4)", "_", "_"),
    ("the", "(EntityID=5|MarkableID=m5|Min=7-7", "MarkableID=m5|Rel=part-of|MentionAnchor=m1|EntityAnchor=1", "_"),
    ("door", ")", "_", "(EntityID=1-DD|MarkableID=d2)"),
)


def test_every_layer() -> None:
    corpus = read_ua("x.ua", EXAMPLE)
    (doc,) = corpus.anaphora
    assert doc.name == "d1" and doc.n_tokens == 7
    spans = {m.markable_id: (m.start, m.end, m.min_span, m.entity) for m in doc.identity}
    assert spans == {
        "m1": (0, 0, (0, 0), "1"),
        "m2": (2, 2, None, "2"),
        "m3": (4, 4, (4, 4), "3"),
        "m4": (4, 4, None, "4-Pseudo"),
        "m5": (5, 6, (6, 6), "5"),
    }
    assert [m.sem_type for m in doc.identity] == ["dn", "", "", "", ""]
    assert doc.split_antecedents() == {"3": ["1", "2"]}
    assert [m.markable_id for m in doc.non_referring()] == ["m4"]
    assert doc.bridging == (Bridge("m5", "m1", "1", "part-of", 9),)
    assert [(m.start, m.end, m.entity) for m in doc.deixis] == [(0, 2, "1-DD"), (6, 6, "1-DD")]
    layer = corpus.documents[0]
    assert isinstance(layer, AnaphoraDocument) and layer.anaphora is doc
    assert layer.clusters() == [[(0, 0)], [(2, 2)], [(4, 4)], [(5, 6)]]  # non-referring left out
    assert doc.layer("deixis").clusters() == [[(0, 2), (6, 6)]]


def test_bridging_in_brackets_and_named_closers() -> None:
    text = ua(
        ("a", "(EntityID=1|MarkableID=m1", "_", "_"),
        ("b", "(EntityID=2|MarkableID=m2", "(MarkableID=m2|MentionAnchor=m1)", "_"),
        ("c", "m1)", "_", "_"),
        ("d", ")", "_", "_"),
    )
    (doc,) = read_ua("x.ua", text).anaphora
    assert [(m.markable_id, m.start, m.end) for m in doc.identity] == [("m1", 0, 2), ("m2", 1, 3)]
    assert doc.bridging[0].anaphor == "m2" and doc.bridging[0].mention_anchor == "m1"


def test_detected_and_read_through_read(tmp_path: Path) -> None:
    path = tmp_path / "x.conllu"
    path.write_text(EXAMPLE, encoding="utf-8")
    assert detect_format(str(path), EXAMPLE) == "ua"
    corpus = read(str(path))
    assert isinstance(corpus, UACorpus) and corpus.format == "ua"


@pytest.mark.parametrize(
    ("row", "line", "expected"),
    [
        (("a", "(EntityID=1", "_", "_"), 4, "expected MarkableID=... in identity markable"),
        (("a", "(EntityID=1|MarkableID=m1|Min=x)", "_", "_"), 4, "expected Min=POSITION"),
        (("a", "(EntityID=1|MarkableID=m1|Min=2)", "_", "_"), 4, "(1-based, at most 1)"),
        (("a", "(EntityID=1|MarkableID=m1|Min=1099511627776)", "_", "_"), 4, "expected Min=POSITION"),
        (("a", "(EntityID=1|MarkableID=m1|Min=" + "9" * 5000 + ")", "_", "_"), 4, "expected Min=POSITION"),
        (("a", ")", "_", "_"), 4, "closes no open markable"),
        (("a", "m9)", "_", "_"), 4, "closes no open markable"),
        (("a", "(EntityID=1|MarkableID=m1", "_", "_"), 4, "is not closed"),
        (("a", "(EntityID=1|MarkableID", "_", "_"), 4, "expected Key=Value"),
        (("a", "(EntityID=1|MarkableID=m1)", "Rel=x|MarkableID=m1", "_"), 4, "expected MentionAnchor"),
        (("a", "(EntityID=1|MarkableID=m1)", "(MarkableID=m1|Rel=x)", "_"), 4, "expected MentionAnchor"),
        (("a", "(EntityID=1|MarkableID=m1)", "MarkableID=m1|MentionAnchor=", "_"), 4, "expected MentionAnchor"),
        (("a", "(EntityID=1|MarkableID=m1|Min=1,2)", "_", "_"), 4, "(1-based, at most 1)"),
        (("a", "(EntityID=1|MarkableID=m1|Min=0)", "_", "_"), 4, "expected Min=POSITION"),
        (("a", "(EntityID=1|MarkableID=m1|Min=\u00b2)", "_", "_"), 4, "expected Min=POSITION"),  # a digit to isdigit()
        (("a", "(EntityID=1|MarkableID=m1|Min=1,\u0661)", "_", "_"), 4, "expected Min=POSITION"),  # Arabic-Indic 1
        (("a", "(EntityID=1|MarkableID=)", "_", "_"), 4, "expected MarkableID=... in identity markable"),
        (("a", "(EntityID=|MarkableID=m1)", "_", "_"), 4, "expected EntityID=... in identity markable"),
        (("a", "))", "_", "_"), 4, "closes no open markable"),
        (("a", "_", "_", "(EntityID=1)"), 4, "in discourse deixis markable"),
        (("a", "(EntityID=1|MarkableID=m1|ElementOf=1)", "_", "_"), 4, "element of itself"),
    ],
)
def test_located_errors(row: tuple[str, str, str, str], line: int, expected: str) -> None:
    with pytest.raises(InputError) as err:
        read_ua("bad.ua", ua(row))
    message = str(err.value)
    assert message.startswith(f"bad.ua:{line}: error: ") and expected in message
    assert "\n" not in message


@pytest.mark.parametrize("zero_id", ["1.\u00b2", "\u00b9.1", "1." + "9" * 5000, "9" * 5000 + ".1", "1.0", "1.65"])
def test_a_zero_id_that_is_not_word_dot_k_is_a_located_error(zero_id: str) -> None:
    """A zero's id is ASCII WORD.K (Unicode digits pass ``str.isdigit`` but not ``int``; thousands
    of digits pass neither), else a located one-line error, never a traceback."""
    text = ua(("a", "(EntityID=1|MarkableID=m1)", "_", "_")) + "\t".join([zero_id, "_", *["_"] * 8, "_", "_", "_"])
    with pytest.raises(InputError) as err:
        read_ua("z.ua", text + "\n")
    message = str(err.value)
    assert message.startswith("z.ua:5: error: expected a zero's id as WORD.K") and len(message) < 200


def test_bridging_to_no_markable_is_a_warning_and_not_scored() -> None:
    """A bridging link naming a markable the IDENTITY column lacks is skipped, as the UA scorer
    skips it, with a located warning."""
    rows = [("a", "(EntityID=1|MarkableID=m1)", "_", "_"), ("b", "(EntityID=2|MarkableID=m2)", "_", "_")]
    dangling = ua(*rows[:1], ("b", "(EntityID=2|MarkableID=m2)", "MarkableID=m2|MentionAnchor=m" + "9" * 3000, "_"))
    corpus = read_ua("x.ua", dangling)
    assert [str(w)[:60] for w in corpus.warnings] == ["x.ua:5: warning: document 'd1': bridging m2 -> m999999999999"]
    assert len(str(corpus.warnings[0])) < 200
    key = read_ua("k", ua(*rows[:1], ("b", "(EntityID=2|MarkableID=m2)", "MarkableID=m2|MentionAnchor=m1", "_")))
    plain = read_ua("r", ua(*rows))
    with_dangling, without = (
        literal_scores(key.anaphora, corpus.anaphora).counts,
        literal_scores(key.anaphora, plain.anaphora).counts,
    )
    names = [n for n in with_dangling if n.startswith("bridging")]
    assert names and all(with_dangling[n].tolist() == without[n].tolist() for n in names)


def test_errors_without_newdoc_or_columns() -> None:
    with pytest.raises(InputError, match=r"^x:2: error: expected '# newdoc id = NAME'"):
        read_ua("x", HEADER + "\n1\ta\n")
    with pytest.raises(InputError, match=r"^x:3: error: expected at least 13 columns, found 2"):
        read_ua("x", HEADER + "\n# newdoc id = d\n1\ta\n")


def test_cycles_through_plurals_are_errors() -> None:
    text = ua(
        ("a", "(EntityID=1|MarkableID=m1|ElementOf=2)", "_", "_"),
        ("b", "(EntityID=2|MarkableID=m2|ElementOf=1)", "_", "_"),
    )
    with pytest.raises(InputError, match="element of itself"):
        read_ua("x", text)


def test_command_line_error_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.ua"
    bad.write_text(ua(("a", "(EntityID=1|MarkableID=m1", "_", "_")), encoding="utf-8")
    assert main(["anaphora", str(bad), str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{bad}:4: error:" in err


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 49),
    st.lists(st.tuples(st.floats(0, 1), st.sampled_from("()|=@,-_\t\n #xm1")), min_size=1, max_size=6),
)
def test_mutated_files_read_or_fail_on_one_line(seed: int, edits: list[tuple[float, str]]) -> None:
    """A generated file with characters changed, dropped or added: read and scored in every mode,
    or a located InputError; never another exception."""
    key, response = pair(seed, 1)
    text = list(key)
    for where, char in edits:
        text.insert(int(where * len(text)), char)
    try:
        keys = read_ua("k", "".join(text)).anaphora
    except InputError as err:
        assert str(err).startswith("k:") and "\n" not in str(err)
        return
    responses = read_ua("r", response).anaphora
    for options in (UASettings(), UASettings(min_spans=True, keep_non_referring=True), UASettings(layer="deixis")):
        literal_scores(keys, responses, options)
        literal_scores(responses, keys, options)


def _respell(text: str, rng: random.Random) -> str:
    """``text`` (usual spellings only) with the same markup spelt otherwise, each change made or
    not at random: keys in another order or case, ``MentionID`` for ``MarkableID``, ``Min`` with a
    leading zero (and ``-``), ``ElementOf`` with an empty part, ``@`` between openings, closers naming
    their markable, bridging keys in another order or without brackets. None of the reader's
    usual-spelling shortcuts reads the result: every cell takes the general path."""

    def opening(m: re.Match[str]) -> str:
        entity, mid, rest = m[1], m[2], m[3]
        attrs = dict(part.split("=", 1) for part in rest.split("|") if part)
        if "Min" in attrs:
            attrs["Min"] = "0" + attrs["Min"].replace(",", "-") if rng.random() < 0.5 else "0" + attrs["Min"]
        if "ElementOf" in attrs and rng.random() < 0.5:
            attrs["ElementOf"] += ","
        keys = [("entityid" if rng.random() < 0.3 else "EntityID", entity)]
        keys.append((rng.choice(["MarkableID", "markableid", "MentionID"]), mid))
        keys += list(attrs.items())
        rng.shuffle(keys)
        if [k for k, _ in keys[:2]] == ["EntityID", "MarkableID"] and len(keys) == 2:
            keys.reverse()  # never the usual spelling
        return "(" + "|".join(f"{k}={v}" for k, v in keys)

    def cell(text: str, stack: list[str]) -> str:
        out, after_opening = "", False
        for token in re.findall(r"\)|\([^()]*\)?", text):
            if token == ")":
                name = stack.pop()
                out += name + ")" if rng.random() < 0.5 else ")"
                after_opening = False
                continue
            if after_opening and rng.random() < 0.5:
                out += "@"
            out += re.sub(r"\(EntityID=([^|()]+)\|MarkableID=([^|()]+)((?:\|[^|()]+)*)", opening, token)
            if not token.endswith(")"):
                stack.append(re.findall(r"MarkableID=([^|()]+)", token)[0])
            after_opening = True
        return out

    def bridging(text: str) -> str:
        links = re.findall(r"\(MarkableID=([^|()]+)\|Rel=([^|()]+)\|MentionAnchor=([^|()]+)\)", text)
        parts = [f"MentionAnchor={a}|MarkableID={m}|Rel={r}" for m, r, a in links]
        return "@".join(parts) if rng.random() < 0.5 else "".join(f"({p})" for p in parts)

    lines, stacks = [], ([], [])
    for line in text.split("\n"):
        cells = line.split("\t")
        if len(cells) == 13:
            cells[10] = cell(cells[10], stacks[0]) if cells[10] != "_" else "_"
            cells[12] = cell(cells[12], stacks[1]) if cells[12] != "_" else "_"
            cells[11] = bridging(cells[11]) if cells[11] != "_" else "_"
        lines.append("\t".join(cells))
    return "\n".join(lines)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_usual_and_other_spellings_read_the_same(seed: int, spelling: int) -> None:
    """The reader's shortcuts for the usual spellings of openings, ``Min`` and bridging cells read
    what its general path reads: a generated file and the same file respelt (no shortcut applies)
    give the same documents, sentences and warnings."""
    rng = random.Random(spelling)
    for text in pair(seed, 3):
        text = re.sub(
            r"(\|MarkableID=[^|()\s]+(?:\|Min=[^|()\s]+)?)", lambda m: m[1] + rng.choice(("", "|SemType=dn")), text
        )
        respelt = _respell(text, rng)
        assert respelt != text
        usual, other = read_ua_documents("x", text), read_ua_documents("x", respelt)
        assert usual == other


def test_sentences_and_zeros() -> None:
    """Sentence lengths leave zeros (ids ``W.K``) out, a sentence ends at a blank line or a new
    document (not at a comment), and each zero line gets its position as an empty node."""

    def row(word_id: str, ident: str = "_") -> str:
        return "\t".join([word_id, "w", *["_"] * 8, ident, "_", "_"])

    text = "\n".join(
        [HEADER, "# newdoc id = a", "# sent_id = 1", row("1", "(EntityID=1|MarkableID=m1)"), row("1.1"), row("2")]
        + ["", "", "# sent_id = 2", row("0.1"), row("1"), "# a comment", row("2"), "# newdoc id = b", row("1.1")]
        + [row("1", "(EntityID=2|MarkableID=m2)"), "", "# newdoc id = empty", "# newdoc id = c", row("1")]
    )
    layers = read_ua_documents("x", text)
    assert [(d.name, d.n_tokens) for d in layers.documents] == [("a", 6), ("b", 2), ("c", 1)]
    assert layers.sentences == {"a": [2, 2], "b": [1], "c": [1]}
    zero = empty_position
    assert layers.zero_lines == {"a": {1: zero(0, 1, 1), 3: zero(1, 0, 1)}, "b": {0: zero(0, 1, 1)}}
    assert [m.span for d in layers.documents for m in d.identity] == [(0, 0), (1, 1)]


@pytest.mark.parametrize(
    "columns",
    [
        "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC BRIDGING REFERENCE IDENTITY NOM_SEM DISCOURSE_DEIXIS",
        "ID DISCOURSE_DEIXIS FORM IDENTITY LEMMA BRIDGING UPOS XPOS FEATS HEAD DEPREL DEPS MISC",
        "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS EXTRA",
    ],
)
def test_layers_in_any_columns(columns: str) -> None:
    """The layers are read from the columns the header names, wherever they are."""
    expected = read_ua_documents("x", EXAMPLE)
    names = columns.split()
    lines = []
    for line in EXAMPLE.split("\n"):
        cells = line.split("\t")
        if line.startswith("# global.columns"):
            line = "# global.columns = " + columns
        elif len(cells) == 13:
            at = dict(zip(HEADER.split("=")[1].split(), cells))
            line = "\t".join(at.get(name, "_") for name in names)
        lines.append(line)
    assert read_ua_documents("x", "\n".join(lines)) == expected


def test_layers_the_header_leaves_out() -> None:
    """A layer without a column is empty; with no layer column at all, every document is empty."""
    (doc,) = read_ua_documents("x", EXAMPLE.replace(" DISCOURSE_DEIXIS", "")).documents
    assert doc.deixis == () and doc.identity == read_ua_documents("x", EXAMPLE).documents[0].identity
    header = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC"
    (doc,) = read_ua_documents("x", EXAMPLE.replace(HEADER, header)).documents
    assert (doc.n_tokens, doc.identity, doc.deixis, doc.bridging) == (7, (), (), ())


def test_markables_read_are_dataclass_markables() -> None:
    """The reader makes markables and links without their ``__init__``: they equal, hash, print,
    copy, pickle and refuse changes as the dataclass's own."""
    (doc,) = read_ua("x.ua", EXAMPLE).anaphora
    for made in (*doc.identity, *doc.deixis, *doc.bridging):
        built = type(made)(**{f.name: getattr(made, f.name) for f in dataclasses.fields(made)})
        assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
        assert pickle.loads(pickle.dumps(made)) == built and copy.copy(made) == built
        assert dataclasses.replace(made, line=99) == dataclasses.replace(built, line=99) != built
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.line = 1  # type: ignore[misc]
    assert from_fields(Markable, []) == ()
