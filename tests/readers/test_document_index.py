"""CorefUD, jsonlines and model-output files split by documents (the index of the Dask documents
engine): each byte range reads as the document the whole-file reader gives, and scoring the ranges
one pair at a time gives the counts, documents, signature and diagnostics of :func:`corefeval.score`."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import InputError
from corefeval.core.model import Corpus
from corefeval.core.options import Options
from corefeval.readers import read
from corefeval.readers.conll_blocks import BLOCK_SIZE
from corefeval.readers.corefud import CorefUDCorpus
from corefeval.readers.document_index import index_documents, read_range_corpus
from corefeval.scoring.distributed.documents import score_by_documents
from corefeval.scoring.pipeline import score_with
from corefeval.writers import render

from ..conftest import SHARED
from .helpers import partition
from .noisy import noisy_corpus
from .test_corefud_property import SENTENCES, build
from .test_corefud_property import mention as generated_mention

OFFICIAL = SHARED / "conformance" / "official"
EDGE = SHARED / "conformance" / "edge"
GUM = SHARED / "realdata" / "gum-reddit-corefud"
DEFAULT = Options()


def assert_documents_score_like_the_file(key: str, response: str, options: Options = DEFAULT) -> None:
    whole = score_with(key, response, options)
    split = score_by_documents(key, response, options)
    assert split.document_names == whole.document_names
    assert np.array_equal(split.counts, whole.counts)
    assert split.signature == whole.signature
    assert split.document_digests == whole.document_digests
    assert sorted(map(str, split.warnings)) == sorted(map(str, whole.warnings))


def assert_same_errors(key: str, response: str) -> str:
    with pytest.raises(InputError) as whole:
        score_with(key, response, Options())
    with pytest.raises(InputError) as split:
        score_by_documents(key, response, DEFAULT)
    assert str(split.value) == str(whole.value)
    return str(whole.value)


def assert_ranges_read_like_the_file(path: str) -> None:
    corpus = read(path)
    last = corpus.by_name()
    spans, _ = index_documents(path)
    assert index_documents(path, block_size=61) == (spans, _)  # block boundaries change nothing
    assert [s.name for s in spans] == [d.name for d in corpus]
    earlier: dict = {}  # a CorefUD file's entity ids, each with its first mention (udapi orders a whole file)
    for index, (span, doc) in enumerate(zip(spans, corpus.documents)):
        got = read_range_corpus(path, span, index=index, earlier=dict(earlier)).documents[0]
        for label, first in (corpus.first_mentions[index] if hasattr(corpus, "first_mentions") else {}).items():
            earlier.setdefault(label, first)
        assert got.name == doc.name and got.begin_line == doc.begin_line and got.n_tokens == doc.n_tokens
        assert np.array_equal(got.lines, doc.lines)
        assert partition(got) == partition(doc)
    assert {s.name for s in spans} == set(last)


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


# --- the conformance cases, written as CorefUD and jsonlines ------------------------------------

CASES = [
    (f"TC-{p.name.split('-')[1]}.key", p.name)
    for p in sorted(OFFICIAL.glob("TC-*-*.response"))
    if (OFFICIAL / f"TC-{p.name.split('-')[1]}.key").exists()
]
# Every edge case whose files the CoNLL-2012 reader reads (E4c and E4d leave a mention unclosed).
EDGE_CASES = [
    (f"{r.name.split('.')[0].rstrip('abcd')}.key", r.name)
    for r in sorted(EDGE.glob("E*.response"))
    if r.name not in ("E4c.response", "E4d.response")
]


def converted(folder: Path, source: Path, fmt: str, ext: str) -> str:
    out = folder / f"{source.name}.{ext}"
    if not out.exists():
        out.write_text(render(read(str(source)), fmt)[0])
    return str(out)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("formats")


@pytest.mark.parametrize(("fmt", "ext"), [("corefud", "conllu"), ("jsonlines", "jsonlines")])
@pytest.mark.parametrize(
    ("where", "key", "response"),
    [("official", k, r) for k, r in CASES] + [("edge", k, r) for k, r in EDGE_CASES],
    ids=[f"{k}-{r}" for k, r in CASES + EDGE_CASES],
)
def test_conformance_cases_score_by_documents_like_the_whole_file(
    shared: Path, folder: Path, fmt: str, ext: str, where: str, key: str, response: str
) -> None:
    base = SHARED / "conformance" / where
    k = converted(folder, base / key, fmt, ext)
    r = converted(folder, base / response, fmt, ext)
    assert_ranges_read_like_the_file(k)
    assert_ranges_read_like_the_file(r)
    try:
        assert score_with(k, r, Options()).settings.key_format == fmt
    except InputError:  # E9a as CorefUD: the response's sentences lose a token, which is an error
        assert_same_errors(k, r)
        return
    assert_documents_score_like_the_file(k, r)


def test_mixed_formats_pair_documents_by_their_other_names(shared: Path, folder: Path) -> None:
    """A CoNLL-2012 key names ``(X); part 000`` what a jsonlines response calls ``X_0``."""
    for key, response in CASES[:3]:
        assert_documents_score_like_the_file(
            str(OFFICIAL / key), converted(folder, OFFICIAL / response, "jsonlines", "jsonl")
        )
        assert_documents_score_like_the_file(
            converted(folder, OFFICIAL / key, "corefud", "conllu"), str(OFFICIAL / response)
        )


# --- real CorefUD data: GUM Reddit, as distributed and against a noisy response ------------------


@pytest.fixture(scope="module")
def gum(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    out = {}
    folder = tmp_path_factory.mktemp("gum")
    for split in ("train", "dev", "test"):
        path = GUM / f"en_gumreddit-ud-{split}.conllu"
        gold = read(str(path))
        noisy = folder / f"{split}.noisy.conllu"
        noisy.write_text(render(noisy_corpus(gold, gold.sentences), "corefud")[0])
        out[split] = (str(path), str(noisy))
    return out


@pytest.mark.parametrize("split", ["train", "dev", "test"])
def test_gum_files_as_distributed_are_split_into_their_documents(gum: dict[str, tuple[str, str]], split: str) -> None:
    key, response = gum[split]
    assert_ranges_read_like_the_file(key)
    assert_ranges_read_like_the_file(response)
    assert_documents_score_like_the_file(key, response)


@pytest.mark.parametrize(
    "options",
    [
        Options(match="head"),
        Options(match="partial", singletons="remove"),
        Options(metrics=("muc", "blanc"), blanc="paper", pad_key=True),
    ],
    ids=["head", "partial-remove", "blanc-padkey"],
)
def test_gum_by_documents_with_every_option(gum: dict[str, tuple[str, str]], options: Options) -> None:
    assert_documents_score_like_the_file(*gum["train"], options=options)


# --- hand-written CorefUD edge cases --------------------------------------------------------------

HEADER = "# global.Entity = eid-etype-head-other\n"


def node(i: int, misc: str = "_", form: str = "w") -> str:
    return f"{i}\t{form}\t_\t_\t_\t_\t0\troot\t_\t{misc}"


def sentence(*misc: str) -> str:
    return "\n".join(node(i + 1, m) for i, m in enumerate(misc)) + "\n\n"


COREFUD_KEY = (
    "\ufeff# a comment before anything\n"
    + HEADER
    + "# newdoc id = spans\n"  # an entity whose mention runs across two sentences
    + sentence("Entity=(e1-person-1", "_")
    + sentence("Entity=e1)", "Entity=(e2-thing-1)")
    + "# newdoc id = empty\n"  # words, no mention
    + sentence("_", "_")
    + "# newdoc id = nothing\n"  # neither words nor mentions: no document at all
    + "# newdoc id = fields\n# global.Entity = etype-eid-other\n"  # the fields change in the middle
    + sentence("Entity=(person-e1)", "Entity=(thing-e2", "Entity=e2)")
    + "# newdoc id = spans\n"  # the name again: the last one is scored
    + sentence("Entity=(x-e7)", "Entity=(y-e7)")
    + sentence("_", "_")
    + "# newdoc id = discontinuous\n"
    + sentence("Entity=(e1[1/2]-a-1)", "_", "Entity=(e1[2/2]-a-1)(e2-b-1)")
    + "# newdoc id = zeros\n"
    + "1\tw\t_\t_\t_\t_\t0\troot\t0:root\tEntity=(e1-a-1)\n"
    + "1.1\t_\t_\t_\t_\t_\t_\t_\t1:nsubj\tEntity=(e1-a-1)\n\n"
    + "# newdoc id = key only\n"
    + sentence("Entity=(e1-a-1)", "Entity=(e1-a-1)")
)
COREFUD_RESPONSE = (
    sentence("Entity=(e5-x-1)")  # nodes before the first newdoc: a document named ''
    + "# global.Entity = GRP-etype\n"
    + "# newdoc id = spans\n"
    + sentence("Entity=(1-person", "_")
    + sentence("Entity=1)", "Entity=(1-thing)")
    + "# newdoc\n"  # no name: ''
    + sentence("_")
    + "# newdoc id = fields\n"
    + sentence("Entity=(2-x)", "Entity=(2-x", "Entity=2)")
    + "# newdoc id = discontinuous\n"
    + sentence("Entity=(3[1/2]-a)", "_", "Entity=(3[2/2]-a)(3-b)")
    + "# newdoc id = zeros\n"
    + "1\tw\t_\t_\t_\t_\t0\troot\t0:root\t_\n"
    + "1.1\t_\t_\t_\t_\t_\t_\t_\t1:nsubj\tEntity=(4-a)\n\n"
    + "# newdoc id = response only\n"
    + sentence("Entity=(5-a)")
)


def test_corefud_edge_cases(tmp_path: Path) -> None:
    key, response = write(tmp_path / "k.conllu", COREFUD_KEY), write(tmp_path / "r.conllu", COREFUD_RESPONSE)
    assert [s.name for s in index_documents(key)[0]] == [
        "spans",
        "empty",
        "fields",
        "spans",
        "discontinuous",
        "zeros",
        "key only",
    ]
    assert_ranges_read_like_the_file(key)
    assert_ranges_read_like_the_file(response)
    whole = score_with(key, response, Options())
    assert any("appears again" in w.message for w in whole.warnings)
    assert any("'key only' is not in the response" in w.message for w in whole.warnings)
    assert any("'response only' is not in the key" in w.message for w in whole.warnings)
    for options in (Options(), Options(zeros="exclude"), Options(singletons="remove")):
        assert_documents_score_like_the_file(key, response, options)


def test_corefud_errors_are_the_readers(tmp_path: Path) -> None:
    key = write(tmp_path / "k.conllu", COREFUD_KEY)
    stray = COREFUD_KEY.replace("Entity=e2)", "Entity=e2)e7)")
    assert "not open" in assert_same_errors(write(tmp_path / "u.conllu", stray), key)
    unclosed = COREFUD_KEY.replace("Entity=e2)", "_")  # left out with a warning, as udapi leaves it
    assert_documents_score_like_the_file(write(tmp_path / "w.conllu", unclosed), key)
    no_id = COREFUD_KEY.replace("etype-eid-other", "etype-other")
    assert "names no 'eid'" in assert_same_errors(write(tmp_path / "f.conllu", no_id), key)


# --- jsonlines and model outputs --------------------------------------------------------------------


def record(name: str, clusters: list[list[list[int]]], n: int = 6, **more: object) -> dict[str, object]:
    return {"doc_key": name, "sentences": [["w"] * n], "clusters": clusters, **more}


def lines(*objects: dict[str, object] | str) -> str:
    return "\n".join(o if isinstance(o, str) else json.dumps(o) for o in objects) + "\n"


JSONLINES_KEY = lines(
    record("a", [[[0, 0], [2, 3]], [[5, 5]]]),
    "",  # blank lines are not documents
    record("no mentions", []),
    {"sentences": [["w", "w"]], "clusters": [[[0, 1]]], "doc_key": "key last"},
    {"doc_key": "nested", "meta": {"doc_key": "x"}, "sentences": [["w"]], "clusters": [[[0, 0]]]},
    '{"doc_key": "esc\\u00e9 \\"q\\"", "sentences": [["w"]], "clusters": [[[0, 0]]]}',
    '{"\\u0064oc_key": "spelled", "sentences": [["w"]], "clusters": []}',
    record("a", [[[1, 1], [4, 4]]]),
    record("key only", [[[0, 0], [1, 1]]]),
)
JSONLINES_RESPONSE = lines(
    record("a", [[[1, 1], [4, 4], [5, 5]]]),
    record("no mentions", [[[0, 1]]]),
    {"clusters": [[[0, 1]]], "sentences": [["w", "w"]], "doc_key": "key last"},
    record("nested", [[[0, 0]]], 1),
    record('escé "q"', [], 1),
    record("spelled", [], 1),
    record("response only", [[[0, 0]]]),
)


def test_jsonlines_edge_cases(tmp_path: Path) -> None:
    key, response = write(tmp_path / "k.jsonl", JSONLINES_KEY), write(tmp_path / "r.jsonl", JSONLINES_RESPONSE)
    assert_ranges_read_like_the_file(key)
    assert_ranges_read_like_the_file(response)
    assert_documents_score_like_the_file(key, response)
    assert_documents_score_like_the_file(key, response, Options(singletons="remove", pad_key=True))
    with_mark = write(tmp_path / "m.jsonl", "\ufeff" + JSONLINES_KEY)
    assert_ranges_read_like_the_file(with_mark)
    assert_documents_score_like_the_file(with_mark, response)


def test_a_jsonlines_file_holding_both_sides(tmp_path: Path) -> None:
    both = lines(
        record("a", [[[0, 0], [2, 3]]], predicted_clusters=[[[0, 0], [2, 3], [5, 5]]]),
        record("b", [[[1, 1], [4, 4]]], predicted_clusters=[]),
    )
    path = write(tmp_path / "both.jsonl", both)
    assert_documents_score_like_the_file(path, path)
    assert score_by_documents(path, path, DEFAULT)["muc"].recall == 0.5


def test_jsonlines_errors_are_the_readers(tmp_path: Path) -> None:
    key = write(tmp_path / "k.jsonl", JSONLINES_KEY)
    for i, bad in enumerate(['{"sentences": [["w"]], "clusters": []}', '{"doc_key": "b", ', "[1, 2]"]):
        broken = write(tmp_path / f"b{i}.jsonl", JSONLINES_KEY + bad + "\n")
        assert ":10: error:" in assert_same_errors(broken, key)
    no_clusters = write(tmp_path / "n.jsonl", lines(record("a", []), {"doc_key": "b", "sentences": []}))
    assert "has no 'clusters'" in assert_same_errors(no_clusters, key)


WORDS = ["Barack", "Obama", "is", "in", "Rome", ".", "The", "city", "is", "sunny", "."]
TEXT = "Barack Obama is in Rome. The city is sunny."


def test_model_outputs_are_mapped_onto_their_key_document(tmp_path: Path) -> None:
    """Character offsets need the key document's words: the key's range is read with them."""
    key = [{"doc_key": f"d{i}", "sentences": [WORDS], "clusters": [[[0, 1]], [[4, 4], [6, 7]]]} for i in range(3)]
    chars = [[[0, 11]], [[19, 22], [25, 32]]]  # inclusive character offsets of the key's mentions
    outputs = [
        {"doc_key": "d0", "text": TEXT, "clusters_char_offsets": chars},
        {"doc_key": "d1", "tokens": WORDS, "clusters_token_offsets": [[[0, 1], [4, 4]]]},
        {"doc_key": "d2", "text": TEXT, "clusters": [[[0, 12], [25, 33]]]},
        {"doc_key": "d1", "tokens": WORDS, "clusters_token_offsets": [[[6, 7], [4, 4]]]},
    ]
    k, r = write(tmp_path / "k.jsonl", lines(*key)), write(tmp_path / "r.jsonl", "\ufeff \n" + lines(*outputs))
    assert index_documents(r)[0][0].format == "predictions"
    assert_documents_score_like_the_file(k, r)
    conll = tmp_path / "k.conll"
    conll.write_text(render(read(k, keep_tokens=True), "conll2012")[0])
    assert_documents_score_like_the_file(str(conll), r)


def test_spacy_files_are_still_read_whole(tmp_path: Path) -> None:
    """Nothing to index in a DocBin; the plain reader scores it (checked without spaCy: the path
    is chosen by the name, and the reader's refusal is the same)."""
    pytest.importorskip("spacy")
    doc = dataclasses.replace(read(str(OFFICIAL / "TC-A.key")).documents[0], name="0")
    key = tmp_path / "k.conll"
    key.write_text(render(Corpus(str(key), [doc]), "conll2012")[0])
    bad = write(tmp_path / "x.spacy", "not a DocBin")
    assert_same_errors(str(key), bad)


# --- generated CorefUD corpora: nested, crossing, discontinuous mentions and zeros ----------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    key=st.lists(st.lists(generated_mention, max_size=6), min_size=1, max_size=4),
    response=st.lists(st.lists(generated_mention, max_size=6), min_size=1, max_size=4),
    names=st.lists(st.sampled_from(["a", "b", "c"]), min_size=8, max_size=8),
)
def test_generated_corefud_corpora_score_by_documents_like_the_whole_file(
    tmp_path: Path, key: list[Any], response: list[Any], names: list[str]
) -> None:
    """Documents drawn from few names (so repeats and missing documents are frequent), every option
    that selects or matches mentions differently."""

    def corpus(path: Path, docs: list[Any], side: list[str]) -> str:
        documents = [dataclasses.replace(build(raw), name=name) for raw, name in zip(docs, side)]
        sentences = {d.name: SENTENCES for d in documents}
        path.write_text(render(CorefUDCorpus(str(path), documents, "corefud", sentences=sentences), "corefud")[0])
        return str(path)

    k = corpus(tmp_path / "k.conllu", key, names[:4])
    r = corpus(tmp_path / "r.conllu", response, names[4:])
    assert_ranges_read_like_the_file(k)
    if not set(names[: len(key)]) & set(names[4 : 4 + len(response)]):
        assert "no document of the response is in the key" in assert_same_errors(k, r)
        return
    for options in (DEFAULT, Options(match="head", singletons="remove"), Options(zeros="exclude", match="partial")):
        assert_documents_score_like_the_file(k, r, options)


