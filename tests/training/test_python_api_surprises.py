"""The Python API without surprises: a document is counted once (``update``, ``a + b``), spans loaded
from JSON are spans, ``corefeval.score`` warns through :mod:`warnings`, and a result's repr shows its
scores."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import corefeval
from corefeval import Evaluator, metrics
from corefeval.core.diagnostics import UsageError

GOLD = [[(0, 1), (5, 5)], [(3, 3), (7, 8)]]
PREDICTED = [[(0, 1), (5, 5), (3, 3)]]
OTHER = [[(0, 1), (3, 3)]]


def rows(ev: Evaluator) -> dict[str, list[float]]:
    array, names = ev.state()
    return {n: row.tolist() for n, row in zip(names, array)}


def test_update_refuses_a_name_given_twice() -> None:
    ev = Evaluator()
    ev.update(GOLD, PREDICTED, name="a")
    with pytest.raises(UsageError, match="document 'a' was added already.*replace=True"):
        ev.update(GOLD, PREDICTED, name="a")
    assert len(ev) == 1


def test_update_with_replace_puts_the_document_in_its_place() -> None:
    ev = Evaluator()
    ev.update(GOLD, PREDICTED, name="a")
    ev.update(GOLD, GOLD, name="b")
    ev.update(GOLD, OTHER, name="a", replace=True)
    once = Evaluator()
    once.update(GOLD, OTHER, name="a")
    once.update(GOLD, GOLD, name="b")
    assert ev.result().document_names == ["a", "b"]
    assert np.array_equal(ev.result().counts, once.result().counts)
    ev.update_many([(GOLD, PREDICTED, "b")], replace=True)  # a pending document replaced too
    assert len(ev) == 2 and ev.result().documents[1].scores["muc"].f1 < 1


def test_adding_evaluators_refuses_a_document_both_hold() -> None:
    a, b = Evaluator(), Evaluator()
    a.update(GOLD, PREDICTED, name="x")
    b.update(GOLD, PREDICTED, name="x")
    b.update(GOLD, GOLD, name="y")
    with pytest.raises(UsageError, match=r"both evaluators hold 1 of the same documents \('x'\)"):
        _ = a + b
    merged = a.merge(b, replace=True)
    assert merged.result().document_names == ["x", "y"] and rows(merged) == rows(b)
    a.update(GOLD, OTHER, name="z")
    assert (a + Evaluator()).result().document_names == ["x", "z"]


def test_a_state_naming_a_document_twice_is_refused() -> None:
    ev = Evaluator()
    ev.update(GOLD, PREDICTED, name="x")
    array, _ = ev.state()
    with pytest.raises(UsageError, match="document 'x' twice"):
        Evaluator.from_state(np.vstack([array, array]), ["x", "x"])


def test_spans_loaded_from_json_are_spans() -> None:
    gold, predicted = json.loads(json.dumps(GOLD)), json.loads(json.dumps(PREDICTED))
    assert gold[0][0] == [0, 1]
    as_lists, as_tuples = Evaluator(), Evaluator()
    as_lists.update(gold, predicted)
    as_tuples.update(GOLD, PREDICTED)
    assert rows(as_lists) == rows(as_tuples)
    strings = Evaluator()
    strings.update([[["a", "b"], ["c"]]], [[["a", "b"]]])  # any JSON mention: a list is its tuple
    assert strings.result().corpus["mentions"].recall == 0.5
    assert metrics.muc(gold, predicted) == metrics.muc(GOLD, PREDICTED)


KEY = """#begin document (d); part 000
w\t0\ta\t(1)
w\t1\tb\t(1)
w\t2\tc\t-
#end document
"""


def test_score_warns_through_python_warnings(tmp_path: Path) -> None:
    key = tmp_path / "k.conll"
    key.write_text(KEY)
    response = tmp_path / "r.conll"
    response.write_text(KEY + KEY.replace("(d)", "(other)"))
    with pytest.warns(corefeval.CorefevalWarning, match=r"r.conll:6: document '\(other\); part 000' is not in the key"):
        result = corefeval.score(str(key), str(response))
    assert len(result.warnings) == 1
    with warnings.catch_warnings(record=True) as caught:  # the default filter: once per place
        warnings.simplefilter("default")
        for _ in range(3):
            corefeval.score(str(key), str(response))
    assert len(caught) == 1 and caught[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", corefeval.CorefevalWarning)  # silenced by its category
        corefeval.score(str(key), str(response))


def test_many_warnings_of_one_kind_are_counted_past_three(tmp_path: Path) -> None:
    key = tmp_path / "k.conll"
    key.write_text(KEY)
    response = tmp_path / "r.conll"
    response.write_text(KEY + "".join(KEY.replace("(d)", f"(x{i})") for i in range(6)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = corefeval.score(str(key), str(response))
    said = [str(w.message) for w in caught]
    assert len(result.warnings) == 6 and len(said) == 4
    assert said[3].startswith(f"{response}: 3 more warnings of this kind not shown (lines ")
    assert "the result's warnings hold every one" in said[3]


def test_repr_shows_the_scores(tmp_path: Path) -> None:
    ev = Evaluator(["muc", "conll"])
    ev.update(GOLD, PREDICTED)
    shown = repr(ev.result())
    assert shown.startswith("<ScoreResult memory vs memory, 1 document, 0 warnings: ")
    assert "muc R=0.5000 P=0.5000 F1=0.5000" in shown and "conll F1=" in shown
    assert "array" not in shown and "digest" not in shown and "\n" not in shown


def test_workers_combining_states_by_maximum_count_a_padded_document_once() -> None:
    """The README's torch.distributed recipe, with numpy: the sampler gave document 'b' to both workers."""
    docs = {"a": (GOLD, PREDICTED), "b": (GOLD, OTHER), "c": (GOLD, GOLD)}
    names = list(docs)
    fulls = []
    for mine in (["a", "b"], ["c", "b"]):
        ev = Evaluator()
        ev.update_many([(*docs[n], n) for n in mine])
        array, held = ev.state()
        full = np.zeros((len(names), array.shape[1]))
        full[[names.index(n) for n in held]] = array
        fulls.append(full)
    combined = Evaluator.from_state(np.maximum(*fulls), names).result()
    alone = Evaluator()
    alone.update_many([(*docs[n], n) for n in names])
    assert np.array_equal(combined.counts, alone.result().counts)
    assert combined.signature == alone.result().signature
