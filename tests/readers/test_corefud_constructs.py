"""Every construct of the CorefUD 1.x format, each from a small file written here."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from corefeval.core.diagnostics import InputError
from corefeval.core.model import Document
from corefeval.readers import detect_format, read
from corefeval.readers.corefud import empty_position, is_empty
from corefeval.scoring.pipeline import score
from corefeval.writers import render

HEADER = "# global.Entity = eid-etype-head-other\n"


def conllu(rows: list[tuple[str, str, str]], newdoc: str | None = "d1", header: str = HEADER) -> str:
    """Lines from ``(id, head, misc)``; words are w1, w2, ...; an empty ``misc`` is ``_``."""
    out = [f"# newdoc id = {newdoc}\n"] if newdoc is not None else []
    out.append(header)
    out.append("# sent_id = 1\n")
    for ident, head, misc in rows:
        out.append("\t".join([ident, f"w{ident}", "_", "_", "_", "_", head, "dep", "_", misc or "_"]) + "\n")
    return "".join(out) + "\n"


def write(tmp_path: Path, text: str, name: str = "f.conllu") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def clusters(path: str, **kw: object) -> list[list[object]]:
    doc = read(path, **kw).documents[0]  # type: ignore[arg-type]
    keys = doc.mention_keys()
    out: list[list[object]] = [[] for _ in range(doc.n_entities)]
    for row, k in enumerate(doc.entities.tolist()):
        out[k].append(keys[row])
    return out


def partition(doc: Document) -> set[frozenset[object]]:
    keys = doc.mention_keys()
    groups: dict[int, set[object]] = {}
    for row, k in enumerate(doc.entities.tolist()):
        groups.setdefault(k, set()).add(keys[row])
    return {frozenset(g) for g in groups.values()}


def roundtrip(tmp_path: Path, path: str) -> None:
    """Writing the file back and reading it again gives the same documents (spans, entities, heads)."""
    first = read(path)
    again = read(write(tmp_path, render(first, "corefud")[0], "again.conllu"))
    assert [d.name for d in again] == [d.name for d in first]
    for a, b in zip(first.documents, again.documents, strict=True):
        assert Counter(zip(a.mention_keys(), a.heads.tolist(), strict=False)) == Counter(
            zip(b.mention_keys(), b.heads.tolist(), strict=False)
        )
        assert partition(a) == partition(b)
        assert a.n_tokens == b.n_tokens


def test_detected_as_corefud(tmp_path: Path) -> None:
    path = write(tmp_path, conllu([("1", "0", "Entity=(e1-person-1)")]))
    assert detect_format(path, Path(path).read_text()) == "corefud"
    assert read(path).format == "corefud"


def test_single_word_and_multiword_mentions(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        conllu([("1", "0", "Entity=(e1-person-1)"), ("2", "1", "Entity=(e1-person-2"), ("3", "2", "Entity=e1)")]),
    )
    assert clusters(path) == [[(0, 0), (1, 2)]]
    doc = read(path).documents[0]
    assert doc.heads.tolist() == [0, 2]  # head field: 1st word of (0,0), 2nd word of (1,2)
    roundtrip(tmp_path, path)


def test_nested_and_several_brackets_on_one_word(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        conllu(
            [
                ("1", "0", "Entity=(e1-person-2(e2-person-1)"),
                ("2", "1", "Entity=e1)"),
                ("3", "0", "Entity=(e3-thing-1)(e4-thing-1)"),
            ]
        ),
    )
    assert clusters(path) == [[(0, 1)], [(0, 0)], [(2, 2)], [(2, 2)]]
    roundtrip(tmp_path, path)


def test_same_entity_nested_closes_innermost_first(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        conllu(
            [
                ("1", "0", "Entity=(e1-x-1"),
                ("2", "1", "Entity=(e1-x-1"),
                ("3", "2", "Entity=e1)"),
                ("4", "2", "Entity=e1)"),
            ]
        ),
    )
    # the inner brackets pair (1-2), the outer ones (0-3); mentions are listed in udapi's order
    assert clusters(path) == [[(0, 3), (1, 2)]]
    roundtrip(tmp_path, path)


def test_discontinuous_mention_is_one_mention_of_its_words(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        conllu(
            [
                ("1", "0", "Entity=(e1[1/2]-person-1"),
                ("2", "1", "Entity=e1[1/2])"),
                ("3", "1", ""),
                ("4", "1", "Entity=(e1[2/2]-person-1)"),
                ("5", "1", "Entity=(e1-person-1)"),
            ]
        ),
    )
    doc = read(path).documents[0]
    assert doc.n_mentions == 2
    assert doc.parts == {0: (0, 1, 3)}
    assert (doc.starts[0], doc.ends[0]) == (0, 3)
    roundtrip(tmp_path, path)
    # the covering span (0..3) is a different mention: exact matching tells them apart
    other = write(
        tmp_path,
        conllu(
            [
                ("1", "0", "Entity=(e1-person-1"),
                ("2", "1", ""),
                ("3", "1", ""),
                ("4", "1", "Entity=e1)"),
                ("5", "1", "Entity=(e1-person-1)"),
            ]
        ),
        "o.conllu",
    )
    assert score(path, other, ("mentions",))["mentions"].recall == 0.5


def test_discontinuous_part_without_first_part_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, conllu([("1", "0", "Entity=(e1[2/2]-person-1)")]))
    with pytest.raises(InputError, match="part 1"):
        read(path)


def test_empty_nodes_are_zero_mentions(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        conllu(
            [
                ("1", "0", "Entity=(e1-person-1)"),
                ("1.1", "_", "Entity=(e1-person-1)"),
                ("2", "0", "Entity=(e2-thing-1"),
                ("2.1", "_", ""),
                ("3", "2", "Entity=e2)"),
            ]
        ),
    )
    doc = read(path).documents[0]
    zero = empty_position(0, 1, 1)
    assert is_empty(zero)
    assert doc.n_tokens == 3  # empty nodes are not tokens
    assert doc.parts == {1: (zero,), 2: (1, empty_position(0, 2, 1), 2)}
    assert doc.heads.tolist()[1] == zero
    roundtrip(tmp_path, path)


def test_zeros_option(tmp_path: Path) -> None:
    key = write(
        tmp_path,
        conllu(
            [
                ("1", "0", "Entity=(e1-person-1)"),
                ("1.1", "_", "Entity=(e1-person-1)"),
                ("2", "0", "Entity=(e2-thing-1)"),
            ]
        ),
        "k.conllu",
    )
    response = write(
        tmp_path, conllu([("1", "0", "Entity=(e1-person-1)"), ("2", "0", "Entity=(e2-thing-1)")]), "r.conllu"
    )
    included = score(key, response, ("mentions",))
    assert (included["mentions"].recall_num, included["mentions"].recall_den) == (2, 3)
    excluded = score(key, response, ("mentions",), zeros="exclude")
    assert (excluded["mentions"].recall_num, excluded["mentions"].recall_den) == (2, 2)
    assert "zeros:exclude" in excluded.signature


def test_zero_matched_by_its_position_even_when_words_differ_elsewhere(tmp_path: Path) -> None:
    key = write(
        tmp_path,
        conllu([("1", "0", ""), ("1.1", "_", "Entity=(e1-person-1)"), ("2", "0", "Entity=(e1-person-1)")]),
        "k.conllu",
    )
    response = write(
        tmp_path,
        conllu(
            [
                ("1", "0", ""),
                ("1.1", "_", "Entity=(e7-person-1)"),
                ("1.2", "_", ""),
                ("2", "0", "Entity=(e7-person-1)"),
            ]
        ),
        "r.conllu",
    )
    assert score(key, response, ("muc",))["muc"].f1 == 1.0


def test_split_antecedents_are_kept_not_scored(tmp_path: Path) -> None:
    rows = [
        ("1", "0", "Entity=(e1-person-1)"),
        ("2", "0", "Entity=(e2-person-1)"),
        ("3", "0", "Entity=(e3-person-1)|SplitAnte=e1<e3,e2<e3"),
    ]
    path = write(tmp_path, conllu(rows))
    corpus = read(path)
    assert corpus.split_antecedents == {"d1": [("e3", ("e1", "e2"))]}
    assert clusters(path) == [[(0, 0)], [(1, 1)], [(2, 2)]]
    again = read(write(tmp_path, render(corpus, "corefud")[0], "again.conllu"))
    assert again.split_antecedents == corpus.split_antecedents


def test_global_entity_field_order_and_gum_grp(tmp_path: Path) -> None:
    header = "# global.Entity = GRP-etype-infstat-minspan\n"
    path = write(
        tmp_path,
        conllu(
            [
                ("1", "2", "Entity=(12-person-new-1,2"),
                ("2", "0", "Entity=12)"),
                ("3", "2", "Entity=(12-person-giv-1)"),
            ],
            header=header,
        ),
    )
    corpus = read(path)
    assert corpus.documents[0].labels == ("12",)
    assert corpus.entity_types == {"d1": {"12": "person"}}
    assert clusters(path) == [[(0, 1), (2, 2)]]


def test_head_from_syntax_when_no_head_field(tmp_path: Path) -> None:
    header = "# global.Entity = eid-etype\n"
    # w1 <- w2 (root); mention w1..w2: w2's parent (0) is outside, w1's parent (w2) is inside
    path = write(tmp_path, conllu([("1", "2", "Entity=(e1-person"), ("2", "0", "Entity=e1)")], header=header))
    assert read(path, heads="tree").documents[0].heads.tolist() == [1]
    assert read(path).documents[0].heads.tolist() == [0]  # the first node, as the CorefUD scorer takes it


def test_multiword_token_lines_are_skipped(tmp_path: Path) -> None:
    text = conllu([("1", "0", "Entity=(e1-x-1)"), ("2", "0", ""), ("3", "0", "Entity=(e1-x-1)")])
    text = text.replace("2\tw2", "2-3\tw23\t_\t_\t_\t_\t_\t_\t_\t_\n2\tw2")
    path = write(tmp_path, text)
    assert clusters(path) == [[(0, 0), (2, 2)]]


def test_documents_do_not_share_entities(tmp_path: Path) -> None:
    text = conllu([("1", "0", "Entity=(e1-x-1)"), ("2", "0", "Entity=(e1-x-1)")], "a")
    text += conllu([("1", "0", "Entity=(e1-x-1)")], "b", header="")
    path = write(tmp_path, text)
    corpus = read(path)
    assert [(d.name, d.n_mentions, d.n_tokens) for d in corpus] == [("a", 2, 2), ("b", 1, 1)]
    assert score(path, path, ("muc",), doc="b")["muc"].recall_den == 0


def test_no_newdoc_is_one_unnamed_document(tmp_path: Path) -> None:
    path = write(tmp_path, conllu([("1", "0", "Entity=(e1-x-1)")], newdoc=None))
    assert [d.name for d in read(path)] == [""]


@pytest.mark.parametrize(
    "rows,message",
    [
        ([("1", "0", "Entity=e1)")], "not open"),
        ([("1", "0", "Entity=(e1-x-3)")], "head 3"),
        ([("1", "0", "Entity=(e1-x-a)")], "not a number"),
        ([("1", "0", "Entity=(e1-x-1)junk")], "cannot read"),
        ([("1", "0", "SplitAnte=e1")], "SplitAnte"),
        ([("2", "0", "")], "word id '2'"),
    ],
)
def test_errors_are_located(tmp_path: Path, rows: list[tuple[str, str, str]], message: str) -> None:
    path = write(tmp_path, conllu(rows))
    with pytest.raises(InputError, match=message) as err:
        read(path)
    assert err.value.diagnostic.line >= 3


def test_brackets_left_open_are_what_udapi_makes_of_them_with_a_warning(tmp_path: Path) -> None:
    # w1 opens e1 and never closes it (left out); e2's discontinuous mention has its part 1 only
    # (scored as that part, headed by its first node), as udapi reads them for the CorefUD scorer
    rows = [("1", "0", "Entity=(e1-x-1"), ("2", "0", "Entity=(e2[1/2]-x-2"), ("3", "0", "Entity=e2[1/2])(e3-x-1)")]
    corpus = read(write(tmp_path, conllu(rows)))
    doc = corpus.documents[0]
    assert [(int(s), int(e)) for s, e in zip(doc.starts, doc.ends)] == [(1, 2), (2, 2)]
    assert doc.heads.tolist() == [1, 2]
    messages = [f"{w.line}: {w.message}" for w in corpus.warnings]
    assert any(m.startswith("4: a mention of entity e1 opened here is not closed") for m in messages)
    assert any(m.startswith("5: discontinuous mention of entity e2 has only 1 of its 2 parts") for m in messages)


def test_wrong_column_count(tmp_path: Path) -> None:
    path = write(tmp_path, "# newdoc id = d\n1\tw\t_\n")
    with pytest.raises(InputError, match="10 TAB-separated columns") as err:
        read(path, "corefud")
    assert err.value.diagnostic.line == 2


def _zeros_file(tmp_path: Path, name: str, subject: str, object_: str) -> str:
    """'w1 w2' with a dropped subject and object (empty nodes after w2) coreferring with w1 and w3."""
    rows = "\n".join(
        [
            "1\tw1\t_\t_\t_\t_\t2\tdep\t2:dep\tEntity=(e1-person-1)",
            "2\tw2\t_\t_\t_\t_\t0\troot\t0:root\t_",
            f"2.1\t_\t_\t_\t_\t_\t_\t_\t{subject}",
            f"2.2\t_\t_\t_\t_\t_\t_\t_\t{object_}",
            "3\tw3\t_\t_\t_\t_\t2\tdep\t2:dep\tEntity=(e2-thing-1)",
        ]
    )
    return write(tmp_path, "# newdoc id = d\n" + HEADER + rows + "\n\n", name)


def test_zeros_aligned_by_dependencies(tmp_path: Path) -> None:
    key = _zeros_file(tmp_path, "k.conllu", "2:nsubj\tEntity=(e1-person-1)", "2:obj\tEntity=(e2-thing-1)")
    # the response reconstructs the same zeros in the other order
    response = _zeros_file(tmp_path, "r.conllu", "2:obj\tEntity=(e2-thing-1)", "2:nsubj\tEntity=(e1-person-1)")
    by_position = score(key, response, ("muc",))
    by_dependency = score(key, response, ("muc",), zeros="dependent")
    assert by_position["muc"].f1 == 0.0
    assert by_dependency["muc"].f1 == 1.0
    assert "zeros:dependent" in by_dependency.signature
    assert read(key).empty_deps["d"] == {
        empty_position(0, 2, 1): frozenset({(1, "nsubj")}),
        empty_position(0, 2, 2): frozenset({(1, "obj")}),
    }


def test_key_hash_sees_discontinuous_words(tmp_path: Path) -> None:
    gappy = write(
        tmp_path,
        conllu([("1", "0", "Entity=(e1[1/2]-x-1)"), ("2", "0", ""), ("3", "0", "Entity=(e1[2/2]-x-1)")]),
        "g.conllu",
    )
    whole = write(
        tmp_path, conllu([("1", "0", "Entity=(e1-x-1"), ("2", "0", ""), ("3", "0", "Entity=e1)")]), "w.conllu"
    )
    assert score(gappy, gappy).key_digest != score(whole, whole).key_digest


def test_zeros_dependent_with_a_key_document_missing_from_the_response(tmp_path: Path) -> None:
    zeros = _zeros_file(tmp_path, "k.conllu", "2:nsubj\tEntity=(e1-person-1)", "2:obj\tEntity=(e2-thing-1)")
    other = "# newdoc id = other\n" + HEADER + "1\tw1\t_\t_\t_\t_\t0\troot\t0:root\t_\n\n"
    key = write(tmp_path, Path(zeros).read_text() + other, "k.conllu")  # 'other' shared, 'd' missing
    response = write(tmp_path, other, "r.conllu")
    result = score(key, response, ("muc", "mentions"), zeros="dependent")
    assert result["muc"].recall == 0.0
    assert result.counts[0, result.columns["mentions"]].tolist() == [0.0, 4.0, 0.0, 0.0]
