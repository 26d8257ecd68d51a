"""Format an error analysis as text tables, CSV or JSON lines (formatting only; nothing is computed)."""

from __future__ import annotations

import json

from ..studies.errors.analysis import METRICS, Analysis
from ..studies.errors.items import KK_TYPES, TYPES
from .csv_out import Cell, csv_text
from .grid import clip, text_table

#: The widest document name in the text tables (CSV and JSON give names in full).
NAME_WIDTH = 40


def _table(header: list[str], rows: list[list[str]]) -> str:
    return text_table(header, [[clip(r[0], NAME_WIDTH), *r[1:]] for r in rows])


def _pct(x: float) -> str:
    return f"{100 * x:+.2f}"


def text(a: Analysis, per_doc: bool = True) -> str:
    """Per-document and corpus counts, then the F1 gain (points) from repairing each category."""
    out = []
    rows = [[d.name, *(str(d.counts[t]) for t in TYPES)] for d in a.documents] if per_doc else []
    rows.append(["corpus", *(str(a.counts[t]) for t in TYPES)])
    out.append("Error types (2022 study typology)\n" + _table(["document", *TYPES], rows))
    kk_rows = (
        [[d.name, *(f"{d.kk_counts[t]}/{d.kk_mentions[t]}" for t in KK_TYPES)] for d in a.documents] if per_doc else []
    )
    kk_rows.append(["corpus", *(f"{a.kk_counts[t]}/{a.kk_mentions[t]}" for t in KK_TYPES)])
    out.append("Kummerfeld & Klein categories (operations/mentions)\n" + _table(["document", *KK_TYPES], kk_rows))
    if a.baseline:
        head = ["repaired", *METRICS]
        rows = [["(F1 as is)", *(f"{100 * a.baseline[m]:.2f}" for m in METRICS)]]
        rows += [[t, *(_pct(a.costs[t][m]) for m in METRICS)] for t in TYPES]
        rows += [[t, *(_pct(a.kk_costs[t][m]) for m in METRICS)] for t in KK_TYPES]
        out.append("Cost: F1 gain in points when only this category is repaired\n" + _table(head, rows))
    return "\n".join(out)


def csv_table(a: Analysis) -> str:
    """One row per document (scope ``document``) and one for the corpus (scope ``corpus``, no
    document): the six counts, then K&K operations and mentions."""
    header = ["scope", "document", *TYPES, *KK_TYPES, *(f"{t}_mentions" for t in KK_TYPES)]
    rows: list[list[Cell]] = [
        [
            "document",
            d.name,
            *(d.counts[t] for t in TYPES),
            *(d.kk_counts[t] for t in KK_TYPES),
            *(d.kk_mentions[t] for t in KK_TYPES),
        ]
        for d in a.documents
    ]
    rows.append(
        [
            "corpus",
            None,
            *(a.counts[t] for t in TYPES),
            *(a.kk_counts[t] for t in KK_TYPES),
            *(a.kk_mentions[t] for t in KK_TYPES),
        ]
    )
    return csv_text(header, rows)


def json_report(a: Analysis) -> str:
    return json.dumps(a.to_dict(), indent=1, ensure_ascii=False) + "\n"


def json_lines(a: Analysis) -> str:
    """The itemised log: one JSON object per counted error."""
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in a.items())
