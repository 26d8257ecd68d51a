"""``corefeval report``: the page's content, and its layout and screenshot in headless Chromium."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from corefeval.cli import main
from tests.browser import render

pytest.importorskip("matplotlib")

DATA = Path(__file__).resolve().parent / "data"
KEY, RESPONSE = str(DATA / "key.conllu"), str(DATA / "response.conllu")
GUM = Path(__file__).resolve().parents[4] / "shared" / "realdata" / "gum-reddit-corefud" / "en_gumreddit-ud-test.conllu"
WINDOW = (1200, 2600)
KINDS = ("genre", "mention-type", "entity-size")
#: Run by the browser at the end of the page: where it laid out the charts and tables, and inside
#: each chart the plotting area, the bars, the legend and the tick labels.
PROBE = """<script>
const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const section = e => { let h = e.closest(".charts"); while (h && h.tagName !== "H3") h = h.previousElementSibling;
  return h ? h.textContent : ""; };
const chart = svg => { const axes = svg.querySelector('g[id^="axes_"]');
  const patches = axes ? [...axes.children].filter(e => e.id.startsWith("patch_")) : [];
  const legend = svg.querySelector('g[id^="legend_"]');
  return {kind: svg.closest(".chart").className, section: section(svg), paths: svg.querySelectorAll("path").length,
    box: box(svg), natural: parseFloat(svg.getAttribute("width")) * 4 / 3,
    area: patches.length ? box(patches[0]) : null, bars: patches.slice(1).map(box), legend: legend ? box(legend) : null,
    ticks: [...svg.querySelectorAll('g[id^="matplotlib.axis"]')].map(a =>
      [...a.querySelectorAll('g[id^="xtick_"] text, g[id^="ytick_"] text')].map(box))}; };
document.body.dataset.layout = JSON.stringify({
  charts: [...document.querySelectorAll(".chart svg")].map(chart),
  tables: [...document.querySelectorAll("table")].map(e => [e.id, e.rows.length, box(e)])});
</script>"""


def _report(out: Path, *args: str) -> Path:
    assert main(["report", *args, "-o", str(out), "--resamples", "200"]) == 0
    return out


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    return _report(out, KEY, RESPONSE, KEY, "--names", "system,gold", *[x for k in KINDS for x in ("--by", k)])


@pytest.fixture(scope="module")
def gum_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """GUM's test file (ten entity types) against two noisy copies, both named ``system.conllu``."""
    from corefeval.readers import read
    from corefeval.writers import render as write
    from tests.readers.noisy import noisy_corpus

    if not GUM.exists():
        pytest.skip("the shared GUM files are not there")
    folder = tmp_path_factory.mktemp("gum")
    gold = read(str(GUM))
    responses = []
    for name, seed in (("a", 7), ("b", 11)):
        (folder / name).mkdir()
        path = folder / name / "system.conllu"
        path.write_text(write(noisy_corpus(gold, gold.sentences, seed), "corefud")[0], encoding="utf-8")
        responses.append(str(path))
    kinds = ("entity-type", "genre", "mention-type")
    return _report(folder / "report.html", str(GUM), *responses, *[x for k in kinds for x in ("--by", k)])


def test_the_page_holds_every_part_and_no_network(report: Path) -> None:
    html = report.read_text(encoding="utf-8")
    for part in ('id="scores"', 'id="tests"', 'id="errors"', "<h2>Signature</h2>", "By genre", "By mention-type"):
        assert part in html
    assert html.count('<div class="chart bars"><svg') == len(KINDS)
    assert html.count('<div class="chart heat"><svg') == len(KINDS)
    assert html.count('<table class="groups">') == len(KINDS)  # each breakdown as a table too
    assert not re.search(r'(src|href)="(https?:)?//', html)  # nothing fetched: opens from disk
    assert (report.parent / "report-errors-1.html").exists()  # the error view the counts link to
    assert 'href="report-errors-2.html"' in html
    # the gold 'system' is perfect: its CoNLL F1 is 100, and the other's LEA is the worked example's
    assert "100.00" in html and "33.33" in html


