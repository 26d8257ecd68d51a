"""``corefeval score`` on Universal Anaphora files: the UA scorer's BLANC by default, and its presets."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

import corefeval
from corefeval import Evaluator
from corefeval.anaphora.ua_sides import UASettings as UAOptions
from corefeval.cli import main
from corefeval.metrics.ua.scores import literal_scores
from corefeval.readers.ua import read_ua
from corefeval.stats.compare import compare

from .generator import HEADER, pair


def _doc(name: str, cells: list[str]) -> str:
    lines = [f"# newdoc id = {name}", f"# sent_id = {name}-1"]
    lines += ["\t".join([str(w + 1), f"w{w}", *["_"] * 8, c, "_", "_"]) for w, c in enumerate(cells)]
    return "\n".join(lines) + "\n\n"


#: A key of three singletons (no coreference link) against a response linking two of them: the
#: reference variant scores the non-coreference side alone (no key coreference link), the UA scorer
#: averages both sides (the response has a coreference link): coreference R = P = F = 0,
#: non-coreference R = 2/3, P = 1, F = 4/5; so R = 1/3, P = 1/2, F = 2/5 (the reference: 2/3, 1, 4/5).
KEY = HEADER + "\n" + _doc("d", [f"(EntityID={e}|MarkableID=m{e})" for e in (1, 2, 3)])
RESPONSE = HEADER + "\n" + _doc("d", [f"(EntityID={e}|MarkableID=m{m})" for e, m in ((1, 1), (1, 2), (3, 3))])


def _files(tmp_path: Path, key: str, response: str) -> tuple[str, str]:
    k, r = tmp_path / "key.conllu", tmp_path / "response.conllu"
    k.write_text(key, encoding="utf-8")
    r.write_text(response, encoding="utf-8")
    return str(k), str(r)


def _ua_blanc(key: str, response: str) -> tuple[float, float, float]:
    """The UA scorer's BLANC (split antecedents removed: ``score`` reads a UA file's identity layer)."""
    options = UAOptions(keep_split_antecedents=False)
    result = literal_scores(read_ua("k", key).anaphora, read_ua("r", response).anaphora, options)
    return result.scores["blanc"]


def test_blanc_is_the_ua_scorers_on_a_ua_key(tmp_path: Path) -> None:
    key, response = _files(tmp_path, KEY, RESPONSE)
    result = corefeval.score(key, response, ["blanc"])
    assert result.settings.blanc == "ua"
    assert "|blanc:ua|" in result.signature
    blanc = result.corpus["blanc"]
    assert (blanc.recall, blanc.precision, blanc.f1) == pytest.approx((1 / 3, 1 / 2, 2 / 5))
    assert (blanc.recall, blanc.precision, blanc.f1) == pytest.approx(_ua_blanc(KEY, RESPONSE))
    reference = corefeval.score(key, response, ["blanc"], blanc="reference").corpus["blanc"]
    assert (reference.recall, reference.precision, reference.f1) == pytest.approx((2 / 3, 1, 4 / 5))


def test_blanc_given_is_kept_on_a_ua_key(tmp_path: Path) -> None:
    key, response = _files(tmp_path, KEY, RESPONSE)
    for variant in ("reference", "paper"):
        result = corefeval.score(key, response, ["blanc"], blanc=variant)
        assert result.settings.blanc == variant
        assert f"|blanc:{variant}|" in result.signature


def test_blanc_default_elsewhere_is_the_reference() -> None:
    data = Path(__file__).parents[1] / "data"
    key = next(p for p in sorted(data.rglob("*.conll")) if p.is_file())
    result = corefeval.score(str(key), str(key), ["blanc"])
    assert result.settings.blanc == "reference"
    assert Evaluator(["blanc"]).result().settings.blanc == "reference"


@pytest.mark.parametrize("seed", range(12))
def test_blanc_on_generated_pairs_is_the_ua_scorers(seed: int, tmp_path: Path) -> None:
    key_text, response_text = pair(seed)
    key, response = _files(tmp_path, key_text, response_text)
    blanc = corefeval.score(key, response, ["blanc"]).corpus["blanc"]
    assert (blanc.recall, blanc.precision, blanc.f1) == pytest.approx(_ua_blanc(key_text, response_text))


def test_blanc_default_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, response = _files(tmp_path, KEY, RESPONSE)
    assert main(["score", key, response, "-m", "blanc", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "|blanc:ua|" in out["signature"]
    assert out["corpus"]["blanc"]["f1"] == pytest.approx(_ua_blanc(KEY, RESPONSE)[2])
    assert main(["score", key, response, "-m", "blanc", "--blanc", "reference", "--format", "json"]) == 0
    assert "|blanc:reference|" in json.loads(capsys.readouterr().out)["signature"]


def test_compare_takes_the_ua_blanc_too(tmp_path: Path) -> None:
    key, response = _files(tmp_path, KEY, RESPONSE)
    comparison = compare(key, response, [key], ["blanc"], resamples=20, rounds=20)
    assert all(s.result.settings.blanc == "ua" for s in comparison.systems)


UA_PRESET_NAMES = ("crac18", "craft19", "codicrac22ar", "codicrac22dd", "codicrac22br")


def _anaphora_preset(name: str, key: str, response: str) -> dict[str, tuple[float, float, float]]:
    """What ``corefeval anaphora --preset NAME`` prints, at full precision, by metric name of ``score``."""
    from corefeval.cli.anaphora import settings

    args = argparse.Namespace(
        preset=name,
        metric=None,
        format="text",
        singletons=None,
        split_antecedents=None,
        match=None,
        discourse_deixis=False,
        only_split_antecedents=False,
    )
    measures, options, _ = settings(args)
    scores = literal_scores(read_ua("k", key).anaphora, read_ua("r", response).anaphora, options).scores
    names = {"muc": "ua-muc", "bcub": "ua-bcub", "ceafe": "ua-ceafe"}
    return {names.get(m, m): scores[m] for m in measures}


def _score_preset(name: str, key: str, response: str, *more: str) -> dict[str, object]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", key, response, "--preset", name, "--format", "json", "-q", *more]) == 0
    result: dict[str, object] = json.loads(out.getvalue())
    return result


@pytest.mark.parametrize("name", UA_PRESET_NAMES)
@pytest.mark.parametrize("seed", range(6))
def test_ua_presets_on_score_are_those_of_anaphora(name: str, seed: int, tmp_path: Path) -> None:
    key_text, response_text = pair(seed)
    key, response = _files(tmp_path, key_text, response_text)
    expected = _anaphora_preset(name, key_text, response_text)
    result = _score_preset(name, key, response)
    assert f"|preset:{name}|" in str(result["signature"]) and "|blanc:ua|" in str(result["signature"])
    corpus = result["corpus"]
    assert isinstance(corpus, dict)
    assert [m for m in corpus if m != "mentions"] == sorted(expected, key=list(corpus).index)
    for metric, (r, p, f) in expected.items():
        got = corpus[metric]
        assert (got["recall"], got["precision"], got["f1"]) == pytest.approx((r, p, f), abs=1e-12), metric


def test_ua_preset_with_metrics_given_keeps_them(tmp_path: Path) -> None:
    key_text, response_text = pair(3)
    key, response = _files(tmp_path, key_text, response_text)
    result = _score_preset("crac18", key, response, "-m", "ua-lea,muc")
    corpus = result["corpus"]
    assert isinstance(corpus, dict) and {"ua-lea", "muc"} <= set(corpus) and "ua-muc" not in corpus
    from corefeval.metrics.ua.scores import literal_scores as ua_evaluate
    from corefeval.scoring.presets_ua import ua_preset

    keys, responses = read_ua("k", key_text).anaphora, read_ua("r", response_text).anaphora
    lea = ua_evaluate(keys, responses, ua_preset("crac18").options)
    assert corpus["ua-lea"]["f1"] == pytest.approx(lea.scores["lea"][2], abs=1e-12)


def test_ua_preset_on_another_format_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = Path(__file__).parents[1] / "data"
    key = str(next(p for p in sorted(data.rglob("*.conll")) if p.is_file()))
    assert main(["score", key, key, "--preset", "crac18"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"{key}:") and "--preset crac18" in err


def test_ua_preset_sets_the_mention_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, response = _files(tmp_path, KEY, RESPONSE)
    assert main(["score", key, response, "--preset", "codicrac22ar", "--blanc", "paper"]) == 2
    assert "--preset sets" in capsys.readouterr().err
