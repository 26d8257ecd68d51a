"""Rewards: each answer's value is the number ``corefeval score GOLD ANSWER`` gives; an answer that
cannot be scored is 0.0 with a reason, never an exception; TRL's call signature without TRL."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.cli import main
from corefeval.core.diagnostics import UsageError
from corefeval.rewards import Reward, answer_rewards, make_reward, prepare_gold, score_answers
from tests.llm_answers import REFUSAL, key_text, text_answer
from tests.reward_answers import conll_gold, gold_document, markup


def cli_f1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gold: str, answer: str, metric: str, *options: str
) -> float | None:
    """``corefeval score`` on the two texts written to files: the metric's F1, or None for an error."""
    (tmp_path / "gold").write_text(gold, encoding="utf-8")
    (tmp_path / "answer").write_text(answer, encoding="utf-8")
    capsys.readouterr()
    paths = [str(tmp_path / "gold"), str(tmp_path / "answer")]
    status = main(["score", *paths, "-m", metric, "--format", "json", "-q", *options])
    out = capsys.readouterr().out
    return json.loads(out)["corpus"][metric]["f1"] if status == 0 else None


@pytest.mark.parametrize("lenient", [False, True])
@pytest.mark.parametrize("seed", range(30))
def test_each_reward_is_what_corefeval_score_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int, lenient: bool
) -> None:
    """Answers edited as models edit them (words, marks, malformed marks, refusals, cut short), read
    strictly (most are 0.0) and leniently (``--lenient``)."""
    gold = conll_gold(seed)
    export = markup(gold_document(seed), "text2text")
    answers = [text_answer(export + "\n", seed * 7 + k) for k in range(4)]
    metric = ("conll", "muc", "lea", "mentions", "bcub", "ceafe")[seed % 6]
    rewards = answer_rewards(gold, answers, metric, lenient=lenient)
    for answer, reward in zip(answers, rewards):
        one_line = " ".join(line for line in answer.split("\n") if line.strip())  # one gold document
        expected = cli_f1(tmp_path, capsys, gold, one_line + "\n", metric, *(["--lenient"] if lenient else []))
        assert reward.value == (0.0 if expected is None else expected), (answer, reward)
        assert (reward.reason != "") == (expected is None), reward.reason


@pytest.mark.parametrize("style", ["markdown-links", "xml-tags", "text2text"])
@pytest.mark.parametrize("seed", range(8))
def test_every_markup_is_read_and_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], style: str, seed: int
) -> None:
    rng = random.Random(seed)
    gold_doc, answer_doc = gold_document(seed), gold_document(seed + 100)
    gold = conll_gold(seed)
    words = list(gold_doc.tokens or ())
    for _ in range(rng.randint(0, 3)):  # a few words of its own
        words.insert(rng.randrange(len(words)), "um")
    answer = markup(answer_doc, style, tuple(words[: answer_doc.n_tokens]))
    reward = answer_rewards(gold, [answer])[0]
    assert reward.value == cli_f1(tmp_path, capsys, gold, answer + "\n", "conll")
    assert score_answers(gold, [markup(gold_doc, style)]) == [1.0]


@pytest.mark.parametrize("seed", range(12))
def test_corefud_golds_of_several_documents(tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int) -> None:
    """A CorefUD gold of one to three documents: an answer is a line per document, as for the CLI."""
    from corefeval.readers.corefud import read_corefud

    gold = key_text(seed)
    corpus = read_corefud("gold", gold, keep_tokens=True)
    export = "\n".join(markup(d, "text2text", tuple(w.replace(" ", "_") for w in d.tokens or ())) for d in corpus)
    answers = [text_answer(export + "\n", seed * 5 + k) for k in range(3)]
    for answer, reward in zip(answers, answer_rewards(gold, answers)):
        if len(corpus.documents) == 1:  # its lines are one document
            answer = " ".join(line for line in answer.split("\n") if line.strip()) + "\n"
        expected = cli_f1(tmp_path, capsys, gold, answer, "conll")
        assert reward.value == (0.0 if expected is None else expected), reward


def test_gold_as_words_and_clusters_equals_the_gold_as_text() -> None:
    doc = gold_document(3)
    clusters = [
        [[s, e] for s, e, k in zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist()) if k == c]
        for c in range(doc.n_entities)
    ]
    words = list(doc.tokens or ())
    answers = [markup(gold_document(k), "text2text", doc.tokens) for k in range(5)]
    as_text = score_answers(conll_gold(3), answers, "lea")
    assert score_answers({"words": words, "clusters": clusters}, answers, "lea") == as_text
    line = json.dumps({"doc_key": "d", "sentences": [words], "clusters": clusters})
    assert score_answers(line, answers, "lea") == as_text
    assert as_text[3] == 1.0 and 0 <= min(as_text) < 1