# --- documents that are read but not scored ---------------------------------------------------------


def test_an_earlier_copy_of_a_repeated_name_is_read_for_its_errors(tmp_path: Path) -> None:
    good = JSONLINES_KEY
    bad_first = lines({"doc_key": "a", "sentences": [["w"]], "clusters": [[[0, 4]]]}) + good
    response = write(tmp_path / "r.jsonl", JSONLINES_RESPONSE)
    assert "after the last token" in assert_same_errors(write(tmp_path / "k.jsonl", bad_first), response)
    stray_first = COREFUD_KEY.replace(
        "# newdoc id = spans\n", "# newdoc id = spans\n1\tw\t_\t_\t_\t_\t0\troot\t_\tEntity=e9)\n\n", 1
    )
    corefud_response = write(tmp_path / "r.conllu", COREFUD_RESPONSE)
    assert "not open" in assert_same_errors(write(tmp_path / "k.conllu", stray_first), corefud_response)


def test_a_response_document_missing_from_the_key_is_read_for_its_errors(tmp_path: Path) -> None:
    key = write(tmp_path / "k.jsonl", JSONLINES_KEY)
    extra = lines(record("response only", [[[0, 9]]]))
    assert "after the last token" in assert_same_errors(key, write(tmp_path / "r.jsonl", JSONLINES_RESPONSE + extra))
    chars = lines({"doc_key": "elsewhere", "text": TEXT, "clusters_char_offsets": [[[0, 11]]]})
    outputs = write(
        tmp_path / "p.jsonl", lines({"doc_key": "a", "tokens": ["w"] * 6, "clusters_token_offsets": []}) + chars
    )
    assert "which has no such document" in assert_same_errors(key, outputs)


