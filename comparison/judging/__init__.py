"""Judging: the verdict on each puzzle's answers, and what each method did over the run.

Its modules, one job each, are named in comparison/__init__.py.
"""
