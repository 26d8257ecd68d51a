"""``corefeval report`` where matplotlib is not installed (issue 32, item 7): the page keeps its
tables and says how to get the charts, and nothing is written before a refusal.

matplotlib is hidden, not uninstalled: the report runs in a child process whose import system
refuses it, as a base install would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from corefeval.cli import main

DATA = Path(__file__).resolve().parent / "data"
KEY, RESPONSE = str(DATA / "key.conllu"), str(DATA / "response.conllu")
#: The command line, in a process where ``import matplotlib`` fails as on a base install.
WITHOUT_MATPLOTLIB = """
import sys

class NoMatplotlib:
    def find_spec(self, name, path=None, target=None):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoMatplotlib())
from corefeval.cli import main
sys.exit(main(sys.argv[1:]))
"""
PROBE = """<script>
const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const note = document.querySelector(".no-charts");
document.body.dataset.layout = JSON.stringify({note: note ? [note.textContent, box(note)] : null,
  svgs: document.querySelectorAll("svg").length,
  tables: [...document.querySelectorAll("table")].map(e => [e.id || e.className, e.rows.length, box(e)])});
</script>"""


def _report(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-c", WITHOUT_MATPLOTLIB, "report", KEY, RESPONSE, KEY, "--names", "system,gold"]
    argv += ["-o", str(folder / "report.html"), "--resamples", "50", "--by", "genre", "--by", "entity-type", *args]
    return subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ), timeout=300)


def test_the_page_keeps_its_tables_and_says_how_to_get_the_charts(tmp_path: Path) -> None:
    done = _report(tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report-errors-1.html", "report-errors-2.html", "report.html"]
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<svg" not in html and "pip install 'corefeval[analysis]'" in html
    for part in ('id="scores"', 'id="tests"', 'id="errors"', "<h3>By genre</h3>", "<h3>By entity-type</h3>"):
        assert part in html
    assert html.count('<table class="groups">') == 2
    warning = [line for line in done.stderr.splitlines() if "no charts" in line]
    assert warning == [
        f"{tmp_path / 'report.html'}: warning: the report has its tables but no charts. The charts are drawn "
        "with matplotlib, which is not installed: pip install 'corefeval[analysis]' and run the report again "
        "to get them."
    ]


def test_no_errors_writes_the_one_page(tmp_path: Path) -> None:
    done = _report(tmp_path, "--no-errors")
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
    assert "No error analysis in this report." in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_nothing_is_written_before_a_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The error views are written with the page, once everything is computed: a refusal while
    making the page leaves no file behind."""
    from corefeval.core.diagnostics import UsageError
    from corefeval.report import html_report

    def refuse(*args: object, **kwargs: object) -> str:
        raise UsageError("refused while making the page")

    monkeypatch.setattr(html_report, "page", refuse)
    assert main(["report", KEY, RESPONSE, "-o", str(tmp_path / "report.html"), "--resamples", "20"]) == 2
    assert "refused while making the page" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_page_without_charts_renders_in_headless_chromium(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from tests.browser import render

    assert _report(tmp_path).returncode == 0
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    layout, _ = render(html, tmp_path, PROBE, (1200, 2000))
    assert layout["svgs"] == 0
    text, box = layout["note"]
    assert "pip install 'corefeval[analysis]'" in text and box[3] - box[1] > 10 and box[2] <= 1200
    tables = {name: rows for name, rows, _ in layout["tables"]}
    assert tables["scores"] == 3 and tables["errors"] == 3
    groups = [t for t in layout["tables"] if t[0] == "groups"]
    assert len(groups) == 2 and all(rows >= 3 for _, rows, _ in groups)  # a header and a row per group
