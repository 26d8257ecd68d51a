"""corefeval: coreference resolution evaluation."""

__version__ = "0.1.0"
