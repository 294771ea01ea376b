"""comparison/__init__.py's index names every module of comparison/ under its folder, and nothing that is not there:
the map a reader of compare.py's parts starts from (docs/architecture.md) cannot leave a module out unseen."""
from __future__ import annotations

import re
from pathlib import Path

import comparison

PACKAGE = Path(comparison.__file__).resolve().parent
# an entry: a name at a depth of four spaces a folder (`report/`, then `    page/`, then `        html`), its
# description after two spaces or more; a description's next lines are indented past every name
ENTRY = re.compile(r"^((?:    )*)(\w+)(/?) {2,}\S")


def named(index: str) -> set[str]:
    """The paths the index names, relative to the package: `programs/ladder.py`, `report/page/`."""
    found: set[str] = set()
    folders: list[str] = []
    for line in index.splitlines():
        entry = ENTRY.match(line)
        if entry is None:
            continue
        depth = len(entry.group(1)) // 4
        if depth > len(folders):
            raise ValueError(f"the index's {line.strip()!r} is indented under no folder")
        folders = folders[:depth]
        if entry.group(3):
            found.add("/".join([*folders, entry.group(2)]) + "/")
            folders.append(entry.group(2))
        else:
            found.add("/".join([*folders, entry.group(2)]) + ".py")
    return found


def modules(package: Path) -> set[str]:
    """Every module of the package as the index names it: a subpackage by its folder, the package's own __init__
    not at all."""
    found = set()
    for source in package.rglob("*.py"):
        path = source.relative_to(package)
        found.add(f"{path.parent.as_posix()}/" if path.name == "__init__.py" else path.as_posix())
    return found - {"./"}


def unindexed(package: Path) -> tuple[set[str], set[str]]:
    """(the modules the package's index does not name, the names of the index that are not in the package)."""
    index = named((package / "__init__.py").read_text(encoding="utf-8"))
    return modules(package) - index, {name for name in index if not (package / name).exists()}


def test_the_index_names_every_module_of_comparison() -> None:
    assert unindexed(PACKAGE) == (set(), set())


def test_a_module_left_out_or_gone_is_found(tmp_path: Path) -> None:
    """The check above can fail: a module the index does not name, and a name whose module is gone."""
    for path in ("__init__.py", "alone.py", "deep/__init__.py", "deep/kept.py", "deep/forgotten.py",
                 "deep/deeper/__init__.py", "deep/deeper/inner.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    (tmp_path / "__init__.py").write_text('"""A package.\n\n'
                                          'alone        one module\n'
                                          'deep/        a folder\n'
                                          '    kept     its module\n'
                                          '             (a description on two lines)\n'
                                          '    deeper/  a folder in it\n'
                                          '        inner  its module\n'
                                          '    gone     a module removed\n"""\n')
    assert unindexed(tmp_path) == ({"deep/forgotten.py"}, {"deep/gone.py"})
