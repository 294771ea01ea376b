"""The run's vocabulary, at the bottom of comparison/: what every layer above may name (imports only puzzles)."""
