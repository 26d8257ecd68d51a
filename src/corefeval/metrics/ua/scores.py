"""The measures of the Universal Anaphora scorer 2.0, per document as additive counts.

Identity (and discourse deixis, scored the same way on its own layer) uses the UA scorer's
split-antecedent-aware MUC, B-cubed, CEAFe, CEAFm, LEA and BLANC: a plural entity whose elements
are other entities (``ElementOf``) gains one extra member, the set of its element entities, which
is aligned with the response's such sets (one-to-one, best F1 of the metric on the sets' members)
and counts as correct by that F1, recall or precision. Non-referring markables are scored by
identification; bridging by anaphor recognition and by anchor at markable and at entity level.

The UA scorer's results depend on details that are reproduced here on purpose, because its numbers
are the reference for these measures (see ``docs/anaphora.md``):

* mentions are looked up by exact span (a hash of the span), except where the scorer compares them
  one by one (CEAF's overlaps, non-referring identification, bridging anchors): there a response
  markable within a key markable and covering its minimum span is equal to it when ``min_spans``;
* the members of an entity are iterated in the order of a Python set of its markables when split
  antecedents are kept, which decides LEA's and BLANC's split-antecedent weights;
* BLANC is the mean of its coreference and non-coreference parts over the parts with a non-zero
  denominator in the whole corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ...anaphora.model import UADocument
from ...anaphora.ua_sides import Mention, Pair, Side, UASettings, pairs
from ...core.diagnostics import CountingError
from ...core.items import Clusters
from ...matching.item_lookups import Lookups, overlap_cells
from ..base import conll_mean
from ..blanc import Outside
from .alignment import JOINT_CELLS, check_split_table, identity_counts, split_tables, table_cells
from .identity import IDENTITY_METRICS, f1, plain_identity_counts

#: The most pairs of key and response non-referring markables of one document compared one by one
#: (with minimum spans, where a markable may equal one of another span; by exact span they are
#: looked up, in time linear in them).
NON_REFERRING_PAIR_LIMIT = 4_000_000


def non_referring_counts(key: Side, response: Side, document: str = "") -> np.ndarray:
    """Non-referring identification ``(tp, tp + fn, tp, tp + fp)``: a key markable is found when
    a response non-referring markable equals it; a response markable is wrong when no key one
    equals it (with minimum spans, two response markables may both equal one key markable)."""
    keys, responses = key.non_referring, response.non_referring
    if any(m.min_span for m in keys) or any(m.min_span for m in responses):
        if len(keys) * len(responses) > NON_REFERRING_PAIR_LIMIT:
            raise CountingError(
                document,
                f"its {len(keys):,} key and {len(responses):,} response non-referring markables make more than "
                f"{NON_REFERRING_PAIR_LIMIT:,} pairs to compare one by one (with minimum spans)",
            )
    else:  # equal by span: a set finds them (its hash is the span's), as the list would
        keys, responses = set(keys), set(responses)  # type: ignore[assignment]
    tp = sum(1 for m in key.non_referring if m in responses)
    fp = sum(1 for m in response.non_referring if m not in keys)
    return np.array([tp, len(key.non_referring), tp, tp + fp], dtype=float)


def bridging_counts(key: Side, response: Side) -> np.ndarray:
    """Bridging counts ``(tp, fn, fp)`` of anaphor recognition, then of full bridging at markable
    level, then at entity level (the anchor in the key anchor's entity)."""
    entity_of = key.entity_of() if key.bridging else {}
    to_key = {ant: entity_of.get((ant.start, ant.end)) for ant in (*key.bridging.values(), *response.bridging.values())}
    tp = np.zeros(3)
    fn = np.zeros(3)
    fp = np.zeros(3)
    for ana, k_ant in key.bridging.items():
        if ana not in response.bridging:
            fn += 1
            continue
        tp[0] += 1
        r_ant = response.bridging[ana]
        if k_ant == r_ant:
            tp[1:] += 1
            continue
        fn[1] += 1
        if to_key[r_ant] is not None and to_key[r_ant] == to_key[k_ant]:
            tp[2] += 1
        else:
            fn[2] += 1
    for ana, r_ant in response.bridging.items():
        if ana not in key.bridging:
            fp += 1
            continue
        k_ant = key.bridging[ana]
        if r_ant != k_ant:
            fp[1] += 1
            if to_key[r_ant] is None or to_key[r_ant] != to_key[k_ant]:
                fp[2] += 1
    return np.stack([tp, fn, fp], axis=1).reshape(-1)


def prf(rn: float, rd: float, pn: float, pd: float) -> tuple[float, float, float]:
    """Recall, precision and F1 (0 for a zero numerator, as the UA scorer has it, or a zero
    denominator, where it fails)."""
    r = 0.0 if rn == 0 or rd == 0 else rn / rd
    p = 0.0 if pn == 0 or pd == 0 else pn / pd
    return r, p, f1(pn, pd, rn, rd)


def blanc(c: np.ndarray, n: np.ndarray) -> tuple[float, float, float]:
    """The UA scorer's BLANC: the mean of the coreference and non-coreference recall, precision and
    F1 over those of the two parts whose summed denominators are not both 0 (0 when neither)."""
    parts = [prf(*x) for x in (c, n) if not (x[1] == 0 and x[3] == 0)]
    if not parts:
        return 0.0, 0.0, 0.0
    r, p, f = (sum(v) / len(parts) for v in zip(*parts))
    return r, p, f


#: The most entity overlap cells (CEAF's, :func:`~corefeval.matching.item_lookups.overlaps`) a
#: document may make: a span held by many entities on both sides makes a cell for every pair of
#: them, in memory and time (100,000 entities holding one span on each side: ten billion).
OVERLAP_CELL_LIMIT = 4_000_000


def check_overlaps(document: str, key: Clusters, response: Clusters) -> None:
    """A :class:`~corefeval.core.diagnostics.CountingError` for a document whose entities would
    make more overlap cells than :data:`OVERLAP_CELL_LIMIT`."""
    cells = overlap_cells(key, response)
    if cells > OVERLAP_CELL_LIMIT:
        raise CountingError(
            document,
            f"its {len(key):,} key and {len(response):,} response entities share spans in {cells:,} pairs, past "
            f"the limit of {OVERLAP_CELL_LIMIT:,} (CEAF, as the UA scorer counts it, needs every pair; a span held by "
            "many entities of each side makes them)",
        )


def document_counts(
    pair: Pair, metrics: Sequence[str] = IDENTITY_METRICS, outside: Outside | None = None
) -> dict[str, np.ndarray]:
    """A document's additive counts: per identity metric (recall_num, recall_den, precision_num,
    precision_den) and ``NAME-split`` for its split-antecedent alignment; ``non-referring``;
    ``bridging`` (tp, fn, fp for recognition, markable level, entity level). ``outside``: the
    rest of the document, when ``pair``'s entities are a part of it (see
    :mod:`corefeval.anaphora.ua_spans`)."""
    out: dict[str, np.ndarray] = {}
    key, response = pair.key.clusters, pair.response.clusters
    if metrics:
        check_overlaps(pair.name, key, response)
        lookups = Lookups(key, response)
        splits = any(lookups.splits())
        plain = {} if splits or outside else plain_identity_counts(lookups)
        by_span = splits and not any(type(m) is Mention and m.min_span for c in key for m in c)
        if splits:
            check_split_table(pair.name, lookups, by_span)
        joint = by_span and table_cells(lookups) <= JOINT_CELLS
        tables = split_tables(lookups) if joint else None
        for name in metrics:
            if name in plain:
                pn, pd, rn, rd = plain[name]
                out[name], out[f"{name}-split"] = np.array([rn, rd, pn, pd]), np.zeros(4)
            else:
                table = tables[name] if tables is not None else None
                out[name], out[f"{name}-split"] = identity_counts(name, key, response, lookups, table, by_span, outside)
    out["non-referring"] = non_referring_counts(pair.key, pair.response, pair.name)
    out["bridging"] = bridging_counts(pair.key, pair.response)
    return out


#: The forms of bridging, in the UA scorer's order: anaphor recognition, markable level, entity level.
BRIDGING_FORMS = ("bridging-ar", "bridging-fbm", "bridging-fbe")


def bridging_prf_counts(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Bridging ``(tp, fn, fp)`` triples as (recall_num, recall_den, precision_num, precision_den)."""
    out = {}
    for form, (tp, fn, fp) in zip(BRIDGING_FORMS, counts.reshape(3, 3)):
        out[form] = np.array([tp, tp + fn, tp, tp + fp])
    return out


@dataclass(frozen=True)
class UAScores:
    """Corpus scores as the UA scorer prints them: recall, precision, F1 per measure."""

    scores: dict[str, tuple[float, float, float]]
    counts: dict[str, np.ndarray]

    @property
    def conll(self) -> float:
        """The mean F1 of MUC, B-cubed and CEAFe."""
        return conll_mean([self.scores[m][2] for m in ("muc", "bcub", "ceafe")])


def literal_scores(
    keys: Iterable[UADocument],
    responses: Iterable[UADocument],
    options: UASettings | None = None,
    only_split_antecedents: bool = False,
) -> UAScores:
    """Score a corpus: the counts of its documents summed, then ratios (the UA scorer's numbers)."""
    total: dict[str, np.ndarray] = {}
    for pair in pairs(keys, responses, options or UASettings()):
        for name, c in document_counts(pair).items():
            total[name] = total[name] + c if name in total else c
    return corpus_scores(total, only_split_antecedents)


def corpus_scores(total: dict[str, np.ndarray], only_split_antecedents: bool = False) -> UAScores:
    """The corpus scores of summed document counts (:func:`document_counts`' names; none: an
    empty corpus)."""
    if not total:
        total = {name: np.zeros(4) for name in IDENTITY_METRICS}
        total.update({f"{n}-split": np.zeros(4) for n in IDENTITY_METRICS})
        total["non-referring"], total["bridging"] = np.zeros(4), np.zeros(9)
    total = dict(total)
    total.update(bridging_prf_counts(total.pop("bridging")))
    scores: dict[str, tuple[float, float, float]] = {}
    for name in ("lea", "muc", "bcub", "ceafe", "ceafm"):
        scores[name] = prf(*total[f"{name}-split" if only_split_antecedents else name])
    if only_split_antecedents:
        parts = [prf(*total[f"{n}-split"]) for n in ("blancc", "blancn") if total[n][1] or total[n][3]]
        scores["blanc"] = tuple(sum(v) / len(parts) for v in zip(*parts)) if parts else (0.0, 0.0, 0.0)  # type: ignore[assignment]
    else:
        scores["blanc"] = blanc(total["blancc"], total["blancn"])
    for name in ("non-referring", *BRIDGING_FORMS):
        scores[name] = prf(*total[name])
    return UAScores(scores, total)


def __getattr__(name: str) -> object:
    """``evaluate``, this function's name until 0.3: a deprecated alias of :func:`literal_scores`."""
    if name == "evaluate":
        import warnings

        warnings.warn("corefeval.metrics.ua.scores.evaluate is now literal_scores", DeprecationWarning, stacklevel=2)
        return literal_scores
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
