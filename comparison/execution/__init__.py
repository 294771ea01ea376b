"""Execution: running the methods, wherever they run, and never leaving a process behind.

    pool        the worker processes: chunks of items, timeouts, crashes
    cluster     the same chunks as Dask tasks, each through a pool of one on its Dask worker (--cluster)
    processes   worker process groups (and their programs' groups) that never outlive the run
    interrupts  SIGINT and SIGTERM: the run stops cleanly, a second signal at once
    external    a solver as a program in any language, speaking the solver protocol over pipes
    result      one run's result, the typed record from worker to judge, stats and records
"""
