"""The headless browser the page-rendering tests use: Chromium from PATH, a skip when it is
absent, a failure when ``COREFEVAL_REQUIRE_BROWSER`` is set (as in CI)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from html import unescape
from pathlib import Path
from typing import Any

import pytest

REQUIRE = "COREFEVAL_REQUIRE_BROWSER"


def chromium() -> str:
    """The path of Chromium, or skip (fail under ``COREFEVAL_REQUIRE_BROWSER``)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get(REQUIRE):
            pytest.fail(f"{REQUIRE} is set but no chromium or chromium-browser is on PATH")
        pytest.skip(f"Chromium is not installed (set {REQUIRE} to make this a failure)")
    return found


def render(html: str, folder: Path, probe: str, window: tuple[int, int]) -> tuple[dict[str, Any], Any]:
    """The page drawn by headless Chromium: what ``probe`` (a script appended to the page, which
    puts JSON in ``document.body.dataset.layout``) found, and the screenshot (a PIL image)."""
    from PIL import Image  # installed with matplotlib

    browser = chromium()
    source = folder / "page.html"
    source.write_text(html.replace("</body>", probe + "</body>"), encoding="utf-8")
    shot = folder / "page.png"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"]
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                browser,
                *flags,
                f"--window-size={window[0]},{window[1]}",
                f"--user-data-dir={profile}",
                "--dump-dom",
                f"--screenshot={shot}",
                source.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, f"chromium exited {done.returncode}: {done.stderr[-2000:]}"
    found = re.search(r'data-layout="([^"]*)"', done.stdout)
    assert found, "the dumped DOM has no layout: the page's script did not run"
    return json.loads(unescape(found.group(1))), Image.open(shot).convert("RGB")
