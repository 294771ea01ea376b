"""Execution: running the methods, wherever they run, and never leaving a process behind.

Its modules, one job each, are named in comparison/__init__.py.
"""
