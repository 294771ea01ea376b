"""`python -m puzzles` is `sudoku-check` (commands/check.py): how many puzzles of each size, every bad entry."""

if __name__ == "__main__":  # an entry point: the command at the top of the house (tests/test_layout.py)
    from commands.check import main

    raise SystemExit(main())
