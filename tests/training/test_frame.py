"""Tables for notebooks: the DataFrame has every score of the result; the HTML needs no pandas."""

from __future__ import annotations

import math
import subprocess
import sys

from corefeval import Evaluator

KEY = [[(0, 1), (5, 5), (7, 8)], [(3, 3), (10, 10)]]
RESPONSE = [[(0, 1), (5, 5)], [(3, 3), (7, 8), (12, 12)]]


def _result():  # type: ignore[no-untyped-def]
    ev = Evaluator()
    ev.update(KEY, RESPONSE, name="a")
    ev.update(RESPONSE, KEY, name="b")
    return ev.result()


def test_frame_holds_corpus_and_documents() -> None:
    result = _result()
    frame = result.to_frame()
    assert len(frame) == 3 * len(result.corpus)
    corpus = frame[frame["scope"] == "corpus"].set_index("metric")
    for name, s in result.corpus.items():
        assert corpus.loc[name, "f1"] == s.f1
        if name != "conll":
            assert corpus.loc[name, "recall_den"] == s.recall_den
    assert math.isnan(corpus.loc["conll", "recall"])
    doc_b = frame[(frame["document"] == "b") & (frame["metric"] == "muc")].iloc[0]
    assert doc_b["precision"] == result.documents[1].scores["muc"].precision


def test_html_without_pandas() -> None:
    code = (
        "import sys; sys.modules['pandas'] = None\n"
        "from corefeval import Evaluator\n"
        "ev = Evaluator(); ev.update([[1, 2]], [[1], [2]])\n"
        "print(ev.result()._repr_html_())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("<table>") and "<td>MUC</td><td>0.00</td>" in out and "corefeval:" in out
