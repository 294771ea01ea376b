"""Making puzzles: every kind the project makes (kinds.KINDS, and a Killer's kinds.KILLER_KINDS), from full
grids (solutions) certified unique by SAT (certify), made minimal (minimal) or moved (moves, the hard search's
step), Killer cages drawn over a solution (killer), and failing puzzles shrunk (shrink). minimal and shrink
are pure algorithms: the oracle (`unique`, `fails`) is passed in.

Above search and formulations, below comparison: it uses SAT to certify, and compare.py's programs (the
fuzzer, the hard search) and the generator use it.
"""
