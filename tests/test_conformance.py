"""Our numbers against the reference scorer's, on its official test cases and hand-made edge cases."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from corefeval.core.diagnostics import InputError
from corefeval.report.score import render
from corefeval.scoring.pipeline import score

from .conftest import SHARED

OFFICIAL = SHARED / "conformance" / "official"
EDGE = SHARED / "conformance" / "edge"
LEA_PRECISION = SHARED / "conformance" / "lea-precision"


def _load(path: Path, key: str) -> list[dict]:
    return json.loads(path.read_text())[key] if path.exists() else []


EXPECTED = _load(OFFICIAL / "expected.json", "cases")
PERL_RUNS = _load(OFFICIAL / "perl-output.json", "runs")
LEA_CASES = _load(OFFICIAL / "lea-scorer-branch.json", "cases")
EDGE_CASES = _load(EDGE / "perl-output.json", "cases")


@cache
def scored(folder: str, key: str, response: str):  # type: ignore[no-untyped-def]
    return score(str(Path(folder) / key), str(Path(folder) / response), ["all"])


def close(a: float, b: float, rel: float = 1e-9) -> bool:
    return abs(a - b) <= rel * max(1.0, abs(b))


@pytest.mark.parametrize("case", EXPECTED, ids=[c["id"] for c in EXPECTED])
def test_official_expected_values(case: dict) -> None:
    """The 91 (case, metric) R/P/F1 values of the reference's test configuration."""
    res = scored(str(OFFICIAL), case["key_file"], case["response_file"]).corpus
    for metric, want in case["metrics"].items():
        got = res[metric]
        for field in ("recall", "precision", "f1"):
            assert abs(getattr(got, field) - want[field]) < 1e-4, (metric, field)


def _perl_parts(metric: str) -> list[tuple[str | None, str]]:
    return [("coref", "coref_"), ("noncoref", "noncoref_")] if metric == "blanc" else [(None, "")]


@pytest.mark.parametrize("run", PERL_RUNS, ids=[r["id"] for r in PERL_RUNS])
def test_official_counts_and_printed_lines(run: dict) -> None:
    """Every count the reference computed, and every TOTALS line it printed, for 36 pairs x 5 metrics."""
    result = scored(str(OFFICIAL), run["key_file"], run["response_file"])
    for metric, out in run["metrics"].items():
        for part, prefix in _perl_parts(metric):
            got = result.corpus[metric]
            got = getattr(got, part) if part else got
            for field in ("recall_num", "recall_den", "precision_num", "precision_den"):
                assert close(getattr(got, field), float(out["exact"][prefix + field])), (metric, part, field)
        mi = out["totals"]["mention_identification"]
        mentions = result.corpus["mentions"]
        for field in ("recall_num", "recall_den", "precision_num", "precision_den"):
            assert getattr(mentions, field) == float(mi[field])
        printed = render(result, "reference", False)
        block = printed.split(f"METRIC {metric}:\n", 1)[1].split("\nMETRIC ", 1)[0]
        for name, line in out["totals"].items():
            assert line["printed"] in block, (metric, name)


@pytest.mark.parametrize("case", LEA_CASES, ids=[c["id"] for c in LEA_CASES])
def test_lea_against_lea_scorer_branch(case: dict) -> None:
    got = scored(str(OFFICIAL), case["key_file"], case["response_file"]).corpus["lea"]
    for field in ("recall", "precision", "f1"):
        assert abs(getattr(got, field) - case[field]) < 1e-4
    for field in ("recall_num", "recall_den", "precision_num", "precision_den"):
        assert close(getattr(got, field), float(case["perl_exact"][field]))


# Printed by the reference's LEA-scorer branch (`scorer.pl lea case.key case.response`): the TOTALS
# line and the two documents whose key repeats a span in two entities that the response links
# with another mention.
LEA_PRECISION_BRANCH = {
    None: (619.370779220779, 1399, 685.29126984127, 1500),
    "(doc015); part 001": (4, 10, 3, 13),
    "(doc130); part 000": (6.9, 21, 9.5, 19),
}


