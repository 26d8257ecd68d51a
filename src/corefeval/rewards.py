"""Rewards for training language models to resolve coreference: each answer scored against its gold.

A GRPO step samples 8 to 16 answers per prompt and needs a number for each, in-process and fast; an
answer that cannot be scored costs a reward of 0.0 with a reason, never an exception:

>>> from corefeval.rewards import score_answers
>>> gold = {"words": ["John", "saw", "Mary", ".", "He", "waved", "."], "clusters": [[[0, 0], [4, 4]]]}
>>> score_answers(gold, ["John|[e1] saw Mary . He|[e1] waved .", "John|[e1 saw", ""])
[1.0, 0.0, 0.0]

The gold is CoNLL-2012, CorefUD or jsonlines text, or a mapping of ``words`` and ``clusters`` (lists
of inclusive ``[start, end]`` word offsets; ``doc_key`` names it); it is read once and kept (the last
:data:`GOLDS_KEPT` golds), so the answers of one prompt are aligned to one prepared gold. An answer
is the markup :mod:`corefeval.readers.text2text` reads (text2text-coref text or JSON, Markdown
links, XML tags), put on the gold's words and counted as :func:`corefeval.scoring.pipeline.score_with`
counts documents (:func:`~corefeval.scoring.pipeline.count_pairs`), every answer of a call in one pass:
its value is the number ``corefeval score GOLD ANSWER -m METRIC`` gives. Before it is read, what a
chat model wraps an answer in is taken away: everything up to a closing ``</think>``, and lines that
open or close a Markdown code fence; against a gold of one document, the answer's lines are one
document (joined by spaces), as a model breaks lines at will.

An answer gets 0.0 and a reason (:class:`Reward`) when it is empty, when it is not markup corefeval
reads, when its marks do not pair up (an answer cut short leaves a mention open), or when its words
need more edits than ``max_edits`` of the gold's words to align (a refusal, another text).
"""

from __future__ import annotations

import dataclasses
import json
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .core.diagnostics import InputError, UsageError
from .core.model import Corpus, Document, make_document
from .core.options import Options
from .core.registry import CONLL_PARTS, resolve
from .metrics.base import conll_mean
from .readers import detect_format
from .readers.key_columns import text_columns
from .readers.llm_written import is_text2text_json
from .readers.text2text import KeyViews, read_text2text
from .scoring.pipeline import count_pairs, counted_metrics, ua_setting

#: How many prepared golds are kept, the least recently used dropped first.
GOLDS_KEPT = 256
#: The paths errors and reasons name.
GOLD_PATH = "<gold>"
ANSWER_PATH = "<answer>"
#: The formats an answer may be in, and the gold's.
MARKUP = ("text2text", "text2text-json", "markdown-links", "xml-tags")
GOLD_FORMATS = ("conll2012", "corefud", "jsonlines")
#: Mention heads as ``corefeval score`` takes them by default (the first word).
HEADS = "first"


@dataclass(frozen=True)
class Reward:
    """An answer's reward: ``value``, and ``reason`` it is 0.0 without a score (``""``: scored)."""

    value: float
    reason: str = ""


@dataclass(frozen=True)
class Gold:
    """A gold read once: its documents, and their words as answers are aligned to them."""

    corpus: Corpus
    views: KeyViews


def score_answers(
    gold: str | Mapping[str, Any],
    answers: Sequence[Any],
    metric: str = "conll",
    *,
    max_edits: float | None = None,
    lenient: bool = False,
) -> list[float]:
    """One reward per answer (see :func:`answer_rewards`), as floats."""
    return [r.value for r in answer_rewards(gold, answers, metric, max_edits=max_edits, lenient=lenient)]


def answer_rewards(
    gold: str | Mapping[str, Any],
    answers: Sequence[Any],
    metric: str = "conll",
    *,
    max_edits: float | None = None,
    lenient: bool = False,
) -> list[Reward]:
    """The :class:`Reward` of each answer (a string, or chat messages) against ``gold``: the F1 of
    ``metric`` (``conll``, ``muc``, ``bcub``, ``ceafe``, ``lea``, ``mentions``, ...); ``max_edits``:
    the largest share of the gold's words an answer's alignment may edit (``None``: 25%, as
    ``corefeval score``); ``lenient``: marks that do not pair up are repaired as ``--lenient``
    repairs them, not a reward of 0.0. A gold that cannot be read is an error, not a reward."""
    prepared = prepare_gold(gold)
    return _rewards_of([prepared] * len(answers), answers, reward_metric(metric), max_edits, lenient)


def make_reward(
    gold_column: str = "gold",
    metric: str = "conll",
    *,
    max_edits: float | None = None,
    lenient: bool = False,
) -> CorefReward:
    """A reward function with the signature TRL's ``GRPOTrainer`` calls: ``completions`` (strings
    or chat messages) and the dataset's columns as keyword arguments, one list entry per
    completion; the gold of each completion is in column ``gold_column``."""
    return CorefReward(gold_column, reward_metric(metric), max_edits, lenient)


