"""Judging: the verdict on each puzzle's answers, and what each method did over the run.

    judge       the verdict on one puzzle's answers
    stats       what each method did, and the bounded summary of a run
"""