def test_what_cannot_be_scored_is_zero_with_a_reason() -> None:
    gold = {"words": ["John", "saw", "Mary", ".", "He", "waved", "."], "clusters": [[[0, 0], [4, 4]]]}
    good = "John|[e1] saw Mary . He|[e1] waved ."
    cases = {
        "": "empty answer",
        "  \n\n ": "empty answer",
        REFUSAL: "more edits than 25%",
        "John|[e1 saw Mary . He": "never closed",  # cut short
        "John|[e1] saw Mary|(e7 . He|[e1] waved .": "is not [eN, eN] or [eN]",
        "John|[e1]|x saw Mary . He|[e1] waved .": "more than one '|'",
        '{"doc_key": "x"}': "reads as jsonlines",
        '[{"doc_id": "0", "tokens": ["John"': "not JSON",  # cut short
        '[{"doc_id": "9", "tokens": [], "clusters_token_offsets": []}]': "no document of the response",
        "w " * 200_000: "edits",
    }
    rewards = answer_rewards(gold, [good, *cases])
    assert rewards[0].value == 1.0 and rewards[0].reason == ""
    for (answer, why), reward in zip(cases.items(), rewards[1:]):
        assert reward.value == 0.0 and why in reward.reason, (answer[:40], reward)
    left_open = "John|[e1] saw Mary|[e2 . He|[e1] waved ."
    assert answer_rewards(gold, [left_open])[0].value == 0.0
    assert answer_rewards(gold, [left_open], lenient=True) == [Reward(1.0)]  # the open mark dropped
    for odd in (None, 3, [{"role": "assistant"}], [{"content": [{"image": "x"}]}]):
        assert answer_rewards(gold, [odd])[0].reason.startswith("a completion is a string or chat messages")


def test_what_chat_models_wrap_answers_in_is_taken_away() -> None:
    gold = {"words": ["John", "saw", "Mary", ".", "He", "waved", "."], "clusters": [[[0, 0], [4, 4]]]}
    wrapped = [
        "<think>John|[e1] is he? Mary|e9] ...</think>John|[e1] saw Mary . He|[e1] waved .",
        "```text\nJohn|[e1] saw Mary .\nHe|[e1] waved .\n```",
        [{"role": "assistant", "content": "[John](#a) saw Mary . [He](#a) waved ."}],
        [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "John|[e1] saw"},
                    {"type": "text", "text": " Mary . He|[e1] waved ."},
                ],
            },
        ],
    ]
    assert score_answers(gold, wrapped) == [1.0] * len(wrapped)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("John saw Mary.He|[]e1,#\n`<>m id=/()"), max_size=80), max_size=6))
def test_no_answer_raises(answers: list[str]) -> None:
    gold = {"words": ["John", "saw", "Mary", ".", "He", "waved", "."], "clusters": [[[0, 0], [4, 4]]]}
    for reward in answer_rewards(gold, answers):
        assert 0.0 <= reward.value <= 1.0
        assert reward.value == 0.0 or reward.reason == ""


def test_the_trl_signature() -> None:
    """``completions`` and the dataset's columns as keywords; golds of several prompts in one batch."""
    first = {"words": ["John", "saw", "Mary", ".", "He", "waved", "."], "clusters": [[[0, 0], [4, 4]]]}
    second = conll_gold(5, 30)
    exact = markup(gold_document(5, 30), "text2text")
    reward = make_reward(metric="mentions")
    completions = [
        [{"role": "assistant", "content": "John|[e1] saw Mary . He|[e1] waved ."}],
        [{"role": "assistant", "content": exact}],
        [{"role": "assistant", "content": "John|[e1 saw"}],
        [{"role": "assistant", "content": "John|[e1] saw Mary|[e1] . He waved ."}],
    ]
    values = reward(
        prompts=["p1", "p2", "p1", "p1"],
        completions=completions,
        completion_ids=[[1], [2], [3], [4]],
        gold=[first, second, first, first],
        trainer_state=None,
    )
    assert values == [1.0, 1.0, 0.0, 0.5]
    assert reward.__name__ == "coref_mentions"
    assert [r.reason == "" for r in reward.last] == [True, True, False, True]
    assert make_reward("answer_key")(["John|[e1] saw"], answer_key=[first]) == [0.0]
    with pytest.raises(UsageError, match="column 'gold'"):
        reward(completions=["x"], prompts=["p"])
    with pytest.raises(UsageError, match="one gold per completion"):
        reward(completions=["x", "y"], gold=[first])


def test_a_gold_is_read_once_and_bad_golds_and_metrics_are_errors() -> None:
    gold = conll_gold(9)
    assert prepare_gold(gold) is prepare_gold(gold)
    with pytest.raises(UsageError, match="one metric's F1"):
        score_answers(gold, ["x"], "muc,lea")
    with pytest.raises(UsageError, match="'words'"):
        score_answers({"clusters": []}, ["x"])
    with pytest.raises(UsageError, match="not \\[start, end\\]"):
        score_answers({"words": ["a"], "clusters": [[[0, 3]]]}, ["x"])
    with pytest.raises(UsageError, match="reads as text2text"):
        score_answers("John|[e1] saw", ["x"])


def test_the_example_of_the_docs_prints_what_the_page_shows(capsys: pytest.CaptureFixture[str]) -> None:
    import re

    page = (Path(__file__).resolve().parents[2] / "docs" / "rewards.md").read_text(encoding="utf-8")
    code, shown = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", page, re.S).groups()  # type: ignore[union-attr]
    exec(compile(code, "docs/rewards.md", "exec"), {})
    assert capsys.readouterr().out == shown


def test_the_module_example_runs() -> None:
    import doctest

    import corefeval.rewards

    failures, tried = doctest.testmod(corefeval.rewards)
    assert tried and not failures
