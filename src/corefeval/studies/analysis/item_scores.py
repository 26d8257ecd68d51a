"""Per-item metric scores: one key and one response document per rated item.

Items are the documents in key-file order, numbered 1..n (the study's question numbers). Scores
come either from corefeval with reference semantics, or with the study-compatible key padding
(response mentions missing from the key become key singletons, as scorch 0.2 did). A published
per-item table in the study's ``scores.csv`` layout can be read for comparison.
"""

from __future__ import annotations

import pandas as pd

from ...core.diagnostics import InputError
from ...core.model import Corpus
from ...readers.conll2012 import read_conll2012

#: Metric labels of the study's tables and the corefeval metric behind each.
METRICS = {"MUC": "muc", "B3": "bcub", "CEAFm": "ceafm", "CEAFe": "ceafe", "BLANC": "blanc", "LEA": "lea"}
CONLL = "CoNLL"
F1_COLUMNS = (*METRICS, CONLL)


def read_lenient(path: str) -> Corpus:
    """Read a CoNLL-2012 file, reading malformed coreference fields (such as ``(-``) as ``-`` with a warning."""
    return read_conll2012(path, lenient=True)


def score_items(key: Corpus, response: Corpus, pad_key: bool = False) -> pd.DataFrame:
    """Recall, precision and F1 of the seven metrics per item, in the study's ``scores.csv`` layout."""
    from ...scoring.pipeline import score

    result = score(key, response, pad_key_mentions=pad_key)
    rows = []
    for number, doc in enumerate(result.documents, 1):
        row: dict[str, object] = {"id": str(number), "name": doc.name}
        for label, metric in METRICS.items():
            s = doc.scores[metric]
            row[f"{label}_R"], row[f"{label}_P"], row[f"{label}_F1"] = float(s.recall), float(s.precision), float(s.f1)
        row[CONLL] = float(doc.scores["conll"].f1)
        rows.append(row)
    return pd.DataFrame(rows).set_index("id")


def read_published(path: str) -> pd.DataFrame:
    """A per-item table in the study's layout (``id``, ``name``, ``<METRIC>_R/_P/_F1``, ``CoNLL_2012``)."""
    try:
        table = pd.read_csv(path, dtype={"id": str})
    except (OSError, ValueError) as err:
        raise InputError(path, 0, f"cannot read the table: {err}") from None
    table = table.drop(columns=[c for c in table.columns if c.startswith("Unnamed")])
    table = table.rename(columns={"CoNLL_2012": CONLL})
    wanted = [*[f"{m}_{s}" for m in METRICS for s in ("R", "P", "F1")], CONLL]
    missing = [c for c in wanted if c not in table.columns]
    if missing or "id" not in table.columns:
        raise InputError(path, 1, f"missing column(s): {', '.join(missing or ['id'])}")
    return table.set_index("id")


def compare(ours: pd.DataFrame, published: pd.DataFrame, tolerance: float = 1e-9) -> pd.DataFrame:
    """Every (item, column) where two per-item tables differ by more than ``tolerance``."""
    columns = [c for c in ours.columns if c != "name" and c in published.columns]
    rows = []
    for item in ours.index:
        for c in columns:
            a = float(ours.at[item, c])
            b = float(published.at[item, c]) if item in published.index else float("nan")
            if not abs(a - b) <= tolerance:
                rows.append({"id": item, "column": c, "ours": a, "published": b, "difference": a - b})
    return pd.DataFrame(rows, columns=["id", "column", "ours", "published", "difference"])
