"""The layering the design promises: no import circle, and a metric is one module plus one registry line."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import corefeval
from corefeval import Evaluator
from corefeval.alignment import align
from corefeval.cells import Cells, build_cells
from corefeval.metrics.base import Metric
from corefeval.model import Corpus, make_document
from corefeval.registry import MetricInfo, register, unregister
from corefeval.report.score import render
from corefeval.scoring import score

PACKAGE = Path(corefeval.__file__).parent


def _module_name(path: Path) -> tuple[str, list[str]]:
    """A file's module name, and the package its relative imports start from."""
    parts = ["corefeval", *path.relative_to(PACKAGE).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts = parts[:-1]
        return ".".join(parts), parts
    return ".".join(parts), parts[:-1]


def _imports(tree: ast.Module, package: list[str]) -> Iterator[str]:
    """Every module an import statement names: function-local imports and imports only for type
    checkers (under ``if TYPE_CHECKING:``) included, as a reader of the code follows them all."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            yield target
            yield from (f"{target}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    """Which corefeval modules each corefeval module imports."""
    files = [(*_module_name(p), p) for p in PACKAGE.rglob("*.py")]
    names = {name for name, _, _ in files}
    graph: dict[str, set[str]] = {}
    for name, package, path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = {t for t in _imports(tree, package) if t in names and t != name}
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of a directed graph (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                out.append(component)
    return out


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert sorted(map(sorted, strongly_connected(graph))) == [["a", "b", "c"], ["d"]]


def test_no_import_cycle() -> None:
    graph = import_graph()
    assert "corefeval.metrics.muc" in graph and "corefeval.cells" in graph["corefeval.metrics.muc"]
    cycles = [sorted(c) for c in strongly_connected(graph) if len(c) > 1]
    assert cycles == []


#: The layers, lowest first: a module may import its own layer's modules and lower layers' only.
#: Each entry is a module or package directly under ``corefeval``; every one must be placed.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "core: the document model, names, numbers, messages, assignment",
        (
            "_version",
            "dataclass_methods",
            "diagnostics",
            "distinct",
            "document_names",
            "empty_nodes",
            "format_names",
            "mention_values",
            "numbers",
            "progress",
            "spancodes",
            "model",
            "output",
            "warning_summary",
            "registry",
            "preset_names",
            "options",
            "assignment",
            "pairing",
        ),
    ),
    (
        "readers: files to documents, and their checks",
        ("readers", "parse_trees", "ua_syntax", "word_alignment", "anaphora", "presets_ua", "validate"),
    ),
    ("writers: documents to files", ("writers",)),
    (
        "matching: mentions paired, selected, and their cells",
        (
            "alignment",
            "repeat_rules",
            "hash_order",
            "cells",
            "mention_lookups",
            "matching",
            "selection",
            "minspans",
            "coval_filters",
            "word_check",
            "document_index",
        ),
    ),
    ("metrics: one module each, counts from cells", ("metrics",)),
    (
        "scoring: the one counting path, its options and results",
        (
            "presets",
            "batch",
            "batched_matching",
            "crossdoc",
            "results",
            "scoring",
            "ua_corpus",
            "variants",
            "distributed",
        ),
    ),
    ("stats: resampling, paired tests, comparisons, leaderboards", ("stats", "compare", "leaderboard")),
    ("studies: breakdowns, errors, the human study, bias", ("breakdowns", "errors", "analysis", "bias")),
    ("doors: the Evaluator and training", ("evaluator", "training")),
    ("report: formatting only", ("report",)),
    ("cli: argument parsing only", ("cli",)),
    ("the package face", ("corefeval", "__main__")),
)


def _unit(module: str) -> str:
    """The module or package directly under ``corefeval`` that holds ``module``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_every_import_points_down_the_declared_layers() -> None:
    """One declared order for every import, lazy and type-checking ones included."""
    layer = {unit: i for i, (_, units) in enumerate(LAYERS) for unit in units}
    graph = import_graph()
    unplaced = sorted({_unit(m) for m in graph} - set(layer))
    assert unplaced == [], f"place these in LAYERS: {unplaced}"
    upward = sorted(
        f"{name} -> {target} ({LAYERS[layer[_unit(target)]][0].split(':')[0]})"
        for name, targets in graph.items()
        for target in targets
        if layer[_unit(target)] > layer[_unit(name)]
    )
    assert upward == []


def test_layers_point_down() -> None:
    """Cells never import metrics; metrics never import what counts documents or reports them."""
    graph = import_graph()
    for name, targets in graph.items():
        if name.startswith("corefeval.cells"):
            assert not any(t.startswith(("corefeval.metrics", "corefeval.batch")) for t in targets), name
        if name.startswith("corefeval.metrics"):
            upper = ("corefeval.batch", "corefeval.scoring", "corefeval.results", "corefeval.report")
            assert not any(t.startswith(upper) for t in targets), name


class ExactEntities(Metric):
    """A toy metric: key entities that one response entity reproduces exactly (recall), and the
    response entities that are key entities (precision)."""

    name = "exact"
    title = "exact entities"

    def columns(self, cells: Cells) -> list[np.ndarray]:
        c = cells
        exact = (c.counts == c.key_sizes[c.rows]) & (c.counts == c.response_sizes[c.cols])
        found = c.per_doc(c.doc, exact.astype(float))
        return [found, c.per_doc(c.key_doc), found, c.per_doc(c.response_doc)]

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        key_sets = {frozenset(c) for c in key if c}
        response_sets = {frozenset(c) for c in response if c}
        found = float(len(key_sets & response_sets))
        return found, float(len([c for c in key if c])), found, float(len([c for c in response if c]))


@pytest.fixture
def exact_metric() -> Iterator[str]:
    register(MetricInfo("exact", "exact entities", f"{__name__}:ExactEntities", aliases=("ee",)))
    yield "exact"
    unregister("exact")


KEY = [[(0, 0), (2, 3), (5, 5)], [(7, 7), (9, 9)], [(11, 11)]]
RESPONSE = [[(0, 0), (2, 3), (5, 5)], [(7, 7)], [(9, 9), (11, 11)]]


def _corpora() -> tuple[Corpus, Corpus]:
    docs = [("a", KEY, RESPONSE), ("b", KEY, KEY), ("c", KEY, [[(0, 0)]])]
    key = Corpus("key.conll", [make_document(n, k, 20) for n, k, _ in docs])
    response = Corpus("response.conll", [make_document(n, r, 20) for n, _, r in docs])
    return key, response


def test_a_registered_metric_is_scored_everywhere(exact_metric: str) -> None:
    key, response = _corpora()
    result = score(key, response, ["ee", "muc"])
    assert result.corpus["exact"].recall == pytest.approx((1 + 3 + 0) / 9)
    assert result.corpus["exact"].precision == pytest.approx((1 + 3 + 0) / (3 + 3 + 1))
    per_doc = {d.name: d.scores["exact"].recall for d in result.documents}
    assert per_doc == pytest.approx({"a": 1 / 3, "b": 1.0, "c": 0.0})
    as_json = json.loads(render(result, "json", per_doc=True))
    assert as_json["corpus"]["exact"]["recall_num"] == 4.0
    assert "exact entities" in render(result, "text", per_doc=False)

    # One document at a time (under a selection option), and in memory, give the same rows.
    one_by_one = score(key, response, ["exact"], zeros="exclude")
    assert one_by_one["exact"].to_dict() == result["exact"].to_dict()
    ev = Evaluator(["exact"])
    for k, r in zip(key, response):
        ev.update(k.clusters(), r.clusters(), name=k.name)
    assert ev.result()["exact"].to_dict() == result["exact"].to_dict()


def test_a_registered_metric_takes_its_literal_path_where_ids_repeat(exact_metric: str) -> None:
    repeated = make_document("d", [[(0, 0), (2, 2)], [(2, 2)]], 5)
    a = align(repeated, make_document("d", [[(0, 0), (2, 2)]], 5))
    assert a.repeats
    key = Corpus("key.conll", [repeated])
    response = Corpus("response.conll", [make_document("d", [[(0, 0), (2, 2)]], 5)])
    assert score(key, response, ["exact"])["exact"].recall == pytest.approx(1 / 2)


def test_cells_hand_metrics_the_documents_and_their_matching() -> None:
    key, response = _corpora()
    pairs = [(k, r) for k, r in zip(key, response)]
    for cells in (Cells.of_alignments([align(k, r) for k, r in pairs], pairs), _stacked(pairs)):
        assert all(x is y for x, y in zip(cells.documents(2), pairs[2]))
        a = cells.alignment(0)
        assert a.n_matched == 6 and a.n_key_ids == 6
        assert cells.matched.tolist() == [6, 6, 1]


def _stacked(pairs: list[tuple[corefeval.Document, corefeval.Document]]) -> Cells:
    cells, skip = build_cells(pairs)
    assert not skip.any()
    return cells


def test_a_registered_metric_reaches_csv_bootstrap_and_the_report(exact_metric: str, tmp_path: Path) -> None:
    """The one file and one registry line above are all a metric needs: CSV, the bootstrap
    intervals and the HTML report take it as they take MUC."""
    from corefeval.cli import main
    from corefeval.stats.confidence import confidence_intervals
    from corefeval.writers import render as write_text

    key, response = _corpora()
    result = score(key, response, ["exact"])
    rows = [line.split(",")[2] for line in render(result, "csv", per_doc=True).splitlines()[2:]]
    assert rows.count('"exact"') == 1 + len(key.documents)
    intervals = confidence_intervals(result, resamples=200)
    low, high = intervals.intervals["exact"]["f1"].low, intervals.intervals["exact"]["f1"].high
    assert 0.0 <= low <= result["exact"].f1 <= high <= 1.0
    paths = [str(tmp_path / name) for name in ("key.conll", "response.conll")]
    for corpus, path in zip((key, response), paths):
        Path(path).write_text(write_text(corpus, "conll2012")[0], encoding="utf-8")
    page = tmp_path / "report.html"
    assert main(["report", *paths, "-m", "exact", "-m", "muc", "-o", str(page), "--resamples", "50", "-q"]) == 0
    assert "exact entities" in page.read_text(encoding="utf-8")
