"""Reader for Seq2seqCoref's prediction file, ``{split}-predicts.txt``.

Seq2seqCoref (``trainer.py``, ``my_compute_metrics``, with ``--save_predicts``) writes one JSON
object per segment of a document: ``doc_key`` is the document's key with ``_`` and the segment's
number appended, ``pred_text`` the decoded ``<m> ... | k </m>`` markup over subword tokens, and
``predict_clusters`` the clusters its post-processing read from that markup, as ``[start, end]``
word offsets into the whole document, inclusive. Reading the clusters rather than the markup gives
what the tool itself scores: the markup is over subwords, and the words they map to are in the
preprocessed input, not in this file.

The segments of a document are put together as the tool does (``data.get_document_predicts``):
mentions that two segments' clusters share link those clusters into one entity, and within an
entity a mention that crosses one kept before it (taken by start, longer first) is dropped.

On OntoNotes, Seq2seqCoref's preprocessing (``preprocess_data.py``, ``get_conll_document`` with
``include_speaker``) puts the speaker's name before the first word and before each word whose
speaker differs from the previous word's, and counts it as a word; ``preprocess_data_mark_sentence.py``
also counts a mark opening and one closing each sentence. The offsets are then past the CoNLL words.
Against a CoNLL-2012 key, the offsets are read back onto the key's words when the file's own
``gold_clusters`` (the key's mentions as the tool saw them) fall on the key's mentions only with
names, marks or both counted; a mention on a name or a mark is dropped, with a warning. Other runs
are read as they are.

The ``short_seq`` variant writes only aligned subword tokens (``pred_aligned_text``), no clusters:
it is refused with a one-line error saying so.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from contextlib import closing
from typing import Any

from ..core.diagnostics import Diagnostic, InputError
from ..core.model import Corpus, Document
from ..core.pairing import by_other_name
from ..core.reading_order import clusters_document
from .conll2012 import decode
from .json_values import is_span, load_object, shown
from .sources import input_blocks, whole

FORMAT = "seq2seq"
CLUSTERS = "predict_clusters"
SHORT_SEQ = "pred_aligned_text"
_SEGMENT = re.compile(r"_\d+$")
_BEGIN = re.compile(r"#\s*begin document ?(.*)$")
_SPEAKER_COLUMNS = 12  # OntoNotes' columns, the speaker tenth (Seq2seqCoref asserts at least 12)

Span = tuple[int, int]


def is_seq2seq(first_object: dict[str, Any]) -> bool:
    """Whether a jsonlines object is a segment of Seq2seqCoref's ``predicts.txt``."""
    return "pred_text" in first_object and (CLUSTERS in first_object or SHORT_SEQ in first_object)


def read_seq2seq(path: str, text: str, key: Corpus | None = None) -> Corpus:
    """Read a ``predicts.txt``; ``key`` gives each document its number of tokens."""
    segments: dict[str, list[tuple[int, list[list[Span]]]]] = {}
    golds: dict[str, set[Span]] = {}
    for lineno, line in enumerate(text.lstrip("\ufeff").split("\n"), 1):
        if not line.strip():
            continue
        obj = load_object(path, lineno, line)
        if not isinstance(obj.get("doc_key"), str):
            raise InputError(path, lineno, "expected a JSON object with a 'doc_key' string")
        if CLUSTERS not in obj:
            why = "a short_seq run writes only aligned tokens" if SHORT_SEQ in obj else "expected it"
            raise InputError(path, lineno, f"segment '{obj['doc_key']}' has no '{CLUSTERS}' ({why})")
        document = _SEGMENT.sub("", obj["doc_key"])
        segments.setdefault(document, []).append((lineno, _clusters(path, lineno, obj, CLUSTERS)))
        if "gold_clusters" in obj:
            gold = _clusters(path, lineno, obj, "gold_clusters")
            golds.setdefault(document, set()).update(span for cluster in gold for span in cluster)
    if not segments:
        raise InputError(path, 1, "no segment found (expected one JSON object per line)")
    key_docs = key.by_name() if key is not None else {}
    key_words = _key_words(key) if key is not None and key.format == "conll2012" else {}
    documents = []
    warnings: list[Diagnostic] = []
    for name, parts in segments.items():
        kdoc = key_docs.get(name) or (by_other_name(name, key_docs) if key_docs else None)
        words = key_words.get(kdoc.name) if kdoc is not None else None
        at = _offsets(golds.get(name, set()), kdoc, words) if kdoc is not None and words is not None else None
        if at is not None:
            parts, dropped = _read_back(parts, at)
            if dropped:
                warnings.append(
                    Diagnostic(
                        path,
                        parts[0][0],
                        f"document '{name}': {dropped} mentions on a speaker's name or sentence mark dropped",
                    )
                )
        documents.append(_document(name, parts, kdoc))
    return Corpus(path=path, documents=documents, format=FORMAT, warnings=warnings)


