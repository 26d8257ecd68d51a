"""The version is written once, in pyproject.toml; the package reads it back."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

import corefeval
from corefeval import _version
from corefeval.cli import main

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_pyproject_version_is_read_from_the_project_table() -> None:
    version = _version.checkout_version(PYPROJECT)
    assert version != _version.UNKNOWN
    assert f'\nversion = "{version}"\n' in PYPROJECT.read_text(encoding="utf-8")


def test_version_is_the_installed_metadata_or_the_checkout() -> None:
    try:
        expected = importlib.metadata.version("corefeval")
    except importlib.metadata.PackageNotFoundError:
        expected = _version.checkout_version(PYPROJECT)
    assert corefeval.__version__ == expected == _version.checkout_version(PYPROJECT)


def test_not_installed_falls_back_to_pyproject(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert _version.version() == _version.checkout_version(PYPROJECT)


def test_a_wheel_install_is_read_from_its_metadata_file(tmp_path: Path) -> None:
    info = tmp_path / "corefeval-1.2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.4\nName: corefeval\nVersion: 1.2.3\n\nVersion: 9.9.9 in the description\n",
        encoding="utf-8",
    )
    (tmp_path / "corefeval_extra-0.1.dist-info").mkdir()
    assert _version.wheel_version(tmp_path) == "1.2.3"
    assert _version.wheel_version(tmp_path / "absent") is None


def test_a_metadata_file_without_a_version_is_no_version(tmp_path: Path) -> None:
    info = tmp_path / "corefeval-1.2.3.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.4\nName: corefeval\n\nVersion: 9\n", encoding="utf-8")
    assert _version.wheel_version(tmp_path) is None


def test_no_project_table_is_unknown(tmp_path: Path) -> None:
    other = tmp_path / "pyproject.toml"
    other.write_text('[project]\nname = "other"\nversion = "9.9"\n', encoding="utf-8")
    assert _version.checkout_version(other) == _version.UNKNOWN
    assert _version.checkout_version(tmp_path / "absent.toml") == _version.UNKNOWN


def test_cli_reports_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"corefeval {corefeval.__version__}"


def _by_patterns(text: str) -> str:
    """The rule the line-by-line reading keeps: the ``[project]`` table up to the next table, its
    ``name`` line naming corefeval, its first ``version = "..."`` line."""
    import re

    project = re.search(r"(?ms)^\[project\]\s*$(.*?)(?=^\[|\Z)", text)
    if project is None or not re.search(r'(?m)^name\s*=\s*"corefeval"', project.group(1)):
        return _version.UNKNOWN
    found = re.search(r'(?m)^version\s*=\s*"([^"]+)"', project.group(1))
    return found.group(1) if found else _version.UNKNOWN


@pytest.mark.parametrize(
    "text",
    [
        '[project]\nname = "corefeval"\nversion = "1.2"\n',
        '[project]  \nversion="0.3.0"  # a comment\nname="corefeval"\n',
        '[tool.x]\nversion = "9"\n[project]\nname = "corefeval"\ndynamic = ["x"]\n[project.urls]\nversion = "8"\n',
        '[project]\nname = "corefeval"\nversion = ""\nversion = "2"\n',
        '[project]\nname = "corefeval"\nversion = 3\nversions = "4"\nversion = "5\n',
        '[project]\nname = "corefevalx"\nversion = "1"\n',
        '[project]\n name = "corefeval"\nversion = "1"\n',
        '[project]\nname = "other"\nname = "corefeval"\nversion = "6"\n',
        '[projects]\nname = "corefeval"\nversion = "1"\n',
        '[project]\r\nname = "corefeval"\r\nversion = "1.0"\r\n',
        "",
    ],
)
def test_the_checkout_version_is_read_line_by_line_by_the_rule(tmp_path: Path, text: str) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_bytes(text.encode())
    assert _version.checkout_version(path) == _by_patterns(path.read_text(encoding="utf-8"))
