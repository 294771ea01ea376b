"""Arrows point one way: compare.py -> search, formulations -> puzzles (docs/architecture.md)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMMAND = {"compare", "comparison"}
# what each package must never import
FORBIDDEN = {
    "puzzles": {"search", "formulations"} | COMMAND,
    "search": {"formulations"} | COMMAND,
    "formulations": {"search"} | COMMAND,
    "comparison": {"compare"},
}


def imported_packages(source: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_one_way(package):
    sources = sorted((ROOT / package).glob("*.py"))
    assert sources
    for source in sources:
        wrong = imported_packages(source) & FORBIDDEN[package]
        assert not wrong, f"{source.relative_to(ROOT)} imports {sorted(wrong)}"
