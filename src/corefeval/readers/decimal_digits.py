"""Numbers written in ASCII digits, read column-wise from a text's bytes."""

from __future__ import annotations

import numpy as np

_ZERO = ord("0")


def decimal_values(arr: np.ndarray, start: np.ndarray, end: np.ndarray, most: int) -> tuple[np.ndarray, np.ndarray]:
    """Whether each ``arr[start:end]`` is 1 to ``most`` ASCII digits, and its value (``most`` at most
    18, so that every value fits in int64); one numpy pass per digit column, over the numbers
    still that long."""
    length = end - start
    ok = (length >= 1) & (length <= most)
    value = np.zeros(start.size, dtype=np.int64)
    live = np.flatnonzero(ok)
    column = 0
    while live.size:
        digit = arr[start[live] + column] - np.uint8(_ZERO)  # wraps below '0': one comparison
        is_digit = digit < 10
        ok[live[~is_digit]] = False
        value[live] = value[live] * 10 + digit
        column += 1
        live = live[is_digit & (length[live] > column)]
    return ok, value
