"""Old import paths of the modules that moved into the layer folders: thin aliases, each with a
``DeprecationWarning``, kept for one release. ``import corefeval.options`` still works and gives the
names of :mod:`corefeval.core.options`; a submodule of a moved package follows its package."""

from __future__ import annotations

import importlib
import sys
import types
import warnings
from importlib.machinery import ModuleSpec
from typing import Any

#: Old path -> new path, under ``corefeval.``.
MOVED: dict[str, str] = {
    "alignment": "matching.alignment",
    "analysis": "studies.analysis",
    "anaphora.ua_alignment": "metrics.ua.alignment",
    "anaphora.ua_metrics": "metrics.ua.identity",
    "anaphora.ua_scores": "metrics.ua.scores",
    "assignment": "core.assignment",
    "batch": "scoring.batch",
    "batched_matching": "scoring.batch.heads",
    "bias": "studies.bias",
    "breakdowns": "studies.breakdowns",
    "cells": "matching.cells",
    "compare": "stats.compare",
    "coval_filters": "matching.syntactic_filters",
    "crossdoc": "scoring.crossdoc",
    "diagnostics": "core.diagnostics",
    "distinct": "core.distinct",
    "distributed": "scoring.distributed",
    "document_index": "readers.document_index",
    "document_names": "core.document_names",
    "empty_nodes": "core.empty_nodes",
    "errors": "studies.errors",
    "format_names": "core.format_names",
    "hash_order": "matching.hash_order",
    "leaderboard": "stats.leaderboard",
    "mention_lookups": "matching.mention_lookups",
    "mention_values": "core.mention_values",
    "minspans": "matching.minspans",
    "model": "core.model",
    "numbers": "core.numbers",
    "options": "core.options",
    "output": "core.output",
    "pairing": "core.pairing",
    "parse_trees": "readers.parse_trees",
    "preset_names": "core.preset_names",
    "presets": "scoring.presets",
    "presets_ua": "scoring.presets_ua",
    "progress": "core.progress",
    "registry": "core.registry",
    "repeat_rules": "matching.repeat_rules",
    "results": "scoring.results",
    "selection": "matching.selection",
    "spancodes": "core.spancodes",
    "ua_corpus": "scoring.ua_corpus",
    "ua_syntax": "readers.ua_syntax",
    "validate": "readers.validate",
    "variants": "scoring.variants",
    "warning_summary": "core.warning_summary",
    "word_alignment": "readers.word_alignment",
    "word_check": "matching.word_check",
}


def _new_name(name: str) -> str | None:
    """Where the module once named ``name`` lives now, or None when it did not move."""
    rest = name[len("corefeval.") :]
    if rest in MOVED:
        return "corefeval." + MOVED[rest]
    head, _, tail = rest.partition(".")
    if tail and head in MOVED:
        return f"corefeval.{MOVED[head]}.{tail}"
    return None


def _warn(old: str, new: str, stacklevel: int = 3) -> None:
    warnings.warn(
        f"{old} is now {new}; the old path goes in the next release", DeprecationWarning, stacklevel=stacklevel
    )


class _Alias(types.ModuleType):
    """A module under its old name whose names are the moved module's."""

    def __init__(self, name: str, target: types.ModuleType) -> None:
        super().__init__(name, target.__doc__)
        self.__dict__["_target"] = target

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.__dict__["_target"], attr)

    def __dir__(self) -> list[str]:
        return dir(self.__dict__["_target"])


class _AliasLoader:
    """Loads an old path as an alias of its new module."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: ModuleSpec) -> types.ModuleType:
        _warn(spec.name, self.new)
        return _Alias(spec.name, importlib.import_module(self.new))

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the moved module ran already."""


class _AliasFinder:
    """Finds old paths before the path finder could load a moved file a second time."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if not name.startswith("corefeval."):
            return None
        new = _new_name(name)
        return None if new is None else ModuleSpec(name, _AliasLoader(new))  # type: ignore[arg-type]


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())  # type: ignore[arg-type]


def forwarded(package: str, module: str, name: str) -> Any:
    """A name of a former module that is now ``package.module``, with a warning."""
    if name.startswith("__"):
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    target = importlib.import_module(f"{package}.{module}")
    if not hasattr(target, name):
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    _warn(f"{package}.{name}", f"{package}.{module}.{name}", stacklevel=4)
    return getattr(target, name)
