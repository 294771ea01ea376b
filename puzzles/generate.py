"""`python -m puzzles.generate` is `sudoku-generate` (commands/generate.py); making puzzles lives in making/."""

if __name__ == "__main__":  # an entry point: the command at the top of the house (tests/test_layout.py)
    from commands.generate import main

    raise SystemExit(main())
