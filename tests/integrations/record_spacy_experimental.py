"""Record spacy-experimental's coreference scores (``score_coref_clusters``: LEA), which
``test_spacy_experimental.py`` checks corefeval's spaCy scorer against where spacy-experimental is
not installed: ``tests/data/spacy_experimental.json``, the generated cases of ``spacy_coref_cases``
and a few smallest ones, each with spacy-experimental's ``coref_p``, ``coref_r``, ``coref_f`` (or the
error it stops with), without the case's empty span groups where it has some, and with its span
groups in corefeval's reading order where a span is in two clusters.

spacy-experimental needs spaCy < 3.8, so it runs in a venv of its own::

    python -m venv /tmp/spx && /tmp/spx/bin/pip install 'spacy>=3.7,<3.8' spacy-experimental==0.6.4
    PYTHONPATH=src:. /tmp/spx/bin/python -m tests.integrations.record_spacy_experimental
"""

from __future__ import annotations

import json
from importlib.metadata import version
from typing import Any

from tests.integrations.spacy_coref_cases import (
    FIXTURE,
    KEYS,
    SEEDS,
    SMALLEST,
    Case,
    case,
    examples,
    has_empty_group,
    has_repeats,
    in_reading_order,
    without_empty_groups,
)


def spacy_experimental_scores(cases: Case, nlp: Any) -> dict[str, Any]:
    """spacy-experimental's scores of the case, or the error it stops with."""
    from spacy_experimental.coref.coref_scorer import score_coref_clusters

    try:
        scores = score_coref_clusters(examples(cases, nlp))
    except Exception as err:  # recorded as it is: the fixture says which cases it cannot score
        return {"error": type(err).__name__}
    return {key: float(scores[key]) for key in KEYS}


def entry(name: str, cases: Case, nlp: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "documents": cases, "scores": spacy_experimental_scores(cases, nlp)}
    if has_empty_group(cases):
        out["without_empty"] = spacy_experimental_scores(without_empty_groups(cases), nlp)
    if has_repeats(cases):
        out["in_reading_order"] = spacy_experimental_scores(in_reading_order(without_empty_groups(cases), nlp), nlp)
    return out


def main() -> None:
    import spacy

    nlp = spacy.blank("en")
    entries = [entry(name, cases, nlp) for name, cases in SMALLEST.items()]
    for seed in SEEDS:
        for repeats in (False, True):
            entries.append(entry(f"seed {seed}, repeats {repeats}", case(seed, repeats), nlp))
    fixture = {
        "recorded": f"spacy-experimental {version('spacy-experimental')} (score_coref_clusters), "
        f"spaCy {version('spacy')}, by tests/integrations/record_spacy_experimental.py",
        "cases": entries,
    }
    text = json.dumps(fixture, separators=(",", ":"))
    FIXTURE.write_text(text.replace('{"name"', '\n{"name"') + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
