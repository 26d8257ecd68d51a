"""Record the CorefUD scorer's counts, which ``test_corefud_peer.py`` checks corefeval against where
the CorefUD scorer is not installed:

* ``tests/data/corefud_peer.json``: generated CorefUD pairs (fixed seeds) with its counts of every
  metric in all 12 modes;
* ``tests/data/corefud_peer/counts.json``: its MOR and zero-score counts of the pairs of files kept
  in that folder (``keyN.conllu``, ``responseN.conllu``), in every mode.

    python -m tests.formats.record_corefud_peer [N]      # N generated pairs (default 60)
    python -m tests.formats.record_corefud_peer --folder

needs the CorefUD scorer (``COREFUD_SCORER``, ``COREFUD_PYTHON``: see ``corefud_peer.py``).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from tests.corefud_generator import seeded_pair
from tests.readers.corefud_peer import MODES, Peer, peer_paths
from tests.readers.test_corefud_peer import FIXTURE, FOLDER


def _peer() -> Peer:
    paths = peer_paths()
    if paths is None:
        raise SystemExit("the CorefUD scorer is not installed: set COREFUD_SCORER and COREFUD_PYTHON")
    return Peer(*paths)


def record(n: int) -> list[dict[str, object]]:
    peer = _peer()
    cases: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as directory:
        for seed in range(n):
            key, response = seeded_pair(seed, shared=True).texts()
            k, r = Path(directory) / "key.conllu", Path(directory) / "response.conllu"
            k.write_text(key, encoding="utf-8")
            r.write_text(response, encoding="utf-8")
            counts = {" ".join(mode): peer.counts(str(k), str(r), mode, every=True) for mode in MODES}
            cases.append({"seed": seed, "key": key, "response": response, "counts": counts})
    peer.close()
    return cases


def record_folder() -> dict[str, dict[str, dict[str, dict[str, list[float]]]]]:
    """``{N: {"match/singletons/zeros": {document: {"mor": counts, "zero": counts}}}}`` of every
    document of the folder's pairs."""
    peer = _peer()
    out: dict[str, dict[str, dict[str, dict[str, list[float]]]]] = {}
    for key in sorted(FOLDER.glob("key*.conllu")):
        n = key.stem[3:]
        out[n] = {}
        for mode in MODES:
            docs = peer.counts(str(key), str(FOLDER / f"response{n}.conllu"), mode, every=True)
            assert not isinstance(docs, str), docs
            out[n]["/".join(mode)] = {d: {m: c[m] for m in ("mor", "zero")} for d, c in docs.items()}
    peer.close()
    return out


if __name__ == "__main__":
    if sys.argv[1:] == ["--folder"]:
        (FOLDER / "counts.json").write_text(json.dumps(record_folder(), indent=1, sort_keys=True) + "\n")
    else:
        n = int(sys.argv[1]) if len(sys.argv) > 1 else 60
        FIXTURE.write_text(json.dumps(record(n)) + "\n", encoding="utf-8")
