"""Markdown-link and XML-tag coreference markup, one document a line, read into words and mentions.

* ``markdown``: ``[the cat](#cluster_0)`` is a mention of entity ``cluster_0`` (the link target
  after ``#``); links may nest (``[[my](#c1) cat](#c2)``). A ``[`` that no ``](#id)`` closes is
  text.
* ``xml``: ``<m id=3>the cat</m>`` (also ``<mention ...>``, ``<coref ...>``, ``<entity ...>``; the
  id as ``id``, ``cluster``, ``entity`` or ``eid``, quoted or not); tags nest; a mention of one
  word is a head-only mention (``<m id=3>cat</m>``).

Words are separated by white space and by the markup itself (``[John](#c1)'s`` is ``John`` and
``'s``). The mentions are then put on the key's words as text2text-coref markup is (see
:mod:`.text2text`). A closing mark that closes nothing and a mention left open are errors naming
the line, unless ``lenient`` (they are then dropped, each a warning).
"""

from __future__ import annotations

import re

from ..core.diagnostics import InputError

MARKDOWN = "markdown-links"
XML = "xml-tags"
# Only the markup is scanned for; the text between is split at white space. Ids never contain the
# characters that start markup, so that each attempt stops at the next one (an unclosed link or tag
# repeated along a line costs linear time).
_MD_MARK = re.compile(r"\[|\]\(#([^()\[\]\s]*)\)|\]")
_XML_MARK = re.compile(
    r"<(m|mention|coref|entity)\s+(?:id|cluster|entity|eid)\s*=\s*(?:\"([^\"<>]*)\"|'([^'<>]*)'|([^\s<>]+))\s*>"
    r"|</(m|mention|coref|entity)\s*>",
    re.IGNORECASE,
)
#: The first line of a file names its style: a Markdown link to ``#id``, or a mention tag.
_MD_SNIFF = re.compile(r"\]\(#[^)\s]+\)")
_XML_SNIFF = re.compile(r"<(m|mention|coref|entity)\s+(id|cluster|entity|eid)\s*=", re.IGNORECASE)


def markup_style(line: str) -> str | None:
    """``markdown-links`` or ``xml-tags`` when a line holds such a mention, else ``None``."""
    if _XML_SNIFF.search(line):
        return XML
    if _MD_SNIFF.search(line):
        return MARKDOWN
    return None


def parse_markup(
    path: str, lineno: int, line: str, style: str, lenient: bool
) -> tuple[list[str], list[tuple[str, int, int]], list[tuple[str, str]]]:
    """The words of one line, its mentions as ``(entity, first word, last word)`` in the order they
    close, and the marks dropped (``lenient``) as ``(mark, why)``."""
    marks = list((_XML_MARK if style == XML else _MD_MARK).finditer(line))
    opener_of, dropped = _paired(path, lineno, marks, style, lenient)
    openers = {o for o, _ in opener_of.values()}
    words: list[str] = []
    current = ""  # the word being read: text since the last white space or mention boundary
    start_of: dict[int, int] = {}
    mentions: list[tuple[str, int, int]] = []
    end = 0
    for t, m in enumerate(marks):
        current = _words_into(words, current, line[end : m.start()])
        end = m.end()
        if t in openers:
            current = _flushed(words, current)
            start_of[t] = len(words)
        elif t in opener_of:
            current = _flushed(words, current)
            opened, entity = opener_of[t]
            if start_of[opened] < len(words):
                mentions.append((entity, start_of[opened], len(words) - 1))
            else:
                dropped.append((marks[opened].group(0), "a mention of no word: dropped"))
        elif m.group(5) if style == XML else m.group(0).startswith("]("):
            current = _flushed(words, current)  # a closing mark that closes nothing (lenient)
        else:
            current += m.group(0)  # a bracket, or a tag never closed (lenient): text of the word
    _flushed(words, _words_into(words, current, line[end:]))
    return words, mentions, dropped


def _paired(
    path: str, lineno: int, marks: list[re.Match[str]], style: str, lenient: bool
) -> tuple[dict[int, tuple[int, str]], list[tuple[str, str]]]:
    """Each closing mark's opening mark and entity; the marks dropped (``lenient``; else an error)."""
    opener_of: dict[int, tuple[int, str]] = {}  # closing mark -> (opening mark, entity)
    stack: list[tuple[int, str]] = []
    dropped: list[tuple[str, str]] = []
    for t, m in enumerate(marks):
        text = m.group(0)
        if style == MARKDOWN:
            if text == "[":
                stack.append((t, ""))
            elif text.startswith("]("):
                if not stack:
                    if not lenient:
                        raise InputError(path, lineno, f"'{text[:40]}' closes a link that no '[' opened")
                    dropped.append((text, "closes a link that no '[' opened: dropped"))
                    continue
                opener_of[t] = (stack.pop()[0], m.group(1))
        elif m.group(1):
            stack.append((t, m.group(2) or m.group(3) or m.group(4) or ""))
        elif m.group(5):
            if not stack:
                if not lenient:
                    raise InputError(path, lineno, f"'{text}' closes a mention that no tag opened")
                dropped.append((text, "closes a mention that no tag opened: dropped"))
                continue
            opener_of[t] = stack.pop()
    if style == XML and stack:
        if not lenient:
            raise InputError(path, lineno, f"the mention '{marks[stack[0][0]].group(0)[:40]}' is never closed")
        dropped += [(marks[t].group(0), "is never closed: dropped") for t, _ in stack]
    return opener_of, dropped


def _words_into(words: list[str], current: str, text: str) -> str:
    """``text`` read after the word being read (``current``): its words put in ``words``; the word
    still being read at its end is returned."""
    if not text:
        return current
    parts = text.split()
    if not parts or text[0].isspace():
        _flushed(words, current)
    else:
        parts[0] = current + parts[0]
    if not parts or text[-1].isspace():
        words += parts
        return ""
    words += parts[:-1]
    return parts[-1]


def _flushed(words: list[str], current: str) -> str:
    """The word being read ended (by white space or a mention boundary): put in ``words``."""
    if current:
        words.append(current)
    return ""
