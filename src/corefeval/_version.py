"""The version, kept in one place: ``version`` in pyproject.toml, read back from the installed
package's metadata."""

from __future__ import annotations

import re
from pathlib import Path

#: Reported when corefeval runs from a source tree that is neither installed nor a checkout.
UNKNOWN = "0+unknown"


def version() -> str:
    """The installed distribution's version; from a checkout that is not installed (``PYTHONPATH=src``),
    the version in its ``pyproject.toml``."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("corefeval")
    except PackageNotFoundError:
        return checkout_version(Path(__file__).resolve().parents[2] / "pyproject.toml")


def checkout_version(pyproject: Path) -> str:
    """The ``version`` of the ``[project]`` table of ``pyproject`` (:data:`UNKNOWN` if there is none)."""
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return UNKNOWN
    project = re.search(r"(?ms)^\[project\]\s*$(.*?)(?=^\[|\Z)", text)
    if project is None or not re.search(r'(?m)^name\s*=\s*"corefeval"', project.group(1)):
        return UNKNOWN
    found = re.search(r'(?m)^version\s*=\s*"([^"]+)"', project.group(1))
    return found.group(1) if found else UNKNOWN
