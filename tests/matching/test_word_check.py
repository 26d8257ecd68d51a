"""A response whose words differ from the key's: an error under a CorefUD key (the CorefUD scorer
refuses it), a warning under a CoNLL-2012 key (the reference scorer reads no words), ``--words``
to choose; and the word fingerprints the check compares, pinned to the words as text."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval import score
from corefeval.core.diagnostics import InputError
from corefeval.core.options import Options
from corefeval.readers import read
from corefeval.readers.conll_blocks import word, word_spans
from corefeval.readers.word_prints import PLACEHOLDER, fingerprints, formless, of_words
from corefeval.scoring.distributed.documents import score_by_documents

SHARED = Path(__file__).resolve().parents[3] / "shared"
OFFICIAL = SHARED / "conformance" / "official"

CONLLU = """# newdoc id = d1
# global.Entity = eid-etype-head-other
# sent_id = 1
# text = The cat sat .
1\tThe\tthe\tDET\tDT\t_\t2\tdet\t2:det\tEntity=(e1-animal-2
2\tcat\tcat\tNOUN\tNN\t_\t3\tnsubj\t3:nsubj\tEntity=e1)
3\tsat\tsit\tVERB\tVBD\t_\t0\troot\t0:root\t_
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t3:punct\tEntity=(e1-animal-1)

"""


def run(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "corefeval", *map(str, argv)], capture_output=True, text=True, check=False
    )


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@given(st.lists(st.text(max_size=20), max_size=30))
@settings(max_examples=200, deadline=None)
def test_fingerprints_of_bytes_and_of_text_agree_and_tell_words_apart(words: list[str]) -> None:
    prints = of_words(words)
    encoded = [w.encode() for w in words]
    data = b"<>".join(encoded)
    starts = np.cumsum([0] + [len(e) + 2 for e in encoded])[:-1].astype(np.int64)
    ends = starts + np.asarray([len(e) for e in encoded], dtype=np.int64)
    assert np.array_equal(fingerprints(data, starts, ends), prints)
    for w, p in zip(words, prints.tolist()):
        assert (p == PLACEHOLDER) == (w in ("", "_"))
    assert len(set(prints.tolist())) == len(set(w or "_" for w in words))


@given(st.lists(st.text(alphabet="ab\n_é", max_size=6), max_size=12))
@settings(max_examples=200, deadline=None)
def test_words_encoded_at_once_print_as_words_encoded_one_by_one(words: list[str]) -> None:
    # of_words encodes words without a line break at once; those with one, one by one
    encoded = [w.encode() for w in words]
    lengths = np.asarray([len(e) for e in encoded], dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    assert np.array_equal(of_words(words), fingerprints(b"".join(encoded), starts, starts + lengths))


def test_a_word_of_any_length_costs_one_pass() -> None:
    long = b"x" * (1 << 20)
    prints = fingerprints(long + b"y", np.asarray([0, 1, 0]), np.asarray([len(long), len(long) + 1, len(long) + 1]))
    assert len(set(prints.tolist())) == 3
    assert formless(of_words(["_", "-", "_"])) and not formless(of_words(["_", "a"])) and formless(None)


#: Column text: white space within a line is ASCII (space, TAB), as the reference scorer splits
#: lines; other Unicode white space is a character of a word to the column-wise reader.
_COLUMN = st.text(st.characters(codec="utf-8").filter(lambda c: not c.isspace() or c in " \t"), max_size=6)


@given(st.lists(st.lists(_COLUMN, min_size=1, max_size=7), min_size=1, max_size=12), st.booleans())
@settings(max_examples=200, deadline=None)
def test_conll_word_spans_find_the_word_the_line_reader_reads(rows: list[list[str]], tabs: bool) -> None:
    lines = [("\t" if tabs else " ").join(row).strip() for row in rows]
    lines = [line for line in lines if line]
    data = "\n".join(lines).encode()
    ends = np.cumsum([len(line.encode()) + 1 for line in lines]) - 1
    starts = ends - np.asarray([len(line.encode()) for line in lines])
    a, b = word_spans(data, starts.astype(np.int64), ends.astype(np.int64))
    assert np.array_equal(fingerprints(data, a, b), of_words([word(line) for line in lines]))


def test_a_corefud_response_with_other_words_is_an_error_naming_the_first(tmp_path: Path) -> None:
    key = write(tmp_path / "key.conllu", CONLLU)
    response = write(
        tmp_path / "response.conllu", CONLLU.replace("\tcat\tcat", "\tdog\tcat").replace("\tsat\t", "\tsits\t")
    )
    done = run("score", key, response, "-m", "muc", "-q")
    assert done.returncode == 1 and not done.stdout
    assert done.stderr.strip() == (
        f"{response}:1: error: document 'd1': 2 of 4 words differ from the key's ({key}:1); the first is word 2, "
        "'dog' where the key has 'cat' (--words ignore scores it anyway)"
    )
    ignored = run("score", key, response, "-m", "muc", "-q", "--words", "ignore")
    assert ignored.returncode == 0 and "MUC     100.00" in ignored.stdout and "|words:ignore|" in ignored.stdout
    warned = run("score", key, response, "-m", "muc", "-q", "--words", "warn")
    assert warned.returncode == 0 and "warning: document 'd1': 2 of 4 words differ" in warned.stderr
    with pytest.raises(InputError, match="2 of 4 words differ"):
        score_by_documents(str(key), str(response), Options(metrics=("muc",)))


def test_a_response_written_without_words_is_not_compared(tmp_path: Path) -> None:
    key = write(tmp_path / "key.conllu", CONLLU)
    lines = [line.split("\t") for line in CONLLU.split("\n")]
    blank = "\n".join("\t".join([c[0], "_", *c[2:]]) if len(c) == 10 else "\t".join(c) for c in lines)
    response = write(tmp_path / "response.conllu", blank)
    done = run("score", key, response, "-m", "muc", "-q")
    assert done.returncode == 0 and not done.stderr and "|words:" not in done.stdout


def test_a_conll_key_warns_as_the_reference_scores_and_check_refuses() -> None:
    key, response = OFFICIAL / "TC-A.key", OFFICIAL / "TC-A-10.response"
    warned = run("score", key, response, "-m", "muc", "-q")
    assert warned.returncode == 0
    assert "3 of 20 words differ" in warned.stderr and "'x' where the key has 'jnk'" in warned.stderr
    assert "|words:" not in warned.stdout
    same = score(str(key), str(response), ["muc"])
    assert (
        score(str(key), str(response), ["muc"], options=Options(words="ignore")).counts.tolist() == same.counts.tolist()
    )
    checked = run("score", key, response, "-m", "muc", "-q", "--words", "check")
    assert checked.returncode == 1 and checked.stderr.count("\n") == 1 and "|words:" not in checked.stdout


def test_jsonlines_words_are_compared(tmp_path: Path) -> None:
    key = write(
        tmp_path / "key.jsonl", '{"doc_key": "d", "sentences": [["a", "b", "c"]], "clusters": [[[0, 0], [2, 2]]]}\n'
    )
    response = write(
        tmp_path / "response.jsonl",
        '{"doc_key": "d", "sentences": [["a", "B", "c"]], "clusters": [[[0, 0], [2, 2]]]}\n',
    )
    assert read(str(response)).documents[0].forms is not None
    result = score(str(key), str(response), ["muc"])
    assert any("1 of 3 words differ" in w.message and "'B' where the key has 'b'" in w.message for w in result.warnings)


COLUMNS = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM"
UA = f"""# global.columns = {COLUMNS}
# newdoc id = d1
# sent_id = d1-1
1\tThe\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=m1\t_\t_\t_\t_
2\tcat\t_\t_\t_\t_\t_\t_\t_\t_\t)\t_\t_\t_\t_
3\tsat\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_
4\tit\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=m2)\t_\t_\t_\t_

