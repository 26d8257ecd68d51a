"""The HTML page: structure, and a real browser's rendering (skipped where Chromium is absent)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile

import pytest
from errcases import doc

from corefeval.errors.analysis import analyse
from corefeval.model import Corpus
from corefeval.report.errors_html import _colour, page

A = [(0, 0), (2, 3), (5, 5)]
B = [(7, 7), (9, 9)]


def _analysis():
    key = Corpus("key", [doc([A, B], 12, "one")])
    response = Corpus("response", [doc([[(0, 0), (2, 2), (4, 4), (5, 5)], B], 12, "one")])
    return analyse(key, response)


def test_mentions_are_nested_coloured_by_entity_and_errors_explained():
    html = page(_analysis())
    assert html.count('<div class="side">') == 2
    assert 'title="border: «w2» should be «w2 w3»"' in html
    assert 'title="noise: «w4» is not a mention' in html
    # the response chain paired with key chain 0 has the key chain's colour
    key_side, response_side = html.split("<h3>Response</h3>")
    first = _colour(0)[0]
    assert key_side.split("<h3>Key</h3>")[1].count(first) == 3
    assert response_side.count(first) == 4


def test_crossing_mentions_do_not_break_the_nesting():
    key = Corpus("k", [doc([[(0, 2), (6, 6)], [(1, 4), (8, 8)]], 10, "x")])
    html = page(analyse(key, key, costs=False))
    body = html.split('<div class="sides">')[1]
    assert body.count('<span class="m') == body.count("</span>")


def _chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _screenshot(html, folder, name):
    html_file = folder / f"{name}.html"
    html_file.write_text(html, encoding="utf-8")
    shot = folder / f"{name}.png"
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                _chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--window-size=1200,1000",
                f"--screenshot={shot}",
                html_file.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    return shot


def _near(counted, rgb):
    return sum(n for c, n in counted.items() if sum(abs(x - y) for x, y in zip(c, rgb, strict=True)) < 30)


@pytest.mark.skipif(_chromium() is None, reason="Chromium is not installed")
def test_page_renders_in_headless_chromium(tmp_path):
    image = pytest.importorskip("PIL.Image")
    clean = Corpus("key", [doc([A, B], 12, "one")])
    counted = {}
    for name, result in (("errors", _analysis()), ("clean", analyse(clean, clean))):
        pixels = image.open(_screenshot(page(result), tmp_path, name)).convert("RGB")
        assert pixels.size == (1200, 1000)
        counted[name] = {c: n for n, c in pixels.getcolors(maxcolors=1 << 20)}
    # the noise (red) and border (orange) marks appear only on the page with those errors
    for rgb in ((211, 47, 47), (230, 126, 0)):
        assert _near(counted["errors"], rgb) > _near(counted["clean"], rgb) + 100
