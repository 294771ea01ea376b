"""Headless Chromium for the report's tests: a page opened with the network cut off, its DOM once its
scripts ran (`--dump-dom`), what it wrote to the console, a screenshot. No driver and no download: the
page reads its state from the address's fragment (#method=K&step=N, #sort=...) and writes what it shows
into data attributes, which the dumped DOM holds.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SECONDS = 90  # a page that has not loaded by then has a problem worth a failure


@dataclass
class Opened:
    dom: str
    console: list[str]  # the page's console messages (the browser's own are left out)

    def player_state(self) -> dict[str, str]:
        found = re.search(r'<div id="player-state"([^>]*)>', self.dom)
        assert found, "the player did not start"
        return {k: unescape(v) for k, v in re.findall(r'data-([\w-]+)="([^"]*)"', found.group(1))}


class Browser:
    def __init__(self, program: str) -> None:
        self.program = program
        # a network namespace of its own has no network at all; where one cannot be made, no proxy and no names
        self.offline = ["unshare", "-n"] if can_unshare() else []

    def command(self, profile: Path, *flags: str) -> list[str]:
        return [*self.offline, self.program, "--headless", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                "--force-device-scale-factor=1",  # a CSS pixel is a pixel of the screenshot
                # every stage of a frame (raster included) done before it is drawn: on a loaded machine a
                # screenshot once came out with the bottom of a tall page not painted yet
                "--run-all-compositor-stages-before-draw",
                f"--user-data-dir={profile}", "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
                *(["--no-sandbox"] if os.geteuid() == 0 else []), *flags]

    def open(self, page: Path, folder: Path, fragment: str = "", width: int | None = None,
             height: int | None = None, shot: Path | None = None) -> Opened:
        """The page's DOM once its scripts ran; in a window of this size when one is given. With `shot`, a
        screenshot of that same page too: the positions a script writes into the DOM are those of the screenshot
        (two pages opened one after the other need not be laid out alike)."""
        url = page.resolve().as_uri() + (f"#{fragment}" if fragment else "")
        size = [f"--window-size={width},{height}"] if width and height else []
        screenshot = [f"--screenshot={shot.resolve()}"] if shot is not None else []
        done = subprocess.run(self.command(folder / "profile", "--enable-logging=stderr", "--v=0", *size,
                                           *screenshot, "--dump-dom", url), capture_output=True, text=True,
                              timeout=SECONDS, check=True)
        console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line and "source: file://" in line]
        return Opened(done.stdout, console)

    def screenshot(self, page: Path, shot: Path, fragment: str = "", width: int = 1200, height: int = 900) -> Path:
        url = page.resolve().as_uri() + (f"#{fragment}" if fragment else "")
        profile = shot.parent / f".{shot.stem}-profile"
        subprocess.run(self.command(profile, f"--window-size={width},{height}",
                                    f"--screenshot={shot}", url),
                       capture_output=True, timeout=SECONDS, check=True)
        shutil.rmtree(profile, ignore_errors=True)
        return shot


def can_unshare() -> bool:
    if shutil.which("unshare") is None:
        return False
    try:
        return subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def find_browser() -> Browser | None:
    """The first Chromium found that answers --version, or None."""
    for name in NAMES:
        program = shutil.which(name)
        if program is None:
            continue
        try:
            if subprocess.run([program, "--version"], capture_output=True, timeout=30).returncode == 0:
                return Browser(program)
        except (OSError, subprocess.SubprocessError):
            continue
    return None


def main(argv: list[str] | None = None) -> int:
    """python tests/headless.py PAGE.html SHOT.png [--fragment F] [--size WxH]: the docs' screenshots."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("page", type=Path)
    parser.add_argument("shot", type=Path)
    parser.add_argument("--fragment", default="", help="the page's state, e.g. method=0&step=40&only=watch")
    parser.add_argument("--size", default="1200x900", help="the window, WIDTHxHEIGHT")
    args = parser.parse_args(argv)
    browser = find_browser()
    if browser is None:
        print("headless.py: no Chromium found (Debian: apt-get install chromium)")
        return 2
    width, height = (int(n) for n in args.size.split("x"))
    args.shot.parent.mkdir(parents=True, exist_ok=True)
    browser.screenshot(args.page, args.shot.resolve(), args.fragment, width, height)
    print(f"{args.shot}: {args.shot.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def running_browser(folder: Path) -> Browser:
    """A headless Chromium that runs a page's script (probed with a page written in `folder`), or the test skips
    saying why: none here, or one that cannot run headless."""
    import pytest

    found = find_browser()
    if found is None:
        pytest.skip("no headless Chromium here (Debian: apt-get install chromium)")
    probe = folder / "probe.html"
    probe.write_text("<!DOCTYPE html><p id=x></p><script>document.getElementById('x').textContent='ran'</script>")
    try:
        ran = "ran" in found.open(probe, folder).dom
    except (OSError, subprocess.SubprocessError) as exc:
        pytest.skip(f"{found.program} cannot run headless here ({exc})")
    if not ran:
        pytest.skip(f"{found.program} does not run a page's script headless here")
    return found


def first(pattern: str, text: str) -> str:
    """The pattern's group in the text, unescaped; empty when it is not there."""
    found = re.search(pattern, text)
    return unescape(found.group(1)) if found else ""


def choices_beyond_houses(packed: dict[str, Any], peers: Sequence[Sequence[int]]) -> list[tuple[int, int, list[str]]]:
    """The player's events replayed on the houses alone (a placement takes its value from its peers, a backtrack
    restores the candidates of its try): each choice (its step, its cell, the values the search chose among) where
    the houses would leave the cell other candidates, so that a rule beyond them (a cage, a constraint) narrowed
    it."""
    candidates, saved, found = [set(c) for c in packed["candidates"]], {}, []
    for step, (k, depth, cell, value, _, words, *_) in enumerate(packed["events"], 1):
        kind = packed["kinds"][k]
        if kind in ("try", "place"):
            if kind == "try":
                saved[depth] = [set(c) for c in candidates]
            candidates[cell] = set()
            for peer in peers[cell]:
                candidates[peer].discard(value)
        elif kind == "remove":
            candidates[cell].discard(value)
        elif kind == "backtrack":
            candidates = [set(c) for c in saved[depth]]
        elif kind == "choose":
            values = first(r"\{([\d,]*)\}", words).split(",")  # the event's words: "2 candidates {4,7}, ..."
            if candidates[cell] != {int(v) for v in values}:
                found.append((step, cell, values))
    return found


# Writes where the inside of each cell (within its borders, the box its outline's SVG fills) of each drawn grid and
# of the player's board lies once the page's scripts ran, so that the dumped DOM says where to look in a
# screenshot of the same window.
WHERE_CELLS_LIE = """<script>
document.querySelectorAll("table.grid, #player .board").forEach((board) => {
  const cells = board.querySelectorAll(board.tagName === "TABLE" ? "td" : ".c");
  board.dataset.rects = JSON.stringify(Array.from(cells, (cell) => {
    const r = cell.getBoundingClientRect(), left = r.left + cell.clientLeft, top = r.top + cell.clientTop;
    return [left, top, left + cell.clientWidth, top + cell.clientHeight];
  }));
});
</script>"""
