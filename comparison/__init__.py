"""The parts of compare.py, one job a module, in layers: each imports its own layer and those below it, never
one above (docs/architecture.md; tests/test_layout.py). compare.py's docstring tells how they run together. The
index below names every module, under its folder (tests/test_comparison_index.py).

`compare(files, solvers=[...], timeout=5)` is compare.py from Python (run/comparison.py).

programs/        the programs built on the run
    ladder       compare.py --ladder: which rungs of both ladders settle each puzzle without a guess
    fuzz         compare.py --fuzz: the methods on made puzzles against a trusted one, each failure shrunk
    to_order     sudoku-generate --minimal / --hard-for: puzzles made to order, written as a puzzle file
    hard_search  the local search in tdoku's manner behind --hard-for: a pool of scored puzzles, rescored
    steps        sudoku-check --steps: a logic solver run on each puzzle, its every step checked against the
                 true candidates (making/steps.py), a puzzle it is unsound on shrunk; compare.py --fuzz --steps:
                 the same on made puzzles
run/             one run
    comparison   one run from settings: records as puzzles finish (typed; dicts for the Python API), the
                 summary, the report; compare()
    tracker      following puzzles through the run: items out, results in, judged and recorded
    methods      choosing methods: registries, --registry modules, --command programs, method specs
    batch        a run on puzzles made in memory, its results typed (judging's Judged)
report/          what a run shows
    terminal     the screen: progress bar, tables, lists, --list
    plot         the cactus and effort plots
    page/        the --html page: one self-contained file of the run
        html     the page: sections, tables, the ladder, written as the run goes
        runbook  the records of the run kept for the page: the notable puzzles, each method's runs
        figures  figures beyond the terminal's tables: PAR-2, rank correlation, the spread over isomorphs
        svg      small inline SVG charts, for what matplotlib does not draw or when it is absent
        player   --watch: one puzzle's search by each hand-written method, as data for the page's player
        houses   a puzzle's houses, cages and constraints drawn cell by cell, for the drawn grids and the player
        static/  the page's template, style and script
records/         the record format
    format       one record per (puzzle, method), typed (Record, made from a judged puzzle) for the page, the
                 ladder and compare.py; its fields, its line written and read back, CSV or JSON lines
    resume       --resume: the judged puzzles of an output file kept, its settings checked, the rest run
    recheck      --resume's distrust: each kept answer checked against its puzzle and judged again
judging/         the verdicts
    judge        the verdict on one puzzle's answers, each method's failure class; Judged, the typed result
    stats        what each method did, and the bounded summary of a run
execution/       running the methods, wherever they run
    check        one method on one puzzle, its Outcome held to the contract: run_one, counters, facts
    pool         the worker processes: chunks of items, timeouts, crashes
    cluster      the same chunks as Dask tasks, each through a pool of one on its Dask worker (--cluster)
    processes    worker process groups (and their programs' groups) that never outlive the run
    interrupts   SIGINT and SIGTERM: the run stops cleanly, a second signal at once
    external     a solver as a program in any language, speaking the solver protocol over pipes
    result       one run's result, the typed record from worker to judge, stats and records
core/            the vocabulary every layer names
    settings     what a run does: compare.py's options by their names, checked
    errors       UsageError (one line on stderr, exit status 2) and the exit statuses
    selected     a method as a run holds it (its label and options), and the certifier
    stream       the puzzle stream: good entries in order, bad ones aside, --sample, --isomorphs
    paths        the files a run writes, checked before it starts
"""
from .run.comparison import Comparison, compare

__all__ = ["Comparison", "compare"]
