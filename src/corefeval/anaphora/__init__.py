"""Universal Anaphora: documents with identity, non-referring, split-antecedent, bridging and
discourse-deixis layers, and the measures the Universal Anaphora scorer defines on them."""
