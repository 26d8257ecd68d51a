"""Inputs held in memory (``held_inputs``): read by their names as files are, a second read included."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

import corefeval
from corefeval.core.diagnostics import InputError
from corefeval.readers import read
from corefeval.readers.sources import held_inputs

COVAL = Path(__file__).resolve().parent.parent / "data" / "coval"
KEY, RESPONSE = COVAL / "minspan.key.conll", COVAL / "minspan.response.conll"


@pytest.mark.parametrize("options", [{"match": "min"}, {"np_only": True, "remove_nested": True}])
def test_a_held_key_s_parse_column_is_read_again_from_memory(options: dict[str, object]) -> None:
    """Minimum spans and --np-only read the key's parse column a second time: from the held text too."""
    on_disk = corefeval.score(str(KEY), str(RESPONSE), **options)  # type: ignore[arg-type]
    with held_inputs({"key": KEY.read_text(encoding="utf-8"), "response": RESPONSE.read_bytes()}):
        held = corefeval.score("key", "response", **options)  # type: ignore[arg-type]
    assert np.array_equal(held.counts, on_disk.counts)
    assert held.signature == on_disk.signature


def test_held_inputs_are_read_as_files_are() -> None:
    """gzip data is decompressed, the format is sniffed, and a name is held only inside the context."""
    with held_inputs({"key.gz": gzip.compress(KEY.read_bytes())}):
        assert [d.name for d in read("key.gz")] == [d.name for d in read(str(KEY))]
    with pytest.raises(InputError, match="cannot read the file"):
        read("key.gz")


def test_nested_contexts_hold_both_and_restore() -> None:
    with held_inputs({"a": KEY.read_text(encoding="utf-8")}):
        with held_inputs({"b": RESPONSE.read_text(encoding="utf-8")}):
            assert read("a").format == read("b").format == "conll2012"
        assert read("a").format == "conll2012"
        with pytest.raises(InputError):
            read("b")
