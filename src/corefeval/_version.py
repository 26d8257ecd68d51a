"""The version, kept in one place: ``version`` in pyproject.toml, read back from the installed
package's metadata.

Every run prints the version in its signature, so the lookup is kept cheap: an installed wheel's
``METADATA`` file sits next to the package and is read directly (``importlib.metadata`` would
import an e-mail parser and scan every path entry, a tenth of a small run's time); a source
checkout reads its ``pyproject.toml``; ``importlib.metadata`` covers any other layout.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
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
    """The ``version`` of the ``[project]`` table of ``pyproject`` (:data:`UNKNOWN` if there is none).
    Read line by line: compiling regular expressions would cost a source checkout's every run more
    than reading the file."""
    try:
        with open(pyproject, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
    except OSError:
        return UNKNOWN
    starts = [i for i, line in enumerate(lines) if line.rstrip() == "[project]"]
    if not starts:
        return UNKNOWN
    table = []
    for line in lines[starts[0] + 1 :]:
        if line.startswith("["):  # the next table
            break
        table.append(line)
    if "corefeval" not in _assigned(table, "name"):
        return UNKNOWN
    return next(_assigned(table, "version"), UNKNOWN)


def _assigned(lines: list[str], key: str) -> Iterator[str]:
    """The value of every line ``key = "value"`` of ``lines`` (a non-empty string in double quotes,
    anything after it), in order."""
    for line in lines:
        if not line.startswith(key):
            continue
        rest = line[len(key) :].lstrip()
        if not rest.startswith("="):
            continue
        rest = rest[1:].lstrip()
        value, quoted, _ = rest[1:].partition('"')
        if rest.startswith('"') and quoted and value:
            yield value
