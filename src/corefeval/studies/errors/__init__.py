"""Error analysis: what a response got wrong, by type, where, and what each type costs.

``analyse(key, response)`` gives the six types of the 2022 human-judgment study and Kummerfeld &
Klein's (2013) categories per document, each error itemised with the rule that fired, and the F1
each metric gains when only the errors of one category are repaired. The module ``inject`` makes
responses with known errors from a key (``python -m corefeval.studies.errors.inject``).
"""

from __future__ import annotations

from .analysis import Analysis, DocumentErrors, analyse
from .items import KK_TYPES, TYPES, Edit, ErrorItem
from .typology import classify

__all__ = ["KK_TYPES", "TYPES", "Analysis", "DocumentErrors", "Edit", "ErrorItem", "analyse", "classify"]
