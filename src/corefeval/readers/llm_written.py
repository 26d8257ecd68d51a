"""What a language model wrote, read into words with their marks or mentions, before alignment.

The text2text-coref text format (one document a line, ``word|[e1`` opens, ``word|e1]`` closes,
``word|[e1]`` is a one-word mention, comma-separated marks, ``##`` zeros; ids ``e`` and digits, as
``clean`` accepts them), its JSON variant (an array of ``doc_id``, ``tokens``,
``clusters_token_offsets``), and lines of Markdown-link or XML-tag markup (:mod:`.markup_tags`).
Every line is one document, a blank line an empty one (the file's final newline ends the last line).
Unbalanced marks and marks that are not ``[eN``, ``eN]`` or ``[eN]`` are errors naming the line,
unless ``lenient``: then each repair is recorded with its word, for a located warning.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from ..core.diagnostics import InputError
from .json_values import load_file
from .llm_figures import Repair
from .markup_tags import parse_markup

#: One mark: ``[eN`` opens, ``eN]`` closes, ``[eN]`` both.
_MARK = re.compile(r"(\[?)e(\d+)(\]?)")
#: What :func:`is_text2text` looks for on a line: ``|[e1``, ``|e1]``, ``,[e2]``.
_SNIFF = re.compile(r"\S\|\[?e\d+\]?(?:[,\s]|$)")


def is_text2text(line: str) -> bool:
    """Whether a line reads as text2text-coref markup (a word with a mark)."""
    return bool(_SNIFF.search(line))


def is_text2text_json(text: str) -> bool:
    """Whether ``text`` is a JSON array of objects (the text2text-coref JSON variant)."""
    body = text.lstrip("\ufeff").lstrip()
    return body.startswith("[") and body[1:].lstrip()[:1] in ("{", "]")


@dataclass
class Generated:
    """One document as the model wrote it: its words and, per word with marks (in word order), its
    marks in written order as ``(entity, opens, closes)``; or, for the JSON variant, its mentions as
    ``(entity, start, end)``; ``repairs``: what reading its marks leniently repaired (more are found
    when they are paired)."""

    line: int
    words: list[str]
    marks: dict[int, list[tuple[str, bool, bool]]] | None = None
    spans: list[tuple[str, int, int]] | None = None
    repairs: list[Repair] = field(default_factory=list)


def read_lines(path: str, text: str, lenient: bool, style: str | None = None) -> list[tuple[str, Generated]]:
    """Every line is a document, a blank one an empty document (as ``clean`` reads them: an output
    the model left empty keeps the next ones in place); the file's final newline ends the last."""
    out: list[tuple[str, Generated]] = []
    lines = text.lstrip("\ufeff").split("\n")
    if len(lines) > 1 and not lines[-1].strip("\r"):
        lines.pop()
    for lineno, line in enumerate(lines, 1):
        if style is None:
            out.append((str(len(out)), parse_line(path, lineno, line, lenient)))
            continue
        words, spans, dropped = parse_markup(path, lineno, line, style, lenient)
        repairs = [Repair(0, mark, why) for mark, why in dropped]
        out.append((str(len(out)), Generated(lineno, words, spans=spans, repairs=repairs)))
    return out


def parse_line(path: str, lineno: int, line: str, lenient: bool) -> Generated:
    """The words and marks of one document; checks that the marks pair up over the document."""
    words = line.split()
    marks: dict[int, list[tuple[str, bool, bool]]] = {}
    repairs: list[Repair] = []
    for n in [n for n, token in enumerate(words) if "|" in token] if "|" in line else ():
        token = words[n]
        word, _, written = token.partition("|")
        words[n] = word
        if "|" in written:
            if not lenient:
                raise InputError(path, lineno, f"word {n + 1} '{token[:60]}' has more than one '|'")
            repairs.append(Repair(n + 1, token, "more than one '|': its marks are dropped"))
            continue
        read = _READ_MARKS.get(written) or _read_marks(written)
        if read is not _UNREADABLE:
            marks[n] = list(read)
            continue
        found = marks[n] = []
        for mark in written.split(","):
            m = _MARK.fullmatch(mark)
            if m is None:
                message = f"mark '{mark[:30]}' is not [eN, eN] or [eN]"
                if not lenient:
                    raise InputError(path, lineno, f"word {n + 1} '{token[:60]}': {message}")
                repairs.append(Repair(n + 1, word, message + ": dropped"))
                continue
            found.append(("e" + m.group(2), bool(m.group(1)), bool(m.group(3))))
    if not lenient:
        _check_balance(path, lineno, words, marks)
    return Generated(lineno, words, marks=marks, repairs=repairs)


