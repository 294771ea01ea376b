"""The contract's one option layer (puzzles.options), on its own and under every solver."""
from __future__ import annotations

import pytest
from fixtures import SEED000

import formulations.cpsat
import search.inference
from formulations import SOLVERS as FORMULATIONS
from puzzles import Budget, Grid, Outcome, Status
from puzzles.options import (
    SOLUTIONS,
    Option,
    OptionError,
    contract,
    describe,
    on_off,
    optional_whole,
    parse,
    real,
    switch,
    whole,
    whole_or,
)
from search import SOLVERS as SEARCHES

EVERY = {**SEARCHES, **FORMULATIONS}

SPEC = {
    "colour": Option("red", "the colour", ("red", "green")),
    "fast": switch(True, "go fast"),
    "depth": Option(3, "how deep", convert=whole(1, 9)),
    "limit": Option("auto", "a limit, none or auto", convert=optional_whole(0, "auto")),
    "weight": Option(1.0, "a weight", convert=real(0)),
}


# -- converters -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("on", True), ("OFF", False), (" yes ", True), ("no", False), ("true", True), ("0", False),
    ("1", True), (True, True), (False, False),
])
def test_switches_read_on_and_off(text, value):
    assert on_off(text) is value


@pytest.mark.parametrize("value", ["maybe", "", 2, None])
def test_a_switch_refuses_anything_else(value):
    with pytest.raises(ValueError, match="on or off"):
        on_off(value)


def test_whole_numbers_from_text_and_numbers():
    convert = whole(1, 64)
    assert convert("7") == 7 and convert(" 64 ") == 64 and convert(1) == 1 and convert(2.0) == 2
    for bad, why in [("x", "whole number"), ("2.5", "whole number"), (2.5, "whole number"),
                     (True, "whole number"), (0, "1..64"), ("65", "1..64")]:
        with pytest.raises(ValueError, match=why):
            convert(bad)
    with pytest.raises(ValueError, match=">= 0"):
        whole(0)(-1)


def test_optional_whole_numbers():
    convert = optional_whole(0, "auto")
    assert convert(None) is None and convert("none") is None and convert("None") is None
    assert convert("AUTO") == "auto" and convert("12") == 12 and convert(0) == 0
    with pytest.raises(ValueError):
        convert(-1)
    with pytest.raises(ValueError):
        optional_whole(0)("auto")  # no words: auto is not a number


def test_whole_or_a_word():
    convert = whole_or(1, "auto")
    assert convert("auto") == "auto" and convert(" Auto ") == "auto" and convert("500") == 500 and convert(7) == 7
    for bad in [None, "none", "0", 0, "fast", 2.5]:
        with pytest.raises(ValueError):
            convert(bad)


def test_reals():
    convert = real(0)
    assert convert("1.5") == 1.5 and convert(0) == 0.0
    for bad in ["heavy", -1, "inf", "nan", True, None]:
        with pytest.raises(ValueError, match="expected a finite number >= 0"):
            convert(bad)


# -- parse and describe -----------------------------------------------------------------------

def test_defaults_are_filled_in_and_strings_converted():
    assert parse(SPEC, {}) == {"colour": "red", "fast": True, "depth": 3, "limit": "auto", "weight": 1.0}
    chosen = parse(SPEC, {"colour": " Green", "fast": "off", "depth": "9", "limit": "none", "weight": "0.5"})
    assert chosen == {"colour": "green", "fast": False, "depth": 9, "limit": None, "weight": 0.5}


@pytest.mark.parametrize("given, message", [
    ({"color": "red"}, "unknown option 'color' (its options: colour, fast, depth, limit, weight, solutions)"),
    ({"b": 1, "a": 2}, "unknown options 'a', 'b'"),
    ({"colour": "blue"}, "option colour='blue': choose one of red, green"),
    ({"fast": "maybe"}, "option fast='maybe': expected on or off"),
    ({"depth": "x"}, "option depth='x': expected a whole number"),
    ({"depth": 10}, "option depth=10: expected 1..9"),
    ({"limit": -3}, "option limit=-3"),
    ({"weight": "heavy"}, "option weight='heavy'"),
])
def test_bad_names_and_values_say_what_is_wrong(given, message):
    with pytest.raises(OptionError) as caught:
        parse(SPEC, given)
    assert message in str(caught.value)