def _key_words(key: Corpus) -> dict[str, tuple[list[str] | None, list[int]]]:
    """Each word's speaker (the tenth of OntoNotes' columns, spelt as Seq2seqCoref compares them:
    ``_`` and ``#`` as spaces, stripped; ``None`` for a document with lines of fewer columns) and
    sentence, for each document of a CoNLL-2012 key."""
    speakers: dict[str, list[str] | None] = {}
    sentences: dict[str, list[int]] = {}
    name: str | None = None
    sentence = 0
    with closing(input_blocks(key.path)) as blocks:
        text = decode(key.path, whole(key.path, blocks))
    for line in text.split("\n"):
        begin = _BEGIN.match(line)
        if begin:
            name, sentence = begin.group(1).strip(), 0
            speakers[name], sentences[name] = [], []
        elif name is None or line.startswith("#"):
            continue
        elif not line.strip():
            sentence += 1 if sentences[name] and sentences[name][-1] == sentence else 0
        else:
            cols = line.split()
            said = speakers[name]
            if said is not None and len(cols) < _SPEAKER_COLUMNS:
                speakers[name] = None
            elif said is not None:
                said.append(cols[9].replace("_", " ").replace("#", " ").strip())
            sentences[name].append(sentence)
    return {n: (speakers[n], sentences[n]) for n in sentences}


def _counted(speakers: list[str] | None, sentences: list[int], marks: bool) -> list[int]:
    """Each word's offset in Seq2seqCoref's word list, where a speaker's name (when ``speakers``)
    comes before the first word and each change of speaker, and (when ``marks``, the
    ``mark_sentence`` preprocessing) a mark opens and one closes each sentence."""
    out = []
    extra = 0
    for i, sentence in enumerate(sentences):
        if marks and (i == 0 or sentence != sentences[i - 1]):
            extra += 1 if i == 0 else 2  # the last sentence's closing mark, this one's opening
        if speakers is not None and (i == 0 or speakers[i] != speakers[i - 1]):
            extra += 1
        out.append(i + extra)
    return out


def _offsets(gold: set[Span], kdoc: Document, words: tuple[list[str] | None, list[int]]) -> list[int] | None:
    """The offset of each key word in the file's word list, when the file's gold mentions fall on the
    key's mentions only with speakers' names or sentence marks counted as words; else ``None``."""
    speakers, sentences = words
    if not gold or len(sentences) != kdoc.n_tokens:
        return None
    mentions = set(zip(kdoc.starts.tolist(), kdoc.ends.tolist()))
    if gold <= mentions:
        return None
    for said, marks in ((speakers, False), (None, True), (speakers, True)):
        if said is None and not marks:
            continue
        at = _counted(said, sentences, marks)
        if gold <= {(at[s], at[e]) for s, e in mentions}:
            return at
    return None


