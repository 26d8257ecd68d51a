"""A language model's text2text-coref markup scored as the CRAC LLM track's pipeline scores it
(``--llm-marks official``): its cleaning step, its conversion back to CoNLL-U over the key's
skeleton, then the CorefUD scorer's reading of that file.

Text: the file is read one document a line (``\\r`` ends a line too; white space around a line is
cut), paired with the key's documents by position; lines past the key's documents are not read (a
warning), a missing one is an error, as the pipeline fails then. Each document is cleaned
(:mod:`.llm_clean`), its nodes and mentions made (:mod:`.llm_nodes`), heads moved
(:mod:`.mention_heads`), brackets written (:mod:`.entity_brackets`) and the CoNLL-U document read by
the CorefUD reader, which reads it as the CorefUD scorer does (heads from the ``head`` field when the
key's ``# global.Entity`` has one, else each mention's first node). The JSON variant is paired by
position too (``doc_id`` is not read; one differing from the key's name is a warning), its tokens
taken as they are. Where the pipeline stops on a document, that is an error naming it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ..core.diagnostics import Diagnostic, InputError, UsageError, plural
from ..core.model import Corpus
from .corefud import read_corefud
from .entity_brackets import Written, entity_values, writer_order
from .json_values import load_file
from .llm_clean import PipelineFailure, clean_document
from .llm_figures import AlignedCorpus, Figures, figure_warnings, repair_warnings
from .llm_key import KeyDocument, PipelineKey, read_pipeline_key, universal_lines
from .llm_nodes import Node, TooManyNodes, marked_mentions, offset_mentions, response_nodes
from .llm_written import object_lines
from .mention_heads import Trees, moved_head
from .sources import read_binary
from .word_alignment import TooManyEdits

#: One document of the model's output: its line, its words (marks included), and for the JSON
#: variant its clusters and ``doc_id``.
Answer = tuple[int, list[str], Any, Any]


def read_official(path: str, text: str, key: Corpus, json_variant: bool, max_edits: float | None) -> AlignedCorpus:
    """The model's output at ``path`` (its ``text``) as the official pipeline makes it a CorefUD
    response to ``key``; ``max_edits``: the largest share of a document's words its alignment may
    edit (``None``: no limit, as the pipeline has none)."""
    pipeline = _pipeline_key(key)
    warnings: list[Diagnostic] = []
    answers = _json_answers(path, text, key, warnings) if json_variant else _text_answers(path, text, key, warnings)
    figures: dict[str, Figures] = {}
    lines: dict[str, int] = {}
    repairs: list[tuple[int, str]] = []
    rows: list[str] = []
    for kdoc, pdoc, answer in zip(key.documents, pipeline.documents, answers):
        line = answer[0]
        try:
            doc_rows, fig, fixes = _document(path, kdoc.name, pdoc, pipeline, answer, json_variant, max_edits)
        except PipelineFailure as err:
            raise InputError(path, line, f"document '{kdoc.name}': the official pipeline fails on it: {err}") from None
        except TooManyNodes as err:
            raise InputError(path, line, f"document '{kdoc.name}': {err}") from None
        rows += doc_rows
        figures[kdoc.name] = fig
        lines[kdoc.name] = line
        repairs += [(line, f"document '{kdoc.name}': {fix}") for fix in fixes]
    corpus = _read_back(path, rows, lines, json_variant)
    corpus.figures = figures
    corpus.warnings = (
        warnings + repair_warnings(path, repairs) + figure_warnings(path, lines, figures) + corpus.warnings
    )
    return corpus


def _pipeline_key(key: Corpus) -> PipelineKey:
    """The key as the pipeline reads it, which must be the CoNLL-U file ``key`` was read from."""
    if key.format != "corefud":
        raise UsageError(
            f"--llm-marks official scores as the CRAC LLM pipeline, which reads a CoNLL-U (CorefUD) key; "
            f"{key.path} is {key.format}: convert it (corefeval convert --to corefud) or use --llm-marks move"
        )
    try:
        text = read_binary(key.path).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        raise UsageError(f"--llm-marks official reads the key {key.path} a second time, which it cannot") from None
    pipeline = read_pipeline_key(key.path, text)
    if len(pipeline.documents) != len(key.documents) or any(
        len(p.words) != k.n_tokens for p, k in zip(pipeline.documents, key.documents)
    ):
        raise InputError(key.path, 1, "the official pipeline reads other documents or words in this key than corefeval")
    return pipeline


def _text_answers(path: str, text: str, key: Corpus, warnings: list[Diagnostic]) -> list[Answer]:
    """One document a line, as the pipeline reads them."""
    lines = universal_lines(text)
    n = len(key.documents)
    if len(lines) < n:
        raise InputError(
            path,
            max(len(lines), 1),
            f"{plural(len(lines), 'line')} (one document a line) for the key's {n} documents: the official "
            "pipeline fails when a document's line is missing",
        )
    if len(lines) > n:
        warnings.append(
            Diagnostic(
                path,
                n + 1,
                f"{plural(len(lines) - n, 'line')} past the key's {plural(n, 'document')} not read, as the official "
                "pipeline does not read them",
            )
        )
    return [(k + 1, line.strip().split(), None, None) for k, line in enumerate(lines[:n])]


def _json_answers(path: str, text: str, key: Corpus, warnings: list[Diagnostic]) -> list[Answer]:
    """The JSON variant's documents, paired with the key's by position as the pipeline pairs them."""
    data = load_file(path, text)
    if not isinstance(data, list):
        raise InputError(path, 1, "expected a JSON array of documents")
    n = len(key.documents)
    starts = object_lines(text, len(data))
    if len(data) != n:
        raise InputError(
            path, 1, f"{plural(len(data), 'document')} for the key's {n}: the official pipeline pairs them by position"
        )
    out: list[Answer] = []
    for k, (obj, kdoc) in enumerate(zip(data, key.documents)):
        line = starts[k] if k < len(starts) else 1
        tokens = obj.get("tokens") if isinstance(obj, dict) else None
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise InputError(path, line, f"document {k + 1}: expected an object whose 'tokens' is a list of strings")
        name = obj.get("doc_id")
        if name != kdoc.name:
            warnings.append(
                Diagnostic(
                    path,
                    line,
                    f"document {k + 1}'s doc_id {str(name)[:60]!r} is not the key's document {k + 1} "
                    f"'{kdoc.name}': paired by position, as the official pipeline pairs them",
                )
            )
        out.append((line, tokens, obj.get("clusters_token_offsets"), name))
    return out


def _document(
    path: str,
    name: str,
    key: KeyDocument,
    pipeline: PipelineKey,
    answer: Answer,
    json_variant: bool,
    max_edits: float | None,
) -> tuple[list[str], Figures, list[str]]:
    """One document of the response (its CoNLL-U lines), what its alignment did, and its repairs of
    marks."""
    line, written, clusters, _ = answer
    n = len(key.words)
    if json_variant:
        tokens = written
        nodes = response_nodes(tokens, key)
        if not isinstance(clusters, list):
            raise PipelineFailure("'clusters_token_offsets' is not a list of clusters")
        entities, created = offset_mentions(clusters, nodes)
        word_tokens = [t for t, node in zip(tokens, nodes) if not node[2]]
        replaced = sum(1 for t, w in zip(word_tokens, key.words) if t != w)
        figures, fixes = Figures(n, replaced=replaced), []
    else:
        limit = None if max_edits is None else 2 * int(max_edits * n) + 16
        try:
            cleaned = clean_document(written, key, limit)
        except TooManyEdits as e:
            raise InputError(path, line, e.message(name, len(written), n, max_edits)) from None
        tokens = cleaned.tokens
        nodes = response_nodes(tokens, key)
        entities, created = marked_mentions(tokens, nodes)
        a = cleaned.alignment
        lost = max(0, _openings(written) - len(created))
        figures = Figures(n, a.inserted, a.replaced, a.deleted, 0, lost, len(cleaned.repairs))
        fixes = [str(r) for r in cleaned.repairs]
        if max_edits is not None and figures.edits > max_edits * max(n, 1):
            raise InputError(
                path,
                line,
                f"document '{name}': aligning its words to the key's took {figures}: "
                f"more edits than {max_edits:.0%} of the key's words (--max-edits)",
            )
    trees = Trees(key.trees)
    written_mentions: list[Written] = []
    for eid, words in created:
        order = writer_order(words)
        written_mentions.append((eid, order, moved_head(order, words[0], trees) if pipeline.head_field else words[0]))
    values = entity_values(entities, written_mentions, pipeline.fields)
    return _conllu(name, pipeline, nodes, values), figures, fixes


def _openings(written: list[str]) -> int:
    """The mentions the model wrote: its marks that open one (for the figure of mentions lost)."""
    return sum(
        1
        for token in written
        if token.count("|") == 1
        for mark in token.split("|")[1].split(",")
        if mark.startswith("[e")
    )


def _conllu(name: str, pipeline: PipelineKey, nodes: list[Node], values: dict[Node, str]) -> list[str]:
    """The CoNLL-U lines the pipeline writes for a document, as far as the CorefUD scorer reads them:
    node ids, the DEPS of empty nodes, the ``Entity=`` brackets."""
    rows = [f"# newdoc id = {name}", f"# global.Entity = {'-'.join(pipeline.fields)}"]
    sentence = 0
    for node in nodes:
        s, w, k = node
        if s != sentence:
            rows.append("")
            sentence = s
        misc = f"Entity={values[node]}" if node in values else "_"
        ident, deps = (f"{w}.{k}", f"{w}:_") if k else (str(w), "_")
        rows.append(f"{ident}\t_\t_\t_\t_\t_\t_\t_\t{deps}\t{misc}")
    rows.append("")
    return rows


def _read_back(path: str, rows: list[str], lines: dict[str, int], json_variant: bool) -> AlignedCorpus:
    """The response as the CorefUD scorer reads the file the pipeline writes: one file of all the
    documents (udapi orders the entities of a whole file). What it says about a document is said
    about the document's line of the model's output."""
    starts = [
        (k + 1, name) for k, name in zip((i for i, r in enumerate(rows) if r.startswith("# newdoc id = ")), lines)
    ]

    def located(line: int) -> tuple[int, str]:
        name = next((n for start, n in reversed(starts) if start <= line), starts[0][1] if starts else "")
        return lines.get(name, 1), name

    try:
        read = read_corefud(path, "\n".join(rows) + "\n", heads="first")
    except InputError as err:
        line, name = located(err.diagnostic.line)
        raise InputError(
            path,
            line,
            f"document '{name}': the CorefUD scorer cannot read the response the official pipeline writes for it: "
            f"{err.diagnostic.message}",
        ) from None
    documents = [
        replace(doc, lines=np.full(doc.n_mentions, lines[doc.name], dtype=np.int64), begin_line=lines[doc.name])
        for doc in read.documents
    ]
    warnings = [Diagnostic(path, located(w.line)[0], w.message) for w in read.warnings]
    corpus = AlignedCorpus(
        path=path, documents=documents, format="text2text-json" if json_variant else "text2text", warnings=warnings
    )
    corpus.empty_deps = read.empty_deps
    return corpus
