"""One run of methods on puzzles: chosen methods, the puzzles followed through the pool, judged and recorded."""
