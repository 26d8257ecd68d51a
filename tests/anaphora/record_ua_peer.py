"""Write ``tests/data/ua/ua_peer.json``: the UA scorer's numbers on generated pairs, every mode.

Run from the repository root with the UA scorer checked out (``UA_SCORER``: its ``ua-scorer.py``):
``python -m tests.ua.record_ua_peer``. Pairs where the scorer fails are recorded with its error.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from .generator import pair
from .ua_peer import MODES, Peer, scorer_path

FIXTURE = Path(__file__).parents[1] / "data" / "ua" / "ua_peer.json"
SEEDS = range(40)


def main() -> None:
    script = scorer_path()
    if script is None:
        raise SystemExit("set UA_SCORER to the UA scorer's ua-scorer.py")
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for seed in SEEDS:
            key, response = pair(seed)
            k, r = Path(tmp) / f"{seed}.key", Path(tmp) / f"{seed}.response"
            k.write_text(key, encoding="utf-8")
            r.write_text(response, encoding="utf-8")
            files.append((k, r))
        results = Peer(script).many(files, list(MODES))
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    record = {"scorer": "juntaoy/universal-anaphora-scorer f4adb45", "pairs": dict(zip(map(str, SEEDS), results))}
    FIXTURE.write_text(json.dumps(record, indent=0, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
