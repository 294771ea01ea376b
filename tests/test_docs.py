"""The documentation against the repository: paths, links, the pages generated from the code, the
version in one place, and the console scripts the README promises."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import formulations
import puzzles
import search
from comparison import compare
from puzzles import Grid, Method
from search.trace import trace

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

# An absolute path into a user's or a machine's folders: a folder of FOLDERS at the root, or a Windows
# user's folder; not when it is part of a longer path or of an address (a web server's folder of that name).
FOLDERS = ("home", "root", "work", "Users", "mnt", "srv", "tmp")
ABSOLUTE = re.compile(r"(?<![\w.~:/-])(?:/(?:" + "|".join(FOLDERS) + r")/|[A-Za-z]:\\Users\\)")
LINK = re.compile(r"\]\(([^)\s]+)\)")  # a Markdown link's target


def tracked_files() -> list[Path]:
    """The files git tracks (the tree a clone gets); every file but the venv's and caches' without git."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.CalledProcessError):
        skip = {".venv", ".git", "site", "build", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache"}
        return [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]
    return [ROOT / name for name in out.stdout.decode().split("\0") if name]


def text_of(path: Path) -> str | None:
    """The file's text, or None when it is not UTF-8 text (an image, say)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_no_tracked_file_holds_an_absolute_path_into_a_machines_folders() -> None:
    found = []
    for path in tracked_files():
        if not path.exists():  # deleted in the work tree, not yet committed
            continue
        text = text_of(path)
        for number, line in enumerate((text or "").splitlines(), 1):
            if ABSOLUTE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "absolute paths (use paths relative to the repository):\n" + "\n".join(found)


def test_no_tracked_file_cites_a_document_outside_the_repository() -> None:
    # the design notes, the seed posts and the collections' notes live beside the repository, not in a
    # clone: docs/architecture.md, docs/methods/searches.md and docs/reference/data.md hold what they said
    outside = re.compile("|".join(re.escape(name) for name in ("DESIGN" + ".md", "shared/" + "seeds",
                                                                 "data/" + "README")))
    found = [f"{path.relative_to(ROOT)}:{number}" for path in tracked_files() if path.exists()
             for number, line in enumerate((text_of(path) or "").splitlines(), 1) if outside.search(line)]
    assert not found, "cites a document outside the repository: " + ", ".join(found)


def test_the_pattern_finds_what_it_should_and_not_addresses() -> None:
    # (the paths are built here, so that this file holds none itself)
    for folder in FOLDERS:
        assert ABSOLUTE.search(f"python compare.py /{folder}/alice/puzzles.txt")
        assert ABSOLUTE.search(f"`/{folder}/shared/data/9x9`")
        assert not ABSOLUTE.search(f"http://www.example.org/{folder}/frisch/sudoku.html")
    assert ABSOLUTE.search("C:" + "\\Users\\bob\\data.csv")
    assert not ABSOLUTE.search("../shared/data/9x9/top95.txt and docs/reference/cli.md")
    assert not ABSOLUTE.search("~/work/project")


def markdown_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):  # an address, or this page
            continue
        path = target.split("#", 1)[0]
        if not (page.parent / path).exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: links to nothing: {broken}"


def test_the_readme_stays_short_and_its_test_command_is_cis() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    commands = re.search(r"```bash\n(.*?)\n```", readme, re.S)
    assert commands, "the README's quick start has its two commands in a bash block"
    first, second = commands.group(1).splitlines()[:2]
    assert first == "pip install -e . && python compare.py"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().splitlines()[-1]
    assert ci == second, "CI runs exactly the README's test command"


def options_block(name: str, method: Method) -> str:
    """What a methods page says of a method's options and counters: generated from its declaration."""
    lines = [f"<!-- options:{name} -->", *(f"- `{option}`: {text}" for option, text in method.options.items()),
             "", "Counters: " + ", ".join(f"`{c}`" for c in method.counters) + ".", "<!-- /options -->"]
    return "\n".join(lines)


@pytest.mark.parametrize(("page", "registry"), [("methods/formulations.md", formulations.SOLVERS),
                                                ("methods/searches.md", search.SOLVERS)])
def test_the_methods_pages_say_what_each_method_declares(page: str, registry: dict[str, Method]) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    for name, method in registry.items():
        expected = options_block(name, method)
        assert expected in text, f"docs/{page} drifted from {name}'s declaration; its block should read:\n{expected}"
    blocks = re.findall(r"<!-- options:([\w-]+) -->", text)
    assert sorted(blocks) == sorted(registry), "a block for each registered method, and none other"


def test_the_effort_pages_count_by_hand_is_the_searchs_own() -> None:
    # docs/concepts/effort.md counts backtracking's and MRV's effort on puzzles/seeds.txt:13 by hand
    grid = Grid.parse("3..1...2.3..2...")
    for spec, counts in (("backtracking", {"nodes": 17, "guesses": 3, "backtracks": 6}),
                         ("mrv", {"nodes": 11, "guesses": 0, "backtracks": 0})):
        outcome = search.SOLVERS[spec](grid)
        assert {name: outcome.effort[name] for name in counts} == counts


def test_cdcls_worked_conflict_is_the_searchs_own() -> None:
    # docs/methods/cdcl.md: top95's line 52; the fourth conflict follows the decision r8c8=6 at level 4
    # (depth 3), and the clause learned from it, of two literals, takes the search back to level 2
    grid = Grid.parse(".........9......84.623...5....6...453...1...6...9...7....1.....4.5..2....3.8....9")
    events = trace(grid, "cdcl", max_steps=60).events
    conflicts = [k for k, e in enumerate(events) if e.kind == "dead_end"]
    fourth = conflicts[3]
    tried, back = events[fourth - 1], events[fourth + 1]
    assert (tried.kind, tried.depth, tried.cell, tried.value) == ("try", 3, [7, 7], 6)
    assert (back.kind, back.depth, back.detail["learned"]) == ("backtrack", 2, 2)


def test_the_guides_python_solver_is_checked_like_any_method(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    # docs/guides/own-solver.md shows examples/python/mysolvers.py whole: it must run as the page says
    example = ROOT / "examples" / "python" / "mysolvers.py"
    assert example.read_text(encoding="utf-8") in (DOCS / "guides" / "own-solver.md").read_text(encoding="utf-8")
    monkeypatch.syspath_prepend(str(example.parent))
    seeds = (ROOT / "puzzles" / "seeds.txt").read_text(encoding="utf-8").splitlines()
    wanted = {5: "solved", 13: "solved", 14: "solved", 15: "solved", 23: "unsatisfiable"}  # seed 000, the 4x4s
    puzzles = tmp_path / "few.txt"
    puzzles.write_text("".join(seeds[line - 1] + "\n" for line in wanted), encoding="utf-8")
    run = compare([puzzles], solvers=["lastfirst", "backtracking"], registry=["mysolvers"], solutions=2,
                  timeout=30, jobs=1)
    records = [r for r in run if r["method"] == "lastfirst"]
    assert not run.failed
    assert [r["status"] for r in records] == list(wanted.values())
    assert all(r["valid"] and r["unique"] and r["nodes"] > 0 for r in records if r["status"] == "solved")


def test_the_version_is_kept_in_one_place() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert puzzles.__version__ == version, "reinstall (pip install -e .) after changing the version"
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(rf'^version: "{re.escape(version)}"$', citation, re.M)
    assert re.search(r"^cff-version: 1\.2\.0$", citation, re.M)
    released = re.findall(r"^## (\d[\w.]*)$", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert released and released[0] == version, "the changelog's latest release is pyproject's version"


def console_scripts() -> dict[str, str]:
    if sys.version_info < (3, 11):
        return {}
    import tomllib

    scripts: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    return scripts


@pytest.mark.slow
@pytest.mark.skipif(sys.version_info < (3, 11), reason="reads pyproject.toml with tomllib")
@pytest.mark.parametrize("script", sorted(console_scripts()))
def test_each_console_script_answers_help(script: str) -> None:
    program = Path(sys.executable).parent / script
    assert program.exists(), f"{script} is not installed beside {sys.executable}: pip install -e ."
    done = subprocess.run([str(program), "--help"], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: "), done.stdout[:200]


@pytest.mark.slow
@pytest.mark.skipif(sys.version_info < (3, 11), reason="reads pyproject.toml with tomllib")
@pytest.mark.parametrize("script", sorted(s for s, to in console_scripts().items() if to.startswith("commands.")))
def test_each_command_runs_from_a_checkout_and_introduces_itself_by_its_script(script: str) -> None:
    # `python -m commands.NAME` is the command in a checkout not installed: its module run once (-W error turns
    # runpy's warning of a module imported twice into a failure), its usage and errors under the script's name
    module = console_scripts()[script].split(":")[0]
    done = subprocess.run([sys.executable, "-W", "error", "-m", module, "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith(f"usage: {script} "), done.stdout[:200]


# --- the results pages' status ---------------------------------------------------------------------------------

RESULTS = DOCS / "results"
STATUS = re.compile(r'^!!! (success "Current"|warning "Superseded")\n((?:    .*\n|\n(?=    ))+)', re.M)
COMMIT = re.compile(r"`([0-9a-f]{7,40})`")
# what a status says of each measurement: "commit `abc1234` (2026-11-27), compiled build" (or commits `a`, `b`)
MEASURED = re.compile(r"commits? ((?:`[0-9a-f]{7,40}`(?:, | and )?)+) \(\d{4}-\d{2}-\d{2}\), "
                      r"(compiled|interpreted) build")


def results_pages() -> list[Path]:
    return sorted(p for p in RESULTS.glob("*.md") if p.name != "index.md")


def status_of(page: Path) -> tuple[str, str]:
    """('Current' or 'Superseded', the admonition's text): the first thing under the page's title."""
    text = page.read_text(encoding="utf-8")
    after_title = text[text.index("\n", text.index("# ")) + 1:].lstrip("\n")
    found = STATUS.match(after_title)
    assert found, f"docs/results/{page.name} does not open with its status (!!! success \"Current\" or " \
                  "!!! warning \"Superseded\") right under its title"
    return ("Current" if found.group(1).startswith("success") else "Superseded"), " ".join(found.group(2).split())


def is_commit(name: str) -> bool | None:
    """Whether the repository has this commit; None outside a git checkout."""
    if not (ROOT / ".git").exists():
        return None
    try:
        done = subprocess.run(["git", "cat-file", "-e", f"{name}^{{commit}}"], cwd=ROOT, capture_output=True,
                              timeout=60)
    except OSError:
        return None
    return done.returncode == 0


@pytest.mark.parametrize("page", results_pages(), ids=lambda p: p.name)
def test_each_results_page_opens_with_its_status(page: Path) -> None:
    kind, text = status_of(page)
    measured = MEASURED.findall(text)
    assert measured, f"{page.name}: the status says what was measured on which commit, when, and which build: " \
                     "'commit `abc1234` (2026-11-27), compiled build'"
    for name in COMMIT.findall(text):
        assert is_commit(name) is not False, f"{page.name}: {name} is not a commit of this repository"
    if kind == "Superseded":
        by = re.match(r"Superseded by \[[^\]]+\]\(([\w-]+\.md)[#\w-]*\)", text)
        assert by, f"{page.name}: a superseded page opens with 'Superseded by [the page](page.md)'"
        assert status_of(RESULTS / by.group(1))[0] == "Current", f"{page.name}: superseded by a page not current"


def test_a_compiled_build_is_named_only_where_one_existed() -> None:
    # the compiled build began with puzzles/kernels.py: a commit said to be measured compiled has that file
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for page in results_pages():
        for commits, build in MEASURED.findall(status_of(page)[1]):
            for name in COMMIT.findall(commits):
                has = subprocess.run(["git", "cat-file", "-e", f"{name}:puzzles/kernels.py"], cwd=ROOT,
                                     capture_output=True, timeout=60).returncode == 0
                assert has == (build == "compiled"), f"{page.name}: {name} was measured {build}, yet " \
                    f"{'had' if has else 'had no'} compiled build"


def test_the_results_index_lists_every_page_with_its_status() -> None:
    index = (RESULTS / "index.md").read_text(encoding="utf-8")
    for page in results_pages():
        row = next((line for line in index.splitlines() if re.match(rf"\| \[[^\]]+\]\({page.name}\) \|", line)), None)
        assert row, f"docs/results/index.md has no row for {page.name}"
        assert (status_of(page)[0] == "Superseded") == ("superseded" in row.lower()), \
            f"docs/results/index.md: {page.name}'s row and its page disagree on whether it is superseded"


def test_the_readme_quotes_only_current_figures() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    findings = readme[readme.index("## What the study found"):]
    findings = findings[:findings.index("\n## ")]
    quoted = set(re.findall(r"\]\(docs/results/([\w-]+\.md)", findings)) - {"index.md"}
    assert quoted, "the README's findings table links its results pages"
    superseded = sorted(p for p in quoted if status_of(RESULTS / p)[0] == "Superseded")
    assert not superseded, f"the README's findings quote superseded pages: {superseded}"


def test_the_readmes_python_example_runs_as_shown(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pandas")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"## From Python\n.*?```python\n(.*?)```", readme, re.S)
    assert example, "the README has a Python example under 'From Python'"
    code = example.group(1)
    assert len(code.strip().splitlines()) <= 5, "the README's Python example stays five lines"
    monkeypatch.chdir(ROOT)
    names: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), names)
    methods = sorted(set(names["frame"]["method"].dropna()))
    assert methods == ["cdcl", "mrv", "mrv:propagate=singles"]
    printed = capsys.readouterr().out
    assert all(m in printed for m in methods) and "guesses" in printed
