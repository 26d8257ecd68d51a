"""The Universal Anaphora scorer (juntaoy/universal-anaphora-scorer) run in a subprocess.

Its command line prints two decimals, so the subprocess imports the scorer's own modules (from its
checkout, given by ``UA_SCORER``: the path of its ``ua-scorer.py``) and prints every measure at
full precision as JSON. ``UA_PYTHON`` is a Python with numpy and scipy (default: this one).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: The modes compared: the UA scorer's switches, by a short name.
MODES: dict[str, tuple[str, ...]] = {
    "default": (),
    "no-split": ("remove_split_antecedent",),
    "coref-only": ("remove_singletons", "remove_split_antecedent"),
    "min": ("min",),
    "all-layers": ("keep_non_referring", "keep_bridging"),
    "min-all-layers": ("min", "keep_non_referring", "keep_bridging"),
    "deixis": ("evaluate_discourse_deixis",),
    "only-split": ("only_split_antecedent",),
}

_DRIVER = r"""
import contextlib, io, json, sys
sys.path.insert(0, sys.argv[1])
from coval.ua import reader
from coval.eval import evaluator as ev

def scores(key, response, args):
    only_split = 'only_split_antecedent' in args
    deixis = 'evaluate_discourse_deixis' in args
    singletons = 'remove_singletons' not in args or only_split or deixis
    split = 'remove_split_antecedent' not in args or only_split or deixis
    non_ref = 'keep_non_referring' in args and not (only_split or deixis)
    bridging = 'keep_bridging' in args and not (only_split or deixis)
    out = {}
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            coref, nonref, bridges = reader.get_coref_infos(
                key, response, singletons, split, bridging, non_ref, deixis, 'min' in args)
            metrics = {'lea': ev.lea, 'muc': ev.muc, 'bcub': ev.b_cubed, 'ceafe': ev.ceafe, 'ceafm': ev.ceafm,
                       'blanc': [ev.blancc, ev.blancn]}
            for name, metric in metrics.items():
                out[name] = list(ev.evaluate_documents(coref, metric, beta=1, only_split_antecedent=only_split))
            if non_ref:
                out['non-referring'] = list(ev.evaluate_non_referrings(nonref))
            if bridging:
                for name, score in zip(('bridging-ar', 'bridging-fbm', 'bridging-fbe'), ev.evaluate_bridgings(bridges)):
                    out[name] = list(score)
            out['documents'] = len(coref)
    except Exception as e:
        out = {'error': type(e).__name__ + ': ' + str(e)}
    return out

jobs = json.loads(sys.stdin.read())
print(json.dumps([{m: scores(key, response, args) for m, args in modes.items()} for key, response, modes in jobs]))
"""


def scorer_path() -> Path | None:
    """The UA scorer's ``ua-scorer.py``, when ``UA_SCORER`` names one or the usual checkout has it."""
    given = os.environ.get("UA_SCORER", "/work/scratch/ua/uas/ua-scorer.py")
    path = Path(given)
    return path if path.is_file() and (path.parent / "coval" / "ua" / "reader.py").is_file() else None


@dataclass(frozen=True)
class Peer:
    """The UA scorer at ``script``, run with ``python``."""

    script: Path
    python: str = os.environ.get("UA_PYTHON", sys.executable)

    def scores(self, key: str | Path, response: str | Path, mode: str) -> dict[str, object]:
        """Recall, precision, F1 per measure (its order: recall first), or ``{"error": ...}``."""
        return self.many([(key, response)], [mode])[0][mode]

    def many(self, files: list[tuple[str | Path, str | Path]], modes: list[str]) -> list[dict[str, dict[str, object]]]:
        """:meth:`scores` of every (key, response) pair in every mode, in one subprocess."""
        jobs = [(str(k), str(r), {m: MODES[m] for m in modes}) for k, r in files]
        done = subprocess.run(
            [self.python, "-c", _DRIVER, str(self.script.parent)],
            input=json.dumps(jobs),
            capture_output=True,
            text=True,
            check=True,
            timeout=1800,
        )
        result: list[dict[str, dict[str, object]]] = json.loads(done.stdout.strip().splitlines()[-1])
        return result

    def command_line(self, key: str | Path, response: str | Path, *args: str) -> str:
        """What ``ua-scorer.py KEY RESPONSE ARGS`` prints."""
        done = subprocess.run(
            [self.python, str(self.script), str(key), str(response), *args],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        return done.stdout


def our_scores(key: str | Path, response: str | Path, mode: str) -> dict[str, object]:
    """corefeval's numbers for what :meth:`Peer.scores` returns, in the same shape."""
    from corefeval.anaphora.ua_sides import UASettings, pairs
    from corefeval.metrics.ua.scores import BRIDGING_FORMS
    from corefeval.readers.ua import read_ua
    from corefeval.scoring.ua_corpus import corpus_scores_of

    args = MODES[mode]
    only_split, deixis = "only_split_antecedent" in args, "evaluate_discourse_deixis" in args
    forced = only_split or deixis
    options = UASettings(
        keep_singletons="remove_singletons" not in args or forced,
        keep_split_antecedents="remove_split_antecedent" not in args or forced,
        keep_non_referring="keep_non_referring" in args and not forced,
        min_spans="min" in args,
        layer="deixis" if deixis else "identity",
    )
    keys = read_ua(str(key), Path(key).read_text(encoding="utf-8")).anaphora
    responses = read_ua(str(response), Path(response).read_text(encoding="utf-8")).anaphora
    result = corpus_scores_of(keys, responses, options, only_split_antecedents=only_split)
    out: dict[str, object] = {n: list(result.scores[n]) for n in ("lea", "muc", "bcub", "ceafe", "ceafm", "blanc")}
    if options.keep_non_referring:
        out["non-referring"] = list(result.scores["non-referring"])
    if "keep_bridging" in args and not forced:
        out.update((n, list(result.scores[n])) for n in BRIDGING_FORMS)
    out["documents"] = len(pairs(keys, responses, options))
    return out


def ua_test_pairs(roots: list[Path]) -> list[tuple[Path, Path]]:
    """Every (key, response) pair of UA-format test files under ``roots``: ``X.key`` with each
    ``X-N.response`` or ``X-N.sys`` beside it."""
    out = []
    for root in roots:
        for key in sorted(root.rglob("*.key")):
            if not key.read_text(encoding="utf-8", errors="replace").startswith("# global.columns"):
                continue
            for response in sorted(key.parent.glob(key.stem + "-*")):
                if response.suffix in (".response", ".sys"):
                    out.append((key, response))
    return out
