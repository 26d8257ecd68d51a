"""The leaderboard: every cell, average and format against independent computation, and the CLI."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefeval
from corefeval.cli import main
from corefeval.core.diagnostics import UsageError
from corefeval.core.options import Options
from corefeval.readers import read
from corefeval.readers.corefud import CorefUDCorpus
from corefeval.report.leaderboard import render
from corefeval.scoring.presets import ALL_MODES, PRESETS, preset
from corefeval.scoring.variants import score_variants
from corefeval.stats.leaderboard import MACRO, MICRO, Bootstrap, Dataset, leaderboard

from ..readers.test_corefud_property import build, mention

HEADER = "# global.Entity = eid-etype-head-other\n"


def _sentence(misc: list[str], empty: dict[int, list[str]] | None = None) -> str:
    """Words w1.. with their MISC; ``empty[i]``: empty nodes after word i, as ``DEPS\\tMISC``."""
    lines = []
    for i, m in enumerate(misc, start=1):
        lines.append("\t".join([str(i), f"w{i}", "_", "_", "_", "_", "0", "root", "0:root", m or "_"]))
        for k, node in enumerate((empty or {}).get(i, []), start=1):
            lines.append("\t".join([f"{i}.{k}", "_", "_", "_", "_", "_", "_", "_", node]))
    return "\n".join(lines)


def _doc(name: str, misc: list[str], empty: dict[int, list[str]] | None = None) -> str:
    return f"# newdoc id = {name}\n{HEADER}# sent_id = {name}-1\n{_sentence(misc, empty)}\n\n"


# Key and response of three datasets. "news": multi-word mentions whose heads and spans differ
# between key and response (exact, partial and head matching disagree), and singletons. "chat": one
# document with zeros the response reconstructs in the other order (dependent and linear matching
# disagree). "tiny": one document, a response missing an entity.
KEY = {
    "news": _doc("n1", ["Entity=(e1-p-2", "Entity=e1)", "", "Entity=(e1-p-1)", "Entity=(e2-t-1)", "Entity=(e3-t-1)"])
    + _doc("n2", ["Entity=(e1-p-1)", "", "Entity=(e1-p-1)", "Entity=(e2-t-2", "Entity=e2)", "Entity=(e2-t-1)"]),
    "chat": _doc(
        "c1",
        ["Entity=(e1-p-1)", "", "Entity=(e2-t-1)", "Entity=(e1-p-1)", "Entity=(e2-t-1)"],
        {2: ["2:nsubj\tEntity=(e1-p-1)", "2:obj\tEntity=(e2-t-1)"]},
    ),
    "tiny": _doc("t1", ["Entity=(e1-p-1)", "Entity=(e1-p-1)", "Entity=(e2-t-1)", "Entity=(e2-t-1)", ""]),
}
RESPONSE = {
    "news": _doc("n1", ["Entity=(e1-p-1", "Entity=e1)", "", "Entity=(e1-p-1)", "Entity=(e2-t-1)", "Entity=(e2-t-1)"])
    + _doc("n2", ["Entity=(e1-p-1)", "", "Entity=(e1-p-1)", "", "Entity=(e2-t-1)", "Entity=(e2-t-1)"]),
    "chat": _doc(
        "c1",
        ["Entity=(e1-p-1)", "", "Entity=(e2-t-1)", "Entity=(e1-p-1)", "Entity=(e3-t-1)"],
        {2: ["2:obj\tEntity=(e2-t-1)", "2:nsubj\tEntity=(e1-p-1)"]},
    ),
    "tiny": _doc("t1", ["Entity=(e1-p-1)", "Entity=(e1-p-1)", "", "", ""]),
}


@pytest.fixture
def datasets(tmp_path: Path) -> list[Dataset]:
    out = []
    for name in KEY:
        for role, texts in (("gold", KEY), ("sys", RESPONSE)):
            (tmp_path / role).mkdir(exist_ok=True)
            (tmp_path / role / f"{name}.conllu").write_text(texts[name])
        out.append(Dataset(name, str(tmp_path / "gold" / f"{name}.conllu"), str(tmp_path / "sys" / f"{name}.conllu")))
    return out


def _options(variant_index: int, board_preset: str = "crac2024") -> Options:
    variants, blanc = preset(board_preset)
    return variants[variant_index].options(Options(("conll",), blanc=blanc))


def test_every_variant_is_what_score_gives(datasets: list[Dataset]) -> None:
    options = [v.options(Options(blanc="paper")) for v in ALL_MODES] + [
        Options(zeros="exclude"),
        Options(singletons="remove", zeros="exclude", match="head"),
        Options(("muc",), pad_key=True, singletons="remove"),
    ]
    for d in datasets:
        together = score_variants(d.key, d.response, options)
        for opts, result in zip(options, together, strict=True):
            alone = corefeval.score(d.key, d.response, options=opts)
            assert np.array_equal(result.counts, alone.counts), (d.name, opts)
            assert result.signature == alone.signature
            assert result.corpus.keys() == alone.corpus.keys()


MORE = [
    Options(zeros="exclude"),
    Options(singletons="remove", zeros="exclude", match="partial"),
    Options(("muc", "lea"), pad_key=True, singletons="remove"),
]


@settings(max_examples=60, deadline=None)
@given(st.lists(mention, max_size=8), st.lists(mention, max_size=8))
def test_any_pair_scores_as_alone(key_raw: list, response_raw: list) -> None:
    """Random documents with nested, discontinuous and zero mentions: sharing work between the
    twelve modes (and others) changes no count."""
    key, response = (CorefUDCorpus(n, [build(raw)], "corefud") for n, raw in (("k", key_raw), ("r", response_raw)))
    options = [v.options(Options()) for v in ALL_MODES] + MORE
    for opts, result in zip(options, score_variants(key, response, options), strict=True):
        assert np.array_equal(result.counts, corefeval.score(key, response, options=opts).counts), opts


def test_the_modes_differ_on_these_files(datasets: list[Dataset]) -> None:
    """The files are chosen so that no two kinds of matching agree (else the tests above prove little)."""
    news = score_variants(datasets[0].key, datasets[0].response, [v.options(Options()) for v in ALL_MODES])
    by_match = {v.match: r.counts for v, r in zip(ALL_MODES, news, strict=True) if v.singletons == "keep"}
    assert not np.array_equal(by_match["exact"], by_match["partial"])
    assert not np.array_equal(by_match["exact"], by_match["head"])
    assert not np.array_equal(by_match["partial"], by_match["head"])
    chat = [
        corefeval.score(datasets[1].key, datasets[1].response, ("muc",), zeros=z)["muc"].f1
        for z in ("include", "dependent")
    ]
    assert chat[0] != chat[1]


def test_cells_and_averages(datasets: list[Dataset]) -> None:
    board = leaderboard(datasets, preset("crac2024")[0], Options(blanc="paper"), preset="crac2024")
    assert board.rows == ["news", "chat", "tiny", MACRO, MICRO]
    for j in range(4):
        cells = []
        for i, d in enumerate(datasets):
            expected = corefeval.score(d.key, d.response, options=_options(j))["conll"].f1
            assert board.value(i, j) == expected
            cells.append(expected)
        assert board.value(3, j) == pytest.approx(sum(cells) / 3, abs=1e-15)
        # micro: the documents of every dataset in one corpus
        keys = [read(d.key) for d in datasets]
        responses = [read(d.response, key=k) for d, k in zip(datasets, keys, strict=True)]
        one_key, one_response = (
            replace(
                c[0],
                documents=[doc for x in c for doc in x],
                empty_deps={n: z for x in c for n, z in x.empty_deps.items()},
            )
            for c in (keys, responses)
        )
        pooled = corefeval.score(one_key, one_response, options=_options(j))["conll"].f1
        assert board.value(4, j) == pytest.approx(pooled, abs=1e-15)


def test_presets_table() -> None:
    for name in ("crac2023", "crac2024"):
        variants, blanc = PRESETS[name]
        assert blanc == "ua"  # the CorefUD scorer's BLANC
        assert [v.name for v in variants] == ["head", "partial", "exact", "head+singletons"]
        assert variants[0].singletons == "remove" and variants[0].match == "head"
    (only,), blanc = PRESETS["crac2022"]
    assert blanc == "ua" and (only.match, only.singletons, only.zeros) == ("partial", "remove", "include")
    assert {v.zeros for v in PRESETS["crac2024"][0]} == {"dependent"}
    assert {v.zeros for v in PRESETS["crac2023"][0]} == {"include"}
    assert len({(v.match, v.singletons, v.zeros) for v in ALL_MODES}) == 12
    with pytest.raises(UsageError, match="unknown preset 'crac1999'"):
        Options(preset="crac1999")


def test_preset_names_are_those_of_the_presets() -> None:
    """The names the command line lists and every run looks up without building the presets."""
    from corefeval.core.preset_names import CRAC_NAMES, NAMES, UA_NAMES
    from corefeval.scoring.presets_ua import UA_PRESETS

    assert (tuple(PRESETS), tuple(UA_PRESETS), (*PRESETS, *UA_PRESETS)) == (CRAC_NAMES, UA_NAMES, NAMES)


def test_intervals(datasets: list[Dataset]) -> None:
    boot = Bootstrap(200, 0.9, 7)
    board = leaderboard(datasets, preset("crac2024")[0], Options(blanc="paper"), preset="crac2024", bootstrap=boot)
    again = leaderboard(datasets, preset("crac2024")[0], Options(blanc="paper"), preset="crac2024", bootstrap=boot)
    assert board.intervals == again.intervals  # seeded
    assert board.intervals is not None
    for row in board.rows:
        for j, iv in enumerate(board.intervals[row]):
            assert 0 <= iv.low <= iv.high <= 1
            assert iv.estimate == board.value(board.rows.index(row), j)
    # a one-document dataset resamples to itself: its interval is a point
    tiny = board.intervals["tiny"][0]
    assert tiny.low == tiny.high == tiny.estimate
    assert "bootstrap:200|level:0.9|seed:7" in board.signature


def test_macro_interval_averages_each_datasets_resamples(datasets: list[Dataset]) -> None:
    """With two datasets of one document each, every resample is the datasets themselves: the
    macro interval is the macro average, the micro one spreads over the two documents' mixes."""
    two = [datasets[1], datasets[2]]
    board = leaderboard(two, preset("crac2024")[0], Options(blanc="paper"), bootstrap=Bootstrap(100, 0.95, 1))
    assert board.intervals is not None
    macro = board.intervals[MACRO][0]
    assert macro.low == pytest.approx(board.macro(0)) and macro.high == pytest.approx(board.macro(0))
    micro = board.intervals[MICRO][0]
    assert micro.low < micro.high