class CorefReward:
    """The reward function :func:`make_reward` makes; ``last`` holds the :class:`Reward` records of
    the last call (their reasons, for logging), ``__name__`` names it in the trainer's logs."""

    def __init__(self, gold_column: str, metric: str, max_edits: float | None, lenient: bool) -> None:
        self.gold_column = gold_column
        self.metric = metric
        self.max_edits = max_edits
        self.lenient = lenient
        self.__name__ = f"coref_{metric}"
        self.last: list[Reward] = []

    def __call__(self, completions: Sequence[Any], **columns: Any) -> list[float]:
        golds = columns.get(self.gold_column)
        if golds is None:
            given = ", ".join(sorted(columns)) or "none"
            raise UsageError(
                f"the coreference reward reads each completion's gold from the dataset column '{self.gold_column}' "
                f"(make_reward(gold_column=...)); columns given: {given}"
            )
        if isinstance(golds, (str, Mapping)) or len(golds) != len(completions):
            raise UsageError(f"column '{self.gold_column}' must hold one gold per completion ({len(completions)})")
        rewards = _rewards_of([prepare_gold(g) for g in golds], completions, self.metric, self.max_edits, self.lenient)
        self.last = rewards
        return [r.value for r in rewards]


def _rewards_of(
    golds: Sequence[Gold], answers: Sequence[Any], metric: str, max_edits: float | None, lenient: bool
) -> list[Reward]:
    """Every answer read on its own against its gold (a failure is its reward of 0.0), then all
    counted at once (one pass for the golds of each format)."""
    read = [_read(gold, answer, max_edits, lenient) for gold, answer in zip(golds, answers)]
    out = [r if isinstance(r, Reward) else Reward(0.0) for r in read]
    by_format: dict[str, list[int]] = {}
    for i, r in enumerate(read):
        if not isinstance(r, Reward):
            by_format.setdefault(golds[i].corpus.format, []).append(i)
    for scored in by_format.values():
        values = _scores([(golds[i].corpus, read[i]) for i in scored], metric)  # type: ignore[misc]
        for i, value in zip(scored, values.tolist()):
            out[i] = Reward(float(value))
    return out


def reward_metric(metric: str) -> str:
    """The one metric a reward is the F1 of (its registry name); anything else is a usage error."""
    names = resolve([metric]) if isinstance(metric, str) else ()
    if len(names) != 1:
        raise UsageError(f"a reward is one metric's F1 (conll, muc, bcub, ceafe, lea, mentions, ...), not {metric!r}")
    return names[0]


# The gold ------------------------------------------------------------------------------------------

_GOLDS: OrderedDict[Hashable, Gold] = OrderedDict()


def prepare_gold(gold: str | Mapping[str, Any]) -> Gold:
    """The gold read and made ready for alignment, or the one kept from an earlier call."""
    key: Hashable = gold if isinstance(gold, str) else _mapping_key(gold)
    prepared = _GOLDS.get(key)
    if prepared is not None:
        _GOLDS.move_to_end(key)
        return prepared
    corpus, columns = _read_gold(gold)
    if not corpus.documents:
        raise UsageError("the gold has no document")
    prepared = Gold(corpus, KeyViews(corpus, HEADS, columns or {}))
    _GOLDS[key] = prepared
    if len(_GOLDS) > GOLDS_KEPT:
        _GOLDS.popitem(last=False)
    return prepared


def _mapping_key(gold: Any) -> Hashable:
    if not isinstance(gold, Mapping):
        raise UsageError(
            "a gold is CoNLL-2012, CorefUD or jsonlines text, or a mapping of words and clusters, "
            f"not {type(gold).__name__}"
        )
    try:
        return ("words and clusters", json.dumps(gold, sort_keys=True, default=str))
    except (TypeError, ValueError) as err:
        raise UsageError(f"the gold mapping cannot be read: {err}") from None


def _read_gold(gold: str | Mapping[str, Any]) -> tuple[Corpus, dict[str, tuple[list[str], list[int]]] | None]:
    """The gold's corpus (with its words), and a CorefUD gold's words and trees."""
    if not isinstance(gold, str):
        return _from_mapping(gold), None
    fmt = detect_format(GOLD_PATH, gold)
    if fmt == "conll2012":
        from .readers.conll2012 import read_conll2012

        return read_conll2012(GOLD_PATH, gold, keep_tokens=True), None
    if fmt == "corefud":
        from .readers.corefud import read_corefud

        corpus = read_corefud(GOLD_PATH, gold, keep_tokens=True, heads=HEADS)
        return corpus, text_columns(corpus, gold)
    if fmt == "jsonlines":
        from .readers.jsonlines import read_jsonlines

        return read_jsonlines(GOLD_PATH, gold, keep_tokens=True), None
    raise UsageError(f"the gold reads as {fmt}: a gold is CoNLL-2012, CorefUD or jsonlines text, or words and clusters")


