"""Records whose methods are written out (corefeval.core.dataclass_methods) behave as the methods
dataclasses would generate: every field in the constructor in order with its default, the same
repr, equality and hash, and no assignment to a frozen one."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
from typing import Any

import numpy as np
import pytest

from corefeval.core.dataclass_methods import FACTORY, field_repr
from corefeval.core.model import Document
from corefeval.core.options import Options
from corefeval.matching.cells.table import Cells, MentionSource
from corefeval.metrics.base import Score

#: The modules whose records write their methods out (those on the paths of a CoNLL-2012 and of a
#: CorefUD score).
MODULES = [
    "core.model",
    "core.options",
    "matching.alignment",
    "matching.cells.table",
    "metrics.base",
    "metrics.blanc",
    "readers.conll2012",
    "readers.corefud",
    "readers.corefud_lines",
    "readers.corefud_mentions",
    "readers.corefud_notation",
    "scoring.batch.heads",
    "scoring.presets",
    "scoring.presets_ua",
    "scoring.results",
]


def _written() -> list[type]:
    """Every dataclass of :data:`MODULES` whose ``__init__`` is its own and written out."""
    out = []
    for name in MODULES:
        module = importlib.import_module(f"corefeval.{name}")
        for cls in vars(module).values():
            if isinstance(cls, type) and cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls):
                init = vars(cls).get("__init__")
                if init is not None and init.__code__.co_filename != "<string>":
                    out.append(cls)
    return out


WRITTEN = _written()
#: The records that refuse assignment after ``__init__`` (frozen dataclasses, or their own ``__setattr__``).
FROZEN = {c for c in WRITTEN if c.__dataclass_params__.frozen or "__setattr__" in vars(c)}  # type: ignore[attr-defined]


def test_the_records_are_found() -> None:
    names = {c.__name__ for c in WRITTEN}
    assert {"Options", "Score", "BlancScore", "Document", "Cells", "Alignment", "CorefUDDocument", "Scan"} <= names
    assert len(WRITTEN) >= 30 and {"Cells", "Alignment", "Options", "Document"} <= {c.__name__ for c in FROZEN}


def _generated_twin(cls: type) -> type:
    """A dataclass with ``cls``'s fields, whose methods dataclasses generates."""
    specs = []
    for f in dataclasses.fields(cls):
        kept = {k: getattr(f, k) for k in ("default", "default_factory", "repr", "compare", "hash")}
        specs.append((f.name, f.type, dataclasses.field(**kept)))
    return dataclasses.make_dataclass(cls.__name__, specs, frozen=cls in FROZEN, eq=True)


@pytest.mark.parametrize("cls", WRITTEN, ids=lambda c: c.__name__)
def test_the_constructor_takes_every_field_in_order_with_its_default(cls: type) -> None:
    params = list(inspect.signature(cls).parameters.values())
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default, f.name
        elif f.default_factory is not dataclasses.MISSING:
            assert p.default is FACTORY and repr(p.default) == "<factory>", f.name  # a new one when not given
        else:
            assert p.default is inspect.Parameter.empty, f.name


def _sample(cls: type) -> dict[str, Any]:
    """Values for every field of ``cls`` without a default."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            out[f.name] = {int: 3, "int": 3, "bool": True, "str": "a"}.get(f.type, np.arange(3))  # type: ignore[call-overload]
    return out


@pytest.mark.parametrize("cls", WRITTEN, ids=lambda c: c.__name__)
def test_repr_equality_and_hash_are_the_generated_ones(cls: type) -> None:
    values = _sample(cls)
    if issubclass(cls, Score):
        values = {name: float(i) for i, name in enumerate(values)}
    ours, Twin = cls(**values), _generated_twin(cls)
    fresh = Twin(**values)
    for f in dataclasses.fields(cls):  # fields made by default factories: new ones, like the twin's
        if f.default_factory is not dataclasses.MISSING:
            mine, theirs = getattr(ours, f.name), getattr(fresh, f.name)
            assert type(mine) is type(theirs) and repr(mine) == repr(theirs)
            assert mine is not getattr(cls(**values), f.name)
            assert getattr(cls(**values, **{f.name: None}), f.name) is None  # given, kept as given
    twin = Twin(**{f.name: getattr(ours, f.name) for f in dataclasses.fields(cls)})  # values as checked
    if cls.__repr__ is field_repr:
        assert repr(ours) == repr(twin)
    if cls.__eq__ is not object.__eq__:
        assert ours == cls(**values) and ours != twin and cls.__eq__(ours, twin) is NotImplemented
        try:
            expected: int | type[Exception] = hash(twin)
        except TypeError:
            expected = TypeError
        if expected is TypeError:
            with pytest.raises(TypeError):
                hash(ours)
        else:
            assert hash(ours) == expected


@pytest.mark.parametrize("cls", sorted(FROZEN, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_a_frozen_record_refuses_assignment(cls: type) -> None:
    values = _sample(cls)
    made = cls(**values)
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, name, getattr(made, name))
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(made, name)


@pytest.mark.parametrize("cls", WRITTEN, ids=lambda c: c.__name__)
def test_a_record_copies_and_pickles(cls: type) -> None:
    made = cls(**_sample(cls))
    for copied in (copy.copy(made), pickle.loads(pickle.dumps(made))):
        assert type(copied) is cls and repr(vars(copied)) == repr(vars(made))


def test_records_stay_dataclasses() -> None:
    options = dataclasses.replace(Options(), match="head")
    assert options == Options(match="head") and options.metrics == Options().metrics
    assert dataclasses.asdict(Score.from_counts(1, 2, 1, 4))["recall"] == 0.5
    doc = Document("d", np.arange(2), np.arange(2), np.zeros(2, dtype=np.int64))
    assert dataclasses.replace(doc, name="e").name == "e" and dataclasses.replace(doc).parts is doc.parts
    assert isinstance(Cells(1, *(np.zeros(0, dtype=np.int64),) * 11).mentions, MentionSource)