def test_signature(datasets: list[Dataset]) -> None:
    board = leaderboard(datasets, preset("crac2024")[0], Options(blanc="paper"), preset="crac2024")
    sig = board.signature
    assert sig.startswith(f"corefeval:{corefeval.__version__}|preset:crac2024|variants:head=head/remove/dependent,")
    assert "|metric:conll|blanc:paper|repeats:corefud|heads:first|datasets:3|docs:4|" in sig
    other = leaderboard(datasets[:2], preset("crac2024")[0], Options(blanc="paper"), preset="crac2024")
    assert re.search(r"key:([0-9a-f]{8})", sig).group(1) != re.search(r"key:([0-9a-f]{8})", other.signature).group(1)  # type: ignore[union-attr]
    named = corefeval.score(datasets[0].key, datasets[0].response, options=replace(_options(0), preset="crac2024"))
    assert named.signature.endswith(f"|preset:crac2024|docs:2|key:{named.key_digest}|fmt:corefud")


def test_formats_parse_back(datasets: list[Dataset]) -> None:
    board = leaderboard(
        datasets, preset("crac2024")[0], Options(blanc="paper"), preset="crac2024", bootstrap=Bootstrap(50, 0.95, 3)
    )
    names = ["head", "partial", "exact", "head+singletons"]
    # CSV
    text = render(board, "csv")
    assert text.startswith(f"# signature: {board.signature}\n")
    rows = list(csv.DictReader(io.StringIO(text.split("\n", 1)[1])))
    assert [r["dataset"] for r in rows] == board.rows
    for i, r in enumerate(rows):
        for j, name in enumerate(names):
            assert float(r[name]) == pytest.approx(100 * board.value(i, j))
            assert float(r[f"{name} low"]) <= float(r[name]) + 1e-9 or board.rows[i] == MACRO
    # JSON
    data = json.loads(render(board, "json"))
    assert data["schema"] == "corefeval.leaderboard/1" and data["signature"] == board.signature
    assert [v["name"] for v in data["variants"]] == names
    assert [r["kind"] for r in data["rows"]] == ["dataset"] * 3 + ["macro", "micro"]
    assert data["rows"][3]["scores"]["exact"]["f1"] == board.macro(2)
    assert data["bootstrap"] == {
        "method": "percentile bootstrap over documents",
        "resamples": 50,
        "level": 0.95,
        "seed": 3,
    }
    # Markdown: a header, a rule and five rows of five cells
    md = [line for line in render(board, "markdown").splitlines() if line.startswith("|")]
    assert len(md) == 7 and all(line.count(" | ") == 4 for i, line in enumerate(md) if i != 1)
    assert md[1] == "|:---|---:|---:|---:|---:|"
    assert md[5].startswith("| macro avg | ")
    # LaTeX: a tabular of five columns
    tex = render(board, "latex")
    assert "\\begin{tabular}{lrrrr}" in tex and tex.count(" \\\\") == 6
    assert "head+singletons" in tex and "macro avg" in tex
    # text
    lines = render(board, "text").splitlines()
    assert lines[1].split() == ["dataset", *names]
    assert lines[-1] == f"signature: {board.signature}"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["leaderboard", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_inputs_agree(datasets: list[Dataset], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pairs = [a for d in datasets for a in ("--pair", d.name, d.key, d.response)]
    code, by_pairs, _ = _cli(capsys, *pairs, "--format", "json")
    assert code == 0
    manifest = tmp_path / "datasets.tsv"
    manifest.write_text(
        "dataset\tkey\tresponse\n# a comment\n" + "".join(f"{n}\tgold/{n}.conllu\tsys/{n}.conllu\n" for n in KEY)
    )
    code, by_manifest, _ = _cli(capsys, "--manifest", str(manifest), "--format", "json")
    assert code == 0
    code, by_glob, _ = _cli(
        capsys,
        "--keys",
        str(tmp_path / "gold/*.conllu"),
        "--responses",
        str(tmp_path / "sys/*.conllu"),
        "--format",
        "json",
    )
    assert code == 0
    a, b, c = (json.loads(x) for x in (by_pairs, by_manifest, by_glob))
    assert a == b
    assert a["preset"] == "crac2024" and "preset:crac2024" in a["signature"]
    assert sorted(r["name"] for r in c["rows"]) == sorted(r["name"] for r in a["rows"])  # globs: sorted by name
    direct = leaderboard(datasets, preset("crac2024")[0], Options(blanc="paper"), preset="crac2024")
    assert a["rows"][0]["scores"]["head"]["f1"] == direct.value(0, 0)


def test_cli_modes_and_metric(datasets: list[Dataset], capsys: pytest.CaptureFixture[str]) -> None:
    d = datasets[0]
    code, out, _ = _cli(capsys, "--pair", d.name, d.key, d.response, "--modes", "all", "-m", "muc", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out.split("\n", 1)[1])))
    assert len(rows[0]) == 2 + 12
    muc = corefeval.score(d.key, d.response, ("muc",), match="partial", singletons="remove", zeros="dependent")
    assert float(rows[0]["partial/remove/dependent"]) == pytest.approx(100 * muc["muc"].f1)


