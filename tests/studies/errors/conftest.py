"""Fixtures of the error-analysis tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from errcases import conll_text

from corefeval.core.model import Document


@pytest.fixture
def write_conll(tmp_path: Path) -> Callable[[str, Sequence[Document]], str]:
    def write(name: str, docs: Sequence[Document]) -> str:
        path = tmp_path / name
        path.write_text(conll_text(docs), encoding="utf-8")
        return str(path)

    return write
