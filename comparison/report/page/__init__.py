"""The --html page: one self-contained file of the run, its tables, plots and the puzzles that went wrong.

    html        the page: sections, tables, the ladder, written as the run goes
    runbook     the records of the run kept for the page: the notable puzzles, each method's runs
    figures     the page's charts as data: cactus and effort series
    svg         inline SVG charts when matplotlib is absent
    watch       --watch: one puzzle searched step by step by each hand-written method, for the player
    static/     the page's template, style and script
"""