def test_warnings_of_an_earlier_copy_are_reported_as_by_the_reader(shared: Path, tmp_path: Path) -> None:
    """A lenient CoNLL-2012 read warns about an unreadable field, in the copy that is not scored too."""
    text = (OFFICIAL / "TC-A.key").read_text()
    lines_ = text.split("\n")
    i = next(i for i, line in enumerate(lines_) if re.search(r"\s\(\d+\)$", line))  # a one-token mention
    broken = lines_[:i] + [lines_[i].rsplit(None, 1)[0] + "\t(x)"] + lines_[i + 1 :]
    key = write(tmp_path / "k.conll", "\n".join(broken) + "\n" + text)
    response = str(OFFICIAL / "TC-A-1.response")
    assert any(w.line == i + 1 for w in score_with(key, response, Options(lenient=True)).warnings)
    assert_documents_score_like_the_file(key, response, Options(lenient=True))


@pytest.mark.parametrize("folder", [OFFICIAL, EDGE])
def test_the_index_is_the_same_for_any_block_size(folder: Path) -> None:
    for path in sorted(folder.glob("*")):
        try:
            whole = index_documents(str(path))
        except InputError as err:
            with pytest.raises(InputError) as again:
                index_documents(str(path), block_size=23)
            assert str(again.value) == str(err)
            continue
        assert index_documents(str(path), block_size=23) == whole, path.name


