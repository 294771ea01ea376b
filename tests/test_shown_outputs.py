"""The outputs the pages show are the code's: each block after a `<!-- shown: NAME -->` marker is compared,
whole, with a fresh run of its commands (tests/shown.py; times and the like masked). When one fails,
`python tests/shown.py --write NAME` writes the block again from the code, to be read before it is kept."""
from __future__ import annotations

from functools import cache

import pytest
import shown

BLOCKS = list(shown.blocks())


@cache
def fresh(name: str) -> tuple[str, tuple[str, ...]]:
    text, wrong = shown.run(shown.SHOWN[name])
    return text, tuple(wrong)


def params() -> list[object]:
    """One test an output: the blocks that show the same one (the README's and the tutorial's seeds-run) are
    checked against one run of its commands, wherever the suite's workers (pytest-xdist) take the test."""
    marks = {name: [pytest.mark.slow] if s.slow else [] for name, s in shown.SHOWN.items()}
    by_name: dict[str, list[shown.Block]] = {}
    for b in BLOCKS:
        by_name.setdefault(b.name, []).append(b)
    return [pytest.param(blocks, id="+".join(f"{b.page.relative_to(shown.ROOT)}:{b.name}" for b in blocks),
                         marks=marks.get(name, [])) for name, blocks in by_name.items()]


@pytest.mark.parametrize("blocks", params())
def test_a_shown_block_is_what_its_commands_print(blocks: list[shown.Block]) -> None:
    name = blocks[0].name
    assert name in shown.SHOWN, f"{blocks[0].page.name}: no command is known for the block '{name}'"
    text, wrong = fresh(name)
    assert not wrong, "; ".join(wrong)
    for block in blocks:
        diff = shown.difference(shown.SHOWN[name], block.text, text)
        assert not diff, f"{block.page.name} shows what the code no longer prints " \
                         f"(python tests/shown.py --write {name}):\n{diff}"


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
