"""``corefeval bias gap|winobias``: gender-bias benchmarks."""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True)
    gap = sub.add_parser("gap", help="GAP: F1 overall, masculine, feminine and the F/M bias")
    gap.add_argument("key", metavar="GAP.tsv", help="the GAP file (with its header)")
    gap.add_argument("response", metavar="SYSTEM.tsv", help="ID<TAB>A-coref<TAB>B-coref lines")
    wino = sub.add_parser("winobias", help="WinoBias: F1 of type 1 and 2, pro and anti, and the differences")
    wino.add_argument("key", metavar="KEY_DIR", help="folder of the four WinoBias CoNLL keys (type1_pro ...)")
    wino.add_argument("response", metavar="RESPONSE_DIR", help="folder of the four responses, named alike")
    wino.add_argument("-m", "--metric", default="conll", help="the metric whose F1 is compared (default conll)")
    for q in (gap, wino):
        q.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def run(args: argparse.Namespace) -> int:
    from .common import emit_warnings

    if args.benchmark == "gap":
        from ..studies.bias.gap import score_gap

        scores = score_gap(args.key, args.response)
        emit_warnings(scores.warnings)
        out = scores.to_dict() if args.format == "json" else scores.scorecard()
    else:
        from ..studies.bias.winobias import find_files, score_winobias

        wino = score_winobias(find_files(args.key), find_files(args.response), args.metric)
        for r in wino.results.values():
            emit_warnings(r.warnings)
        out = wino.to_dict() if args.format == "json" else wino.table()
    sys.stdout.write(json.dumps(out, indent=1) + "\n" if isinstance(out, dict) else out)
    return 0
