"""Taking the pictures: a fresh console per picture and size, driven to its screen and
saved as SVG, all from one sandbox, with local times in UTC; ``main`` is the program."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from textual.app import App

from ..tui.widgets.safe import Input, TextArea
from . import sandbox as drawn
from .scene import NOW, SIZES, Skip, project_module
from .shots import Shot, shots
from .steps import ready, settle

__all__ = ["main", "take", "take_all"]


def _no_blinking(app: App[Any]) -> None:
    """Cursors drawn steadily, so a picture does not depend on the moment it was taken."""
    for screen in app.screen_stack:
        for widget in screen.query(Input):
            widget.cursor_blink = False
        for area in screen.query(TextArea):
            area.cursor_blink = False


async def take(shot: Shot, size: tuple[int, int], folder: Path) -> Path:
    """Drive a fresh app (on a fresh FRONTDESK_HOME) to ``shot`` at ``size`` and save the
    picture; its path."""
    with tempfile.TemporaryDirectory(prefix="frontdesk-screenshot-") as home:
        os.environ["FRONTDESK_HOME"] = home
        if shot.app is not None:
            app = shot.app()
        else:
            tui_app = project_module("frontdesk.tui.app")
            app = tui_app.FrontdeskApp(drawn.CURRENT.session())
        app.animation_level = "none"  # scrolls land at once, whatever the machine's speed
        name = f"{shot.name}-{size[0]}x{size[1]}.svg"
        async with app.run_test(size=size) as pilot:
            if shot.signed_in:
                await ready(pilot)
            for step in shot.steps:
                await step(pilot)
            shown = type(app.screen).__name__
            if shot.expect and shown != shot.expect:
                raise Skip(f"expected {shot.expect} in front, found {shown} "
                           "(a key not bound yet?)")
            _no_blinking(app)
            app.clear_notifications()
            await settle(pilot)
            app.save_screenshot(filename=name, path=str(folder))
    return folder / name


async def take_all(folder: Path, names: set[str] | None = None,
                   sizes: tuple[tuple[int, int], ...] = SIZES,
                   say: Callable[[str], None] = print) -> list[Path]:
    """Every picture (or those named) at every size into ``folder`` (which must exist);
    the files written."""
    clock = project_module("frontdesk.tui.clock")
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="frontdesk-screenshots-") as scratch:
        sandbox = drawn.Sandbox(Path(scratch))
        sandbox.start()
        drawn.CURRENT = sandbox
        clock.freeze(NOW)
        try:
            for shot in shots():
                if names and shot.name not in names:
                    continue
                for size in sizes:
                    try:
                        path = await take(shot, size, folder)
                    except Skip as why:
                        say(f"skipped {shot.name} {size[0]}x{size[1]}: {why}")
                        break
                    written.append(path)
                    say(f"wrote {path}")
        finally:
            clock.freeze(None)
            sandbox.stop()
    return written


@contextlib.contextmanager
def isolated() -> Iterator[None]:
    """Local times in UTC and a temporary FRONTDESK_HOME for the run."""
    previous = {name: os.environ.get(name) for name in ("TZ", "FRONTDESK_HOME")}
    with tempfile.TemporaryDirectory(prefix="frontdesk-screenshots-home-") as home:
        os.environ["TZ"] = "UTC"
        os.environ["FRONTDESK_HOME"] = home
        time.tzset()
        try:
            yield
        finally:
            for name, value in previous.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            time.tzset()


def main(argv: list[str] | None = None) -> int:
    """Write the pictures; the exit code (1 when none could be taken)."""
    options = argparse.ArgumentParser(
        prog="python -m frontdesk.screenshots",
        description="Write SVG screenshots of every screen of the console.")
    options.add_argument("folder", type=Path, help="where to write the .svg files")
    options.add_argument("--only", action="append", default=[], metavar="NAME",
                         help="only these pictures: " + ", ".join(s.name for s in shots()))
    args = options.parse_args(argv)
    names = {n.strip() for item in args.only for n in item.split(",") if n.strip()} or None
    args.folder.mkdir(parents=True, exist_ok=True)
    with isolated():
        written = asyncio.run(take_all(args.folder, names))
    print(f"{len(written)} screenshots in {args.folder}")
    return 0 if written else 1
