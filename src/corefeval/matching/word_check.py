"""Whether a response has the key's words: what a run says when they differ.

The CorefUD scorer (and the Universal Anaphora scorer) refuse a response whose words differ from
the key's: its mentions may be on another text. The reference CoNLL-2012 scorer reads no words and
scores it (its own test cases differ in words). ``Options.words`` chooses: ``check`` (an error),
``warn`` or ``ignore``; by default the key's format decides (:func:`corefeval.core.options.words_for`).

Words are compared where both documents carry them (:attr:`~corefeval.core.model.Document.forms`, the
fingerprints readers make; a document written without words, ``_`` or ``-`` everywhere, carries
none) and have as many; different counts are an error of their own. The check costs a comparison of
two arrays; only a difference is looked up in the files' text, to name the first differing word.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..core.diagnostics import Diagnostic, InputError, plural, printable
from ..core.model import Corpus, Document, stacked_rows
from ..core.options import words_for
from ..readers.word_prints import PLACEHOLDERS


class Difference(NamedTuple):
    """A pair whose words differ: its place in the list, how many differ, the first that does."""

    pair: int
    differing: int
    first: int


def word_differences(pairs: list[tuple[Document, Document | None]]) -> list[Difference]:
    """The pairs (key, response) whose words differ, both sides compared at once."""
    present = [i for i, (_, r) in enumerate(pairs) if r is not None]
    key, key_sizes = _stacked_forms([pairs[i][0] for i in present])
    response, response_sizes = _stacked_forms([pairs[i][1] for i in present])  # type: ignore[misc]
    compared = (key_sizes > 0) & (key_sizes == response_sizes)
    if not compared.any():
        return []
    both = np.asarray(present, dtype=np.int64)[compared].tolist()
    sizes = key_sizes[compared]
    key = key[np.repeat(compared, np.maximum(key_sizes, 0))]
    response = response[np.repeat(compared, np.maximum(response_sizes, 0))]
    differ = key != response
    if not differ.any():
        return []
    starts = np.cumsum(sizes) - sizes
    counts = np.add.reduceat(differ, starts)
    formless = (np.add.reduceat(np.isin(key, PLACEHOLDERS), starts) == sizes) | (
        np.add.reduceat(np.isin(response, PLACEHOLDERS), starts) == sizes
    )
    out = []
    for j in np.flatnonzero((counts > 0) & ~formless).tolist():
        lo = int(starts[j])
        first = int(np.argmax(differ[lo : lo + int(sizes[j])]))
        out.append(Difference(both[j], int(counts[j]), first))
    return out


def _stacked_forms(documents: list[Document]) -> tuple[np.ndarray, np.ndarray]:
    """The word fingerprints of ``documents`` end to end, and how many each has (-1: none)."""
    viewed = stacked_rows(documents)
    if viewed is not None and viewed[0].forms is not None:  # views of one file's: taken from it at once
        columns, index = viewed
        rows, sizes = columns.rows(index, words=True)
        return columns.forms[rows], sizes  # type: ignore[index]
    forms = [d.forms for d in documents if d.forms is not None]
    sizes = np.fromiter(
        (-1 if d.forms is None else d.forms.size for d in documents), dtype=np.int64, count=len(documents)
    )
    return (np.concatenate(forms) if forms else np.zeros(0, dtype=np.uint64)), sizes


def word_diagnostics(
    pairs: list[tuple[Document, Document | None]], key: Corpus, response: Corpus, words: str
) -> list[Diagnostic]:
    """The warnings of pairs whose words differ (``words="warn"``); with ``check``, the first such
    pair is an :class:`InputError` that says how many pairs differ; ``ignore``: nothing; ``auto``:
    the key's format decides."""
    words = words_for(key.format) if words == "auto" else words
    if words == "ignore":
        return []
    found = word_differences(pairs)
    if not found:
        return []
    if words == "check":
        first = found[0]
        others = f"; {plural(len(found), 'document')} of {len(pairs)} differ" if len(found) > 1 else ""
        message = _message(pairs, first, key, response)
        raise InputError(
            response.path,
            pairs[first.pair][1].begin_line,  # type: ignore[union-attr]
            f"{message}{others} (--words ignore scores it anyway)",
        )
    how = (
        "scored anyway"
        if words_for(key.format) == "check"
        else "scored as the reference scorer scores it, reading no words"
    )
    return [
        Diagnostic(
            response.path,
            pairs[d.pair][1].begin_line,  # type: ignore[union-attr]
            f"{_message(pairs, d, key, response)}; {how} (--words check refuses it)",
        )
        for d in found
    ]


def _message(pairs: list[tuple[Document, Document | None]], d: Difference, key: Corpus, response: Corpus) -> str:
    kdoc, rdoc = pairs[d.pair]
    assert rdoc is not None
    said = f"document '{rdoc.name}': {d.differing} of {plural(kdoc.n_tokens, 'word')} differ from the key's "
    said += f"({key.path}:{kdoc.begin_line}); the first is word {d.first + 1}"
    k, r = _word(key, kdoc.name, d.first), _word(response, rdoc.name, d.first)
    if k is not None and r is not None:
        said += f", '{_shown(r)}' where the key has '{_shown(k)}'"
    return said


def _shown(word: str, most: int = 40) -> str:
    """``word`` as a message quotes it: control characters escaped, a long word cut (a file's word
    may be megabytes long)."""
    return printable(word) if len(word) <= most else f"{printable(word[:most])}... ({len(word):,} characters)"


def _word(corpus: Corpus, name: str, index: int) -> str | None:
    """Word ``index`` of document ``name`` as the file has it (read again: only a difference asks),
    or ``None`` where the input cannot be read twice (standard input, a pipe) or has no words."""
    if not os.path.isfile(corpus.path):
        return None
    stat = os.stat(corpus.path)
    tokens = _tokens(corpus.path, corpus.format, stat.st_mtime_ns, stat.st_size).get(name)
    return tokens[index] if tokens is not None and index < len(tokens) else None


@lru_cache(maxsize=2)
def _tokens(path: str, fmt: str, *version: int) -> dict[str, tuple[str, ...] | None]:
    """Each document's words (``version``: the file's time and size, so a changed file is read again)."""
    from ..readers import read

    try:
        return {d.name: d.tokens for d in read(path, fmt, keep_tokens=True).documents}
    except InputError:
        return {}
