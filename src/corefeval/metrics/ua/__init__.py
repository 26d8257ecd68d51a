"""The Universal Anaphora scorer's measures over items (mentions and split antecedents): the identity
metrics by its names, the alignment of split antecedents, and a document's counts of every measure."""
