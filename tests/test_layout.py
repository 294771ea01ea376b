"""Arrows point one way: commands, compare.py -> comparison -> making -> search, formulations -> puzzles; inside
comparison/, programs -> run -> report -> records -> judging -> execution -> core; and no module of the project
imports another in a circle (docs/architecture.md). The import reader counts every kind of import: relative and
absolute, in a function, under TYPE_CHECKING or `if __name__ == "__main__"`, and
`importlib.import_module("a.literal")`."""
from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# bottom to top; a package may import those below it, never one above or beside it
PACKAGES = ("puzzles", "search", "formulations", "making", "comparison", "commands")
BESIDE = {"search": {"formulations"}, "formulations": {"search"}}  # the two middle packages know nothing of each other
# the packages a package must never import
FORBIDDEN = {package: {*PACKAGES[i + 1:], *BESIDE.get(package, ()), "compare"} for i, package in enumerate(PACKAGES)}
# inside comparison/, top to bottom: a module imports its own layer and those below it
LAYERS = ("programs", "run", "report", "records", "judging", "execution", "core")
CORE = PACKAGES[:4]  # the domain core: puzzles, search, formulations, making
TOP = ("comparison", "commands", "compare")  # the top of the house, that runs the core


def module_name(source: Path, root: Path = ROOT) -> str:
    parts = list(source.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_of(package: str, root: Path = ROOT) -> dict[str, Path]:
    """Every module of a package, its subpackages' included."""
    return {module_name(source, root): source for source in sorted((root / package).rglob("*.py"))}


def string_import(node: ast.AST) -> str | None:
    """The module a literal names in `importlib.import_module("...")` or `__import__("...")`, if `node` is one."""
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    value = node.args[0].value
    return value if name in ("import_module", "__import__") and isinstance(value, str) else None


def string_imports(tree: ast.AST) -> set[str]:
    return {name for node in ast.walk(tree) if (name := string_import(node)) is not None}


def raw_imports(source: Path, name: str) -> set[str]:
    """The dotted names `source` imports (`name` is its module), wherever they stand: under
    `if __name__ == "__main__":` too, so that a module of the core run as `python -m` cannot reach the top."""
    package = name if source.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(source.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[:len(base) - node.level + 1] if node.level else []
            target = ".".join([*base, *([node.module] if node.module else [])])
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif (named := string_import(node)) is not None:
            found.add(named)
    return found


def imports_of(source: Path, known: dict[str, Path], root: Path = ROOT) -> set[str]:
    """The modules of `known` that `source` imports; `from package import module` counts
    the module; the packages around `source` do not count (they are imported before it anyway)."""
    name = module_name(source, root)
    ancestors = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    return {m for m in raw_imports(source, name) if m in known and m != name and m not in ancestors}


def graph_of(packages: tuple[str, ...] | list[str], root: Path = ROOT) -> dict[str, set[str]]:
    known = {name: path for package in packages for name, path in modules_of(package, root).items()}
    return {name: imports_of(source, known, root) for name, source in known.items()}


def top(name: str) -> str:
    return name.split(".")[0]


@pytest.mark.slow
def test_the_import_graph_sees_every_kind_of_import():
    """The reader that the next tests rely on: relative, absolute, in a function, under TYPE_CHECKING."""
    graph = graph_of(["comparison"])
    assert "comparison.run.comparison" in graph["comparison"]  # from .run.comparison import ...
    assert "comparison.execution.external" in graph["comparison.run.methods"]  # from ..execution.external import
    assert "comparison.report.page.figures" in graph["comparison.report.page.html"]  # from . import figures
    assert "comparison.report.plot" in graph["comparison.report.page.html"]  # an import inside a function
    assert "comparison.core.stream" in graph["comparison.records.resume"]  # from ..core.stream import where
    assert "comparison" not in graph["comparison.execution.pool"]  # the parent package is not an import
    everything = graph_of(PACKAGES)
    assert "formulations" in everything["comparison.run.methods"]  # `import formulations` in a function


def plant(root: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def test_a_cycle_is_found_through_a_string_and_a_subpackage(tmp_path):
    """The checks below fail on a circle, one hidden in a subpackage and closed by a string (not for want of
    looking): the project's own reader on a planted package."""
    plant(tmp_path, {
        "planted/__init__.py": "",
        "planted/a.py": "from .deep import b\n",
        "planted/deep/__init__.py": "",
        "planted/deep/b.py": "import importlib\n\n\ndef later():\n    return importlib.import_module('planted.c')\n",
        "planted/c.py": "from planted import a\n",
    })
    graph = graph_of(["planted"], tmp_path)
    assert graph["planted.deep.b"] == {"planted.c"}
    with pytest.raises(graphlib.CycleError):
        tuple(graphlib.TopologicalSorter(graph).static_order())


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_point_one_way(package):
    """Every module of the package, in every subpackage, imports no package above or beside it."""
    sources = modules_of(package)
    assert sources
    for name, source in sources.items():
        wrong = {top(m) for m in raw_imports(source, name)} & FORBIDDEN[package]
        assert not wrong, f"{source.relative_to(ROOT)} imports {sorted(wrong)}"


def imports_of_the_top(root: Path = ROOT) -> list[str]:
    """Each import of the top of the house (commands/, comparison/, compare.py) by a module of the core."""
    return [f"{source.relative_to(root)} imports {imported}" for package in CORE
            for name, source in modules_of(package, root).items()
            for imported in sorted(raw_imports(source, name)) if top(imported) in TOP]


@pytest.mark.slow
def test_no_module_of_the_core_imports_the_top():
    """The core can be read and reused without the commands: no `python -m` alias in it runs one (the console
    scripts are the commands' names; `python -m commands.NAME` runs one in a checkout not installed)."""
    assert imports_of_the_top() == []


def test_an_import_of_the_top_is_found_wherever_it_stands(tmp_path):
    """The check above can fail: an alias's entry point, an import in a function, by a string, under
    TYPE_CHECKING, each found in a planted core."""
    plant(tmp_path, {
        "puzzles/__init__.py": "",
        "puzzles/__main__.py": "if __name__ == '__main__':\n    from commands.check import main\n\n    main()\n",
        "search/trace/__init__.py": "",
        "search/trace/view.py": "def later():\n    from comparison.run import batch\n    return batch\n",
        "formulations/export.py": "import importlib\n\nMAIN = importlib.import_module('commands.export')\n",
        "making/kinds.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import compare\n",
    })
    assert imports_of_the_top(tmp_path) == [
        "puzzles/__main__.py imports commands.check", "puzzles/__main__.py imports commands.check.main",
        "search/trace/view.py imports comparison.run", "search/trace/view.py imports comparison.run.batch",
        "formulations/export.py imports commands.export", "making/kinds.py imports compare"]


@pytest.mark.slow
def test_no_module_is_imported_by_a_string():
    """An import the reader sees is one the direction rules check: none of the project's is hidden in a string."""
    for package in PACKAGES:
        for source in modules_of(package).values():
            hidden = {s for s in string_imports(ast.parse(source.read_text())) if top(s) in {*PACKAGES, "compare"}}
            assert not hidden, f"{source.relative_to(ROOT)} imports {sorted(hidden)} by a string"


@pytest.mark.slow
def test_no_import_cycle_in_the_project():
    """No modules of the project import each other in a circle, within a package or across packages."""
    graph = graph_of(PACKAGES)
    assert len(graph) > 50
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"modules import each other in a circle: {' -> '.join(exc.args[1])}")


def place(module: str) -> str:
    """A module of comparison/ as the layers see it: its subpackage; the package's own API (its __init__, which
    offers compare() and Comparison) stands at the top, with the programs."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "programs"


def allowed(importer: str, imported: str) -> bool:
    return LAYERS.index(place(imported)) >= LAYERS.index(place(importer))


def test_every_module_of_comparison_lies_in_a_layer():
    names = modules_of("comparison")
    outside = sorted(n for n in names if n != "comparison" and place(n) not in LAYERS)
    assert not outside, f"modules of comparison/ outside its layers {LAYERS}: {outside}"


def test_comparison_layers_import_downwards():
    """No exemption: every layer, the programs and the run included, imports only its own and those below."""
    graph = graph_of(["comparison"])
    assert {place(m) for m in graph} == set(LAYERS)
    wrong = sorted(f"{importer} imports {imported}" for importer, imports in graph.items()
                   for imported in imports if not allowed(importer, imported))
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
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
    ("comparison.execution.pool", "comparison.core.selected", True),
    ("comparison.run.methods", "comparison.execution.external", True),
    ("comparison.run.comparison", "comparison.report.page.html", True),
    ("comparison.programs.fuzz", "comparison.run.batch", True),
    ("comparison", "comparison.run.comparison", True),
    ("comparison.execution.pool", "comparison.judging.judge", False),
    ("comparison.records.format", "comparison.report.terminal", False),
    ("comparison.report.page.html", "comparison.run.comparison", False),
    ("comparison.records.resume", "comparison.run.tracker", False),
    ("comparison.core.settings", "comparison.execution.cluster", False),
    ("comparison.run.batch", "comparison.programs.fuzz", False),
])
def test_the_direction_rule_itself(importer, imported, ok):
    """What the layering above allows and refuses, on the imports it was written against."""
    assert allowed(importer, imported) is ok
