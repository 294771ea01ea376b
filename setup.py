"""The compiled build: mypyc turns the hot modules (puzzles/kernels.py lists them) into C extensions, from the
same .py files; the metadata is pyproject.toml's.

Where that cannot be done (no C compiler, no Python headers, mypyc refusing a module), the install still
succeeds and the packages run interpreted; the manifest says why, and compare.py's first line repeats it.
After a build that compiled every module, the manifest holds each source's sha256: puzzles/kernels.py uses
the compiled modules only while every source is the one they were built from.

With SUDOKU_SEARCH_GUIDED=1 the build is profile-guided (GCC's -fprofile-generate and -fprofile-use): compiled
once with counters, trained on making/guided.py's runs, compiled again laid out for what the runs took. The
training runs in the environment installed into (pip's isolated build path left out), so its dependencies must be
there already (a second install); where a step cannot be done, the modules are compiled as usual and the build says
why.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
GUIDED = "SUDOKU_SEARCH_GUIDED"  # 1: a profile-guided build


def kernels_module() -> ModuleType:
    """puzzles/kernels.py read on its own (standard library only): the list of modules, the manifest."""
    spec = importlib.util.spec_from_file_location("kernels_for_setup", ROOT / "puzzles" / "kernels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


kernels = kernels_module()


class BuildKernels(build_ext):
    """build_ext that compiles the kernels with mypyc, and installs interpreted when it cannot."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.failure: str | None = None  # why there is no compiled build
        self.guided = False  # built from a training's profile

    def finalize_options(self) -> None:
        # mypyc translates to C here, once a process, and only when something is built (not for the metadata)
        if not set(self.distribution.commands) <= {"egg_info", "dist_info"}:
            self.distribution.ext_modules, self.failure = translated()
        super().finalize_options()

    def run(self) -> None:
        if self.failure is None:
            try:
                if os.environ.get(GUIDED, "").strip() == "1":
                    self.run_guided()
                else:
                    super().run()
            except Exception as error:  # the compiler or the linker failed, or is missing
                self.failure = f"the C build failed ({describe(error)})"
        if self.failure is not None:
            print(f"sudoku-search: {self.failure}; installing without compiled kernels (interpreted)",
                  file=sys.stderr)
            self.remove_partial_build()
        self.write_manifest()

    def run_guided(self) -> None:
        """Compiled with counters, trained, compiled again with the counts; compiled as usual (and said why)
        where a step fails (a compiler other than GCC, an older GCC, a training without the dependencies)."""
        profiles = tempfile.mkdtemp(prefix="sudoku-search-profiles-")
        named = self.compiler  # the option: each pass makes its compiler object of it
        own = {e.name: (list(e.extra_compile_args), list(e.extra_link_args)) for e in self.extensions}  # mypyc's

        def compile_with(flags: list[str], linked: bool) -> None:
            """Every extension built again, with these compiler flags beside mypyc's (and the linker's, `linked`)."""
            self.compiler = named
            for extension in self.extensions:
                compile_args, link_args = own[extension.name]
                extension.extra_compile_args = [*compile_args, *flags]
                extension.extra_link_args = [*link_args, *(flags if linked else [])]
            self.force = True
            super(BuildKernels, self).run()

        try:
            compile_with([f"-fprofile-generate={profiles}", "-fprofile-update=single"], linked=True)
            self.write_manifest()  # the counted modules load as compiled for the training
            where = ROOT if self.inplace or getattr(self, "editable_mode", False) else Path(self.build_lib)
            # PYTHONPATH replaced: not pip's isolated build environment, but the one installed into
            done = subprocess.run([sys.executable, "-m", "making.guided", str(ROOT)], cwd=where,
                                  env={**os.environ, "PYTHONPATH": str(where)}, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"its training failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
            compile_with([f"-fprofile-use={profiles}", "-fprofile-partial-training", "-Wno-missing-profile"],
                         linked=False)
            self.guided = True
        except Exception as error:
            print(f"sudoku-search: no profile-guided build ({describe(error)}); compiled as usual", file=sys.stderr)
            compile_with([], linked=False)
        finally:
            shutil.rmtree(profiles, ignore_errors=True)

    def remove_partial_build(self) -> None:
        """All or nothing: no extension of a build that failed is left beside the sources."""
        for module in (*kernels.MODULES, f"{kernels.GROUP}__mypyc"):
            for folder in (ROOT, Path(self.build_lib)):
                kernels.extension_of(module, folder).unlink(missing_ok=True)

    def write_manifest(self) -> None:
        record = kernels.failed(self.failure) if self.failure else kernels.manifest(ROOT, guided=self.guided)
        text = json.dumps(record, indent=1, sort_keys=True) + "\n"
        targets = [Path(self.build_lib) / kernels.MANIFEST.relative_to(ROOT)]
        if self.inplace or getattr(self, "editable_mode", False):
            targets.append(kernels.MANIFEST)
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)


@functools.cache
def translated() -> tuple[list[Extension], str | None]:
    """mypyc's extensions for the kernels, or none and why."""
    try:
        from mypyc.build import mypycify

        paths = [str(kernels.source_of(module, ROOT).relative_to(ROOT)) for module in kernels.MODULES]
        extensions = mypycify(paths, opt_level="3", group_name=kernels.GROUP)
        if sys.platform != "win32":  # (MSVC has no such flag, and a DLL's own calls are direct)
            for extension in extensions:
                # the modules' small functions (a literal's variable, a mask's bit) inlined where they are
                # called, not called through the library's symbol table as if another library might replace them
                if "-fno-semantic-interposition" not in extension.extra_compile_args:  # (a list they may share)
                    extension.extra_compile_args.append("-fno-semantic-interposition")
        return extensions, None
    except (Exception, SystemExit) as error:  # mypy's errors end in SystemExit
        return [], f"mypyc could not translate the modules ({describe(error)})"


def describe(error: BaseException) -> str:
    """The error's kind and the start of its message: one short line for compare.py's first line."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return type(error).__name__ + (f": {message[:60]}" + ("..." if len(message) > 60 else "") if message else "")


# One placeholder extension makes the wheel platform-specific and runs build_ext; BuildKernels swaps in
# mypyc's extensions when the build starts.
setup(ext_modules=[Extension(f"{kernels.GROUP}__mypyc", sources=[])], cmdclass={"build_ext": BuildKernels})
