"""The methods ``@dataclass`` generates, written once for the package's record classes.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` (and a
frozen class's ``__setattr__`` and ``__delattr__``) as source text and compiles it when the class is
made: about four million instructions a class, which the dozen records a text score imports made a
tenth of its start-up. Those classes stay dataclasses (``dataclasses.fields``, ``replace`` and
``asdict`` work on them), declared ``@dataclass(init=False, repr=False, eq=False)`` with their
``__init__`` written in the class (with :data:`FACTORY` for a default made by a factory) and the
methods below, which give what the generated ones give: the same text, the same equality and the
same hash.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, fields
from typing import Any


class _Factory:
    """The default of a field made by its default factory, shown as ``dataclasses`` shows it."""

    def __repr__(self) -> str:
        return "<factory>"


#: The default of a written-out ``__init__``'s parameter for a field with a default factory: the
#: factory makes the value when the parameter is not given (as in the ``__init__`` dataclasses
#: writes, ``None`` given is kept).
FACTORY: Any = _Factory()


def field_repr(self: Any) -> str:
    """``Name(field=value, ...)`` over the fields shown in the repr (a dataclass's ``__repr__``)."""
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
    return f"{self.__class__.__qualname__}({shown})"


def compared_values(self: Any) -> tuple[Any, ...]:
    """The values of the fields that equality compares, in field order."""
    return tuple(getattr(self, f.name) for f in fields(self) if f.compare)


def field_eq(self: Any, other: object) -> bool:
    """Equal when of the same class with equal compared fields (a dataclass's ``__eq__``)."""
    if other.__class__ is self.__class__:
        return compared_values(self) == compared_values(other)
    return NotImplemented


def field_hash(self: Any) -> int:
    """The hash of the compared fields' values (a frozen dataclass's ``__hash__``)."""
    return hash(tuple(getattr(self, f.name) for f in fields(self) if (f.compare if f.hash is None else f.hash)))


def refuse_setattr(self: Any, name: str, value: object) -> None:
    """No attribute of a frozen record is set after ``__init__`` (a frozen dataclass's ``__setattr__``)."""
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def refuse_delattr(self: Any, name: str) -> None:
    """No attribute of a frozen record is deleted (a frozen dataclass's ``__delattr__``)."""
    raise FrozenInstanceError(f"cannot delete field {name!r}")