def test_page_renders_in_headless_chromium(report: Path, tmp_path: Path) -> None:
    layout, pixels = render(report.read_text(encoding="utf-8"), tmp_path, PROBE, WINDOW)
    histogram = pixels.getcolors(maxcolors=1 << 20)
    assert len(histogram) > 50 and max(n for n, _ in histogram) < 0.97 * WINDOW[0] * WINDOW[1]  # not blank
    charts = layout["charts"]
    assert len(charts) == 2 * len(KINDS)
    for c in charts:  # every chart drawn, on the page, with something in it
        kind, box = c["kind"], c["box"]
        assert c["paths"] > 10, kind
        assert box[2] - box[0] > 100 and box[3] - box[1] > 100, kind
        region = pixels.crop(tuple(int(v) for v in (box[0], box[1], min(box[2], WINDOW[0]), min(box[3], WINDOW[1]))))
        assert len(region.getcolors(maxcolors=1 << 20)) > 20, f"{kind} chart is blank on screen"
    tables = {name: rows for name, rows, _ in layout["tables"]}
    assert tables["scores"] == 3 and tables["tests"] == 4 and tables["errors"] == 3


def test_the_same_report_is_the_same_file(report: Path, tmp_path: Path) -> None:
    again = _report(
        tmp_path / "report.html", KEY, RESPONSE, KEY, "--names", "system,gold", *[x for k in KINDS for x in ("--by", k)]
    )
    html = report.read_text(encoding="utf-8")
    assert again.read_text(encoding="utf-8") == html
    assert "<dc:date>" not in html  # the charts carry no drawing date
    assert "<text" in html  # chart text stays text (svg.fonttype none), not glyph paths


# Issue 32, item 7: names, one-group breakdowns, legends, and the entity-type chart.


def test_systems_named_by_file_stem_get_distinct_names(gum_report: Path) -> None:
    from corefeval.cli.report import system_names

    html = gum_report.read_text(encoding="utf-8")
    assert "systems: a/system, b/system." in html
    assert system_names(["x/sys.conll", "x/sys.conllu", "y.conll"]) == ["sys.conll", "sys.conllu", "y"]
    assert system_names(["p/a/s.conll", "q/a/s.conll", "a.conll"]) == ["p/a/s", "q/a/s", "a"]
    assert system_names(["s.conll", "s.conll"]) == ["s.conll", "s.conll (2)"]


def _overlap(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


@pytest.fixture(scope="module")
def gum_layout(gum_report: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    layout, _ = render(gum_report.read_text(encoding="utf-8"), tmp_path_factory.mktemp("shot"), PROBE, (1200, 5000))
    return layout


def test_a_grouping_with_one_group_has_a_table_and_no_chart(gum_report: Path, gum_layout: dict[str, Any]) -> None:
    html = gum_report.read_text(encoding="utf-8")
    genre = html.split("<h3>By genre</h3>", 1)[1].split("<h3>", 1)[0]
    assert '<table class="groups">' in genre and "One group: no chart." in genre and "<svg" not in genre
    assert sorted({c["section"] for c in gum_layout["charts"]}) == ["By entity-type", "By mention-type"]


def test_legends_stand_clear_of_the_bars(gum_layout: dict[str, Any]) -> None:
    bars = [c for c in gum_layout["charts"] if "bars" in c["kind"]]
    assert len(bars) == 2
    for c in bars:
        assert c["legend"] is not None and len(c["bars"]) >= 4
        assert not _overlap(c["legend"], c["area"]), c["section"]  # outside the plotting area
        assert not any(_overlap(c["legend"], bar) for bar in c["bars"]), c["section"]


def test_the_entity_type_charts_are_readable(gum_report: Path, gum_layout: dict[str, Any]) -> None:
    """Ten entity types: every chart drawn at its own size (not shrunk), tick labels at least 9
    pixels high and apart from each other; the responses have no types, so recall is charted."""
    html = gum_report.read_text(encoding="utf-8")
    assert "LEA recall by group" in html and "only recall is meaningful per type" in html
    charts = [c for c in gum_layout["charts"] if c["section"] == "By entity-type"]
    assert len(charts) == 2
    for c in charts:
        width = c["box"][2] - c["box"][0]
        assert width >= 0.95 * c["natural"] and c["box"][2] <= 1200, c["kind"]
        labels = [t for axis in c["ticks"] for t in axis]
        assert len(labels) >= 10 and all(t[3] - t[1] >= 9 for t in labels), c["kind"]
        for axis in c["ticks"]:
            assert not any(_overlap(a, b) for i, a in enumerate(axis) for b in axis[i + 1 :]), c["kind"]
