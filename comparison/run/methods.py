"""Choosing methods: the registries, --registry modules, --command programs, `NAME[:key=value,...]` specs and
the certifier."""
from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from puzzles import Budget, Method
from puzzles.options import MethodSpec, OptionError

from ..core.errors import UsageError
from ..core.selected import Selected
from ..execution.external import Command


def search_methods() -> dict[str, Method]:
    import search

    return search.SOLVERS


def formulation_methods() -> dict[str, Method]:
    import formulations  # ortools and PySAT: imported only when a chosen method needs them

    return formulations.SOLVERS


REGISTRIES = (("search", search_methods), ("formulations", formulation_methods))  # merged in this order


def load_registry(wanted: Iterable[str] | None = None) -> dict[str, Method]:
    """search.SOLVERS then formulations.SOLVERS; a package that fails to import is skipped with a warning.

    With `wanted` names, the packages after the first that registers them all are not imported:
    `--solver mrv` starts without ortools.
    """
    registry: dict[str, Method] = {}
    for package, methods in REGISTRIES:
        if wanted is not None and registry and all(name in registry for name in wanted):
            break
        try:
            registry.update(methods())
        except Exception as exc:  # a broken package must not hide the others
            warn(f"{package} cannot be imported ({type(exc).__name__}: {exc}); its methods are left out")
    return registry


def extra_methods(modules: Sequence[str]) -> dict[str, Method]:
    """The SOLVERS of each --registry module: a solver of your own, compared with the project's."""
    if modules and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # a module beside the user, as `python -m` would find it
    found: dict[str, Method] = {}
    for name in modules:
        try:
            module = importlib.import_module(name)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit too: a module that exits while imported is the user's to fix
            raise UsageError(f"--registry {name}: cannot import it ({type(exc).__name__}: {exc})") from None
        solvers = getattr(module, "SOLVERS", None)
        if not isinstance(solvers, dict):
            raise UsageError(f"--registry {name}: it has no SOLVERS dict (name -> puzzles.Method)")
        for key, method in solvers.items():
            if not isinstance(key, str) or not key or ":" in key or "," in key:
                raise UsageError(f"--registry {name}: SOLVERS key {key!r} is not a method name "
                                 "(a non-empty string without ':' or ',')")
            if not isinstance(method, Method):
                raise UsageError(f"--registry {name}: SOLVERS[{key!r}] is a {type(method).__name__}, not a "
                                 "puzzles.Method (wrap your solve: Method(solve, 'what it does'))")
        found.update(solvers)
    return found


def command_methods(specs: Sequence[str], taken: Iterable[str]) -> dict[str, Method]:
    """The methods of --command specs, `NAME[:mode=...,input=...]='program and its arguments'` (external.py)."""
    found: dict[str, Method] = {}
    taken = set(taken)
    for spec in specs:
        try:
            command = Command.parse(spec)
        except ValueError as exc:
            raise UsageError(f"--command {spec}: {exc}") from None
        if command.name in taken or command.name in found:
            raise UsageError(f"--command {spec}: there is a method {command.name!r} already; choose another name")
        found[command.name] = command.method()
    return found


def command_name(spec: str) -> str:
    """The NAME of a --command spec, `NAME[:options]=program`."""
    return spec.partition("=")[0].partition(":")[0].strip()


def check_commands_selected(commands: Sequence[str], solvers: Sequence[str] | None) -> None:
    """UsageError for a --command method that an explicit --solver list leaves out: it would never run."""
    if not solvers:
        return  # no --solver: every method runs, the commands' too
    chosen = {MethodSpec.name_of(spec) for spec in solvers}
    for spec in commands:
        name = command_name(spec)
        if name not in chosen:
            raise UsageError(f"--command {spec}: the method {name!r} is not among the --solver methods, so it "
                             f"would not run; add --solver {name} (or leave out every --solver to run all)")


def parse_solver(spec: str, registry: dict[str, Method], solutions: int, budget: Budget) -> Selected:
    """`NAME[:key=value,...]` -> Selected; option names are checked here, values by the method's own check."""
    name = MethodSpec.name_of(spec)
    if name not in registry:
        raise UsageError(f"unknown method {name!r} in --solver {spec}; registered: {', '.join(registry) or 'none'}")
    method = registry[name]
    try:
        parsed = MethodSpec.parse(spec)
    except OptionError as exc:
        raise UsageError(f"--solver {spec}: {exc}") from None
    unknown = parsed.unknown_option(list(dict.fromkeys([*method.options, "solutions"])))
    if unknown:
        raise UsageError(f"--solver {spec}: {unknown}")
    options: dict[str, Any] = dict(parsed.options)
    problem = method.check(budget, **{"solutions": solutions, **options}) if isinstance(method, Method) else None
    if problem:  # a bad value, or a budget it cannot keep, would make every run an error: refuse it now
        raise UsageError(f"--solver {spec}: {name}: {problem}")
    return Selected(parsed.label, method, {"solutions": solutions, **options})


def select_methods(specs: Sequence[str] | None, registry: dict[str, Method], solutions: int,
                   budget: Budget) -> list[Selected]:
    if not registry:
        raise UsageError("no method is registered (search.SOLVERS and formulations.SOLVERS are empty)")
    chosen = [parse_solver(s, registry, solutions, budget) for s in specs or registry]
    unique = {s.label: s for s in chosen}  # the same label twice runs once
    return list(unique.values())


def warn(message: str) -> None:
    print(f"compare.py: warning: {message}", file=sys.stderr)
