"""The run's errors: what compare.py turns into one clear line on stderr and an exit status."""
from __future__ import annotations

# The exit statuses of compare.py, its --fuzz and --ladder, and sudoku-generate: one meaning each.
EXIT_OK = 0
EXIT_FAILED = 1  # an invalid answer or a disagreement (with --fuzz: a failure found)
EXIT_USAGE = 2  # a usage error, an unreadable input, records that could not be written
EXIT_ERRORS = 3  # a method's error records (a crash, junk output, a protocol error): the software under test failed
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143  # 128 + SIGINT, SIGTERM


class UsageError(Exception):
    """A bad command line or an unreadable file: one clear line on stderr, exit status 2."""