@pytest.mark.parametrize("document", list(LEA_PRECISION_BRANCH), ids=lambda d: d or "totals")
def test_lea_of_a_key_span_in_two_entities_equals_the_lea_scorer_branch(document: str | None) -> None:
    """For precision the branch indexes a key span by the last key entity holding it."""
    if not (LEA_PRECISION / "case.key").exists():
        pytest.skip("../shared/conformance/lea-precision is absent")
    result = scored(str(LEA_PRECISION), "case.key", "case.response")
    columns = result.counts[:, result.columns["lea"]]
    got = columns.sum(axis=0) if document is None else columns[result.document_names.index(document)]
    for value, want in zip(got, LEA_PRECISION_BRANCH[document]):
        assert close(float(value), float(want), rel=1e-12)


# Edge cases whose reference behaviour is metric semantics: our output must equal the reference's.
SEMANTIC_EDGE = {"E1", "E2", "E3", "E7", "E7r", "E9a", "E9b", "E10", "E11"}


def _totals_only(stdout: str) -> str:
    return "\n".join(line for line in stdout.splitlines() if not line.startswith(("version", "Repeated", "# "))).strip()


@pytest.mark.parametrize("case", [c for c in EDGE_CASES if c["id"] in SEMANTIC_EDGE], ids=lambda c: c["id"])
def test_edge_cases_print_what_the_reference_prints(case: dict) -> None:
    if case["id"] == "E9a":  # nothing shared: an error here; `corefeval reference` prints the reference's zeros
        with pytest.raises(InputError, match=r"closest names are '\(x\); part 000' in the key and '\(x\); part 000 '"):
            scored(str(EDGE), case["key_file"], case["response_file"])
        return
    result = scored(str(EDGE), case["key_file"], case["response_file"])
    for metric, out in case["none"].items():
        assert out["exit_status"] == 0
        ours = render(result, "reference", False).split(f"METRIC {metric}:\n", 1)[1].split("\nMETRIC ", 1)[0]
        assert _totals_only(ours) == _totals_only(out["stdout"]), metric


def test_edge_twinless_repeats_count_as_the_reference_counts() -> None:
    """E3: repeated twinless spans stay; MUC P den 4, B3 P den 7, BLANC response links 4 and 8."""
    c = scored(str(EDGE), "E3.key", "E3.response").corpus
    assert c["mentions"].precision_den == 5
    assert c["muc"].precision_den == 4
    assert c["bcub"].precision_den == 7
    assert c["ceafm"].precision_den == 7
    assert c["ceafe"].precision_den == 3
    assert (c["blanc"].coref.precision_den, c["blanc"].noncoref.precision_den) == (4, 8)


PARSING_BUG_EDGE = [
    ("E4.key", "E4a.response", "comment line"),
    ("E4.key", "E4b.response", "comment line"),
    ("E5.key", "E5.response", None),
    ("E6.key", "E6.response", "missing '#end document'"),
    ("E8.key", "E8.response", "byte-order mark"),
]


@pytest.mark.parametrize(("key", "response", "warning"), PARSING_BUG_EDGE, ids=lambda v: str(v))
def test_edge_parsing_bugs_are_not_reproduced(key: str, response: str, warning: str | None) -> None:
    """Where the reference mis-parses (spec B5-B8, B15), we read what is written: in each of these
    cases the response says exactly what the key says, so every metric is perfect, and we warn."""
    r = scored(str(EDGE), key, response)
    for name, s in r.corpus.items():
        assert s.f1 == 1.0, name
    if warning:
        assert any(warning in w.message for w in r.warnings)


def test_edge_missing_end_document_gives_two_documents() -> None:
    assert scored(str(EDGE), "E6.key", "E6.response").document_names == ["(a); part 000", "(b); part 000"]


@pytest.mark.parametrize(
    ("key", "response", "message"),
    [
        ("E4.key", "E4c.response", "E4c.response:2: error: mention '(1' opened here is not closed"),
        ("E4.key", "E4d.response", "E4d.response:2: error: mention '(2' opened here is not closed"),
        ("E12.key", "E12.key", "E12.key:2: error: cannot read coreference field '(-1)'"),
    ],
)
def test_edge_fatal_input_is_a_located_error(key: str, response: str, message: str) -> None:
    from corefeval.core.diagnostics import InputError

    with pytest.raises(InputError) as err:
        score(str(EDGE / key), str(EDGE / response))
    assert message in str(err.value)
