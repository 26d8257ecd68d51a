"""The core: the document model, zeros, spans, names, messages, progress, the run options and the
metric names, and maximum-weight matching. Every other layer builds on these; they import nothing above."""
