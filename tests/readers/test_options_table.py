"""Every entry point takes every option and gives the counts of ``score`` with the same ``Options``.

The table crosses the entry points (``score`` with keywords, scoring by documents, ``compare``, the error
analysis, and the ``score``, ``compare`` and ``errors`` commands) with one run per option value, on
GUM Reddit (CorefUD: heads for head and partial matching), the same documents as CoNLL-2012 (split
by documents), a small file with zeros, and a CoNLL-2012 response with an unreadable field.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from corefeval.cli import main
from corefeval.core.model import Corpus
from corefeval.core.options import CHOICES, Options
from corefeval.core.registry import ALL
from corefeval.readers import read
from corefeval.scoring.distributed.documents import score_by_documents
from corefeval.scoring.pipeline import score, score_with
from corefeval.stats.compare import compare
from corefeval.studies.errors.analysis import analyse
from corefeval.writers import render

from .noisy import noisy_corpus

ZEROS = [
    "1\tw1\t_\t_\t_\t_\t2\tdep\t2:dep\tEntity=(e1-person-1)",
    "2\tw2\t_\t_\t_\t_\t0\troot\t0:root\t_",
    "2.1\t_\t_\t_\t_\t_\t_\t_\t{}",
    "2.2\t_\t_\t_\t_\t_\t_\t_\t{}",
    "3\tw3\t_\t_\t_\t_\t2\tdep\t2:dep\tEntity=(e2-thing-1)",
]


@pytest.fixture(scope="module")
def data(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    folder = tmp_path_factory.mktemp("options")
    # tree heads, written as head fields: with first nodes as heads partial matching forgives nothing here
    gold = read(str(shared / "realdata" / "gum-reddit-corefud" / "en_gumreddit-ud-dev.conllu"), heads="tree")
    gold = dataclasses.replace(gold, documents=gold.documents[:3])
    noisy = noisy_corpus(gold, gold.sentences)
    out: dict[str, tuple[str, str]] = {}
    for fmt, ext in (("corefud", "conllu"), ("conll2012", "conll")):
        key, response = folder / f"key.{ext}", folder / f"response.{ext}"
        key.write_text(render(gold, fmt)[0])
        response.write_text(render(noisy, fmt)[0])
        out[fmt] = (str(key), str(response))
    broken = folder / "broken.conll"
    lines = Path(out["conll2012"][1]).read_text().split("\n")
    i = next(i for i, line in enumerate(lines) if line.endswith(")") and not line.startswith("#"))
    lines[i] = lines[i].rsplit("\t", 1)[0] + "\t(x)"
    broken.write_text("\n".join(lines))
    out["lenient"] = (out["conll2012"][0], str(broken))
    header = "# newdoc id = d\n# global.Entity = eid-etype-head-other\n"
    for name, (subject, object_) in {
        "zk": ("2:nsubj\tEntity=(e1-person-1)", "2:obj\tEntity=(e2-thing-1)"),
        "zr": ("2:obj\tEntity=(e2-thing-1)", "2:nsubj\tEntity=(e1-person-1)"),
    }.items():
        (folder / f"{name}.conllu").write_text(header + "\n".join(ZEROS).format(subject, object_) + "\n\n")
    out["zeros"] = (str(folder / "zk.conllu"), str(folder / "zr.conllu"))
    trees = Path(__file__).resolve().parent.parent / "data" / "coval"
    out["trees"] = (str(trees / "key.conll"), str(trees / "response.conll"))
    return out


# (data set, options): one run for each value of each option, on data where it matters.
RUNS: list[tuple[str, Options]] = [
    *((d, Options()) for d in ("corefud", "conll2012", "zeros")),
    ("corefud", Options(metrics=("muc", "lea", "conll"))),
    ("conll2012", Options(metrics=("blanc",), blanc="paper")),
    *(("corefud", Options(match=m)) for m in ("head", "partial")),
    *(("corefud", Options(match=m, singletons="remove")) for m in ("exact", "head", "partial")),
    ("trees", Options(match="min")),
    ("trees", Options(np_only=True)),
    ("trees", Options(remove_nested=True)),
    ("trees", Options(match="min", np_only=True, remove_nested=True, singletons="remove")),
    ("conll2012", Options(singletons="remove")),
    *(("zeros", Options(zeros=z)) for z in CHOICES["zeros"][1:]),
    ("conll2012", Options(pad_key=True)),
    ("corefud", Options(pad_key=True, key_format="corefud", response_format="corefud")),
    ("lenient", Options(lenient=True)),
    ("conll2012", Options(key_format="conll2012", response_format="conll2012")),
]


def flags(o: Options) -> list[str]:
    """The command-line flags that make ``o``."""
    out = ["--blanc", o.blanc, "--match", o.match, "--singletons", o.singletons, "--zeros", o.zeros]
    out += ["--key-format", o.key_format, "--response-format", o.response_format]
    out += ["--np-only"] * o.np_only + ["--remove-nested"] * o.remove_nested
    return out + ["--pad-key"] * o.pad_key + ["--lenient"] * o.lenient


def f1s(scores: dict[str, Any]) -> dict[str, float]:
    return {m: s["f1"] for m, s in scores.items()}


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


ENTRY_POINTS: dict[str, Callable[[str, str, Options, pytest.CaptureFixture[str]], Any]] = {
    "score keywords": lambda k, r, o, _: (
        score(
            k,
            r,
            o.metrics,
            blanc=o.blanc,
            pad_key_mentions=o.pad_key,
            key_format=o.key_format,
            response_format=o.response_format,
            lenient=o.lenient,
            singletons=o.singletons,
            match=o.match,
            zeros=o.zeros,
            np_only=o.np_only,
            remove_nested=o.remove_nested,
        ).counts
    ),
    "by documents": lambda k, r, o, _: score_by_documents(k, r, o).counts,
    "compare": lambda k, r, o, _: compare(k, r, [r], options=o, resamples=5, rounds=5).systems[1].result.counts,
    "errors": lambda k, r, o, _: analyse(k, r, costs=True, options=o).baseline,
    "cli score": lambda k, r, o, c: run_cli(
        ["score", k, r, "--format", "json", "-m", ",".join(o.metrics), *flags(o)], c
    )["corpus"],
    "cli compare": lambda k, r, o, c: run_cli(
        [
            "compare",
            k,
            r,
            r,
            "--format",
            "json",
            "--resamples",
            "5",
            "--rounds",
            "5",
            "-m",
            ",".join(o.metrics),
            *flags(o),
        ],
        c,
    )["systems"][1]["scores"],
    "cli errors": lambda k, r, o, c: run_cli(["errors", k, r, "--format", "json", *flags(o)], c)["baseline_f1"],
}


def expected(name: str, result: Any, all_metrics: Any) -> Any:
    if name in ("score keywords", "by documents", "compare"):
        return result.counts
    if name in ("cli score", "cli compare"):
        return {m: s.to_dict() for m, s in result.corpus.items()}
    return {m: s.f1 for m, s in all_metrics.corpus.items()}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("dataset,options", RUNS, ids=[f"{d}-{i}" for i, (d, _) in enumerate(RUNS)])
def test_entry_point_gives_the_counts_of_score(
    data: dict[str, tuple[str, str]], entry: str, dataset: str, options: Options, capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = data[dataset]
    result = score_with(key, response, options)
    all_metrics = score_with(key, response, dataclasses.replace(options, metrics=("all",)))
    got = ENTRY_POINTS[entry](key, response, options, capsys)
    want = expected(entry, result, all_metrics)
    if isinstance(want, np.ndarray):
        assert np.array_equal(got, want)
    else:
        assert got == want


def test_the_options_change_the_counts(data: dict[str, tuple[str, str]]) -> None:
    """The table above is not vacuous: each option moves some number on its data set."""

    def counts(dataset: str, o: Options) -> np.ndarray:
        return score_with(*data[dataset], dataclasses.replace(o, metrics=ALL)).counts

    base = {d: counts(d, Options()) for d in ("corefud", "conll2012", "zeros", "trees")}
    for dataset, o in RUNS:
        if o.default_selection and not (o.pad_key or o.lenient):
            continue
        moved = counts(dataset, o)
        reference = base.get(dataset, base["conll2012"])
        assert moved.shape != reference.shape or not np.array_equal(moved, reference), (dataset, o)


def test_unknown_values_are_one_line_usage_errors() -> None:
    from corefeval.core.diagnostics import UsageError

    with pytest.raises(UsageError, match="unknown BLANC variant 'x'"):
        Options(blanc="x")
    for field, value in (("match", "fuzzy"), ("singletons", "drop"), ("zeros", "all")):
        with pytest.raises(UsageError, match=f"unknown {field} option '{value}'"):
            Options(**{field: value})
    with pytest.raises(UsageError, match="unknown metric 'nope'"):
        Options(metrics=("nope",))
    with pytest.raises(UsageError, match="unknown format"):
        Options(key_format="xml")
    assert Options(metrics=("B3", "avg")).metrics == ("bcub", "conll")


def test_a_corpus_option_value_without_a_file_is_scored_alike() -> None:
    """Options travel with corpora too: a result's settings name the detected formats."""
    from corefeval.core.model import make_document

    k = Corpus("k", [make_document("d", [[(0, 0), (1, 1)]], 3)])
    r = Corpus("r", [make_document("d", [[(0, 0)], [(1, 1)]], 3)])
    result = score_with(k, r, Options(singletons="remove"))
    assert result.settings.singletons == "remove" and result.settings.key_format == "conll2012"
    assert "singletons:remove" in result.signature
