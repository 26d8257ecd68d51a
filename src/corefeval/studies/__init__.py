"""Studies of a score: breakdowns, error analysis, the human-judgment study and the bias benchmarks."""
