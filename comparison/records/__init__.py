"""Records: one per (puzzle, method), written as CSV or JSON lines, and read back to resume a run.

Its modules, one job each, are named in comparison/__init__.py.
"""
