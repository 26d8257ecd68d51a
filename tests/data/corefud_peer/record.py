"""The CorefUD scorer's MOR and zero-score counts, per document, in every mode.

Run with the CorefUD scorer's Python (udapi installed)::

    python record.py [--scorer DIR] KEY.conllu RESPONSE.conllu   # counts of two files, as JSON
    python record.py [--scorer DIR] --fixture                    # rewrite this folder's fixture

``DIR`` is the corefud-scorer checkout (default: ``$COREFUD_SCORER``'s folder, else
``/work/scratch/peers/corefud-scorer``). Counts are ``[recall_num, recall_den, precision_num,
precision_den]``; modes are ``MATCH/SINGLETONS/ZEROS`` in corefeval's option names.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MATCHES = {"exact": "exact", "partial": "partial-corefud", "head": "head"}
#: Seeds of the random file pairs kept in this folder (see tests/corefud_random.py).
SEEDS = range(6)


def modes() -> list[tuple[str, str, str]]:
    return [(m, s, z) for m in MATCHES for s in ("keep", "remove") for z in ("include", "dependent")]


def counts(key: str, response: str) -> dict[str, dict[str, dict[str, list[float]]]]:
    from scorer.corefud.reader import CorefUDReader
    from scorer.eval import evaluator

    out: dict[str, dict[str, dict[str, list[float]]]] = {}
    for match, singletons, zeros in modes():
        reader = CorefUDReader(
            match=MATCHES[match],
            keep_singletons=singletons == "keep",
            keep_zeros=True,
            zero_match_method="linear" if zeros == "include" else "dependent",
        )
        reader.get_coref_infos(key, response)
        docs: dict[str, dict[str, list[float]]] = {}
        for name, info in reader.doc_coref_infos.items():
            row = {}
            for metric, function in (("mor", evaluator.mention_overlap), ("zero", evaluator.als_zeros)):
                ev = evaluator.Evaluator(function)
                ev.update(info)
                pn, pd, rn, rd = ev.get_counts()
                row[metric] = [float(rn), float(rd), float(pn), float(pd)]
            docs[str(name)] = row
        out[f"{match}/{singletons}/{zeros}"] = docs
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("COREFUD_SCORER")
    parser.add_argument(
        "--scorer", default=str(Path(default).parent) if default else "/work/scratch/peers/corefud-scorer"
    )
    parser.add_argument("--fixture", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    sys.path.insert(0, args.scorer)
    logging.disable(logging.WARNING)
    if not args.fixture:
        json.dump(counts(*args.files), sys.stdout)
        return
    sys.path.insert(0, str(HERE.parent.parent))
    from corefud_random import pair

    recorded = {}
    for seed in SEEDS:
        key, response = pair(seed)
        (HERE / f"key{seed}.conllu").write_text(key)
        (HERE / f"response{seed}.conllu").write_text(response)
        recorded[str(seed)] = counts(str(HERE / f"key{seed}.conllu"), str(HERE / f"response{seed}.conllu"))
    (HERE / "counts.json").write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
