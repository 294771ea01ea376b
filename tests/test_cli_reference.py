"""docs/reference/cli.md against the programs' own argument parsers: every option of every program is named in
that program's section, and a section names no option its program lacks. Each parser is caught as its program
builds it (argparse's parse_args raises with the parser in hand), so no program is changed to be read."""
from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference" / "cli.md"

# (the heading of its section in docs/reference/cli.md, the module, its function that parses the command line):
# a program added to the project is one line here, and the test asks its section of the reference for each flag
PROGRAMS = [
    ("sudoku-compare", "compare", "main"),
    ("sudoku-trace", "commands.trace", "main"),
    ("sudoku-generate", "commands.generate", "main"),
    ("sudoku-check", "commands.check", "main"),
    ("sudoku-export", "commands.export", "main"),
    ("sudoku-data", "commands.data", "main"),
    ("benchmarks/versus_pycosat.py", "benchmarks.versus_pycosat", "main"),
    ("benchmarks/sat_setup.py", "benchmarks.sat_setup", "main"),
    ("benchmarks/kernels.py", "benchmarks.kernels", "main"),
    ("benchmarks/hard_for.py", "benchmarks.hard_for", "main"),
    ("benchmarks/cluster_vs_pool.py", "benchmarks.cluster_vs_pool", "main"),
    ("benchmarks/same_behaviour.py", "benchmarks.same_behaviour", "main"),
]
OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")  # -h, --solver, --watch-steps
IGNORED = {"-h", "--help"}  # every program has them, from argparse


class Caught(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__(parser.prog)
        self.parser = parser


def catch(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> NoReturn:
    raise Caught(self)


def parser_of(module: str, function: str, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser the program builds, caught when it parses (with no arguments, as the mains that read sys.argv
    see them too)."""
    try:
        main: Callable[..., Any] = getattr(importlib.import_module(module), function)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            pytest.skip(f"{module} is not part of this checkout")
        raise
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", catch)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", catch)
    monkeypatch.setattr(sys, "argv", [module])
    with pytest.raises(Caught) as caught:
        main()
    return caught.value.parser


def words_of(parser: argparse.ArgumentParser) -> Iterator[str]:
    """Each option string of the parser, and each subcommand with its own options."""
    for action in parser._actions:
        yield from (option for option in action.option_strings if option not in IGNORED)
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield name
                yield from words_of(sub)


def section(name: str) -> str:
    """The text of the section of the reference whose heading names the program (up to the next heading of its
    level or above)."""
    text = REFERENCE.read_text(encoding="utf-8")
    found = re.search(rf"^(#+) [^\n]*{re.escape(name)}[^\n]*\n", text, re.M)
    assert found, f"docs/reference/cli.md has no section for {name}: a heading that names it"
    level = len(found.group(1))
    rest = text[found.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[:end.start()] if end else rest


@pytest.mark.parametrize(("name", "module", "function"), PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_the_reference_names_every_option_of_each_program(name: str, module: str, function: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    parser = parser_of(module, function, monkeypatch)
    text = section(name)
    options = set(words_of(parser))
    named = {word for word in OPTION.findall(text) if word.startswith("--")}  # (-m, -e: python's and pip's)
    missing = sorted(o for o in options if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", text))
    assert not missing, f"docs/reference/cli.md, section {name}: not a word of {missing}"
    unknown = sorted(o for o in named if o not in options and o not in IGNORED)
    assert not unknown, f"docs/reference/cli.md, section {name}: options {name} does not have: {unknown}"


def test_the_catch_sees_an_option_added() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--new-flag")
    sub = parser.add_subparsers().add_parser("fetch")
    sub.add_argument("--all")
    assert set(words_of(parser)) == {"--new-flag", "fetch", "--all"}
