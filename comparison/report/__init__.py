"""Report: what a run shows, on the terminal, in a plot and in a web page.

    terminal    the screen: progress bar, tables, lists, --list
    plot        the cactus and effort plots (matplotlib)
    page        the --html page (see page/__init__.py)
"""
