"""The cyclic garbage collector paused while a reader or a counting loop makes many objects that
form no cycle (markables, mentions, their dictionaries): CPython would otherwise walk the live
objects again as their number grows, to free nothing. Reference counting frees them as usual."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for the block (as it was before, after it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