def test_descriptions_name_choices_and_defaults():
    texts = describe(SPEC)
    assert list(texts) == ["solutions", *SPEC]
    assert texts["solutions"] == SOLUTIONS.describe() and "(default 1)" in texts["solutions"]
    assert texts["colour"] == "red|green (default red): the colour"
    assert texts["fast"] == "on|off (default on): go fast"
    assert texts["depth"] == "how deep (default 3)"
    assert switch(False, "x").describe() == "on|off (default off): x"


# -- the wrapper ------------------------------------------------------------------------------

@contract("toy", SPEC)
def toy(grid: Grid, budget: Budget, solutions: int, options: dict, started: float) -> Outcome:
    """A toy solve that reports what it was given, or fails on request."""
    if options["colour"] == "green":
        raise RuntimeError("green is broken")
    return Outcome(Status.GAVE_UP, detail="toy", info={"budget": budget, "solutions": solutions, **options})


def test_the_wrapper_hands_over_converted_options():
    out = toy(Grid.parse(SEED000), solutions="2", fast="off", depth="5")
    assert out.status is Status.GAVE_UP
    assert out.info == {"budget": Budget(), "solutions": 2, "colour": "red", "fast": False, "depth": 5,
                        "limit": "auto", "weight": 1.0}
    assert toy.__name__ == "toy" and "toy solve" in toy.__doc__


@pytest.mark.parametrize("arguments, message", [
    ({"colour": "blue"}, "toy: option colour='blue': choose one of red, green"),
    ({"shade": "dark"}, "toy: unknown option 'shade' (its options: colour, fast, depth, limit, weight, solutions)"),
    ({"solutions": 0}, "toy: option solutions=0: expected a whole number >= 1"),
    ({"solutions": "two"}, "toy: option solutions='two': expected a whole number"),
    ({"colour": "green"}, "toy failed: RuntimeError: green is broken"),
])
def test_the_wrapper_turns_every_problem_into_an_error_outcome(arguments, message):
    out = toy(Grid.parse(SEED000), **arguments)
    assert out.status is Status.ERROR and out.detail == message and out.seconds >= 0


def test_the_wrapper_checks_grid_and_budget():
    out = toy(Grid.parse("11" + "." * 79))
    assert out.status is Status.ERROR and out.detail == "toy: invalid puzzle: two 1s in row 1; two 1s in box 1"
    out = toy(SEED000)
    assert out.status is Status.ERROR and "takes a Grid, not str" in out.detail
    out = toy(Grid.parse(SEED000), 5)
    assert out.status is Status.ERROR and "budget must be a Budget, not int" in out.detail
    assert toy(Grid.parse(SEED000), None).info["budget"] == Budget()


# -- every solver is under it -----------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(EVERY))
def test_every_solver_documents_solutions_and_refuses_unknown_options(name):
    method = EVERY[name]
    assert method.options["solutions"] == SOLUTIONS.describe()
    out = method(Grid.parse(SEED000), colour="red")
    assert out.status is Status.ERROR and "unknown option 'colour'" in out.detail


@pytest.mark.parametrize("name", sorted(EVERY))
def test_every_solver_reports_an_invalid_puzzle(name):
    out = EVERY[name](Grid.parse("7" + SEED000[1:]))
    assert out.status is Status.ERROR and "invalid puzzle: two 7s in row 1" in out.detail


def test_an_exception_inside_a_real_solve_is_an_error_outcome(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("inside the search")

    monkeypatch.setitem(search.inference.MAKE_RUNG, "none", broken)  # (a dict: compiled or not, read at each solve)
    monkeypatch.setattr(formulations.cpsat, "SudokuModel", broken)
    for name, method in [("mrv", SEARCHES["mrv"]), ("cpsat", FORMULATIONS["cpsat"])]:
        out = method(Grid.parse(SEED000))
        assert out.status is Status.ERROR
        assert out.detail == f"{name} failed: ZeroDivisionError: inside the search"


def test_a_method_checks_its_options_without_solving():
    mrv = SEARCHES["mrv"]
    assert mrv.check(propagate="singles", tie="swap", solutions="2") is None
    assert "choose one of none, naked, singles, locked, subsets, alldiff, pairs, probe" in mrv.check(propagate="lots")
    assert "unknown option 'colour'" in mrv.check(colour="red")
    assert "solutions" in FORMULATIONS["cpsat"].check(solutions=0)
    assert FORMULATIONS["cpsat"].check(solutions="all") is None and FORMULATIONS["cpsat"].check(solutions=7) is None
