"""Record coval's scores on the files of this folder in every combination of its mention options.

Usage: ``python tests/data/coval/record_coval.py [COVAL_DIR]`` (default: ``$COVAL_DIR``, else
``/work/scratch/coval/coval``), a checkout of https://github.com/ns-moosavi/coval with numpy and
scipy installed. It writes ``coval_numbers.json`` next to itself; the tests compare corefeval's
numbers with it, and with coval itself when it is present.

``key.conll``/``response.conll`` are scored with exact spans only: their ``(nested)`` document
has mentions with the same minimum span on one side, which coval and corefeval count differently
(see docs/formats.md); ``minspan.*.conll`` (the other documents) are scored with minimum spans too.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT = "/work/scratch/coval/coval"
METRICS = ("mentions", "muc", "bcub", "ceafe", "lea")
#: (key, response, whether minimum spans are scored too)
PAIRS = (("key.conll", "response.conll", False), ("minspan.key.conll", "minspan.response.conll", True))


def cases() -> list[dict[str, Any]]:
    """Every file pair and option combination, without scores."""
    out = []
    for key, response, with_min in PAIRS:
        mins = (False, True) if with_min else (False,)
        for min_span, np_only, nested, singletons in itertools.product(
            mins, (False, True), (False, True), ("keep", "remove")
        ):
            out.append(
                {
                    "key": key,
                    "response": response,
                    "min_span": min_span,
                    "np_only": np_only,
                    "remove_nested": nested,
                    "singletons": singletons,
                }
            )
    return out


def coval_scores(coval_dir: str, case: dict[str, Any], folder: Path = HERE) -> dict[str, list[float]]:
    """coval's (recall, precision, F1) per metric for one case, computed by coval itself."""
    if coval_dir not in sys.path:
        sys.path.insert(0, coval_dir)
    from coval.conll import reader  # type: ignore[import-not-found]
    from coval.eval import evaluator  # type: ignore[import-not-found]

    with contextlib.redirect_stdout(io.StringIO()):  # coval prints what remove_nested removed
        infos = reader.get_coref_infos(
            str(folder / case["key"]),
            str(folder / case["response"]),
            case["np_only"],
            case["remove_nested"],
            case["singletons"] == "keep",
            case["min_span"],
        )
    functions = {"mentions": evaluator.mentions, "muc": evaluator.muc, "bcub": evaluator.b_cubed}
    functions |= {"ceafe": evaluator.ceafe, "lea": evaluator.lea}
    return {m: list(evaluator.evaluate_documents(infos, functions[m], beta=1)) for m in METRICS}


def main() -> None:
    coval_dir = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("COVAL_DIR", DEFAULT)
    recorded = [{**case, "coval": coval_scores(coval_dir, case)} for case in cases()]
    (HERE / "coval_numbers.json").write_text(json.dumps(recorded, indent=1) + "\n")
    print(f"{len(recorded)} cases written to {HERE / 'coval_numbers.json'}")


if __name__ == "__main__":
    main()
