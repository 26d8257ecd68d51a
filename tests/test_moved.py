"""The import paths from before the layer folders still work for one release, each with a warning."""

from __future__ import annotations

import subprocess
import sys

import pytest

from corefeval._moved import MOVED


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_imports_the_moved_module_with_a_warning(old: str) -> None:
    code = (
        "import importlib, warnings\n"
        "warnings.simplefilter('error')\n"
        f"try:\n    importlib.import_module('corefeval.{old}')\n"
        "except DeprecationWarning as w:\n    print(w)\n"
        "warnings.simplefilter('ignore')\n"
        f"old = importlib.import_module('corefeval.{old}')\n"
        f"new = importlib.import_module('corefeval.{MOVED[old]}')\n"
        "assert all(getattr(old, n) is getattr(new, n) for n in dir(new) if not n.startswith('__'))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert f"corefeval.{old} is now corefeval.{MOVED[old]}" in run.stdout


def test_a_submodule_of_a_moved_package_follows_it() -> None:
    with pytest.warns(DeprecationWarning, match="corefeval.errors.inject is now corefeval.studies.errors.inject"):
        from corefeval.errors.inject import inject  # type: ignore[import-not-found]
    from corefeval.studies.errors.inject import inject as moved

    assert inject is moved


@pytest.mark.parametrize(
    ("package", "name", "module"),
    [("corefeval.scoring", "score_with", "pipeline"), ("corefeval.matching", "match_alignment", "head_and_partial")],
)
def test_the_names_of_a_module_that_became_a_package_are_forwarded(package: str, name: str, module: str) -> None:
    import importlib

    with pytest.warns(DeprecationWarning, match=f"{package}.{name} is now {package}.{module}.{name}"):
        value = getattr(importlib.import_module(package), name)
    assert value is getattr(importlib.import_module(f"{package}.{module}"), name)
    with pytest.raises(AttributeError):
        importlib.import_module(package).no_such_name  # noqa: B018


def test_the_package_names_no_moved_module_at_its_root() -> None:
    import corefeval

    root = {p.stem for p in __import__("pathlib").Path(corefeval.__file__).parent.glob("*.py")}
    assert root == {"__init__", "__main__", "_moved", "_version", "evaluator", "rewards", "training"}