def test_score_preset(datasets: list[Dataset], capsys: pytest.CaptureFixture[str]) -> None:
    d = datasets[0]
    assert main(["score", d.key, d.response, "--preset", "crac2024", "--format", "json", "-m", "conll"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = corefeval.score(d.key, d.response, options=_options(0))
    assert data["corpus"]["conll"]["f1"] == expected["conll"].f1
    assert "match:head|singletons:remove|zeros:dependent|blanc:ua|repeats:corefud" in data["signature"]
    assert "preset:crac2024" in data["signature"]
    assert main(["score", d.key, d.response, "--preset", "crac2024", "--match", "partial"]) == 2
    assert "--preset sets --match" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "no dataset to score"),
        (["--pair", "a", "K", "R", "--pair", "a", "K", "R"], "dataset 'a' is named twice"),
        (["--pair", "a", "/dev/zero", "R"], "dataset 'a': not a regular file .*: /dev/zero"),
        (["--keys", "x/*"], "--keys and --responses go together"),
        (["--preset", "crac2024", "--modes", "all", "--pair", "a", "K", "R"], "choose one of --preset and --modes"),
        (["--pair", "a", "K", "R", "-m", "muc,bcub"], "choose one metric"),
        (["--pair", "a", "K", "R", "--seed", "3"], "--seed needs --confidence"),
    ],
)
def test_cli_usage_errors(
    datasets: list[Dataset], capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    d = datasets[0]
    argv = [d.key if a == "K" else d.response if a == "R" else a for a in argv]
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and re.search(message, err), err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--pair", "a", "missing.conllu", "R"], "missing.conllu: error: cannot read the file: .* \\(dataset 'a'\\)"),
        (["--keys", "nothing/*.conllu", "--responses", "x/*"], "nothing/\\*.conllu: error: --keys matches no file"),
    ],
)
def test_cli_missing_inputs_exit_1_as_in_every_command(
    datasets: list[Dataset], capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    argv = [datasets[0].response if a == "R" else a for a in argv]
    code, out, err = _cli(capsys, *argv)
    assert code == 1 and not out
    assert err.count("\n") == 1 and re.search(message, err), err


def test_cli_unpaired_and_manifest_errors(
    datasets: list[Dataset], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sys" / "tiny.conllu").unlink()
    code, _, err = _cli(
        capsys, "--keys", str(tmp_path / "gold/*.conllu"), "--responses", str(tmp_path / "sys/*.conllu")
    )
    assert code == 2 and "key file 'tiny.conllu' has no partner of the same name (1 unpaired)" in err
    bad = tmp_path / "bad.csv"
    bad.write_text("news,gold/news.conllu,sys/news.conllu\nchat,gold/chat.conllu\n")
    code, _, err = _cli(capsys, "--manifest", str(bad))
    assert code == 1 and err == f"{bad}:2: error: expected 3 fields (dataset, key, response), found 2\n"


def test_variants_with_coval_options_score_as_alone(tmp_path: Path) -> None:
    """coval's filters decide by ``--singletons`` what an entity left with one mention becomes (an
    entity of two nested mentions is dropped when singletons are removed): the corpora without
    singletons that the other variants share must not serve them."""
    rows = [("w0", "(0"), ("w1", "(0)"), ("w2", "0)"), ("w3", "(1)"), ("w4", "(1)"), ("w5", "(2)")]
    body = "".join(f"d\t0\t{i}\t{w}\t{c}\n" for i, (w, c) in enumerate(rows))
    key = tmp_path / "key.conll"
    key.write_text(f"#begin document (d); part 000\n{body}#end document\n", encoding="utf-8")
    folder = Path(__file__).resolve().parent.parent / "data" / "coval"
    pairs = [(str(key), str(key)), (str(folder / "key.conll"), str(folder / "response.conll"))]
    variants = [
        Options(singletons=s, np_only=np, remove_nested=nested)
        for s in ("keep", "remove")
        for np in (False, True)
        for nested in (False, True)
    ]
    for k, r in pairs:
        checked = variants if k != str(key) else [v for v in variants if not v.np_only]
        for opts, result in zip(checked, corefeval.score_variants(k, r, checked)):
            alone = corefeval.score(k, r, options=opts)
            assert result.counts.tolist() == alone.counts.tolist(), opts
    kept = Options(metrics=("mentions",), singletons="remove")
    assert corefeval.score(str(key), str(key), options=kept).counts[0, 1] == 4
    removed = replace(kept, remove_nested=True)  # the nested pair's entity goes whole: 2 key mentions left
    assert corefeval.score(str(key), str(key), options=removed).counts[0, 1] == 2


def test_all_modes_and_the_preset_agree_on_a_file_without_head_field(shared: Path, tmp_path: Path) -> None:
    """GUM gives no head field: every door heads its mentions by their first node, as the CorefUD
    scorer does, so the twelve modes' head column is the crac2024 preset's primary one."""
    from corefeval.writers import render as write

    from ..readers.noisy import noisy_corpus

    key = str(shared / "realdata" / "gum-reddit-corefud" / "en_gumreddit-ud-dev.conllu")
    gold = read(key, heads="tree")
    heads_dropped = [replace(d, heads=None) for d in noisy_corpus(gold, gold.sentences).documents]
    response = tmp_path / "response.conllu"
    response.write_text(write(replace(gold, documents=heads_dropped), "corefud")[0], encoding="utf-8")
    pair = [Dataset("gum", key, str(response))]
    modes = leaderboard(pair, ALL_MODES, Options(), "conll")
    crac = leaderboard(pair, preset("crac2024")[0], Options(blanc="ua"), "conll", "crac2024")
    column = [v.name for v in ALL_MODES].index("head/remove/dependent")
    assert modes.value(0, column) == crac.value(0, 0)
    alone = corefeval.score(key, str(response), options=Options(("conll",), match="head", singletons="remove"))
    assert crac.value(0, 0) == alone["conll"].f1
    assert "heads:first" in modes.signature
