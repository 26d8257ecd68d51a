"""Where the common neural-coref ``metrics.py`` and corefeval differ, measured on real system output.

For every key/response pair of CoNLL-2012 files given (default: the UKP cross-document event
coreference outputs under ``../shared/realdata/ukp-cdcr-cl2021``), both are fed the same clusters,
document by document, and the corpus F1 of MUC, B-cubed, CEAFe and their mean is printed side by side
as a Markdown table, with what the pair holds (singletons, repeated and twinless mentions) that
explains the differences. Nothing is asserted: this is a measurement.

    python benchmarks/diff_common_metrics.py [--metrics-py PATH] [KEY RESPONSE ...]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import common_metrics

from corefeval import Evaluator, read

ROOT = Path(__file__).resolve().parent.parent
UKP = (ROOT / "../shared/realdata/ukp-cdcr-cl2021").resolve()


def ukp_pairs() -> list[tuple[Path, Path]]:
    """Every key/response pair of the UKP outputs, in a stable order."""
    pairs = []
    for gold in sorted(UKP.glob("feature-based/**/gold.conll")):
        pairs.append((gold, gold.parent / "system.conll"))
    for key in sorted(UKP.glob("ba2019/*.key_conll")):
        corpus = key.name.split("_CD_")[0]
        for response in sorted(UKP.glob(f"ba2019/{corpus}_evaluate_*/CD_test_event_mention_based.response_conll")):
            pairs.append((key, response))
    return pairs


def profile(key_docs: list, response_docs: list) -> dict[str, int]:
    """What the pair holds that the two implementations treat differently."""
    out: Counter[str] = Counter()
    for side, docs in (("key", key_docs), ("response", response_docs)):
        for clusters in docs:
            out[f"{side} singletons"] += sum(1 for c in clusters if len(c) == 1)
            spans = Counter(m for c in clusters for m in c)
            out[f"{side} repeats"] += sum(n - 1 for n in spans.values())
    for key, response in zip(key_docs, response_docs):
        gold = {m for c in key for m in c}
        out["twinless"] += sum(1 for c in response for m in c if m not in gold)
    return dict(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--metrics-py", type=Path, default=common_metrics.default_path(ROOT))
    parser.add_argument("files", nargs="*", type=Path, help="KEY RESPONSE pairs (default: the UKP outputs)")
    args = parser.parse_args()
    if args.metrics_py is None:
        parser.error("no metrics.py found; give --metrics-py PATH")
    pairs = list(zip(args.files[::2], args.files[1::2])) if args.files else ukp_pairs()
    peer = common_metrics.load(args.metrics_py)
    print(
        "| pair | docs | key singl. | resp. singl. | twinless | repeats | MUC F1 m.py / cfe | B3 F1 m.py / cfe "
        "| CEAFe F1 m.py / cfe | CoNLL F1 m.py / cfe |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key_path, response_path in pairs:
        key, response = read(str(key_path)), read(str(response_path), role="response")
        responses = response.by_name()
        key_docs, response_docs = [], []
        for kdoc in key:
            rdoc = responses.get(kdoc.name)
            key_docs.append(kdoc.clusters())
            response_docs.append(rdoc.clusters() if rdoc is not None else [])
        ours = Evaluator(["muc", "bcub", "ceafe", "conll"])
        theirs = peer.CorefEvaluator()
        for k, r in zip(key_docs, response_docs):
            ours.update(k, r)
            common_metrics.update(theirs, k, r)
        corpus = ours.result().corpus
        peer_f1 = [e.get_f1() for e in theirs.evaluators]
        cells = [f"{100 * p:.2f} / {100 * corpus[m].f1:.2f}" for p, m in zip(peer_f1, ("muc", "bcub", "ceafe"))]
        cells.append(f"{100 * theirs.get_f1():.2f} / {100 * corpus['conll'].f1:.2f}")
        prof = profile(key_docs, response_docs)
        where = response_path.resolve()
        name = str(where.relative_to(UKP) if UKP in where.parents else response_path)
        print(
            f"| {name} | {len(key_docs)} | {prof['key singletons']} | {prof['response singletons']} | "
            f"{prof['twinless']} | {prof['key repeats'] + prof['response repeats']} | " + " | ".join(cells) + " |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
