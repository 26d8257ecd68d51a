"""MkDocs hook: docstrings name objects with Sphinx roles (:func:`x`, :class:`~a.b.C`); on the site
they read as plain code, ``x`` and ``C``."""

from __future__ import annotations

import re
from typing import Any

_ROLE = re.compile(r":(?:func|class|meth|data|mod|attr|obj):<code>(~?)([^<]*)</code>")


def _shown(match: re.Match[str]) -> str:
    short, name = match.groups()
    return f"<code>{name.rsplit('.', 1)[-1] if short else name}</code>"


def on_page_content(html: str, **_: Any) -> str:
    return _ROLE.sub(_shown, html)
