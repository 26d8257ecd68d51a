"""The word alignment of generated text to the key's words, on hypothesis-generated edits."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from corefeval.core.model import Corpus, make_document
from corefeval.readers.text2text import read_text2text
from corefeval.readers.word_alignment import UNALIGNED, align_words
from corefeval.scoring.pipeline import score


def full_table_alignment(
    gen: list[str], ref: list[str], replace_extra: float = 0
) -> tuple[list[int], list[int], int, int, int]:
    """The alignment text2text-coref's ``clean`` documents, with its whole table: cost 1 for each
    word added, dropped or replaced (plus ``replace_extra``), ``##`` words free; walking back, equal
    words first, then a replacement, then the model's own word, then a key word left out."""
    m, n = len(gen), len(ref)
    free = [w.startswith("##") for w in gen]
    cost: list[list[float]] = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m + 1):
        cost[i][0] = i
    for j in range(n + 1):
        cost[0][j] = j
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if free[i - 1]:
                cost[i][j] = cost[i - 1][j]
            elif gen[i - 1] == ref[j - 1]:
                cost[i][j] = cost[i - 1][j - 1]
            else:
                cost[i][j] = 1 + min(cost[i - 1][j], cost[i][j - 1], cost[i - 1][j - 1] + replace_extra)
    target, after = [UNALIGNED] * m, [-1] * m
    inserted = replaced = deleted = 0
    i, j = m, n
    while i > 0 and j > 0:
        if free[i - 1]:
            after[i - 1] = j - 1
            i -= 1
        elif gen[i - 1] == ref[j - 1]:
            target[i - 1] = j - 1
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j - 1] + 1 + replace_extra:
            target[i - 1] = j - 1
            replaced += 1
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j] + 1:
            inserted += 1
            i -= 1
        else:
            deleted += 1
            j -= 1
    return target, after, inserted + sum(not f for f in free[:i]), replaced, deleted + j


WORDS = st.sampled_from(["a", "b", "c", "the", "##", "##x"])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(WORDS, max_size=40),
    st.lists(WORDS.filter(lambda w: not w.startswith("##")), max_size=40),
    st.booleans(),
)
def test_band_finds_the_alignment_of_the_whole_table(gen: list[str], ref: list[str], most_equal: bool) -> None:
    a = align_words(gen, ref, most_equal)
    # most_equal: a replacement costs two (a word added and one left out)
    target, after, inserted, replaced, deleted = full_table_alignment(gen, ref, 1 if most_equal else 0)
    zeros = [i for i, w in enumerate(gen) if w.startswith("##")]
    assert a.target.tolist() == target
    assert [int(a.after[i]) for i in zeros] == [after[i] for i in zeros]
    assert (a.inserted, a.replaced, a.deleted) == (inserted, replaced, deleted)


@st.composite
def marked_documents(draw: st.DrawFn) -> tuple[list[str], list[tuple[int, int, int]], list[str]]:
    """Distinct key words, mentions on them, and the words the model writes: the key's, some left
    out and some of its own added, never a word that carries a mark."""
    n = draw(st.integers(1, 30))
    words = [f"w{i}" for i in range(n)]
    mentions = []
    for k in range(draw(st.integers(0, 6))):
        s = draw(st.integers(0, n - 1))
        e = draw(st.integers(s, min(n - 1, s + 4)))
        mentions.append((k, s, e))
    marked = {p for _, s, e in mentions for p in (s, e)}
    out: list[str] = []
    for i, w in enumerate(words):
        out += [f"x{i}"] * draw(st.integers(0, 2))  # the model's own words
        if i in marked or not draw(st.booleans()) or draw(st.booleans()):
            out.append(w)
    return words, mentions, out


def markup(written: list[str], mentions: list[tuple[int, int, int]]) -> str:
    marks: dict[str, list[str]] = {}
    for k, s, e in mentions:
        if s == e:
            marks.setdefault(f"w{s}", []).append(f"[e{k}]")
        else:
            marks.setdefault(f"w{s}", []).append(f"[e{k}")
            marks.setdefault(f"w{e}", []).insert(0, f"e{k}]")
    return " ".join(w + ("|" + ",".join(marks[w]) if w in marks else "") for w in written)


def key_of(words: list[str], clusters: list[list[tuple[int, int]]]) -> Corpus:
    doc = replace(make_document("d", clusters, len(words)), tokens=tuple(words))
    return Corpus("key", [doc], format="jsonlines")


