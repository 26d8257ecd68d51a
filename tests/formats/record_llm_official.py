"""Record the CRAC LLM pipeline's counts, which ``test_llm_official.py`` checks corefeval's
``--llm-marks official`` against where the pipeline is not installed: ``tests/data/llm_official.json``,
cases (a key, a model's answer made from its official export, text or JSON) with the pipeline's
counts of every metric per document in all 12 modes, or the error it stops with, and the documents
whose difference is the CorefUD scorer's own (see ``llm_official_check.py``).

    python -m tests.formats.record_llm_official [KEYS]     # keys 0 .. KEYS-1 (default 6)

needs text2text-coref and the CorefUD scorer (``TEXT2TEXT_COREF``, ``COREFUD_PYTHON``,
``COREFUD_SCORER``: see ``llm_pipeline.py``).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from tests.formats.corefud_peer import FIELDS, Peer
from tests.formats.llm_official_check import Case, cases, pipeline_counts
from tests.formats.llm_pipeline import Pipeline, pipeline_paths
from tests.formats.test_llm_official import FIXTURE

#: Per key: the export as it is and one edited answer, from each export.
ANSWERS = (0, 1)
#: Edited answers of other keys, kept when the CorefUD scorer's own differences show in them.
MORE_KEYS = range(100, 140)
MORE_EXPLAINED = 3


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
        explained = 0
        for key_seed in MORE_KEYS:
            for case in cases(pipeline, folder, key_seed, [key_seed * 1000 + 1]):
                entry = _entry(pipeline, peer, case, folder)
                if entry.get("explained") and explained < MORE_EXPLAINED:
                    out.append(entry)
                    explained += 1
    pipeline.close()
    peer.close()
    return out


def _entry(pipeline: Pipeline, peer: Peer, case: Case, folder: Path) -> dict[str, object]:
    counts, explained = pipeline_counts(pipeline, peer, case, folder)
    entry: dict[str, object] = {"name": case.name, "json": case.json_variant, "key": case.key, "answer": case.answer}
    if isinstance(counts, str):
        entry["error"] = counts
        return entry
    entry["counts"] = {mode: {name: flat(c) for name, c in docs.items()} for mode, docs in counts.items()}
    entry["explained"] = explained
    return entry


def flat(counts: dict[str, list[float]]) -> list[float | int]:
    """A document's counts as one list, metric after metric (``FIELDS``' order), whole numbers as such."""
    return [int(v) if v == int(v) else v for metric in FIELDS for v in counts[metric]]


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    FIXTURE.write_text(json.dumps(record(n), separators=(",", ":")) + "\n", encoding="utf-8")
