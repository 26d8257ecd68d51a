"""The version, kept in one place: ``version`` in pyproject.toml, read back from the installed
package's metadata.

Every run prints the version in its signature, so the lookup is kept cheap: an installed wheel's
``METADATA`` file sits next to the package and is read directly (``importlib.metadata`` would
import an e-mail parser and scan every path entry, a tenth of a small run's time); a source
checkout reads its ``pyproject.toml``; ``importlib.metadata`` covers any other layout.
"""

from __future__ import annotations

import os
import re
from functools import cache

#: Reported when corefeval runs from a source tree that is neither installed nor a checkout.
UNKNOWN = "0+unknown"

_PACKAGE = os.path.dirname(os.path.realpath(__file__))  # os.path: pathlib costs start-up


@cache
def version() -> str:
    """The installed distribution's version; from a checkout (``PYTHONPATH=src``, or an editable
    install), the version in its ``pyproject.toml``."""
    found = wheel_version(os.path.dirname(_PACKAGE))
    pyproject = os.path.join(os.path.dirname(os.path.dirname(_PACKAGE)), "pyproject.toml")
    if found is None and os.path.isfile(pyproject):
        found = checkout_version(pyproject)
    if found is None or found == UNKNOWN:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as installed

        try:
            found = installed("corefeval")
        except PackageNotFoundError:
            found = UNKNOWN
    return found


def wheel_version(site: str | os.PathLike[str]) -> str | None:
    """The ``Version`` field of the ``corefeval-*.dist-info/METADATA`` file in ``site`` (the folder
    an installed package sits in), or ``None`` if there is none."""
    try:
        names = [n for n in os.listdir(site) if n.startswith("corefeval-") and n.endswith(".dist-info")]
    except OSError:
        return None
    for name in sorted(names):
        try:
            with open(os.path.join(site, name, "METADATA"), encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("Version:"):
                        return line.split(":", 1)[1].strip()
                    if not line.strip():  # the headers end at the first blank line
                        break
        except OSError:
            continue
    return None


def checkout_version(pyproject: str | os.PathLike[str]) -> str:
    """The ``version`` of the ``[project]`` table of ``pyproject`` (:data:`UNKNOWN` if there is none)."""
    try:
        with open(pyproject, encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        return UNKNOWN
    project = re.search(r"(?ms)^\[project\]\s*$(.*?)(?=^\[|\Z)", text)
    if project is None or not re.search(r'(?m)^name\s*=\s*"corefeval"', project.group(1)):
        return UNKNOWN
    found = re.search(r'(?m)^version\s*=\s*"([^"]+)"', project.group(1))
    return found.group(1) if found else UNKNOWN
