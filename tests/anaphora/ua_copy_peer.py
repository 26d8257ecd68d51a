"""ufal/corefud-scorer's copy of the Universal Anaphora scorer (``ua-scorer.py``), run side by side.

Its ``main()`` parses and checks the options but never calls ``evaluate`` (commented out), and its
``evaluate`` prints two decimals; so a small driver, run by the CorefUD scorer's Python (it needs
numpy and scipy), calls its own ``parse_arguments`` and ``process_arguments``, then its reader and
``evaluate_documents`` as ``evaluate`` does, and prints every identity measure at full precision as
JSON. The copy is found as the CorefUD scorer is (``COREFUD_SCORER``, ``COREFUD_PYTHON``, else the
scratch paths of a development machine; see ``tests/readers/corefud_peer.py``).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.readers.corefud_peer import peer_paths

#: The identity measures compared, by the copy's names (``-m``).
MEASURES = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc")

_DRIVER = r"""
import contextlib, importlib.util, io, json, sys
sys.path.insert(0, sys.argv[1])
spec = importlib.util.spec_from_file_location('ua_scorer', sys.argv[1] + '/ua-scorer.py')
ua = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ua)
from scorer.ua.reader import UAReader
from scorer.eval import evaluator

def run(key, response, options):
    sys.argv = ['ua-scorer.py', key, response, *options]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            args = ua.parse_arguments()
            ua.process_arguments(args)
            reader = UAReader(**args)
            reader.get_coref_infos(args['key_file'], args['sys_file'])
            out = {}
            for name, metric in args['metrics']:
                out[name] = list(evaluator.evaluate_documents(
                    reader.doc_coref_infos, metric, beta=1, only_split_antecedent=args['only_split_antecedent']))
            out['documents'] = len(reader.doc_coref_infos)
        return out
    except BaseException as e:
        return {'error': type(e).__name__ + ': ' + str(e)}

jobs = json.loads(sys.stdin.read())
print(json.dumps([run(*job) for job in jobs]))
"""


@dataclass(frozen=True)
class CopyPeer:
    """The copy in the CorefUD scorer's checkout at ``scorer_dir``, run with ``python``."""

    python: str
    scorer_dir: str

    def many(self, jobs: list[tuple[str | Path, str | Path, list[str]]]) -> list[dict[str, object]]:
        """For each (key, response, options of ``ua-scorer.py``): recall, precision and F1 per
        measure, or ``{"error": ...}``; all in one subprocess."""
        done = subprocess.run(
            [self.python, "-c", _DRIVER, self.scorer_dir],
            input=json.dumps([(str(k), str(r), o) for k, r, o in jobs]),
            capture_output=True,
            text=True,
            check=True,
            timeout=1800,
            cwd=self.scorer_dir,
        )
        result: list[dict[str, object]] = json.loads(done.stdout.strip().splitlines()[-1])
        return result


def copy_peer() -> CopyPeer | None:
    """The copy, when the CorefUD scorer's checkout has it."""
    paths = peer_paths()
    if paths is None or not (Path(paths[1]) / "ua-scorer.py").is_file():
        return None
    return CopyPeer(*paths)


def our_scores(key: str | Path, response: str | Path, match: str, singletons: str, zeros: str = "include") -> dict:  # type: ignore[type-arg]
    """corefeval's numbers in the copy's shape (recall, precision, F1 per measure)."""
    import corefeval

    names = {"muc": "muc", "bcub": "bcub", "ceafe": "ceafe", "ceafm": "ceafm", "lea": "lea", "blanc": "blanc"}
    result = corefeval.score(
        str(key), str(response), list(names.values()), match=match, singletons=singletons, zeros=zeros
    )
    out = {}
    for theirs, ours in names.items():
        s = result.corpus[ours]
        out[theirs] = [s.recall, s.precision, s.f1]
    return out


def copy_options(match: str, singletons: str, zeros: str = "include") -> list[str]:
    """The copy's options for corefeval's ``match``, ``singletons`` and ``zeros``."""
    options = ["-m", *MEASURES, "-a", {"craft": "partial-craft", "partial": "partial-corefud"}.get(match, match)]
    if singletons == "keep":
        options.append("-s")
    if zeros != "exclude":
        options.append("-z")
    return options