@settings(max_examples=300, deadline=None)
@example(  # three replacements would cost less than two words added and two left out
    (
        ["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"],
        [(0, 0, 0), (1, 6, 6)],
        ["w0", "w1", "w2", "w3", "w4", "w5", "x6", "x6", "w6"],
    )
)
@given(marked_documents())
def test_added_and_left_out_words_never_move_a_mention(
    case: tuple[list[str], list[tuple[int, int, int]], list[str]],
) -> None:
    words, mentions, written = case
    corpus = read_text2text("r.txt", markup(written, mentions), key_of(words, []), max_edits=10)
    doc = corpus.documents[0]
    got = sorted(
        (doc.labels[k], s, e) for s, e, k in zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist())
    )
    assert got == sorted((f"e{k}", s, e) for k, s, e in mentions)
    assert corpus.figures["d"].lost == corpus.figures["d"].moved == 0


@settings(max_examples=60, deadline=None)
@given(marked_documents(), st.lists(st.tuples(st.integers(0, 29), st.integers(0, 3)), max_size=8))
def test_no_edits_scores_as_token_offsets(
    case: tuple[list[str], list[tuple[int, int, int]], list[str]], key_mentions: list[tuple[int, int]]
) -> None:
    words, mentions, _ = case
    clusters: list[list[tuple[int, int]]] = [[] for _ in range(7)]
    for k, s, e in mentions:
        if (s, e) not in {m for c in clusters for m in c}:
            clusters[k].append((s, e))
    key_clusters = [[(min(s, len(words) - 1), min(s + w, len(words) - 1))] for s, w in key_mentions]
    key = key_of(words, key_clusters)
    kept = [(k, s, e) for k, c in enumerate(clusters) for s, e in c]
    ours = score(key, read_text2text("r.txt", markup(words, kept), key))
    offsets = score(
        key, Corpus("o", [make_document("d", [c for c in clusters if c], len(words))], format="predictions")
    )
    assert np.allclose(ours.counts, offsets.counts)


def _least_cost(gen: list[str], ref: list[str]) -> int:
    """The least cost with a replacement costing two: words of either text outside a longest common
    subsequence (of a text without zeros)."""
    row = [0] * (len(ref) + 1)
    for w in gen:
        previous = row[:]
        for j in range(1, len(ref) + 1):
            row[j] = previous[j - 1] + 1 if w == ref[j - 1] else max(previous[j], row[j - 1])
    return len(gen) + len(ref) - 2 * row[-1]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "h"]), max_size=70),
    st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "g"]), max_size=70),
    st.integers(0, 30),
)
def test_most_equal_words_are_refused_where_the_widest_band_is_exceeded(
    gen: list[str], ref: list[str], allowed: int
) -> None:
    """With ``most_equal``, ``max_edits`` refuses an alignment whose least cost exceeds the widest
    band filled (texts without zeros): the first (16 cells either side, or as wide as the words without an equal word in
    the other text, at most the limit) or the limit (twice ``max_edits``), whichever is wider; and a
    text that many words without an equal one cannot be aligned within the limit is refused at once."""
    from collections import Counter

    from corefeval.readers.word_alignment import TooManyEdits

    counts, other = Counter(gen), Counter(ref)
    unmatched = sum(((counts - other) + (other - counts)).values())
    widest = max(16, min(2 * unmatched, 2 * allowed), 2 * allowed)
    try:
        a = align_words(gen, ref, most_equal=True, max_edits=allowed)
    except TooManyEdits as refused:
        early = (unmatched + 1) // 2 > allowed
        assert refused.at_least == ((unmatched + 1) // 2 if early else (widest + 2) // 2)
        assert early or _least_cost(gen, ref) > widest
        return
    assert (unmatched + 1) // 2 <= allowed and _least_cost(gen, ref) <= widest
    assert a.inserted + a.deleted + 2 * a.replaced == _least_cost(gen, ref)


def test_a_text_aligned_to_itself_is_paired_word_for_word() -> None:
    words = ["the", "cat", "##", "sat"]
    a = align_words(words[:2] + words[3:], words[:2] + words[3:], most_equal=True)
    assert a.target.tolist() == [0, 1, 2] and a.same.all() and a.edits == 0
    b = align_words(words, [w for w in words if w != "##"], most_equal=True)  # a zero: aligned to no word
    assert b.target.tolist() == [0, 1, UNALIGNED, 2] and b.after.tolist()[2] == 1


def test_zeros_are_found_whatever_the_words_hold() -> None:
    from corefeval.readers.word_alignment import has_zero

    assert has_zero(["a", "##"]) and has_zero(["##x"]) and not has_zero([]) and not has_zero(["a#", "#a"])
    assert not has_zero(["a\x00##b"])  # the separator inside a word: a false alarm, checked word by word
    a = align_words(["a\x00##b", "c"], ["a\x00##b", "c"], most_equal=True)
    assert a.target.tolist() == [0, 1] and a.edits == 0
