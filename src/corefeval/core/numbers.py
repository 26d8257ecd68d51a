"""Number formatting shared by the reporters and a result's own HTML table."""

from __future__ import annotations


def count(x: float) -> str:
    """A count or numerator: integers as integers, other values with 15 significant digits."""
    return "%.15g" % x


def percent(x: float, digits: int = 2) -> str:
    """A fraction as a rounded percentage."""
    return f"{100 * x:.{digits}f}"
