"""corefeval's MOR and zero-score counts per document of two CorefUD files, in one mode."""

from __future__ import annotations

from corefeval.alignment import align
from corefeval.metrics import anaphors, mor
from corefeval.options import Options
from corefeval.readers import read
from corefeval.scoring import preparation


def our_counts(key: str, response: str, match: str, singletons: str, zeros: str) -> dict[str, dict[str, list[float]]]:
    kc, rc = read(key), read(response)
    prepare = preparation(Options(match=match, singletons=singletons, zeros=zeros), kc, rc)
    responses = rc.by_name()
    out = {}
    for kdoc in kc:
        rdoc = responses[kdoc.name]
        a, kdoc, rdoc = prepare(kdoc, rdoc) if prepare is not None else (align(kdoc, rdoc), kdoc, rdoc)
        out[kdoc.name] = {
            "mor": list(mor.counts(kdoc, rdoc)),
            "zero": list(anaphors.counts(kdoc, rdoc, a)),
        }
    return out
