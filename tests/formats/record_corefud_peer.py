"""Write ``tests/data/corefud_peer.json``: generated CorefUD pairs (fixed seeds) and the CorefUD
scorer's counts for them in all 12 modes, which ``test_corefud_peer.py`` checks corefeval against
where the CorefUD scorer is not installed.

    python -m tests.formats.record_corefud_peer [N]

needs the CorefUD scorer (``COREFUD_SCORER``, ``COREFUD_PYTHON``: see ``corefud_peer.py``).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from tests.corefud_generator import seeded_pair
from tests.formats.corefud_peer import MODES, Peer, peer_paths
from tests.formats.test_corefud_peer import FIXTURE


def record(n: int) -> list[dict[str, object]]:
    paths = peer_paths()
    if paths is None:
        raise SystemExit("the CorefUD scorer is not installed: set COREFUD_SCORER and COREFUD_PYTHON")
    peer = Peer(*paths)
    cases: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as directory:
        for seed in range(n):
            key, response = seeded_pair(seed, shared=True).texts()
            k, r = Path(directory) / "key.conllu", Path(directory) / "response.conllu"
            k.write_text(key, encoding="utf-8")
            r.write_text(response, encoding="utf-8")
            counts = {" ".join(mode): peer.counts(str(k), str(r), mode) for mode in MODES}
            cases.append({"seed": seed, "key": key, "response": response, "counts": counts})
    peer.close()
    return cases


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(record(int(sys.argv[1]) if len(sys.argv) > 1 else 30)) + "\n", encoding="utf-8")