#: The marks of a word as written after its ``|`` (a document repeats a few dozen), read: kept up to
#: :data:`_KEPT_MARKS` of them.
_READ_MARKS: dict[str, tuple[tuple[str, bool, bool], ...]] = {}
_KEPT_MARKS = 4096
#: What :func:`_read_marks` gives for marks of which one is not ``[eN``, ``eN]`` or ``[eN]``.
_UNREADABLE: tuple[tuple[str, bool, bool], ...] = (("", False, False),)


def _read_marks(written: str) -> tuple[tuple[str, bool, bool], ...]:
    """A word's comma-separated marks as ``(entity, opens, closes)``, or :data:`_UNREADABLE`; remembered."""
    found = [_MARK.fullmatch(mark) for mark in written.split(",")]
    read = (
        _UNREADABLE
        if None in found
        else tuple(("e" + m.group(2), bool(m.group(1)), bool(m.group(3))) for m in found if m is not None)
    )
    if len(_READ_MARKS) >= _KEPT_MARKS:
        _READ_MARKS.clear()
    _READ_MARKS[written] = read
    return read


def _check_balance(path: str, lineno: int, words: list[str], marks: dict[int, list[tuple[str, bool, bool]]]) -> None:
    """Every closing mark closes a mention open before it, and every opening mark is closed."""
    open_at: dict[str, list[int]] = defaultdict(list)
    for n, found in marks.items():
        for entity, opens, closes in found:
            if opens and closes:
                continue
            if opens:
                open_at[entity].append(n)
            elif not open_at[entity]:
                raise InputError(
                    path, lineno, f"word {n + 1} '{words[n][:40]}' closes a mention of {entity}, which has none open"
                )
            else:
                open_at[entity].pop()
    for entity, stack in open_at.items():
        if stack:
            n = stack[0]
            raise InputError(
                path, lineno, f"the mention of {entity} opened at word {n + 1} '{words[n][:40]}' is never closed"
            )


def read_json(path: str, text: str) -> list[tuple[str, Generated]]:
    """The documents of the JSON variant; each object's line is where its ``{`` is."""
    data = load_file(path, text)
    if not isinstance(data, list):
        raise InputError(path, 1, "expected a JSON array of documents")
    starts = object_lines(text, len(data))
    out = []
    for k, obj in enumerate(data):
        line = starts[k] if k < len(starts) else 1
        if not isinstance(obj, dict) or not isinstance(obj.get("doc_id"), str):
            raise InputError(path, line, f"document {k + 1}: expected an object with a 'doc_id' string")
        tokens = obj.get("tokens")
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise InputError(path, line, f"document '{obj['doc_id']}': 'tokens' must be a list of strings")
        clusters = obj.get("clusters_token_offsets")
        if not isinstance(clusters, list):
            raise InputError(path, line, f"document '{obj['doc_id']}': 'clusters_token_offsets' must be a list")
        spans = []
        for c, cluster in enumerate(clusters):
            if not isinstance(cluster, list):
                raise InputError(path, line, f"document '{obj['doc_id']}': cluster {c} is not a list")
            for span in cluster:
                ok = isinstance(span, list) and len(span) == 2 and all(type(v) is int for v in span)
                if not ok or not 0 <= span[0] <= span[1] < len(tokens):
                    raise InputError(
                        path,
                        line,
                        f"document '{obj['doc_id']}': {str(span)[:40]} in cluster {c} is not [start, end] "
                        f"with 0 <= start <= end < {len(tokens)} (the number of tokens)",
                    )
                spans.append((f"e{c + 1}", span[0], span[1]))
        out.append((obj["doc_id"], Generated(line, [t.replace(" ", "_") for t in tokens], spans=spans)))
    return out


def object_lines(text: str, count: int) -> list[int]:
    """The line of each top-level object's opening brace in a JSON array (strings skipped)."""
    lines: list[int] = []
    depth = 0
    line = 1
    in_string = escaped = False
    for ch in text:
        if ch == "\n":
            line += 1
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch in "[{":
            if depth == 1 and ch == "{":
                lines.append(line)
                if len(lines) == count:
                    break
            depth += 1
        elif ch in "]}":
            depth -= 1
    return lines
