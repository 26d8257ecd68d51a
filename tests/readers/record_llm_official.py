"""Record the CRAC LLM pipeline's counts, which ``test_llm_official.py`` checks corefeval's
``--llm-marks official`` against where the pipeline is not installed: ``tests/data/llm_official.json``,
cases (a key, a model's answer made from its official export, text or JSON) with the pipeline's
counts of every metric per document in all 12 modes, or the error it stops with.

    python -m tests.formats.record_llm_official [KEYS]     # keys 0 .. KEYS-1 (default 6)

needs text2text-coref and the CorefUD scorer (``TEXT2TEXT_COREF``, ``COREFUD_PYTHON``,
``COREFUD_SCORER``: see ``llm_pipeline.py``).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from tests.readers.corefud_peer import FIELDS, Peer
from tests.readers.llm_official_check import Case, cases, pipeline_counts
from tests.readers.llm_pipeline import Pipeline, pipeline_paths
from tests.readers.test_llm_official import FIXTURE

#: Per key: the export as it is and one edited answer, from each export.
ANSWERS = (0, 1)
#: Answers of other keys that show the CorefUD scorer's own ways (entities ordered over the whole
#: file: key 101; ties in its one assignment: keys 113, 129), and the export each is made from.
MORE = ((101, 101001, "text -z"), (113, 113001, "json -z"), (129, 129001, "text -z"))


def record(keys: int) -> list[dict[str, object]]:
    paths = pipeline_paths()
    if paths is None:
        raise SystemExit("the pipeline is not installed: set TEXT2TEXT_COREF, COREFUD_PYTHON and COREFUD_SCORER")
    pipeline, peer = Pipeline(paths[0], paths[1]), Peer(paths[0], paths[2])
    out: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        for key_seed in range(keys):
            for case in cases(pipeline, folder, key_seed, [a and key_seed * 1000 + a for a in ANSWERS]):
                out.append(_entry(pipeline, peer, case, folder))
        for key_seed, answer_seed, export in MORE:
            made = cases(pipeline, folder, key_seed, [answer_seed])
            out += [_entry(pipeline, peer, case, folder) for case in made if f", {export}," in case.name]
    pipeline.close()
    peer.close()
    return out


def _entry(pipeline: Pipeline, peer: Peer, case: Case, folder: Path) -> dict[str, object]:
    counts = pipeline_counts(pipeline, peer, case, folder)
    entry: dict[str, object] = {"name": case.name, "json": case.json_variant, "key": case.key, "answer": case.answer}
    if isinstance(counts, str):
        entry["error"] = counts
    else:
        entry["counts"] = {mode: {name: flat(c) for name, c in docs.items()} for mode, docs in counts.items()}
    return entry


def flat(counts: dict[str, list[float]]) -> list[float | int]:
    """A document's counts as one list, metric after metric (``FIELDS``' order), whole numbers as such."""
    return [int(v) if v == int(v) else v for metric in FIELDS for v in counts[metric]]


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    FIXTURE.write_text(json.dumps(record(n), separators=(",", ":")) + "\n", encoding="utf-8")
