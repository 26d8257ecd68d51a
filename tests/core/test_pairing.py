"""Pairing a key's documents with a response's: a response that shares no document with its key is an
error naming the closest names of both files, in every command and API call that scores; documents on
one side only are warnings with their count."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import corefeval
from corefeval.cli import main
from corefeval.core.diagnostics import InputError
from corefeval.studies.errors.analysis import analyse


def conll(*docs: str) -> str:
    """Documents of four tokens, two of them one entity."""
    body = "".join(f"w\t{t}\tx\t{f}\n" for t, f in enumerate(["(1)", "-", "(1)", "-"]))
    return "".join(f"#begin document ({name}); part 000\n{body}#end document\n" for name in docs)


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    key = tmp_path / "key.conll"
    key.write_text(conll("story"))
    response = tmp_path / "response.conll"
    response.write_text(conll("story").replace("part 000", "part 001"))
    return str(key), str(response)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def one_error(err: str, response: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert re.match(rf"{re.escape(response)}:\d+: error: no document of the response is in the key", lines[0]), err
    assert "'(story); part 000' in the key and '(story); part 001' in the response" in lines[0], err


@pytest.mark.parametrize(
    "command",
    [
        ["score"],
        ["score", "--format", "json", "--per-doc"],
        ["score", "--per-doc", "--format", "reference"],
        ["score", "--confidence", "10"],
        ["score", "--by", "genre"],
        ["score", "--engine", "dask", "-m", "muc"],
        ["errors"],
        ["compare", "KEY"],
    ],
    ids=lambda c: " ".join(c),
)
def test_no_shared_document_is_one_error_in_every_command(
    files: tuple[str, str], capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    key, response = files
    if "dask" in command:
        pytest.importorskip("dask.bag")
    head, options = command[0], command[1:]
    # compare: the response as a system compared with the key's own copy as baseline
    args = [head, key, key, response] if head == "compare" else [head, key, response, *options]
    code, out, err = run(capsys, *args)
    assert code == 1 and out == ""
    one_error(err, response)


def test_leaderboard_and_report_refuse_it_too(
    files: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, response = files
    code, _, err = run(capsys, "leaderboard", "--pair", "d", key, response)
    assert code == 1
    one_error(err, response)
    page = tmp_path / "page.html"
    code, _, err = run(capsys, "report", key, response, "-o", str(page), "--no-errors", "--resamples", "10")
    assert code == 1 and not page.exists()
    one_error(err, response)


def test_the_python_api_raises_it(files: tuple[str, str]) -> None:
    key, response = files
    for call in (lambda: corefeval.score(key, response), lambda: analyse(key, response, costs=False)):
        with pytest.raises(InputError, match="no document of the response is in the key"):
            call()


def test_another_corpus_lists_the_closest_names_of_both_files(tmp_path: Path) -> None:
    """A LitBank-like key against a GUM-like response: the closest names, not the first ones."""
    key = tmp_path / "k.conll"
    key.write_text(conll("1023_bleak_house_brat", "105_persuasion_brat"))
    response = tmp_path / "r.conll"
    response.write_text(conll("GUM_reddit_pandas", "zz_other", "GUM_reddit_macroeconomics", "105_persuasion"))
    with pytest.raises(InputError) as err:
        corefeval.score(str(key), str(response))
    message = str(err.value)
    assert message.startswith(f"{response}:1: error:") and "the key has 2 documents, the response 4" in message
    in_key, in_response = message.split("the closest names are ")[1].split(" in the key and ")
    assert in_key.startswith("'(105_persuasion_brat); part 000'")
    assert in_response.startswith("'(105_persuasion); part 000'")


def test_some_missing_documents_are_warnings_with_their_count(tmp_path: Path, capsys) -> None:
    key = tmp_path / "k.conll"
    key.write_text(conll("a", "b", "c"))
    response = tmp_path / "r.conll"
    response.write_text(conll("a", "x", "y"))
    code, _, err = run(capsys, "score", str(key), str(response), "-m", "muc")
    assert code == 0
    assert err.count("is not in the response; it is scored against an empty response (2 of the key's 3") == 2
    assert err.count("is not in the key; it is ignored (2 of the response's 3 documents are ignored)") == 2


def test_a_trailing_space_pairs_across_formats() -> None:
    """A CoNLL-2012 name may end in a space that a CorefUD ``# newdoc id`` cannot hold."""
    from corefeval.core.pairing import pair_names

    assert pair_names(["(a);"], {"(a); ": 1}, other_format=True) == {"(a);": "(a); "}
    assert pair_names(["(a);"], {"(a); ": 1}, other_format=False) == {}
    assert pair_names(["(a); part 000", "b_1"], {"a_0": 1, "(b); part 001": 2}, True) == {
        "(a); part 000": "a_0",
        "b_1": "(b); part 001",
    }


def test_closest_names_are_the_most_alike_and_quick() -> None:
    from corefeval.core.document_names import closest, closest_pairs

    names = [f"doc_{i:05d}" for i in range(50_000)]
    assert closest("doc_01234x", names)[0] == "doc_01234"
    assert closest("zzzz", ["b", "a", "zzz"]) == ["zzz", "a", "b"]
    pairs = closest_pairs([f"(x{i}); part 000" for i in range(20_000)], [f"(x{i}); part 001" for i in range(3)])
    assert pairs[0][1] == "(x0); part 001" and pairs[0][0].startswith("(x")


def test_the_anaphora_command_pairs_as_every_command(tmp_path: Path, capsys) -> None:
    """Universal Anaphora files: nothing shared is the same error; a key document the response lacks
    is skipped, as the UA scorer skips it, with the same warning and count."""
    from tests.anaphora.test_ua_reader import EXAMPLE

    key = tmp_path / "k.conllu"
    key.write_text(EXAMPLE + EXAMPLE.split("\n", 1)[1].replace("newdoc id = d1", "newdoc id = d2"))
    other = tmp_path / "other.conllu"
    other.write_text(EXAMPLE.replace("newdoc id = d1", "newdoc id = x9"))
    code, out, err = run(capsys, "anaphora", str(key), str(other))
    assert code == 1 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"{other}:4: error: no document of the response is in the key") and "'x9'" in err
    one = tmp_path / "one.conllu"
    one.write_text(EXAMPLE)
    code, _, err = run(capsys, "anaphora", str(key), str(one), "-m", "muc")
    assert code == 0
    assert "document 'd2' is not in the response; it is skipped, as the UA scorer skips it (1 of the key's" in err