"""


@pytest.mark.parametrize("command", ["score", "anaphora"])
def test_a_universal_anaphora_response_with_other_words_is_refused_as_the_ua_scorer_refuses_it(
    tmp_path: Path, command: str
) -> None:
    key = write(tmp_path / "key.ua", UA)
    response = write(tmp_path / "response.ua", UA.replace("\tcat\t", "\tdog\t"))
    done = run(command, key, response, "-m", "muc")
    assert done.returncode == 1 and not done.stdout
    assert done.stderr.strip().startswith(f"{response}:2: error: document 'd1': 1 of 4 words differ")
    assert "'dog' where the key has 'cat'" in done.stderr
    warned = run(command, key, response, "-m", "muc", "--words", "warn")
    assert warned.returncode == 0 and "scored anyway (--words check refuses it)" in warned.stderr
    assert "|words:warn|" in warned.stdout


def test_a_long_differing_word_is_cut_in_the_message(tmp_path: Path) -> None:
    long = "x" * 100_000
    key = write(tmp_path / "key.conllu", CONLLU.replace("\tcat\tcat", f"\t{long}\tcat"))
    response = write(tmp_path / "response.conllu", CONLLU.replace("\tcat\tcat", f"\t{long}y\tcat"))
    done = run("score", key, response, "-m", "muc", "-q")
    assert done.returncode == 1 and len(done.stderr) < 500
    assert f"'{'x' * 40}... (100,001 characters)' where the key has '{'x' * 40}... (100,000 characters)'" in done.stderr
