"""`python -m search.trace` is `sudoku-trace` (commands/trace.py)."""

if __name__ == "__main__":  # an entry point: the command at the top of the house (tests/test_layout.py)
    from commands.trace import main

    raise SystemExit(main())