def _read_back(
    parts: list[tuple[int, list[list[Span]]]], at: list[int]
) -> tuple[list[tuple[int, list[list[Span]]]], int]:
    """``parts`` with offsets read back onto the key's words (``at``: each word's offset in the
    file); mentions on a speaker's name or a sentence mark dropped (and counted)."""
    word = {offset: i for i, offset in enumerate(at)}
    dropped = 0
    out = []
    for line, clusters in parts:
        kept_clusters = []
        for cluster in clusters:
            kept = [(word[s], word[e]) for s, e in cluster if s in word and e in word]
            dropped += len(cluster) - len(kept)
            if kept:
                kept_clusters.append(kept)
        out.append((line, kept_clusters))
    return out, dropped


def _clusters(path: str, line: int, obj: dict[str, Any], field: str) -> list[list[Span]]:
    """The spans of ``obj[field]``, checked."""
    clusters = obj[field]
    if not isinstance(clusters, list):
        raise InputError(path, line, f"segment '{obj['doc_key']}': '{field}' must be a list of clusters")
    out: list[list[Span]] = []
    for k, cluster in enumerate(clusters):
        if not isinstance(cluster, list):
            raise InputError(path, line, f"segment '{obj['doc_key']}': cluster {k} of '{field}' is not a list")
        for span in cluster:
            if not is_span(span):
                raise InputError(
                    path,
                    line,
                    f"segment '{obj['doc_key']}': {shown(span)} in cluster {k} of '{field}' is not [start, end], "
                    "two integers with 0 <= start <= end",
                )
        out.append([(int(s), int(e)) for s, e in cluster])
    return out


def _uncrossed(group: list[Span]) -> list[Span]:
    """The mentions of an entity taken by start (longer first), each dropped if it crosses one kept
    before it (starts inside it and ends after it). A kept mention starts at or before this one, and
    one with the same start is no shorter, so it crosses exactly when it ends inside this one: a
    Fenwick tree counting the kept ends answers that in log time."""
    ends = sorted({e for _, e in group})
    tree = [0] * (len(ends) + 1)

    def kept_ends_below(bound: int) -> int:  # kept ends < bound
        i, total = bisect_left(ends, bound), 0
        while i > 0:
            total += tree[i]
            i -= i & -i
        return total

    kept: list[Span] = []
    for s, e in sorted(group, key=lambda m: (m[0], -m[1])):
        if kept_ends_below(e) <= kept_ends_below(s + 1):  # no kept end in (s, e)
            kept.append((s, e))
            i = bisect_left(ends, e) + 1
            while i <= len(ends):
                tree[i] += 1
                i += i & -i
    return kept


def _document(name: str, parts: list[tuple[int, list[list[Span]]]], kdoc: Document | None) -> Document:
    """One document from its segments' clusters, linked through shared mentions."""
    parent: dict[Span, Span] = {}
    first_line: dict[Span, int] = {}

    def root(span: Span) -> Span:
        while parent[span] != span:
            parent[span] = parent[parent[span]]
            span = parent[span]
        return span

    for line, clusters in parts:
        for cluster in clusters:
            for span in cluster:
                if span not in parent:
                    parent[span] = span
                    first_line[span] = line
                parent[root(span)] = root(cluster[0])
    groups: dict[Span, list[Span]] = {}
    for span in parent:
        groups.setdefault(root(span), []).append(span)
    starts: list[int] = []
    ends: list[int] = []
    entities: list[int] = []
    for entity, group in enumerate(groups.values()):
        for s, e in _uncrossed(group):
            starts.append(s)
            ends.append(e)
            entities.append(entity)
    n_tokens = max(kdoc.n_tokens if kdoc is not None else 0, max(ends, default=-1) + 1)
    lines = [first_line[(s, e)] for s, e in zip(starts, ends)]
    return clusters_document(name, starts, ends, entities, n_tokens, lines=lines, begin_line=parts[0][0])