def _from_mapping(gold: Mapping[str, Any]) -> Corpus:
    """A gold of ``words`` (or ``tokens``) and ``clusters`` of inclusive ``[start, end]`` word offsets."""
    words = gold.get("words", gold.get("tokens"))
    clusters = gold.get("clusters")
    if not isinstance(words, Sequence) or isinstance(words, str) or not all(isinstance(w, str) for w in words):
        raise UsageError("a gold mapping has 'words': a list of strings")
    if not isinstance(clusters, Sequence) or isinstance(clusters, str):
        raise UsageError("a gold mapping has 'clusters': lists of [start, end] word offsets")
    spans: list[list[tuple[int, int]]] = []
    for c, cluster in enumerate(clusters):
        spans.append([])
        for span in cluster if isinstance(cluster, Sequence) and not isinstance(cluster, str) else [cluster]:
            ok = isinstance(span, Sequence) and len(span) == 2 and all(type(x) is int for x in span)
            if not ok or not 0 <= span[0] <= span[1] < len(words):
                raise UsageError(
                    f"gold cluster {c}: {str(span)[:40]} is not [start, end] with 0 <= start <= end < {len(words)}"
                )
            spans[-1].append((span[0], span[1]))
    doc = make_document(str(gold.get("doc_key", gold.get("doc_id", "0"))), spans, len(words))
    doc = dataclasses.replace(doc, tokens=tuple(words))
    return Corpus(GOLD_PATH, [doc], format="jsonlines")


# An answer -----------------------------------------------------------------------------------------


def _read(gold: Gold, answer: Any, max_edits: float | None, lenient: bool) -> list[Document] | Reward:
    """The answer's documents on the gold's words, or the :class:`Reward` of 0.0 saying why not."""
    try:
        text = _body(answer_text(answer), len(gold.corpus.documents) == 1)
        if not text.strip():
            return Reward(0.0, "empty answer")
        fmt = detect_format(ANSWER_PATH, text)
        if fmt not in MARKUP:
            return Reward(0.0, f"the answer reads as {fmt}, not as coreference markup")
        style = fmt if fmt in ("markdown-links", "xml-tags") else None
        json_variant = fmt == "text2text-json"
        corpus = read_text2text(
            ANSWER_PATH, text, gold.corpus, lenient, "move", max_edits, json_variant, HEADS, style, gold.views
        )
    except (InputError, UsageError) as err:
        return Reward(0.0, str(err))
    return corpus.documents


def answer_text(answer: Any) -> str:
    """The text of a completion: a string, or the content of the last message of chat messages
    (``[{"role": "assistant", "content": ...}]``; content as a string or a list of text parts)."""
    if isinstance(answer, str):
        return answer
    if isinstance(answer, Mapping):
        answer = [answer]
    if isinstance(answer, Sequence) and answer and isinstance(answer[-1], Mapping):
        content = answer[-1].get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, Sequence):
            parts = [p.get("text") if isinstance(p, Mapping) else p for p in content]
            if all(isinstance(p, str) for p in parts):
                return "".join(parts)  # type: ignore[arg-type]
    raise UsageError(f"a completion is a string or chat messages with text content, not {str(answer)[:60]!r}")


def _body(text: str, one_document: bool) -> str:
    """The answer without what a chat model wraps it in (a thinking block, code fences); against a
    gold of one document, its lines as one line."""
    if "</think>" in text:
        text = text.rsplit("</think>", 1)[1]
    lines = text.split("\n")
    if "```" in text:
        lines = [line for line in lines if not line.lstrip().startswith("```")]
    if one_document and len(lines) > 1 and not is_text2text_json(text):
        return " ".join(line for line in lines if line.strip())
    return "\n".join(lines)


# Scoring -------------------------------------------------------------------------------------------


def _scores(answers: list[tuple[Corpus, list[Document]]], metric: str) -> np.ndarray:
    """The F1 of ``metric`` of each answer, its documents paired with its gold's by name, as
    :func:`~corefeval.scoring.pipeline.score_with` pairs and counts them: all in one pass (golds of
    one format)."""
    first = answers[0][0]
    options = Options(metrics=(metric,)).for_key(first.format)
    objects = counted_metrics(options.metrics, options.blanc, ua_setting(options, first.path, first.format))
    pairs: list[tuple[Document, Document | None]] = []
    starts = []
    for key, documents in answers:
        starts.append(len(pairs))
        by_name = {d.name: d for d in documents}
        pairs += [(k, by_name.get(k.name)) for k in key.documents]
    rows, _, _ = count_pairs(pairs, objects, options, first, _ANSWERS)
    counts = np.add.reduceat(rows, starts, axis=0)
    at, columns = 0, {}
    for m in objects:
        columns[m.name] = (m, slice(at, at + len(m.fields)))
        at += len(m.fields)

    def f1(name: str) -> np.ndarray:
        m, where = columns[name]
        return m.score_arrays(counts[:, where])[2]

    if metric == "conll":  # as a result's CoNLL score
        return conll_mean([f1(part) for part in CONLL_PARTS])
    return f1(metric)


#: What the answers' documents are counted as (the format of what they were read from matters not).
_ANSWERS = Corpus(ANSWER_PATH, [], format="text2text")
