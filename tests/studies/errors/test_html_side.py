"""The side rendering of the error page visits only mention boundaries; it must give the same page
as visiting every token (the plain definition, written out here) and keep the words in order."""

from __future__ import annotations

import re
from html import escape, unescape

from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.report.errors_html import ERROR_COLOURS, Mention, _colour, _render_side, escaped_words, shown_tokens


def token_by_token(tokens: list[tuple[int, str]], mentions: list[Mention]) -> str:
    """Every token in turn: the mentions opening there (longest first; one crossing the innermost
    open mention is left out), the word, the mentions closing there."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []
    for t, word in tokens:
        for span, colour, label, errs in sorted((m for m in mentions if m[0][0] == t), key=lambda m: -m[0][1]):
            if stack and span[1] > stack[-1][0]:
                continue
            bg, fg = _colour(colour)
            style = f"background:{bg};border-color:{fg}" + (f";--c:{ERROR_COLOURS[errs[0][0]]}" if errs else "")
            title = " | ".join(f"{e}: {text}" for e, text in errs) or f"chain {label}"
            classes = "m" + "".join(f" err {e}" for e, _ in errs[:1])
            out.append(f'<span class="{classes}" style="{style}" title="{escape(title)}">')
            stack.append((span[1], label))
        out.append(escape(word))
        while stack and stack[-1][0] == t:
            out.append(f"<sub>{escape(stack.pop()[1])}</sub></span>")
        out.append(" ")
    while stack:
        out.append(f"<sub>{escape(stack.pop()[1])}</sub></span>")
    return "".join(out)


words = st.lists(st.sampled_from(["a", "b&c", "<d>", '"e"', "f\ng", "é"]), max_size=12)


@st.composite
def sides(draw: st.DrawFn) -> tuple[list[tuple[int, str]], list[Mention]]:
    ws = draw(words)
    spans = draw(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 4)), max_size=8))
    errors = st.lists(st.tuples(st.sampled_from(list(ERROR_COLOURS)), st.sampled_from(["x<y", "z"])), max_size=2)
    mentions: list[Mention] = [
        ((s, s + n), draw(st.none() | st.integers(0, 3)), f"e{i}&", draw(errors)) for i, (s, n) in enumerate(spans)
    ]
    return shown_tokens(ws, mentions), mentions


@settings(max_examples=200, deadline=None)
@given(sides())
def test_visiting_boundaries_gives_the_page_of_visiting_every_token(side) -> None:
    tokens, mentions = side
    assert _render_side(tokens, escaped_words(tokens), mentions) == token_by_token(tokens, mentions)


@settings(max_examples=100, deadline=None)
@given(sides())
def test_the_words_are_shown_in_order(side) -> None:
    tokens, mentions = side
    html = _render_side(tokens, escaped_words(tokens), mentions)
    text = unescape(re.sub(r"<[^>]*>", "", re.sub(r"<sub>.*?</sub>", "", html)))
    assert text == "".join(f"{word} " for _, word in tokens)


def test_positions_past_the_words_are_shown_near_mention_boundaries() -> None:
    mention: Mention = ((9, 12), 0, "e", [])
    assert shown_tokens(["w0", "w1"], [mention]) == [
        (0, "w0"),
        (1, "w1"),
        (-1, "…"),
        *((p, f"[{p}]") for p in range(7, 15)),
    ]
