"""A kind of constraint lives in one module: no module outside puzzles/constraints/ and the formulations' encoder
registries names one (docs/architecture.md, "Constraints: one module a kind"). The code is read for the kinds'
names, their f-puzzles fields and their classes: a layer that wrote `if kind == "thermometer"` would know the rule
in a second place, and the next kind would have to be added there too."""
from __future__ import annotations

import ast
from pathlib import Path

from puzzles.constraints import CONSTRAINT_KINDS

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ("puzzles", "search", "formulations", "making", "comparison", "commands")
# where a kind may be named: its own module and the registry, and each formulation's encoders by kind
OWNERS = ("puzzles/constraints/", "formulations/constraints/")
NAMES = {name for kind in CONSTRAINT_KINDS.values() for name in (kind.KIND, kind.FIELD)}
CLASSES = {kind.__name__ for kind in CONSTRAINT_KINDS.values()}
# The Killer cage is a kind too (puzzles/constraints/killer.py) and its cages are held in `Layout.constraints`; these
# modules still name it, each for what it still states by its own path (each leaves this list when it asks the
# kind instead). `killer` in search/ and the ladder is also the name of a rung (`propagate=killer`).
STILL_NAMING_CAGES = {
    "puzzles/layouts.py": "`Layout.cages`, the view, and `family`/`named`/`layout`'s `cages` arguments",
    "search/inference.py": "the rung named killer",
    "search/rules.py": "the rung named killer",
    "comparison/programs/ladder.py": "the rung named killer",
}
KILLER_NAMES = {"Cage", "'killer'", "'killercage'"}


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstrings' nodes: words for the reader, not code."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def namings(source: Path) -> list[str]:
    """Each place in `source` that names a kind of constraint: a string equal to a kind's name or field, or a
    kind's class."""
    tree = ast.parse(source.read_text())
    skip = docstrings(tree)
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


def test_no_layer_names_a_kind_of_constraint() -> None:
    sources = [ROOT / "compare.py", *(s for package in LIBRARY for s in sorted((ROOT / package).rglob("*.py")))]
    named = {str(s.relative_to(ROOT)): found for s in sources
             if not str(s.relative_to(ROOT)).startswith(OWNERS) and (found := namings(s))}
    other_kinds = {path: kept for path, found in named.items()
                   if (kept := [f for f in found if not any(f.endswith(n) for n in KILLER_NAMES)])}
    assert other_kinds == {}
    assert set(named) == set(STILL_NAMING_CAGES)  # a module that no longer names cages leaves the list


def test_the_reader_finds_a_kind_named(tmp_path: Path) -> None:
    """The check above can fail: code that names a kind is found, in each of the three ways."""
    sample = tmp_path / "sample.py"
    sample.write_text('from puzzles.constraints import Thermometer\nif kind == "thermometer":\n    pass\n'
                      'x = {"antiknight": True}\n')
    assert sorted(namings(sample)) == ["2: 'thermometer'", "4: 'antiknight'", "import of Thermometer"]
