"""How a key document finds its response, and what a run says of documents on one side only.

Every command and API call that scores a key against a response pairs documents here: by name, or,
when the two files' formats name documents differently, by the name the other format gives. A
response that shares no document with its key is an error that lists the closest names of both
files (it would score 0 for a mistake in the command line); documents on one side only are
warnings that say how many there are.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from functools import cache
from typing import TypeVar

from .diagnostics import Diagnostic, InputError, is_number, plural

T = TypeVar("T")
_CONLL_NAME = cache(lambda: re.compile(r"^\((.*)\); part (\d+)$"))  # compiled on first use


def other_names(name: str) -> tuple[str, ...]:
    """The names another format gives the document ``name``: CoNLL-2012 ``(X); part 000`` is the
    e2e-coref ``doc_key`` ``X_0``, and ``X_0`` is ``(X); part 000`` or ``(X); part 0``."""
    m = _CONLL_NAME().match(name)
    if m:
        return (f"{m.group(1)}_{int(m.group(2))}",)
    head, sep, part = name.rpartition("_")
    if sep and is_number(part):
        return (f"({head}); part {int(part):03d}", f"({head}); part {int(part)}")
    return ()


def by_other_name(name: str, docs: Mapping[str, T]) -> T | None:
    """The document of ``docs`` that another format names differently (:func:`other_names`)."""
    return next((docs[n] for n in other_names(name) if n in docs), None)


def pair_names(key: Iterable[str], response: Collection[str], other_format: bool) -> dict[str, str]:
    """The response document name of each key document name that has one (key order): the same
    name, or with ``other_format`` (the files are in different formats) one of :func:`other_names`,
    else the first one equal but for white space at either end (a CoNLL-2012 name keeps a trailing
    space that a CorefUD ``# newdoc id`` cannot hold)."""
    if not other_format:
        return {name: name for name in key if name in response}
    out: dict[str, str] = {}
    stripped = {n.strip(): n for n in reversed(list(response))} if other_format else {}
    for name in key:
        if name in response:
            out[name] = name
        elif other_format:
            found = next((n for n in other_names(name) if n in response), stripped.get(name.strip()))
            if found is not None:
                out[name] = found
    return out


def pairing_warnings(
    key_path: str,
    key_lines: Mapping[str, int],
    response_path: str,
    response_lines: Mapping[str, int],
    paired: Mapping[str, str],
    doc: str | None = None,
    missing_rule: str = "scored against an empty response",
) -> list[Diagnostic]:
    """What to say of the pairing ``paired`` (key name to response name) of the key documents
    ``key_lines`` and the response documents ``response_lines`` (name to first line).

    No key document paired is an :class:`InputError` naming the closest names of both files. Else
    a warning for each key document without a response (scored against an empty one) and for each
    response document no key document takes (ignored), each with the count of its kind; with
    ``doc`` (one document scored), only that document's warning, if it has no response;
    ``missing_rule``: what is done with a key document without a response."""
    if key_lines and not paired:
        line = min(response_lines.values(), default=1)  # the response's first document
        raise InputError(response_path, line, nothing_shared(key_path, list(key_lines), list(response_lines)))
    missing = [n for n in key_lines if n not in paired]
    out = []
    stripped = {n.strip(): n for n in reversed(list(response_lines))} if missing else {}
    of_key = f"{len(missing)} of the key's {plural(len(key_lines), 'document')} {_is(len(missing))} missing"
    for name in missing if doc is None else [doc] if doc in missing else []:
        hint = stripped.get(name.strip())
        extra = f"; a response document differs only in white space: '{hint}'" if hint is not None else ""
        message = f"document '{name}' is not in the response; it is {missing_rule} ({of_key}{extra})"
        out.append(Diagnostic(key_path, key_lines[name], message))
    if doc is not None:
        return out
    taken = set(paired.values())
    ignored = [n for n in response_lines if n not in taken]
    of_response = (
        f"{len(ignored)} of the response's {plural(len(response_lines), 'document')} {_is(len(ignored))} ignored"
    )
    for name in ignored:
        message = f"document '{name}' is not in the key; it is ignored ({of_response})"
        out.append(Diagnostic(response_path, response_lines[name], message))
    return out


def nothing_shared(key_path: str, key_names: list[str], response_names: list[str]) -> str:
    """The error of a response none of whose documents is in the key."""
    from .document_names import closest_pairs, listed

    if not response_names:
        return f"the response has no document; the key {key_path} has {plural(len(key_names), 'document')}"
    pairs = closest_pairs(key_names, response_names)
    in_key = listed(list(dict.fromkeys(k for k, _ in pairs)))
    in_response = listed(list(dict.fromkeys(r for _, r in pairs)))
    return (
        f"no document of the response is in the key {key_path} (documents are paired by name; the key has "
        f"{plural(len(key_names), 'document')}, the response {len(response_names)}): the closest names are "
        f"{in_key} in the key and {in_response} in the response"
    )


def _is(n: int) -> str:
    return "is" if n == 1 else "are"
