"""The outputs the pages show are the code's: each block after a `<!-- shown: NAME -->` marker is compared,
whole, with a fresh run of its commands (tests/shown.py; times and the like masked). When one fails,
`python tests/shown.py --write NAME` writes the block again from the code, to be read before it is kept."""
from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from functools import cache

import pytest
import shown

BLOCKS = list(shown.blocks())


@pytest.fixture(scope="session")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[str, tuple[str, ...]]]:
    """A block's fresh text and wrong exit statuses, its commands run once in the whole session: the pages that
    show the same output (the README's and the tutorial's seeds-run) read one run, on whichever of the suite's
    workers (pytest-xdist) asks first; the others wait for it, under a lock in the folder all workers share."""
    base = tmp_path_factory.getbasetemp()  # under pytest-xdist a worker's own, in the session's folder
    shared = base.parent if "PYTEST_XDIST_WORKER" in os.environ else base

    @cache
    def once(name: str) -> tuple[str, tuple[str, ...]]:
        kept = shared / f"shown-{name}.json"
        with (shared / f"shown-{name}.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not kept.exists():
                text, wrong = shown.run(shown.SHOWN[name])
                kept.write_text(json.dumps([text, wrong]))
            text, wrong = json.loads(kept.read_text())
        return text, tuple(wrong)
    return once


def params() -> list[object]:
    marks = {name: [pytest.mark.slow] if s.slow else [] for name, s in shown.SHOWN.items()}
    return [pytest.param(b, id=f"{b.page.relative_to(shown.ROOT)}:{b.name}", marks=marks.get(b.name, []))
            for b in BLOCKS]


@pytest.mark.parametrize("block", params())
def test_a_shown_block_is_what_its_commands_print(
        block: shown.Block, fresh: Callable[[str], tuple[str, tuple[str, ...]]]) -> None:
    assert block.name in shown.SHOWN, f"{block.page.name}: no command is known for the block '{block.name}'"
    text, wrong = fresh(block.name)
    assert not wrong, "; ".join(wrong)
    diff = shown.difference(shown.SHOWN[block.name], block.text, text)
    assert not diff, f"{block.page.name} shows what the code no longer prints " \
                     f"(python tests/shown.py --write {block.name}):\n{diff}"


def test_every_output_known_is_shown_somewhere() -> None:
    assert set(shown.SHOWN) <= {b.name for b in BLOCKS}


def test_the_mask_hides_times_and_nothing_else() -> None:
    report = ("kernels: compiled (mypyc)\n"
              "f.txt: 2 puzzles x 2 methods in 3.21 s wall, 2 workers (54% busy), timeout 10 s\n"
              "┏━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━┓\n"
              "┃ method┃ gave up (why) ┃ median s ┃\n"
              "│ slow  │    1 (1 time) │     10.0 │\n"
              "│ fast  │             0 │    0.001 │\n"
              "┃ method┃         nodes ┃  guesses ┃\n"
              "│ slow  │     5,000 / 9 │    3 / 1 │\n"
              "│       │   forced 12 / │          │\n"
              "│ fast  │         9 / 9 │    0 / 0 │\n"
              "Puzzles where methods gave up: 2\n  f.txt:9 b: slow (time)\n  f.txt:2 a: slow (time)\n")
    masked = shown.masked_compare(report)
    assert masked == ("kernels: #\n"
                      "f.txt: 2 puzzles x 2 methods in # s wall, 2 workers (#% busy), timeout 10 s\n"
                      "method|gave up (why)|median s\n"
                      "slow|1 (1 time)|#\n"
                      "fast|0|#\n"
                      "method|nodes|guesses\n"
                      "slow|#|#\n"
                      "|#|\n"
                      "fast|9 / 9|0 / 0\n"
                      "Puzzles where methods gave up: 2\n  f.txt:2 a: slow (time)\n  f.txt:9 b: slow (time)\n")
    # a count that moves is seen: the fast method's nodes are held to the digit
    assert shown.masked_compare(report.replace("9 / 9", "9 / 8")) != masked
