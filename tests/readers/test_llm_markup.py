"""Markdown-link and XML-tag markup written by language models, aligned to the key's words."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import InputError
from corefeval.core.model import Corpus, make_document
from corefeval.readers import detect_format, read
from corefeval.readers.markup_tags import MARKDOWN, XML, parse_markup
from corefeval.readers.text2text import read_text2text
from corefeval.scoring.pipeline import score

DATA = Path(__file__).parent.parent / "data" / "llm"
KEY = str(DATA / "key.conllu")


def test_markdown_links() -> None:
    words, mentions, dropped = parse_markup("r.md", 1, "[[My](#c1) cat](#c2)'s [x bowl.", MARKDOWN, False)
    assert words == ["My", "cat", "'s", "[x", "bowl."]
    assert mentions == [("c1", 0, 0), ("c2", 0, 1)]
    assert dropped == []


def test_xml_tags() -> None:
    line = "<m id=1>The <mention cluster=\"2\">cat</mention></m> sat on <M ID='3'>mats</M> a<b"
    words, mentions, _ = parse_markup("r.xml", 1, line, XML, False)
    assert words == ["The", "cat", "sat", "on", "mats", "a<b"]
    assert mentions == [("2", 1, 1), ("1", 0, 1), ("3", 4, 4)]


def test_detected() -> None:
    assert detect_format("x", "[The black cat](#c1) sat\n") == "markdown-links"
    assert detect_format("x", "<m id=1>The black cat</m> sat\n") == "xml-tags"


@pytest.mark.parametrize(
    "name,text",
    [
        ("out.md", "[The black cat](#c1) sat on [the mat](#c2) . [It](#c1) purred .\n"),
        ("out.xml", "<m id=1>The black cat</m> sat on <m id=2>the mat</m> . <m id=1>It</m> purred .\n"),
    ],
)
def test_scores_as_the_key(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    result = score(KEY, str(path), ("muc", "bcub"))
    assert result["muc"].f1 == result["bcub"].f1 == 1.0
    assert "aligned:ins0,rep0,del0,mov0,lost0" in result.signature


def test_head_only_tags_match_by_head(tmp_path: Path) -> None:
    path = tmp_path / "heads.xml"
    path.write_text("The black <m id=5>cat</m> sat on the <m id=9>mat</m> . <m id=5>It</m> purred .\n")
    assert score(KEY, str(path), ("muc", "bcub"), match="head")["bcub"].f1 == 1.0


@pytest.mark.parametrize(
    "style,line,message",
    [
        (MARKDOWN, "the cat](#c1) sat", "'](#c1)' closes a link that no '[' opened"),
        (XML, "the cat</m> sat", "'</m>' closes a mention that no tag opened"),
        (XML, "<m id=1>the cat sat", "the mention '<m id=1>' is never closed"),
    ],
)
def test_bad_markup_is_located(tmp_path: Path, style: str, line: str, message: str) -> None:
    path = tmp_path / "r.txt"
    path.write_text(line + "\n")
    with pytest.raises(InputError) as err:
        read(str(path), style, key=read(KEY))
    assert str(err.value).startswith(f"{path}:1: error: ")
    assert message in str(err.value)
    words, _, dropped = parse_markup(str(path), 1, line, style, True)
    assert len(dropped) == 1 and words[-1] == "sat"
    corpus = read(str(path), style, key=read(KEY), lenient=True, max_edits=1)  # the repair: a warning naming the mark
    assert [str(w).split(": ", 2)[2] for w in corpus.warnings[:1]] == [
        f"document 'd1': '{dropped[0][0]}' {dropped[0][1]}"
    ]


@pytest.mark.parametrize(
    "style,unit",
    [(MARKDOWN, "](#x"), (XML, '<m id="x'), (XML, "<m id=x"), (MARKDOWN, "[a](#b")],
)
def test_unclosed_markup_repeated_along_a_line(style: str, unit: str) -> None:
    """Each attempt to read a mark stops at the next one: a long line of unclosed marks is read in
    linear time (quadratic would not finish here)."""
    words, mentions, _ = parse_markup("r.txt", 1, unit * 50_000, style, True)
    assert mentions == [] and words


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet="ab e1|[],#<>/m=id()\n", max_size=60),
    st.sampled_from(["text2text", MARKDOWN, XML]),
    st.booleans(),
)
def test_any_line_is_read_or_a_located_error(text: str, style: str, lenient: bool) -> None:
    key = Corpus("key", [replace(make_document("d", [], 3), tokens=("a", "b", "e1"))], format="jsonlines")
    try:
        corpus = read_text2text(
            "r.txt", text, key, lenient, max_edits=100, style=None if style == "text2text" else style
        )
    except InputError as e:
        assert str(e).startswith("r.txt:")
        return
    doc = corpus.documents[0]
    assert all(0 <= s <= e < 3 for s, e in zip(doc.starts.tolist(), doc.ends.tolist()))


def _words_by_tokens(line: str, style: str, lenient: bool) -> tuple[list[str], list[tuple[str, int, int]]]:
    """Words and mentions read a token at a time (white space, words and marks all tokens), the way
    the reader read them before it looked for the marks only: the reference it must still equal."""
    import re

    mark = r"<(m|mention|coref|entity)\s+(?:id|cluster|entity|eid)\s*=\s*(?:\"([^\"<>]*)\"|'([^'<>]*)'|([^\s<>]+))\s*>"
    token = (
        re.compile(mark + r"|</(m|mention|coref|entity)\s*>|\s+|[^<\s]+|<", re.IGNORECASE)
        if style == XML
        else re.compile(r"\[|\]\(#([^()\[\]\s]*)\)|\s+|[^\[\]\s]+|\]")
    )
    tokens = list(token.finditer(line))
    closing: dict[int, tuple[int, str]] = {}
    stack: list[tuple[int, str]] = []
    for t, m in enumerate(tokens):
        text = m.group(0)
        if style == MARKDOWN and text == "[" or style == XML and m.group(1):
            stack.append((t, "" if style == MARKDOWN else m.group(2) or m.group(3) or m.group(4) or ""))
        elif (style == MARKDOWN and text.startswith("](") or style == XML and m.group(5)) and stack:
            opened, entity = stack.pop()
            closing[t] = (opened, m.group(1) if style == MARKDOWN else entity)
    openers = {o for o, _ in closing.values()}
    words: list[str] = []
    current: list[str] = []
    start: dict[int, int] = {}
    mentions = []
    for t, m in enumerate(tokens):
        text = m.group(0)
        ends_word = t in openers or t in closing or text.isspace()
        ends_word = ends_word or (m.group(5) if style == XML else text.startswith("]("))
        if ends_word and current:
            words.append("".join(current))
            current = []
        if t in openers:
            start[t] = len(words)
        elif t in closing and start[closing[t][0]] < len(words):
            mentions.append((closing[t][1], start[closing[t][0]], len(words) - 1))
        elif not ends_word:
            current.append(text)
    if current:
        words.append("".join(current))
    return words, mentions


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from([MARKDOWN, XML]),
    st.lists(
        st.sampled_from(
            ["[", "]", "](#c1)", "](#c2)", "](#a b)", "](", " ", "\t", "w", "x[y", "<m id=1>", "<m id='a b'>", "</m>"]
            + ["</mention >", "<", "x<y", "\u00a0", "\x1c", "'s"]
        ),
        max_size=30,
    ),
)
def test_marks_found_alone_read_as_every_token_read(style: str, pieces: list[str]) -> None:
    """Looking for the marks only and splitting the text between them at white space reads the
    same words and mentions as reading every token (leniently, marks that pair with none kept as
    text or dropped as the reader drops them)."""
    line = "".join(pieces)
    words, mentions, _ = parse_markup("r", 1, line, style, True)
    assert (words, mentions) == _words_by_tokens(line, style, True)
