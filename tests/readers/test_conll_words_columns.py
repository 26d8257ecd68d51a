"""Words and tags of CoNLL-2012 token lines found column-wise for a whole block equal the
line-by-line definition (:func:`word_and_tag`), whatever the columns and separators."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.readers.conll_blocks import word_and_tag, words_and_tags

lines = st.lists(
    st.text(alphabet=st.sampled_from(["a", "é", "-", "\t", "\t", " ", "x"]), min_size=1, max_size=16)
    .map(str.strip)
    .filter(bool),
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(lines)
def test_block_columns_are_the_line_by_line_words_and_tags(found: list[str]) -> None:
    block = "\n".join(found).encode("utf-8")
    starts, ends, at = [], [], 0
    for line in found:
        starts.append(at)
        ends.append(at + len(line.encode("utf-8")))
        at = ends[-1] + 1
    words, tags = words_and_tags(block, np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64))
    assert list(zip(words, tags, strict=True)) == [word_and_tag(block[a:b]) for a, b in zip(starts, ends)]
