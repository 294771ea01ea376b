"""popcount (puzzles/bits.py), the one way the compiled modules count a mask's bits, against the obvious count."""
from __future__ import annotations

import random

from puzzles.bits import popcount


def test_popcount_counts_the_bits_of_every_mask_a_puzzle_has():
    rng = random.Random(5)
    edges = [0, 1, 0x1FFF, 0x2000, 0x3FFF, (1 << 25) - 1, 1 << 24, (1 << 26) - 1]
    masks = [*edges, *range(1 << 10), *(rng.getrandbits(rng.randint(1, 26)) for _ in range(5000))]
    assert [popcount(m) for m in masks] == [bin(m).count("1") for m in masks]
