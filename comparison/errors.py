"""The run's errors: what compare.py turns into one clear line on stderr and an exit status."""
from __future__ import annotations


class UsageError(Exception):
    """A bad command line or an unreadable file: one clear line on stderr, exit status 2."""
