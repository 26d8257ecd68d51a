"""CoNLL-2012 as other tools write it: ``#begin document(NAME);`` (coval's reading) and entity numbers
without brackets on the tokens inside a mention (Cattan et al.'s corpus-level files)."""

from __future__ import annotations

from pathlib import Path

from corefeval.readers import read
from corefeval.scoring.pipeline import score


def test_begin_document_without_space(tmp_path: Path) -> None:
    path = tmp_path / "m.conll"
    path.write_text("#begin document(metadoc);\nm_1\t(0)\nm_2\t(0)\nm_3\t(1)\n#end document;\n")
    corpus = read(str(path))
    assert [(d.name, d.n_tokens, d.clusters()) for d in corpus] == [("(metadoc);", 3, [[(0, 0), (1, 1)], [(2, 2)]])]
    assert [(w.line, w.message) for w in corpus.warnings] == [
        (
            1,
            "'#begin document(metadoc);' has no space before the name; read as document '(metadoc);' "
            "(the reference scorer does not recognise it and scores nothing)",
        )
    ]


def test_bare_entity_numbers_inside_a_mention_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "c.conll"
    path.write_text("#begin document test\nt\t(8\nt\t8\nt\t8)\nt\t-\n#end document\n")
    corpus = read(str(path))
    assert corpus.documents[0].clusters() == [[(0, 2)]]
    assert corpus.warnings[0].line == 3
    assert "without brackets" in corpus.warnings[0].message


def test_scoring_warns_once_per_document_about_crossing_mentions(tmp_path: Path) -> None:
    key = tmp_path / "k.conll"
    key.write_text("#begin document d\nt\t(0\nt\t(1\nt\t0)\nt\t1)|(2\nt\t2)\n#end document\n")
    result = score(str(key), str(key))
    crossing = [w for w in result.warnings if "crosses" in w.message]
    assert len(crossing) == 1
    assert crossing[0].line == 5 and "(2 mentions cross another" in crossing[0].message


def test_writer_closes_before_it_opens_on_one_token(tmp_path: Path) -> None:
    """A token that ends one mention of an entity and starts the next must read back as written."""
    from corefeval.core.model import Corpus, make_document
    from corefeval.readers.conll2012 import read_conll2012
    from corefeval.writers.conll2012 import write_conll2012

    doc = make_document("(x); part 000", [[(0, 1), (1, 2)], [(1, 1)]], 4)
    text, _ = write_conll2012(Corpus("mem", [doc]))
    assert "0)|(1)|(0" in text
    assert read_conll2012("rt", text).documents[0].clusters() == [[(0, 1), (1, 2)], [(1, 1)]]


def test_entity_labels_of_digits_int_cannot_read_are_renumbered_when_written() -> None:
    """Labels are written as CoNLL-2012 entity numbers only when they are ASCII digits (a
    superscript digit passes ``str.isdigit`` but no reader takes it as a number)."""
    from corefeval.core.model import make_document
    from corefeval.writers.conll2012 import entity_numbers

    def numbers(labels: list[str]) -> list[str]:
        return entity_numbers(make_document("d", [[(0, 0)], [(1, 1)]], n_tokens=2, labels=labels))

    assert numbers(["e7", "e9"]) == ["7", "9"]
    assert numbers(["e\u00b2", "e9"]) == ["0", "1"]
    assert numbers(["\u0661", "9"]) == ["0", "1"]
