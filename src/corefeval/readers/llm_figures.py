"""What putting a language model's markup on the key's words did, per document and in all, and the
warnings that say so: the alignment's edits, the mentions it moved or lost, and the marks repaired.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.diagnostics import Diagnostic, plural
from ..core.model import Corpus

_NAMES = ("words", "inserted", "replaced", "deleted", "moved", "lost", "repaired")


@dataclass(frozen=True)
class Repair:
    """A repair of marks: ``word`` is the 1-based position of the model's word in its document
    (negative: ``-k``, the key's word ``k`` put in by the alignment; 0: a mark between words),
    ``text`` the word or mark as written."""

    word: int
    text: str
    message: str

    def __str__(self) -> str:
        if not self.word:
            return f"'{self.text[:60]}' {self.message}"
        where = f"word {self.word}" if self.word > 0 else f"the key's word {-self.word}"
        return f"{where} '{self.text[:60]}': {self.message}"


@dataclass(frozen=True)
class Figures:
    """What the alignment of one document had to do: the model's own words (``inserted``), changed
    words (``replaced``), key words left out (``deleted``), mention boundaries moved to an aligned
    word (``moved``), mentions with no aligned word (``lost``) and marks repaired (``repaired``:
    unreadable, unbalanced or on a word with two ``|``); ``words``: the key's words."""

    words: int = 0
    inserted: int = 0
    replaced: int = 0
    deleted: int = 0
    moved: int = 0
    lost: int = 0
    repaired: int = 0

    @property
    def edits(self) -> int:
        return self.inserted + self.replaced + self.deleted

    def __add__(self, other: Figures) -> Figures:
        return Figures(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple())))

    def as_tuple(self) -> tuple[int, ...]:
        return tuple(getattr(self, name) for name in _NAMES)

    def as_dict(self) -> dict[str, int]:
        return dict(zip(_NAMES, self.as_tuple()))

    @property
    def notable(self) -> bool:
        """Whether the alignment changed anything (and is warned about)."""
        return bool(self.edits or self.moved or self.lost)

    def __str__(self) -> str:
        return (
            f"{self.inserted} inserted, {self.replaced} replaced, {self.deleted} deleted of "
            f"{plural(self.words, 'key word')}; mention boundaries moved: {self.moved}, mentions lost: {self.lost}"
        )

    def signature(self) -> str:
        return (
            f"ins{self.inserted},rep{self.replaced},del{self.deleted},mov{self.moved},lost{self.lost},"
            f"fixed{self.repaired}"
        )


@dataclass
class AlignedCorpus(Corpus):
    """A corpus of generated documents put on the key's words, with each document's :class:`Figures`;
    ``empty_deps`` as :class:`~corefeval.readers.corefud.CorefUDCorpus` has them, for a response made
    as the official pipeline makes it."""

    figures: dict[str, Figures] = field(default_factory=dict)
    empty_deps: dict[str, dict[int, frozenset[tuple[int, str]]]] = field(default_factory=dict)

    @property
    def total(self) -> Figures:
        return sum(self.figures.values(), Figures())


def figure_warnings(path: str, lines: dict[str, int], figures: dict[str, Figures]) -> list[Diagnostic]:
    """A warning per document whose alignment changed something, and one with the totals when
    several documents were aligned."""
    out = [
        Diagnostic(path, lines[name], f"document '{name}': word alignment: {fig}")
        for name, fig in figures.items()
        if fig.notable
    ]
    if len(figures) > 1 and out:
        out.append(Diagnostic(path, 0, f"word alignment in all: {sum(figures.values(), Figures())}"))
    return out


def repair_warnings(path: str, repairs: list[tuple[int, str]]) -> list[Diagnostic]:
    """One warning per repair of marks (``(line, what)``); a run shows a few of one kind and counts
    the rest (:mod:`corefeval.core.warning_summary`)."""
    return [Diagnostic(path, line, what) for line, what in repairs]
