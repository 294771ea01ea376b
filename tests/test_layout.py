"""Arrows point one way: compare.py -> search, formulations -> puzzles; inside comparison/, the run -> report ->
records -> judging -> execution; and no package's modules import each other in a circle (docs/architecture.md)."""
from __future__ import annotations

import ast
import graphlib
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


PACKAGES = ("puzzles", "search", "formulations", "comparison")
# comparison's subpackages, each above the ones after it: a module may import its own subpackage and those below
LAYERS = ("report", "records", "judging", "execution")
# the run's vocabulary, at the top of comparison/, which any subpackage may import; the other top modules (the
# run, the ladder, the tracker) import the subpackages, and nothing imports them but compare.py
VOCABULARY = {"settings", "errors", "methods", "stream", "paths"}


def module_name(source: Path) -> str:
    parts = list(source.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_of(package: str) -> dict[str, Path]:
    return {module_name(source): source for source in sorted((ROOT / package).rglob("*.py"))}


def imports_of(source: Path, known: dict[str, Path]) -> set[str]:
    """The modules of the project that `source` imports: at its top, in functions and under TYPE_CHECKING alike;
    `from package import module` counts the module; the packages around `source` do not count."""
    name = module_name(source)
    package = name if source.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[:len(base) - node.level + 1] if node.level else []
            target = ".".join([*base, *([node.module] if node.module else [])])
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    ancestors = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}  # imported before it anyway
    return {m for m in found if m in known and m != name and m not in ancestors}


def graph_of(package: str) -> dict[str, set[str]]:
    known = modules_of(package)
    return {name: imports_of(source, known) for name, source in known.items()}


def test_the_import_graph_sees_every_kind_of_import(tmp_path):
    """The reader that the next tests rely on: relative, absolute, in a function, under TYPE_CHECKING."""
    graph = graph_of("comparison")
    assert "comparison.run" in graph["comparison"]  # from .run import ...
    assert "comparison.execution.external" in graph["comparison.methods"]  # from .execution.external import ...
    assert "comparison.report.page.figures" in graph["comparison.report.page.html"]  # from . import figures
    assert "comparison.report.plot" in graph["comparison.report.page.html"]  # an import inside a function
    assert "comparison.stream" in graph["comparison.records.resume"]  # from ..stream import where
    assert "comparison" not in graph["comparison.execution.pool"]  # the parent package is not an import


# no known cycle: search/trace/ as a package (record.py, view.py, __main__.py) removed the last one
KNOWN_CYCLES: dict[str, list[tuple[str, str]]] = {}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_inside_a_package(package):
    graph = graph_of(package)
    for importer, imported in KNOWN_CYCLES.get(package, []):
        graph.get(importer, set()).discard(imported)
    assert len(graph) > 3
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"{package}: its modules import each other in a circle: {' -> '.join(exc.args[1])}")


def test_a_cycle_is_found():
    """The check above fails on a circle (that it passes is not for want of looking)."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}}
    with pytest.raises(graphlib.CycleError):
        tuple(graphlib.TopologicalSorter(graph).static_order())


def place(module: str) -> str:
    """A module of comparison/ as the layers see it: its subpackage, 'vocabulary', or 'run'."""
    parts = module.split(".")
    if len(parts) > 2:
        return parts[1]
    return "vocabulary" if parts[-1] in VOCABULARY else "run"


def allowed(importer: str, imported: str) -> bool:
    here, there = place(importer), place(imported)
    if here == "run" or here == there:
        return True
    if there == "run":  # nothing but the run imports the run
        return False
    if here == "vocabulary":  # the vocabulary stands on execution (external programs, the cluster's address)
        return there == "execution"
    return there == "vocabulary" or LAYERS.index(there) > LAYERS.index(here)


def test_comparison_subpackages_import_downwards():
    graph = graph_of("comparison")
    assert {place(m) for m in graph} == {"run", "vocabulary", *LAYERS}
    wrong = sorted(f"{importer} imports {imported}" for importer, imports in graph.items()
                   for imported in imports if not allowed(importer, imported))
    assert not wrong, "\n".join(wrong)


def test_test_modules_do_not_import_each_other():
    """What several test modules share is in tests/fixtures.py (or conftest.py), not borrowed from a test module."""
    tests = ROOT / "tests"
    names = {source.stem for source in tests.glob("test_*.py")}
    for source in sorted(tests.glob("*.py")):
        borrowed = {name.removeprefix("tests.") for name in imported_modules(source)} & names
        assert not borrowed, f"{source.name} imports {sorted(borrowed)}"


def imported_modules(source: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("importer, imported, ok", [
    ("comparison.report.terminal", "comparison.records.format", True),
    ("comparison.records.resume", "comparison.judging.stats", True),
    ("comparison.execution.pool", "comparison.methods", True),
    ("comparison.methods", "comparison.execution.external", True),
    ("comparison.run", "comparison.report.page.html", True),
    ("comparison.execution.pool", "comparison.judging.judge", False),
    ("comparison.records.format", "comparison.report.terminal", False),
    ("comparison.report.page.html", "comparison.run", False),
    ("comparison.records.resume", "comparison.tracker", False),
    ("comparison.methods", "comparison.judging.judge", False),
])
def test_the_direction_rule_itself(importer, imported, ok):
    """What the layering above allows and refuses, on the imports it was written against."""
    assert allowed(importer, imported) is ok
