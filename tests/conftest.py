"""Shared test fixtures: the ``../shared`` data folder beside the checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    """The shared data folder; tests that need it are skipped where it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not beside the checkout")
    return SHARED
