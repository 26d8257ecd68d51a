"""Gender-bias benchmarks: GAP (:mod:`.gap`) and WinoBias (:mod:`.winobias`)."""
