"""Report: what a run shows, on the terminal, in a plot and in a web page.

Its modules, one job each, are named in comparison/__init__.py.
"""
