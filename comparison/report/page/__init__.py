"""The --html page: one self-contained file of the run, its tables, plots and the puzzles that went wrong.

Its modules, one job each, are named in comparison/__init__.py.
"""
