"""One run configuration: everything besides the inputs that decides what is scored and how.

:class:`Options` is validated once, when it is made, and is taken by every entry point
(:func:`corefeval.score`, :func:`corefeval.scoring.distributed.score_documents`, :func:`corefeval.stats.compare`,
:func:`corefeval.studies.errors.analyse` and the command line). A scoring result keeps the options it ran
with, the formats detected, and builds its signature from them.

>>> Options(metrics=("muc", "conll"), singletons="remove").singletons
'remove'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from .dataclass_methods import field_eq, field_hash, field_repr
from .diagnostics import UsageError
from .format_names import FORMATS
from .preset_names import check_preset
from .registry import resolve

#: Each option with a fixed set of values: its choices, the default first.
CHOICES: dict[str, tuple[str, ...]] = {
    "blanc": ("auto", "reference", "paper", "ua"),
    "heads": ("first", "tree"),
    "llm_marks": ("move", "official"),
    "match": ("exact", "head", "partial", "min", "craft"),
    "repeats": ("auto", "reference", "corefud"),
    "singletons": ("keep", "remove"),
    "words": ("auto", "check", "warn", "ignore"),
    "zeros": ("include", "dependent", "exclude"),
}
#: The BLANC variant chosen by the key's format: the UA scorer's for UA files, else the reference's.
AUTO = "auto"
#: The format a result names for clusters given in memory (:class:`corefeval.Evaluator`).
MEMORY = "memory"
#: The format a result names for a unit given as Parquet mention tables (:mod:`corefeval.scoring.distributed`).
PARQUET = "parquet"


def words_for(key_format: str) -> str:
    """What a response whose words differ from the key's gets by default: an error under a CorefUD
    or Universal Anaphora key, as their scorers refuse it; a warning under other keys, which the
    reference scorer scores without reading words (its own test cases differ in words)."""
    return "check" if key_format in ("corefud", "ua") else "warn"


@dataclass(frozen=True, init=False, repr=False, eq=False)
class Options:
    """How a run reads and scores its inputs.

    ``metrics`` are normalised (``all``, comma lists and aliases, in reporting order); ``blanc`` is
    the BLANC boundary-case variant (``auto``, the default: ``ua``, the Universal Anaphora scorer's,
    when the key is a UA file, else ``reference``; a result's options carry the one it ran with);
    ``match``, ``singletons`` and ``zeros`` choose which mentions are scored and how they are paired
    (see :mod:`corefeval.matching.head_and_partial` and :mod:`corefeval.matching.selection`); ``pad_key`` adds unmatched
    response mentions to the key as singletons (scorch 0.2); ``lenient`` reads an unreadable
    CoNLL-2012 coreference field as ``-`` with a warning; ``key_format``/``response_format`` name
    the input formats (``auto``: detected; a result's options carry the detected ones); ``heads`` is
    the head of a CorefUD mention whose file gives no ``head`` field: ``first`` (the default), its
    first node, as udapi and so the CorefUD scorer take it, or ``tree``, its syntactic head (the
    first word whose HEAD is outside the mention); a reading option.
    Unknown values raise :class:`UsageError`.

    ``match="min"`` pairs mentions by coval's minimum spans; ``np_only`` leaves out verb-phrase
    mentions and ``remove_nested`` mentions inside a mention of their own entity, as coval does
    (see :mod:`corefeval.matching.syntactic_filters`; minimum spans and ``np_only`` need the key's parse trees).
    """

    metrics: tuple[str, ...] = field(default=("all",))
    blanc: str = "auto"
    match: str = "exact"
    singletons: str = "keep"
    zeros: str = "include"
    pad_key: bool = False
    lenient: bool = False
    key_format: str = "auto"
    response_format: str = "auto"
    heads: str = "first"
    #: Language-model markup (text2text-coref): how marks on edited words are carried, the largest
    #: share of a document's words its alignment may edit (``None``: 0.25, and no limit with
    #: ``llm_marks="official"``), and (on a result) what the alignment did.
    llm_marks: str = "move"
    max_edits: float | None = None
    aligned: str | None = None
    np_only: bool = False
    remove_nested: bool = False
    #: The rule for a response span repeated in two entities (see :mod:`corefeval.matching.repeat_rules`):
    #: ``auto`` (the key's format decides), ``reference`` or ``corefud``.
    repeats: str = "auto"
    #: What a response whose words differ from the key's gets (see :mod:`corefeval.matching.word_check`):
    #: ``auto`` (the key's format decides), ``check`` (an error), ``warn`` or ``ignore``.
    words: str = "auto"
    #: The named settings (``corefeval.scoring.presets``) these options were made from, for the signature.
    preset: str | None = None

    def __init__(
        self,
        metrics: tuple[str, ...] = ("all",),
        blanc: str = "auto",
        match: str = "exact",
        singletons: str = "keep",
        zeros: str = "include",
        pad_key: bool = False,
        lenient: bool = False,
        key_format: str = "auto",
        response_format: str = "auto",
        heads: str = "first",
        llm_marks: str = "move",
        max_edits: float | None = None,
        aligned: str | None = None,
        np_only: bool = False,
        remove_nested: bool = False,
        repeats: str = "auto",
        words: str = "auto",
        preset: str | None = None,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods); the fields in their order.
        self.__dict__.update(
            metrics=resolve((metrics,) if isinstance(metrics, str) else metrics),
            blanc=blanc,
            match=match,
            singletons=singletons,
            zeros=zeros,
            pad_key=pad_key,
            lenient=lenient,
            key_format=key_format,
            response_format=response_format,
            heads=heads,
            llm_marks=llm_marks,
            max_edits=max_edits,
            aligned=aligned,
            np_only=np_only,
            remove_nested=remove_nested,
            repeats=repeats,
            words=words,
            preset=preset,
        )
        self._check()

    __repr__ = field_repr
    __eq__ = field_eq
    __hash__ = field_hash

    def _check(self) -> None:
        """Refuse (:class:`UsageError`) an unknown value of any option."""
        if self.blanc not in CHOICES["blanc"]:
            raise UsageError(f"unknown BLANC variant '{self.blanc}' (auto, reference, paper or ua)")
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise UsageError(f"unknown {name} option '{value}' (choose from {', '.join(allowed)})")
        for name in ("key_format", "response_format"):
            if getattr(self, name) not in (*FORMATS, MEMORY, PARQUET):
                raise UsageError(f"unknown format '{getattr(self, name)}' (choose from {', '.join(FORMATS)})")
        if self.preset is not None:
            check_preset(self.preset)
        if self.max_edits is not None and not self.max_edits >= 0:  # NaN too
            raise UsageError(f"--max-edits must be at least 0 (a share of the key's words), not {self.max_edits}")

    @classmethod
    def make(cls, options: Options | None = None, metrics: Iterable[str] | None = None, **given: Any) -> Options:
        """``options`` with the keyword arguments that are given (not ``None``) put over it.

        This is how the entry points accept both an ``Options`` and their convenience keywords.
        """
        base = options if options is not None else cls()
        changes = {k: v for k, v in given.items() if v is not None}
        if metrics is not None:
            changes["metrics"] = tuple(metrics) if not isinstance(metrics, str) else (metrics,)
        return replace(base, **changes) if changes else base

    def for_key(self, key_format: str) -> Options:
        """These options with what ``auto`` leaves to the key's format decided: the BLANC variant
        (``ua`` for a Universal Anaphora or CorefUD key: the UA scorer and the CorefUD scorer, one
        program, decide BLANC's boundary cases their own way; else the reference scorer's) and the
        rule for repeated response spans (the CorefUD scorer's for a CorefUD or Universal Anaphora
        key, whose scorers share its mention code; the reference scorer's otherwise) and what a response
        with other words gets (:func:`words_for`)."""
        blanc = self.blanc if self.blanc != AUTO else ("ua" if key_format in ("ua", "corefud") else "reference")
        repeats = (
            self.repeats if self.repeats != AUTO else ("corefud" if key_format in ("corefud", "ua") else "reference")
        )
        words = self.words if self.words != AUTO else words_for(key_format)
        if (blanc, repeats, words) == (self.blanc, self.repeats, self.words):
            return self
        return replace(self, blanc=blanc, repeats=repeats, words=words)

    @property
    def syntactic(self) -> bool:
        """True when coval's mention options are on (``np_only``, ``remove_nested``, minimum spans):
        mentions are filtered or matched by the key's syntax (see
        :mod:`corefeval.matching.syntactic_filters`). The one place this is decided."""
        return self.np_only or self.remove_nested or self.match == "min"

    @property
    def default_selection(self) -> bool:
        """True when every mention is scored and paired by exact span (the reference's path)."""
        return (self.singletons, self.match, self.zeros) == ("keep", "exact", "include") and not self.syntactic

    def signature(self, documents: int, key_digest: str) -> str:
        """One string naming everything that can change a number (with the version and the key)."""
        from .._version import version

        k, r = self.key_format, self.response_format
        parts = [
            f"corefeval:{version()}",
            f"metrics:{','.join(self.metrics)}",
            f"match:{self.match}",
            f"singletons:{self.singletons}",
            f"zeros:{self.zeros}",
            f"blanc:{self.blanc}",
            f"repeats:{self.repeats}",
        ]
        if self.pad_key:
            parts.append("padkey:yes")
        if self.np_only:
            parts.append("nponly:yes")
        if self.remove_nested:
            parts.append("nested:removed")
        if self.words not in (AUTO, words_for(k)):
            parts.append(f"words:{self.words}")
        if self.heads != "first" or "corefud" in (k, r):  # heads of CorefUD mentions without a head field
            parts.append(f"heads:{self.heads}")
        if self.preset is not None:
            parts.append(f"preset:{self.preset}")
        if self.aligned is not None:
            parts.append(f"aligned:{self.aligned}" + (f",marks:{self.llm_marks}" if self.llm_marks != "move" else ""))
        parts += [f"docs:{documents}", f"key:{key_digest}", f"fmt:{k if k == r else f'{k}+{r}'}"]
        return "|".join(parts)
