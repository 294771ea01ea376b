"""What a run does: compare.py's options by their names, checked as they are given."""
from __future__ import annotations

import dataclasses
import importlib.util
from dataclasses import dataclass

from puzzles import Budget
from puzzles.fpuzzles import check_accepted
from puzzles.options import ALL
from puzzles.sudokupad import DECORATIONS

from .errors import UsageError

INSTALL = "pip install 'sudoku-search[cluster]'"  # what --cluster needs


@dataclass
class Settings:
    """What a run does: compare.py's options by their names (compare.py builds them from its command line)."""

    files: list[str] = dataclasses.field(default_factory=list)
    methods: list[str] | None = None  # --solver: NAME[:key=value,...] specs (a label is one); None: all
    command: list[str] | None = None  # --command specs
    registry: list[str] | None = None  # --registry modules
    timeout: float = 10.0
    nodes: int | None = None
    solutions: int = 1  # 1, 2 (prove unique), or N > 2: count up to N (puzzles.options.ALL for `all`)
    limit: int | None = None
    sample: int | None = None
    seed: int = 0
    isomorphs: int | None = None
    jobs: int | None = None
    certify: bool = True
    input_format: str | None = None
    decorations: str = "refuse"  # a cosmetic element of an f-puzzles or SudokuPad puzzle: refuse or ignore it
    cluster: str | None = None  # a Dask scheduler's address, or local:N (cluster.py); None: the local pool
    candidates: bool = False  # each puzzle's true candidates found (by SAT, making/candidates.py) and recorded
    accept_fields: tuple[str, ...] = ()  # fields of f-puzzles or SudokuPad puzzles read and ignored, else unknown

    def __post_init__(self) -> None:  # argparse checks these on the command line; Python callers get the same
        for name in ("timeout", "nodes", "limit", "sample", "isomorphs", "jobs"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise UsageError(f"{name}={value!r} must be greater than 0")
        if self.decorations not in DECORATIONS:
            raise UsageError(f"decorations={self.decorations!r}: {' or '.join(DECORATIONS)}")
        try:
            check_accepted(self.accept_fields)
        except ValueError as exc:
            raise UsageError(f"--accept-fields: {exc}") from None
        if isinstance(self.solutions, bool) or not isinstance(self.solutions, int) or self.solutions < 1:
            raise UsageError(f"solutions={self.solutions!r}: a whole number, 1 or more (ALL: count up to {ALL})")
        if self.cluster is not None:
            if self.jobs is not None:
                raise UsageError("--jobs is for the local pool; a --cluster runs on its own workers")
            check_cluster(self.cluster)

    @property
    def budget(self) -> Budget:
        return Budget(seconds=self.timeout, nodes=self.nodes)


def check_cluster(address: str) -> int | None:
    """UsageError unless Dask distributed is installed and the address is `local:N` or a scheduler's;
    N for a local cluster, None for a scheduler."""
    if importlib.util.find_spec("distributed") is None:
        raise UsageError(f"--cluster needs Dask distributed: {INSTALL}")
    if not address.startswith("local:"):
        return None
    try:
        workers = int(address.removeprefix("local:"))
    except ValueError:
        workers = 0
    if workers < 1:
        raise UsageError(f"--cluster {address}: say local:N with N worker processes (N at least 1), "
                         "or a scheduler's address such as tcp://host:8786")
    return workers
