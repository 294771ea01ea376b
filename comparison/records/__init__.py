"""Records: one per (puzzle, method), written as CSV or JSON lines, and read back to resume a run.

    format      the record's fields, the records of a run, the writer
    resume      --resume: the judged puzzles of an output file kept, its settings checked, the rest run
"""
