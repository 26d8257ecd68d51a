"""Per-document counts of the CorefUD scorer, for tests: run with the Python that has udapi.

    COREFUD_PYTHON corefud_peer_counts.py SCORER_DIR

reads one JSON job a line on stdin, ``{"key": PATH, "response": PATH, "match": "exact|partial|head",
"singletons": "keep|remove", "zeros": "include|dependent"}``, and answers one JSON line: ``{"docs":
{name: {metric: [recall_num, recall_den, precision_num, precision_den]}}, "aliased": [name, ...]}``
(BLANC as ``blanc_coref`` and ``blanc_noncoref``, MOR as ``mor``, the zero score as ``zero``;
``aliased``: the documents where the scorer's alignment dictionary mixed mentions up, see
:func:`_aliased`), or ``{"error": message}`` when it fails. The scorer's own reader and metric
functions are called; nothing of it is reimplemented here.
"""

import contextlib
import io
import json
import logging
import sys


def main() -> None:
    sys.path.insert(0, sys.argv[1])
    logging.disable(logging.CRITICAL)
    from scorer.corefud.reader import CorefUDReader
    from scorer.eval import evaluator

    metrics = {
        "muc": evaluator.muc,
        "bcub": evaluator.b_cubed,
        "ceafm": evaluator.ceafm,
        "ceafe": evaluator.ceafe,
        "lea": evaluator.lea,
        "blanc_coref": evaluator.blancc,
        "blanc_noncoref": evaluator.blancn,
        "mor": evaluator.mention_overlap,
        "zero": evaluator.als_zeros,  # last: it sorts the clusters in place
    }
    for line in sys.stdin:
        job = json.loads(line)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                reader = CorefUDReader(
                    keep_singletons=job["singletons"] == "keep",
                    match={"partial": "partial-corefud"}.get(job["match"], job["match"]),
                    keep_zeros=True,
                    zero_match_method="linear" if job["zeros"] == "include" else "dependent",
                )
                reader.get_coref_infos(job["key"], job["response"])
                docs, aliased = {}, []
                for name, info in reader.doc_coref_infos.items():
                    key, response, key_map, response_map, aligned = info
                    # the scorer's Evaluator cannot call its mention metric (too many arguments): call it here
                    rn, rd = evaluator.mentions(key, key_map, aligned)
                    pn, pd = evaluator.mentions(response, response_map, aligned)
                    counts = {"mentions": [float(rn), float(rd), float(pn), float(pd)]}
                    if _aliased(reader.doc_mention_aligns[name], aligned, key + response):
                        aliased.append(str(name))
                    for metric_name, metric in metrics.items():
                        e = evaluator.Evaluator(metric)
                        e.update(info)
                        pn, pd, rn, rd = e.get_counts()
                        counts[metric_name] = [float(rn), float(rd), float(pn), float(pd)]
                    docs[str(name)] = counts
            answer = {"docs": docs, "aliased": aliased}
        except BaseException as err:  # the scorer raises BaseException subclasses on bad input
            answer = {"error": f"{type(err).__name__}: {err}"}
        print(json.dumps(answer), flush=True)


def _aliased(pairs, aligned, clusters) -> bool:
    """Whether the scorer's one dictionary of aligned mentions, keyed by words, mixes mentions up: a
    key and a response mention with the same words, aligned to different mentions, share one entry,
    or a mention aligned to nothing finds the partner of another mention with its words."""
    moved = [(k, r) for k, r in pairs if k != r]
    if len(aligned) != 2 * len(moved) or any(aligned[k] is not r or aligned[r] is not k for k, r in moved):
        return True
    members = {id(m) for pair in moved for m in pair}
    return any(m in aligned and id(m) not in members for cluster in clusters for m in cluster)


if __name__ == "__main__":
    main()
