"""corefeval's ``--llm-marks official`` side by side with the CRAC LLM pipeline (text2text-coref's
``clean`` + ``text2conllu``, or ``json2conllu``, then the CorefUD scorer): the cases (seeded keys and
answers made from their official export, :mod:`tests.llm_answers`), both sides' counts of every
document, and the CoNLL-U files both make.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from corefeval.core.diagnostics import InputError
from corefeval.core.options import Options
from corefeval.readers import llm_official, read
from corefeval.scoring.pipeline import score
from tests.llm_answers import json_answer, key_text, text_answer

from .corefud_peer import FIELDS, MODES, Counts, Peer, differences
from .llm_pipeline import Pipeline

#: The official exports an answer is made from: (variant, with ``--zero_mentions``).
EXPORTS = (("text", True), ("text", False), ("json", True), ("json", False))


@dataclass(frozen=True)
class Case:
    """A key, a model's answer (text or JSON), and a name saying how it was made."""

    name: str
    key: str
    answer: str
    json_variant: bool

    def write(self, folder: Path) -> tuple[str, str]:
        """The key and answer files, in ``folder``."""
        key, answer = folder / "key.conllu", folder / ("answer.json" if self.json_variant else "answer.txt")
        key.write_text(self.key, encoding="utf-8")
        answer.write_text(self.answer, encoding="utf-8")
        return str(key), str(answer)


def cases(pipeline: Pipeline, folder: Path, key_seed: int, answer_seeds: list[int]) -> list[Case]:
    """The answers ``answer_seeds`` (0: the export as it is) to key ``key_seed``, from each export
    (none from an export that fails: ``conllu2text`` stops on some keys)."""
    key = folder / "key.conllu"
    key.write_text(key_text(key_seed), encoding="utf-8")
    out = []
    for variant, zeros in EXPORTS:
        json_variant = variant == "json"
        export = folder / ("export.json" if json_variant else "export.txt")
        failed = pipeline.run(
            "conllu2json" if json_variant else "conllu2text",
            str(key),
            "-s",
            "-o",
            str(export),
            *(["-z"] if zeros else []),
        )
        if failed is not None:
            continue
        edit = json_answer if json_variant else text_answer
        for seed in answer_seeds:
            name = f"key {key_seed}, {variant}{' -z' if zeros else ''}, answer {seed}"
            out.append(
                Case(
                    name, key.read_text(encoding="utf-8"), edit(export.read_text(encoding="utf-8"), seed), json_variant
                )
            )
    return out


def official_counts(key: str, answer: str, mode: tuple[str, str, str]) -> Counts | str:
    """corefeval's counts per document with ``--llm-marks official`` in ``mode``, or its error. The
    key's heads are read as the CorefUD scorer reads them (the first node where its file has no
    ``head`` field)."""
    match, singletons, zeros = mode
    options = Options(
        ("all", "mor", "zero"),
        match=match,
        singletons=singletons,
        zeros=zeros,
        blanc="paper",
        llm_marks="official",
        heads="first",
    )
    try:
        result = score(key, answer, options=options)
    except InputError as err:
        return str(err)
    columns: dict[tuple[str, str], int] = {}
    for m in result.metric_objects:
        for f in m.fields:
            columns[(m.name, f)] = len(columns)
    return {
        name: {
            peer: [float(result.counts[i][columns[(ours, f)]]) for f in fields]
            for peer, (ours, fields) in FIELDS.items()
        }
        for i, name in enumerate(result.document_names)
    }


def pipeline_counts(pipeline: Pipeline, peer: Peer, case: Case, folder: Path) -> dict[str, Counts] | str:
    """The pipeline's counts of every document per mode (``match/singletons/zeros``), or why it fails."""
    key, answer = case.write(folder)
    response = pipeline.response(key, answer, folder, case.json_variant)
    if response.startswith("error:"):
        return response
    counts: dict[str, Counts] = {}
    for mode in MODES:
        theirs = peer.counts(key, response, mode, every=True)
        if isinstance(theirs, str):
            return theirs
        counts["/".join(mode)] = theirs
    return counts


def compared(case_counts: dict[str, Counts] | str, key: str, answer: str) -> tuple[int, list[str]]:
    """How many counts were compared, and every difference (or disagreement on whether the answer
    can be scored), as readable lines."""
    problems: list[str] = []
    compared_counts = 0
    for mode in MODES:
        label = "/".join(mode)
        ours = official_counts(key, answer, mode)
        if isinstance(case_counts, str) or isinstance(ours, str):
            if isinstance(case_counts, str) != isinstance(ours, str):
                problems.append(f"{label}: corefeval {str(ours)[:300]!r}, pipeline {str(case_counts)[:300]!r}")
            if isinstance(case_counts, str):
                return compared_counts, problems  # the same in every mode
            continue
        theirs = case_counts[label]
        compared_counts += sum(4 * len(c) for c in theirs.values())
        problems += [f"{label}: {line}" for line in differences(ours, theirs)]
    return compared_counts, problems


def written_differences(case: Case, response: str, folder: Path) -> list[str]:
    """Where the CoNLL-U that corefeval makes of the answer differs from the pipeline's file: node
    ids, the DEPS of empty nodes, ``Entity=`` values, sentence by sentence (the rows it does not
    write, words' other columns, are not compared)."""
    key, answer = case.write(folder)
    texts: list[str] = []
    reader = llm_official.read_corefud

    def keep(path: str, text: str, **options: object) -> object:
        texts.append(text)
        return reader(path, text, **options)  # type: ignore[arg-type]

    llm_official.read_corefud = keep  # type: ignore[assignment]
    try:
        read(answer, "text2text-json" if case.json_variant else "text2text", key=read(key), llm_marks="official")
    finally:
        llm_official.read_corefud = reader
    ours, theirs = _rows(texts[0]), _rows(Path(response).read_text(encoding="utf-8"))
    return [f"{case.name}: corefeval {a}, pipeline {b}" for a, b in zip(ours, theirs) if a != b] + (
        [f"{case.name}: {len(ours)} rows against {len(theirs)}"] if len(ours) != len(theirs) else []
    )


def _rows(text: str) -> list[tuple[str, int, str, str, str]]:
    """(document, sentence, id, DEPS of an empty node, Entity value) of every node of a CoNLL-U text."""
    out = []
    name, sentence = "", 0
    for block in text.split("\n\n"):
        for line in block.split("\n"):
            if line.startswith("# newdoc"):
                name, sentence = line.split("=", 1)[1].strip(), 0
            cols = line.split("\t")
            if len(cols) == 10 and "-" not in cols[0]:
                entity = next((m[7:] for m in cols[9].split("|") if m.startswith("Entity=")), "")
                out.append((name, sentence, cols[0], cols[8] if "." in cols[0] else "", entity))
        sentence += 1 if block.strip() else 0
    return out
