"""The parts of compare.py, one job a module; compare.py's docstring tells how they run together.

`compare(files, solvers=[...], timeout=5)` is compare.py from Python (see run.py).

The run, at the top (it may import every subpackage; none imports it):
    run          one run from settings: records as puzzles finish, the summary, the report; compare()
    ladder       compare.py --ladder: which rungs of both ladders settle each puzzle without a guess
    tracker      following puzzles through the run: items out, results in, judged and recorded
    batch        a run on puzzles made in memory (the generator's and the fuzzer's), its records read back
    fuzz         compare.py --fuzz: the methods on generated puzzles against a trusted one, each failure shrunk
    made         python -m puzzles.generate --minimal / --hard-for: puzzles made to order
    hard_search  the local search in tdoku's manner behind --hard-for: moves, scores, a pool of the best
The run's vocabulary, at the top too (any subpackage may import these):
    settings     what a run does: compare.py's options by their names, checked
    errors       UsageError: a bad command line or file, one line on stderr and exit status 2
    methods      choosing methods: registries, --registry modules, --command programs, `NAME[:key=value,...]`,
                 the certifier
    stream       the puzzle stream: good entries in order, bad ones aside, --sample, --isomorphs
    paths        the files a run writes, checked before it starts
execution/       running the methods, wherever they run (imports only the vocabulary)
    check        one method on one puzzle, its Outcome held to the contract: run_one, counters, facts
    pool         the worker processes: chunks of items, timeouts, crashes
    cluster      the same chunks as Dask tasks, each through a pool of one on its Dask worker (--cluster)
    processes    worker process groups (and their programs' groups) that never outlive the run
    interrupts   SIGINT and SIGTERM: the run stops cleanly, a second signal at once
    external     a solver as a program in any language, speaking the solver protocol over pipes
    result       one run's result, the typed record from worker to judge, stats and records
judging/         the verdicts (imports execution)
    judge        the verdict on one puzzle's answers
    stats        what each method did, and the bounded summary of a run
records/         the record format (imports judging, execution)
    format       one record per (puzzle, method): its fields and types, written and read back, CSV or JSON lines
    resume       --resume: the judged puzzles of an output file kept, its settings checked, the rest run
    recheck      --resume's distrust: each kept answer checked against its puzzle and judged again
report/          what a run shows (imports records, judging, execution)
    terminal     the screen: progress bar, tables, lists, --list
    plot         the cactus and effort plots
    page/        the --html page: html, runbook, figures, svg, watch, static/
"""
from .run.comparison import Comparison, compare

__all__ = ["Comparison", "compare"]
