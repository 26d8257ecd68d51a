"""``convert`` to and from Universal Anaphora: every layer kept UA to UA, identity and split
antecedents kept through CorefUD, and what CorefUD cannot hold named."""

from __future__ import annotations

from pathlib import Path

import pytest

from corefeval.anaphora.model import UADocument
from corefeval.cli import main
from corefeval.readers import read
from corefeval.readers.ua import UACorpus, read_ua
from corefeval.writers import render

from .generator import pair


def _content(doc: UADocument) -> tuple[object, ...]:
    """A document's layers, whatever their order and lines in the file."""

    def markables(layer: tuple) -> frozenset:  # type: ignore[type-arg]
        return frozenset((m.markable_id, m.entity, m.start, m.end, m.min_span, m.sem_type, m.element_of) for m in layer)

    bridges = frozenset((b.anaphor, b.mention_anchor, b.entity_anchor, b.relation) for b in doc.bridging)
    return doc.name, doc.n_tokens, markables(doc.identity), markables(doc.deixis), bridges


@pytest.mark.parametrize("seed", range(25))
def test_ua_to_ua_keeps_every_layer(seed: int) -> None:
    key, _ = pair(seed)
    before = read_ua("k", key)
    text, notes = render(before, "ua")
    after = read_ua("again", text)
    assert notes == []
    assert [_content(d) for d in after.anaphora] == [_content(d) for d in before.anaphora]


@pytest.mark.parametrize("seed", range(10))
def test_ua_to_corefud_and_back_keeps_identity_and_split_antecedents(seed: int, tmp_path: Path) -> None:
    key, _ = pair(seed)
    source = tmp_path / "k.conllu"
    source.write_text(key, encoding="utf-8")
    before = read(str(source))
    assert isinstance(before, UACorpus)
    corefud = tmp_path / "k.corefud.conllu"
    back = tmp_path / "k.back.conllu"
    assert main(["convert", str(source), str(corefud), "--to", "corefud"]) == 0
    assert main(["convert", str(corefud), str(back), "--to", "ua"]) == 0
    after = read(str(back))
    assert isinstance(after, UACorpus)
    for b, a in zip(before.anaphora, after.anaphora):
        spans = {(m.entity, m.start, m.end) for m in b.identity if m.referring}
        assert {(m.entity, m.start, m.end) for m in a.identity} == spans
        assert {p: set(e) for p, e in a.split_antecedents().items()} == {
            p: set(e) for p, e in b.split_antecedents().items() if p in {m.entity for m in b.identity if m.referring}
        }


def test_lost_layers_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key, _ = pair(3)
    source = tmp_path / "k.conllu"
    source.write_text(key, encoding="utf-8")
    assert main(["convert", str(source), str(tmp_path / "k.jsonlines"), "--to", "jsonlines"]) == 0
    err = capsys.readouterr().err
    for kind in ("non-referring markables", "bridging links", "discourse-deixis markables", "split antecedents"):
        assert f"{kind} are not written: jsonlines has no place for them" in err
