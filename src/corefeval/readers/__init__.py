"""Readers turn files into corpora of documents; ``read`` picks one by name or by sniffing."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import closing
from itertools import chain

from ..core.diagnostics import UsageError
from ..core.format_names import FORMATS as _GIVEN
from ..core.model import Corpus
from ..core.options import Options
from .sources import input_blocks, whole
from .utf8 import check_utf8, decode

#: The formats a reader reads (``auto`` aside: it detects one of them).
FORMATS = _GIVEN[1:]
_SNIFF_BLOCK = 1 << 16  # bytes read at a time while the format is not yet decided


def detect_format(path: str, text: str) -> str:
    """Name the format of ``text``: jsonlines if it starts with ``{``, Universal Anaphora if a
    ``# global.columns`` header names an IDENTITY column, CorefUD if its first word line
    has the ten CoNLL-U columns with a numeric id (or a ``# newdoc``/``# global.Entity`` comes first),
    CoNLL-2012 otherwise."""
    return _detect(_lines(text.lstrip("\ufeff"))) or "conll2012"


def sniff_format(path: str, block_size: int = _SNIFF_BLOCK) -> str:
    """The format :func:`detect_format` names for the whole input at ``path``, found from as many
    of its first lines as it takes, read ``block_size`` bytes at a time (checked to be UTF-8)."""
    with closing(input_blocks(path, block_size)) as blocks:
        return _sniff(path, blocks, [])


def _sniff(path: str, blocks: Iterator[tuple[bytes, bool]], seen: list[tuple[bytes, bool]]) -> str:
    """The format of an input from its first blocks, which are appended to ``seen`` as they are read
    (so that a reader can be given them again: a pipe is read only once)."""

    def lines() -> Iterator[str]:
        line = 1
        for block, final in blocks:
            seen.append((block, final))
            check_utf8(path, block, line)
            text = block.decode("utf-8")
            yield from _lines(text.lstrip("\ufeff") if line == 1 else text)
            line += block.count(b"\n")

    return _detect(lines()) or "conll2012"


def _detect(lines: Iterable[str]) -> str | None:
    """The format the first deciding line names; ``None`` when no line decides. Lines of plain words
    (a model's refusal, a document it wrote without marks) decide nothing; a file of nothing else
    is ``text2text``."""
    array = False  # a line "[" opened a JSON array (of documents, or of Stanza's sentences)
    words_only = False
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        if array:
            return "stanza" if stripped.startswith("[") else "text2text-json"
        if stripped == "[":
            array = True
            continue
        if stripped.startswith("{"):
            return "jsonlines"
        llm = None if stripped.startswith("#") else _text2text(stripped)  # no JSON or markup opens with #
        if llm is not None:
            return llm
        if stripped.startswith("#"):
            if stripped.startswith("# global.columns") and "IDENTITY" in stripped.split():
                return "ua"
            if stripped.startswith(("# newdoc", "# global.Entity", "# sent_id")):
                return "corefud"
            if "begin document" in stripped:
                return "conll2012"
            continue
        row = _conll_row(line)
        if row is not None:
            return row
        words_only = True
    return "text2text" if words_only else None


def _conll_row(line: str) -> str | None:
    """``corefud`` for a CoNLL-U word line (ten TAB-separated columns, a numeric id),
    ``conll2012`` for a line of CoNLL-2012 columns (a part and a word number after the document's
    name), else ``None`` (a line of plain words)."""
    cols = line.rstrip("\r").split("\t")
    if len(cols) == 10 and cols[0].replace("-", "").replace(".", "").isdigit():
        return "corefud"
    fields = line.split()
    if len(cols) >= 4 or (len(fields) >= 4 and fields[1].isdigit() and fields[2].isdigit()):
        return "conll2012"
    return None


def _text2text(line: str) -> str | None:
    """``stanza`` for a line opening a JSON array of arrays, ``text2text-json`` for one opening a
    JSON array of objects, ``text2text`` for a line of text2text-coref markup (a word with a mark
    such as ``|[e1``, words separated by spaces or TABs), else ``None``."""
    from .llm_written import is_text2text, is_text2text_json
    from .model_outputs import is_stanza

    if is_stanza(line):
        return "stanza"
    if is_text2text_json(line):
        return "text2text-json"
    if line.startswith("#") or _conll_row(line) == "corefud":
        return None
    from .markup_tags import markup_style

    style = markup_style(line)
    if style is not None:
        return style
    return "text2text" if is_text2text(line) else None


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, one at a time (format detection looks at the first few only)."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield text[start:end]
        start = end + 1


def read_with(
    path: str,
    options: Options,
    role: str = "key",
    key: Corpus | None = None,
    keep_tokens: bool = False,
    format: str = "",
) -> Corpus:
    """``path`` read as ``options`` say: the one way every door reads a file. The reading part of the
    options is the format for ``role`` (``key_format`` or ``response_format``; ``format`` overrides
    it), ``lenient``, ``heads``, ``llm_marks`` and ``max_edits``; ``key`` is the key corpus a
    response's markup or offsets are put on."""
    fmt = format or (options.key_format if role == "key" else options.response_format)
    return read(path, fmt, keep_tokens, role, options.lenient, key, options.heads, options.llm_marks, options.max_edits)


def read(
    path: str,
    format: str = "auto",
    keep_tokens: bool = False,
    role: str = "key",
    lenient: bool = False,
    key: Corpus | None = None,
    heads: str = "first",
    llm_marks: str = "move",
    max_edits: float | None = None,
) -> Corpus:
    """Read ``path`` as ``format`` (``auto`` sniffs the content); ``keep_tokens`` keeps the words.

    ``role`` (``key`` or ``response``) matters for jsonlines, whose response side is
    ``predicted_clusters`` when a file has them. ``lenient`` (CoNLL-2012) turns unreadable
    coreference fields into warnings. ``key`` is the corpus a model's character offsets
    (``predictions``) are mapped onto. ``heads`` (CorefUD: ``tree`` or ``first``) is the head of a
    mention whose file gives no ``head`` field (see :func:`.corefud.read_corefud`). ``llm_marks`` and
    ``max_edits``: how language-model markup (``text2text``) is put on ``key``'s words (see
    :mod:`.text2text`).
    """
    if format != "auto" and format not in FORMATS:
        raise UsageError(f"unknown format '{format}' (choose from auto, {', '.join(FORMATS)})")
    if format == "spacy" or (format == "auto" and path.endswith((".spacy", ".spacy.gz"))):
        from .spacy_docs import read_docbin

        return read_docbin(path)
    # One pass over the input, which may be a pipe: the first blocks decide the format and are
    # given again to the reader, CoNLL-2012 block by block, the others whole.
    with closing(input_blocks(path)) as blocks:
        seen: list[tuple[bytes, bool]] = []
        fmt = _sniff(path, blocks, seen) if format == "auto" else format
        if fmt == "conll2012":
            from .conll2012 import read_conll2012

            return read_conll2012(path, keep_tokens=keep_tokens, lenient=lenient, blocks=chain(seen, blocks))
        text = decode(path, whole(path, chain(seen, blocks)))
        del seen
    if fmt == "jsonlines" and format == "auto":
        fmt = _model_output(text) or fmt
    if fmt == "stanza":
        from .model_outputs import read_stanza

        return read_stanza(path, text, key, keep_tokens)
    if fmt in ("wl-coref", "preco"):
        from .model_outputs import read_model_output

        return read_model_output(path, text, fmt, keep_tokens)
    if fmt == "seq2seq":
        from .seq2seq import read_seq2seq

        return read_seq2seq(path, text, key)
    if fmt == "predictions":
        from .predictions import read_predictions

        if key is not None and any(d.tokens is None for d in key) and key.format != "predictions":
            key = read(key.path, key.format, keep_tokens=True, heads=heads)
        return read_predictions(path, text, key)
    if fmt in ("text2text", "text2text-json", "markdown-links", "xml-tags"):
        from .text2text import read_text2text

        # a CorefUD key's words are read with its trees, in one pass (see text2text._key_columns)
        if key is not None and key.format != "corefud" and any(d.tokens is None for d in key):
            key = read(key.path, key.format, keep_tokens=True, heads=heads)
        style = fmt if fmt in ("markdown-links", "xml-tags") else None
        return read_text2text(path, text, key, lenient, llm_marks, max_edits, fmt == "text2text-json", heads, style)
    if fmt == "ua":
        from .ua import read_ua

        return read_ua(path, text, keep_tokens)
    if fmt == "corefud":
        from .corefud import read_corefud

        return read_corefud(path, text, keep_tokens, heads=heads)
    from .jsonlines import read_jsonlines

    return read_jsonlines(path, text, keep_tokens, role)


def _model_output(text: str) -> str | None:
    """The format of a jsonlines file holding a model's outputs (``predictions``, see
    :mod:`.predictions`; ``wl-coref`` or ``preco``, see :mod:`.model_outputs`; ``seq2seq``, see
    :mod:`.seq2seq`), else ``None``."""
    import json

    from .json_values import parse
    from .model_outputs import model_output_format
    from .predictions import is_predictions
    from .seq2seq import is_seq2seq

    first = text.lstrip("\ufeff").lstrip().split("\n", 1)[0]
    try:
        obj = parse(first)
    except (json.JSONDecodeError, RecursionError):  # the jsonlines reader says where and why
        return None
    if not isinstance(obj, dict):
        return None
    if is_seq2seq(obj):
        return "seq2seq"
    return model_output_format(obj) or ("predictions" if is_predictions(obj) else None)
