"""Make a response with known errors from a key, recording what was injected.

Each error is made the way its definition reads: border shortens a mention by its last token; type
moves a non-first mention of a chain of three or more into another chain; noise adds a non-mention
(a span overlapping no key mention) to a chain after its first mention; silence removes a non-first
mention of a chain of three or more; irrelevant adds a new chain of two non-mentions; absence
removes a whole chain. Every error touches mentions no other error touched, so several errors can
be put into one document; an error that no longer fits is skipped, and only the ones made are
recorded.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass

from ...core.model import Document, make_document
from .items import TYPES, Span

PROG = "python -m corefeval.studies.errors.inject"


@dataclass(frozen=True)
class Injection:
    """One injected error: its type, the spans it concerns, and the key chain it started from."""

    type: str
    spans: tuple[Span, ...]
    key_chain: int | None
    note: str


class _State:
    def __init__(self, key: Document, rng: random.Random) -> None:
        self.rng = rng
        self.n_tokens = key.n_tokens
        self.key_spans = set(zip(key.starts.tolist(), key.ends.tolist(), strict=True))
        self.label: dict[Span, Hashable] = {}
        for s, e, k in zip(key.starts.tolist(), key.ends.tolist(), key.entities.tolist(), strict=True):
            self.label.setdefault((s, e), k)
        self.covered = [False] * (key.n_tokens + 1)
        for s, e in self.key_spans:
            for t in range(s, e + 1):
                self.covered[t] = True
        self.origin = dict(self.label)
        self.touched: set[Span] = set()
        self.chains = sorted({k for k in self.label.values() if list(self.label.values()).count(k) >= 2}, key=str)
        self.gone: set[Hashable] = set()
        self.new_chains = 0

    def members(self, k: Hashable) -> list[Span]:
        """The mentions of chain ``k`` in the response, in text order."""
        return sorted(s for s, lab in self.label.items() if lab == k)

    def own(self, k: Hashable) -> list[Span]:
        """The mentions of key chain ``k`` still in it and untouched, in text order."""
        return [s for s in self.members(k) if self.origin.get(s) == k and s not in self.touched]

    def live_chains(self, min_size: int) -> list[Hashable]:
        """Chains still holding at least ``min_size`` of their own untouched mentions."""
        return [k for k in self.chains if k not in self.gone and len(self.own(k)) >= min_size]

    def free_span(self, after: int = -1) -> Span | None:
        """A span of 1-3 tokens overlapping no key or response mention, starting after ``after``."""
        for _ in range(200):
            s = self.rng.randrange(max(after + 1, 0), max(self.n_tokens, after + 2))
            e = min(s + self.rng.randrange(3), self.n_tokens - 1)
            if s <= e and not any(self.covered[t] for t in range(s, e + 1)):
                for t in range(s, e + 1):
                    self.covered[t] = True
                return (s, e)
        return None


def _border(st: _State) -> Injection | None:
    options = [
        s
        for k in st.live_chains(2)
        for s in st.own(k)
        if s[1] > s[0] and (s[0], s[1] - 1) not in st.label and (s[0], s[1] - 1) not in st.key_spans
    ]
    if not options:
        return None
    s = st.rng.choice(options)
    new = (s[0], s[1] - 1)
    st.label[new] = st.label.pop(s)
    st.touched.update({s, new})
    return Injection("border", (s, new), None, f"{s} shortened to {new}")


def _type(st: _State) -> Injection | None:
    for a in st.rng.sample(st.live_chains(3), len(st.live_chains(3))):
        movable = st.own(a)[1:]
        targets = [b for b in st.live_chains(2) if b != a]
        if movable and targets:
            s, b = st.rng.choice(movable), st.rng.choice(targets)
            st.label[s] = b
            st.touched.add(s)
            return Injection("type", (s,), a if isinstance(a, int) else None, f"{s} moved to chain {b}")
    return None


def _noise(st: _State) -> Injection | None:
    for c in st.rng.sample(st.live_chains(2), len(st.live_chains(2))):
        span = st.free_span(after=st.members(c)[0][1])
        if span is not None:
            st.label[span] = c
            st.touched.add(span)
            return Injection("noise", (span,), c if isinstance(c, int) else None, f"{span} added to chain {c}")
    return None


def _silence(st: _State) -> Injection | None:
    for c in st.rng.sample(st.live_chains(3), len(st.live_chains(3))):
        removable = st.own(c)[1:]
        if removable:
            s = st.rng.choice(removable)
            del st.label[s]
            st.touched.add(s)
            return Injection("silence", (s,), c if isinstance(c, int) else None, f"{s} removed")
    return None


def _irrelevant(st: _State) -> Injection | None:
    a, b = st.free_span(), st.free_span()
    if a is None or b is None:
        return None
    st.new_chains += 1
    name = ("injected", st.new_chains)
    st.label[a] = st.label[b] = name
    st.touched.update({a, b})
    return Injection("irrelevant", (a, b), None, f"new chain {a}, {b}")


def _absence(st: _State) -> Injection | None:
    whole = [k for k in st.live_chains(2) if st.own(k) == st.members(k)]
    if not whole:
        return None
    k = st.rng.choice(whole)
    spans = st.members(k)
    for s in spans:
        del st.label[s]
    st.touched.update(spans)
    st.gone.add(k)
    return Injection("absence", tuple(spans), k if isinstance(k, int) else None, f"chain {k} removed")


_MAKERS = {
    "border": _border,
    "type": _type,
    "noise": _noise,
    "silence": _silence,
    "irrelevant": _irrelevant,
    "absence": _absence,
}


def inject(key: Document, counts: Mapping[str, int], seed: int = 0) -> tuple[Document, list[Injection]]:
    """A response made from ``key`` with up to ``counts[type]`` errors of each type, in random order."""
    unknown = set(counts) - set(TYPES)
    if unknown:
        raise ValueError(f"unknown error types: {', '.join(sorted(unknown))}")
    rng = random.Random(seed)
    st = _State(key, rng)
    todo = [t for t in TYPES for _ in range(counts.get(t, 0))]
    rng.shuffle(todo)
    # Absences first: removing a chain must not undo another error.
    todo.sort(key=lambda t: t != "absence")
    made = [inj for t in todo if (inj := _MAKERS[t](st)) is not None]
    clusters: dict[Hashable, list[Span]] = {}
    for span, lab in sorted(st.label.items()):
        clusters.setdefault(lab, []).append(span)
    return make_document(key.name, clusters.values(), n_tokens=key.n_tokens), made


def expected_counts(made: list[Injection]) -> dict[str, int]:
    """The six counts the injected errors should produce."""
    out = dict.fromkeys(TYPES, 0)
    for inj in made:
        out[inj.type] += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m corefeval.studies.errors.inject KEY OUT --noise 2 ...``: write a response with known errors.

    Every document of the CoNLL-2012 key gets the requested errors; OUT is the key file with only the
    coreference column changed; ``--record`` writes one JSON line per injected error.
    """
    from ...core.diagnostics import InputError, UsageError
    from ...core.output import atomic_open, check_outputs, write_output
    from ...readers import read
    from .rewrite import rewrite

    p = argparse.ArgumentParser(prog=PROG, description=main.__doc__)
    p.add_argument("key")
    p.add_argument("out", help="the response to write; never the key")
    for t in TYPES:
        p.add_argument(f"--{t}", type=int, default=0, metavar="N", help=f"{t} errors per document")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--record", metavar="OUT.jsonl", help="write what was injected, one JSON line per error")
    args = p.parse_args(argv)
    try:
        check_outputs([args.out, args.record], [args.key])
        corpus = read(args.key)
        responses: dict[str, Document] = {}
        records: list[dict[str, object]] = []
        for n, key in enumerate(corpus.documents):
            responses[key.name], made = inject(key, {t: getattr(args, t) for t in TYPES}, seed=args.seed + n)
            records.extend({"document": key.name, **asdict(m)} for m in made)
        write_output(args.out, rewrite(args.key, responses))
        if args.record:
            with atomic_open(args.record) as fh:
                fh.writelines(json.dumps(r) + "\n" for r in records)
    except InputError as err:
        print(err, file=sys.stderr)
        return 1
    except UsageError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
