"""Entity ids numbered by their bytes equal ids numbered by their texts (first appearance first)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.readers.corefud_mentions import _Values, label_numbers

#: Ids of up to 60 bytes (numbered by their bytes), with near twins (a NUL byte more too); a list
#: may add one of 65 bytes (then all are numbered by their texts).
twins = ["e1", "e1\x00", "e1" * 4, "e1" * 4 + "x", "e1" * 4 + "\x00", "e1" * 8]
short = st.text(alphabet="ab/é_-0\x00", max_size=30) | st.sampled_from(twins)
ids = st.tuples(st.lists(short, max_size=40), st.sampled_from([[], ["e" * 65]])).map(lambda p: p[0] + p[1])


@settings(max_examples=400, deadline=None)
@given(ids)
def test_ids_are_numbered_in_order_of_first_appearance(labels: list[str]) -> None:
    encoded = [label.encode() for label in labels]
    data = b"|".join(encoded)
    lengths = np.asarray([len(e) for e in encoded], dtype=np.int64)
    start = np.cumsum(lengths + 1) - lengths - 1
    values = _Values(data, np.frombuffer(data, dtype=np.uint8), start, start + lengths)
    numbers, names = label_numbers(values, values.start, values.end)
    assert names == list(dict.fromkeys(labels))
    assert numbers.tolist() == [names.index(label) for label in labels]
