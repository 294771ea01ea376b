"""A kind of constraint lives in one module: no module outside puzzles/constraints/ and the formulations' encoder
registries names one (docs/architecture.md, "Constraints: one module a kind"). The code is read for the kinds'
names, their f-puzzles fields and their classes: a layer that wrote `if kind == "thermometer"` would know the rule
in a second place, and the next kind would have to be added there too."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from puzzles.constraints import CONSTRAINT_KINDS
from search.rules import CAGE_RUNG_NAMES

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ("puzzles", "search", "formulations", "making", "comparison", "commands")
# where a kind may be named: its own module and the registry, and each formulation's encoders by kind
OWNERS = ("puzzles/constraints/", "formulations/constraints/")
NAMES = {name for kind in CONSTRAINT_KINDS.values() for name in (kind.KIND, kind.FIELD)}
CLASSES = {kind.__name__ for kind in CONSTRAINT_KINDS.values()}
# `killer` is also a rung's name (`mrv:propagate=killer`, which records name): the Killer rungs' names are said once,
# in this assignment, and read from it everywhere else; a string there is a rung's name, not a kind's. Anywhere
# else (a second list of rung names, `if kind == "killer"`) the same string is a naming.
RUNG_NAMES_SAID = ("search/rules.py", "CAGE_RUNG_NAMES")


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstrings' nodes: words for the reader, not code."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def rung_names(tree: ast.Module) -> set[int]:
    """The ids of the strings of the module's assignment to the Killer rungs' names (`RUNG_NAMES_SAID`)."""
    found = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == RUNG_NAMES_SAID[1]
                                                for t in node.targets):
            found |= {id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant)}
    return found


def namings(source: Path, rungs_said: bool = False) -> list[str]:
    """Each place in `source` that names a kind of constraint: a string equal to a kind's name or field, or a
    kind's class. `rungs_said`: the module says the Killer rungs' names (`RUNG_NAMES_SAID`), which are not
    namings."""
    tree = ast.parse(source.read_text())
    skip = docstrings(tree) | (rung_names(tree) if rungs_said else set())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip \
                and node.value in NAMES:
            found.append(f"{node.lineno}: {node.value!r}")
        elif (isinstance(node, ast.Name) and node.id in CLASSES) or (isinstance(node, ast.Attribute) \
                and node.attr in CLASSES):
            found.append(f"{node.lineno}: {node.id if isinstance(node, ast.Name) else node.attr}")
        elif isinstance(node, ast.alias) and node.name in CLASSES:
            found.append(f"import of {node.name}")
    return found


@pytest.mark.slow
def test_no_layer_names_a_kind_of_constraint() -> None:
    sources = [ROOT / "compare.py", *(s for package in LIBRARY for s in sorted((ROOT / package).rglob("*.py")))]
    named = {path: found for s in sources
             if not (path := str(s.relative_to(ROOT))).startswith(OWNERS)
             and (found := namings(s, rungs_said=path == RUNG_NAMES_SAID[0]))}
    assert named == {}


def test_the_rung_names_said_are_the_rungs() -> None:
    """What the check above lets pass is the Killer rungs' names, as the searches import them, and nothing more:
    without the exception the module names a kind once for each rung name that is a kind's name."""
    source = ROOT / RUNG_NAMES_SAID[0]
    tree = ast.parse(source.read_text())
    said = tuple(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) in rung_names(tree))
    assert said == CAGE_RUNG_NAMES
    assert len(namings(source)) == len(set(CAGE_RUNG_NAMES) & NAMES) == 1


def test_the_reader_finds_a_kind_named(tmp_path: Path) -> None:
    """The check above can fail: code that names a kind is found, in each of the three ways."""
    sample = tmp_path / "sample.py"
    sample.write_text('from puzzles.constraints import Thermometer\nif kind == "thermometer":\n    pass\n'
                      'x = {"antiknight": True}\nCAGE_RUNG_NAMES = ("killer",)\nif rung == "killer":\n    pass\n')
    assert sorted(namings(sample)) == ["2: 'thermometer'", "4: 'antiknight'", "5: 'killer'", "6: 'killer'",
                                       "import of Thermometer"]
    assert sorted(namings(sample, rungs_said=True)) == ["2: 'thermometer'", "4: 'antiknight'", "6: 'killer'",
                                                        "import of Thermometer"]
