"""The files a run writes, checked before it starts: never an input, always writable, a format that exists."""
from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from .errors import UsageError

PLOT_SUFFIXES = (".png", ".pdf", ".svg", ".jpg", ".jpeg")
HTML_SUFFIXES = (".html", ".htm")


def check_outputs(outputs: dict[str, str | None], inputs: Sequence[str]) -> None:
    """UsageError if an output (option -> path) is an input, another output, or cannot be written.

    The same file by another name counts: a symbolic or hard link, or the file behind standard input.
    """
    given = {option: path for option, path in outputs.items() if path is not None}
    for option, path in given.items():
        writable(option, path)
        for name in inputs:
            if same_file(path, name):
                shown = "standard input" if name == "-" else name
                raise UsageError(f"{option} {path}: that is the input {shown}; writing it would destroy it")
    paths = list(given.items())
    for i, (option, path) in enumerate(paths):
        for other, other_path in paths[i + 1:]:
            if same_file(path, other_path) or os.path.abspath(path) == os.path.abspath(other_path):
                raise UsageError(f"{option} and {other} name the same file, {path}")


def check_plot(path: str | None) -> None:
    if path is not None and Path(path).suffix.lower() not in PLOT_SUFFIXES:
        raise UsageError(f"--plot {path}: name a {', '.join(PLOT_SUFFIXES)} file")


def check_html(path: str | None) -> None:
    if path is not None and Path(path).suffix.lower() not in HTML_SUFFIXES:
        raise UsageError(f"--html {path}: name a {' or '.join(HTML_SUFFIXES)} file")


def same_file(path: str, other: str) -> bool:
    """Whether `path` is the file `other` names ('-': the file behind standard input), when both exist."""
    try:
        mine = os.stat(path)
        theirs = os.fstat(0) if other == "-" else os.stat(other)
    except (OSError, ValueError):
        return False
    if not stat.S_ISREG(mine.st_mode):  # /dev/stdout, a pipe, a terminal: not a file to destroy
        return False
    return (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)


def writable(option: str, path: str) -> None:
    """UsageError unless `path` can be created or overwritten (without touching it now)."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{option} {path}: is a folder")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise UsageError(f"{option} {path}: not permitted to write it")
        return
    folder = target.parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {path}: not permitted to write in {folder}")