def test_the_index_does_not_hold_the_file(tmp_path: Path) -> None:
    """Indexing reads block by block: its peak memory is a few blocks, not the file's size."""
    import tracemalloc

    body = "".join(f"d\t0\t{t}\tword\t({t % 7})\n" for t in range(2000))
    path = write(tmp_path / "big.conll", "".join(f"#begin document d{i}\n{body}#end document\n" for i in range(1000)))
    size = Path(path).stat().st_size
    tracemalloc.start()
    try:
        spans, _ = index_documents(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(spans) == 1000
    assert peak < 4 * BLOCK_SIZE < size // 2


def test_a_pipe_or_a_gzip_file_is_refused_in_one_line(tmp_path: Path) -> None:
    import gzip
    import os

    fifo = tmp_path / "pipe.conll"
    os.mkfifo(fifo)  # no writer: opening it would wait forever
    with pytest.raises(InputError) as err:
        index_documents(str(fifo))
    assert str(err.value) == (
        f"{fifo}: error: documents are read back from their byte ranges, so this needs a regular file, "
        "not a pipe or device"
    )
    packed = tmp_path / "key.conll.gz"
    packed.write_bytes(gzip.compress((OFFICIAL / "TC-A.key").read_bytes()))
    with pytest.raises(InputError) as err:
        score_by_documents(str(packed), str(packed), DEFAULT)
    assert str(err.value) == (
        f"{packed}:1: error: documents cannot be split out of a gzip-compressed file; decompress it first"
    )
