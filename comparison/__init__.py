"""The parts of compare.py, one job a module; compare.py's docstring tells how they run together.

`compare(files, solvers=[...], timeout=5)` is compare.py from Python (see run.py).

    run        one run from settings: records as puzzles finish, the summary, the report; compare()
    methods    choosing methods: registries, --registry modules, --command programs, `NAME[:key=value,...]`,
               the certifier
    external   a solver as a program in any language, speaking the solver protocol over pipes
    stream     the puzzle stream: good entries in order, bad ones aside, --sample, --isomorphs
    pool       the worker processes: chunks of items, timeouts, crashes
    cluster    the same chunks as Dask tasks, each through a pool of one on its Dask worker (--cluster)
    resume     --resume: the judged puzzles of an output file kept, its settings checked, the rest run
    processes  worker process groups (and their programs' groups) that never outlive the run
    interrupts SIGINT and SIGTERM: the run stops cleanly, a second signal at once
    result     one run's result, the typed record from worker to report
    paths      the files a run writes, checked before it starts
    judge      the verdict on one puzzle's answers
    stats      what each method did, and the bounded summary of a run
    records    one record per (puzzle, method), CSV or JSON lines
    tracker    following puzzles through the run: items out, results in, judged and recorded
    report     the screen: progress bar, tables, lists, --list
    plot       the cactus and effort plots
    ladder     compare.py --ladder: which rungs of both ladders settle each puzzle without a guess
"""
from .run import Comparison, compare

__all__ = ["Comparison", "compare"]
