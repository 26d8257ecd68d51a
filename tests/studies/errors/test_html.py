"""The HTML page: structure, and a real browser's rendering (Chromium; skipped where it is absent unless
COREFEVAL_REQUIRE_BROWSER is set, as in CI)."""

from __future__ import annotations

import json
import math
import re
import subprocess
import tempfile
from html import unescape
from pathlib import Path
from typing import Any

from errcases import doc

from corefeval.core.model import Corpus
from corefeval.report.errors_html import ERROR_COLOURS, _colour, page
from corefeval.studies.errors.analysis import analyse
from tests.browser import chromium

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


WINDOW = (1200, 1000)
#: Flags for a headless run on a machine without network, display or sandbox, in a new empty profile.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",  # the same layout width for the script and the screenshot
    f"--window-size={WINDOW[0]},{WINDOW[1]}",
)
#: Run by the browser at the end of the page: where it laid out the legend boxes and the outlined mentions.
PROBE = """<script>
const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
document.body.dataset.layout = JSON.stringify({
  legend: [...document.querySelectorAll("th .key")].map(e => [e.parentElement.textContent, box(e)]),
  errors: [...document.querySelectorAll(".m.err")].map(e => [e.classList[2], box(e)])});
</script>"""


def _chromium_run(browser: str, url: str, *args: str) -> str:
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [browser, *FLAGS, f"--user-data-dir={profile}", *args, url],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, f"chromium exited {done.returncode}: {done.stderr[-2000:]}"
    return done.stdout


def _render(browser: str, html: str, folder: Path) -> tuple[dict, Any]:
    """The layout the browser computed (from the DOM it dumps) and its screenshot (RGB), of one run."""
    from PIL import Image  # installed with matplotlib (the test extra)

    source = folder / "page.html"
    source.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    shot = folder / "page.png"
    dom = _chromium_run(browser, source.as_uri(), "--dump-dom", f"--screenshot={shot}")
    found = re.search(r'data-layout="([^"]*)"', dom)
    assert found, "the dumped DOM has no layout: the page's script did not run"
    return json.loads(unescape(found.group(1))), Image.open(shot).convert("RGB")


def _hex(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _share(pixels: Any, box: list[float], rgb: tuple[int, int, int], grow: float = 0) -> float:
    """The share of the pixels wholly inside the 3-pixel rim of ``box`` (grown by ``grow`` pixels on
    every side) that have colour ``rgb``."""
    left, top, right, bottom = box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow
    xs, ys = range(math.ceil(left), math.floor(right)), range(math.ceil(top), math.floor(bottom))
    columns = [*range(math.ceil(left), math.floor(left + 3)), *range(math.ceil(right - 3), math.floor(right))]
    rows = [*range(math.ceil(top), math.floor(top + 3)), *range(math.ceil(bottom - 3), math.floor(bottom))]
    rim = [(x, y) for x in xs for y in rows] + [(x, y) for y in ys for x in columns]
    near = [p for p in rim if sum(abs(a - b) for a, b in zip(pixels.getpixel(p), rgb, strict=True)) < 40]
    return len(near) / len(rim)


def test_page_renders_in_headless_chromium(tmp_path: Path) -> None:
    browser = chromium()
    layout, pixels = _render(browser, page(_analysis()), tmp_path)
    assert pixels.size == WINDOW
    # not blank: many colours, none covering almost everything
    histogram = pixels.getcolors(maxcolors=1 << 20)
    assert len(histogram) > 50 and max(n for n, _ in histogram) < 0.97 * WINDOW[0] * WINDOW[1]
    # the legend: one box per error type, on screen, drawn in the type's colour
    assert [name for name, _ in layout["legend"]] == list(ERROR_COLOURS)
    for name, box in layout["legend"]:
        assert 0 <= box[0] < box[2] <= WINDOW[0] and 0 <= box[1] < box[3] <= WINDOW[1], name
        assert _share(pixels, box, _hex(ERROR_COLOURS[name])) > 0.6, f"legend box '{name}' is not drawn"
    # the errors of this response (two borders, one noise), outlined in their type's colour
    assert sorted(name for name, _ in layout["errors"]) == ["border", "border", "noise"]
    for name, box in layout["errors"]:
        assert box[3] <= WINDOW[1], f"the {name} mention is below the screenshot"
        assert _share(pixels, box, _hex(ERROR_COLOURS[name]), grow=4) > 0.6, f"the {name} outline is not drawn"


def test_a_page_without_errors_outlines_nothing(tmp_path: Path) -> None:
    browser = chromium()
    clean = Corpus("key", [doc([A, B], 12, "one")])
    layout, pixels = _render(browser, page(analyse(clean, clean)), tmp_path)
    assert layout["errors"] == []
    assert len(layout["legend"]) == len(ERROR_COLOURS)
