"""``python -m frontdesk.screenshots FOLDER`` (``make screenshots``): an SVG of every
screen of the console at 100x30 and 160x45, named ``<screen>-<width>x<height>.svg``.

The pictures show the seeded demo organisation (seed 7) with every clock frozen at the same
moment and local times in UTC, so the same code draws the same pictures: a sandbox of its own
(a manual clock, no rate limit, no simulator) on a temporary database, and for each picture a
fresh console session (its own local store, on a temporary FRONTDESK_HOME) signed in as the
demo agent, driven with ``App.run_test`` and Pilot key presses, then
``App.save_screenshot``. A screen whose module or key is not there yet is skipped with a note.

This module is a composition root run as a program, beside ``frontdesk.cli`` and
``frontdesk.launch`` above the layers: it assembles a sandbox, an API client, a session and
the console, which the console's own modules never import.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from .tui.widgets.safe import Input, TextArea

__all__ = ["NOW", "SIZES", "Shot", "main", "shots", "take_all"]

#: the frozen moment of the pictures (the sandbox tests' moment)
NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
SIZES: tuple[tuple[int, int], ...] = ((100, 30), (160, 45))
SEED = 7
KEY = "sbx_screenshots_key"
#: the profile name in the pictures' status bar
PROFILE = "demo"

#: an open chat of the demo agent, tagged, with a dozen messages and no stored files (whose
#: URLs would carry the sandbox's port)
THREAD_WHERE = (
    "channel = 'WidgetChat' AND state = 'Open' "
    "AND id IN (SELECT conversation_id FROM conversation_tags) "
    "AND id IN (SELECT conversation_id FROM messages GROUP BY conversation_id "
    "HAVING count(*) BETWEEN 6 AND 30 AND sum(attributes LIKE '%/files/%') = 0)"
)
WHATSAPP_WHERE = (
    "channel = 'WhatsApp' AND state = 'Open' AND id IN (SELECT conversation_id "
    "FROM messages GROUP BY conversation_id HAVING sum(attributes LIKE '%/files/%') = 0)"
)
REPLY = """Hi **Yara**, thanks for waiting.

Here is what to try:
- unplug the router for _30 seconds_
- press `reset` once
> it should blink green"""

Step = Callable[[Pilot[Any]], Awaitable[None]]


class Skip(Exception):
    """The screen is not there yet (its module, class or key): no picture, a note."""


@dataclass
class Shot:
    """One picture: how to get there from a signed-in console, and how to tell it worked.

    ``expect`` names the class of the screen in front once the steps are done (empty: any).
    ``app`` makes a different app than the console (the first run).
    """

    name: str
    steps: list[Step] = field(default_factory=list)
    expect: str = ""
    app: Callable[[], App[Any]] | None = None
    signed_in: bool = True


def _module(name: str) -> Any:
    """A module of the project, or :class:`Skip` when it does not exist yet."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise Skip(f"{name} is not there ({error})") from None


# ---------------------------------------------------------------------- the steps


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def press(*keys: str) -> Step:
    """Press ``keys`` one after the other, settling after each."""

    async def step(pilot: Pilot[Any]) -> None:
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return step


def refresh(*topics: str) -> Step:
    """Fetch these live topics now (the picture shows their data, not "loading")."""

    async def step(pilot: Pilot[Any]) -> None:
        session = getattr(pilot.app, "session", None)
        if session is None:
            return
        live = session.live
        for topic in topics:
            if live.topic(topic) is not None:
                await live.refresh(topic)
        if "queues" in topics and live.topic("queues") is not None:
            # shown queues fill a few requests per poll: poll until every shown one is whole
            for _ in range(30):
                rows = await live.refresh("queues")
                if all(row.channels and row.members is not None and row.waiting is not None
                       and row.oldest_exact for row in rows):
                    break
        if "team:load" in topics and live.topic("team:load") is not None:
            for _ in range(30):  # every shown agent's load, a few per poll
                loads = await live.refresh("team:load")
                if set(session.team.shown_agents()) <= {load.agent_id for load in loads}:
                    break
        await settle(pilot)

    return step


class PollTimers:
    """A session's poll sleep for pictures: real sleeps until frozen; then no poll timer fires
    again (a poke, a refresh or a newly shown screen still polls), so nothing the service says
    between two steps changes a picture."""

    def __init__(self) -> None:
        self.frozen = False

    async def sleep(self, delay: float) -> None:
        """Sleep ``delay`` seconds; once frozen, wait until the loop is woken instead."""
        await asyncio.sleep(delay)
        if self.frozen:
            await asyncio.get_running_loop().create_future()


#: the poll timers of each session made for a picture (by ``id`` of the session)
TIMERS: dict[int, PollTimers] = {}


async def ready(pilot: Pilot[Any]) -> None:
    """Signed in, the inbox complete (every wanted record, tag and name fetched, a poll
    changing nothing), the poll timers frozen, the header's topics fetched and the preview pane
    (when shown) filled: the settled state the snapshot tests wait for."""
    app = pilot.app
    session = getattr(app, "session", None)
    await app.workers.wait_for_complete()
    if session is None:
        return
    inbox = session.inbox
    for _ in range(500):
        version = inbox.version
        with contextlib.suppress(Exception):
            await app.workers.wait_for_complete()
        if session.live.topic("inbox") is not None:
            await session.live.refresh("inbox")
        await pilot.pause()
        # Conversations with recent activity are read again for a few seconds, and their
        # tags with them: wait for every row's tags, not for an empty re-read list.
        complete = (inbox.settled and not session.directory._pending
                    and all(cid in inbox.tags for cid in inbox.rows))
        if complete and inbox.version == version:
            break
    timers = TIMERS.get(id(session))
    if timers is not None:
        timers.frozen = True
    for topic in ("presence:me", "hours"):
        if session.live.topic(topic) is not None:
            await session.live.refresh(topic)
    pane = next(iter(app.screen.query("PreviewPane")), None)
    flush = getattr(pane, "flush", None)
    if pane is not None and pane.display and flush is not None:
        worker = flush()
        if worker is not None:
            await worker.wait()
    await settle(pilot)


def open_thread(where: str, then: list[Step] | None = None) -> Step:
    """Open the first conversation matching ``where`` (SQL on the sandbox) in the thread
    screen, wait until it has been polled and painted, then run ``then``."""

    async def step(pilot: Pilot[Any]) -> None:
        thread_module = _module("frontdesk.tui.screens.inbox.thread")
        screen_class = getattr(thread_module, "ThreadScreen", None)
        if screen_class is None:
            raise Skip("frontdesk.tui.screens.inbox.thread has no ThreadScreen")
        conversation_id = CURRENT.first_id(where)
        app = pilot.app
        await app.push_screen(screen_class(conversation_id))
        await pilot.pause()
        session = getattr(app, "session", None)
        if session is not None and session.live.topic("thread") is not None:
            await session.live.refresh("thread")
        await settle(pilot)
        app.clear_notifications()
        for more in then or []:
            await more(pilot)
        await settle(pilot)

    return step


async def _write_reply(pilot: Pilot[Any]) -> None:
    """Put the cursor in the composer and type a Markdown reply."""
    await pilot.press("i")
    await pilot.pause()
    screen = pilot.app.screen
    composer = getattr(screen, "composer", None)
    editor = getattr(composer, "editor", None)
    if not isinstance(editor, TextArea):
        raise Skip("the thread screen has no composer editor")
    editor.cursor_blink = False
    editor.insert(REPLY)
    await pilot.pause()


async def _follow_position(pilot: Pilot[Any]) -> None:
    """In Queues mode, follow the position of the third conversation waiting."""
    waiting = CURRENT.query(
        "SELECT id FROM conversations WHERE state = 'Open' AND assigned_agent_id IS NULL "
        "AND queue_id IS NOT NULL ORDER BY queue_id, queued_at, id LIMIT 3")
    if len(waiting) < 3:
        raise Skip("fewer than three conversations are waiting")
    await pilot.press("P")
    await pilot.pause()
    if not pilot.app.screen.query("#position-input"):
        raise Skip("Queues mode has no position input (key P)")
    await pilot.press(*str(waiting[2]["id"]), "enter")
    await settle(pilot)


def _first_run_app() -> App[Any]:
    module = _module("frontdesk.tui.screens.first_run")
    app_class = getattr(module, "FirstRunApp", None)
    if app_class is None:
        raise Skip("frontdesk.tui.screens.first_run has no FirstRunApp")
    app: App[Any] = app_class()
    return app


def shots() -> list[Shot]:
    """Every picture, in the order they are taken."""
    inbox = [refresh("inbox")]
    return [
        Shot("first-run", [press()], "WelcomeScreen", app=_first_run_app, signed_in=False),
        Shot("first-run-connect", [press("enter")], "ConnectScreen", app=_first_run_app,
             signed_in=False),
        Shot("inbox", inbox, "InboxScreen"),
        Shot("tag-picker", [*inbox, press("t")], "TagPicker"),
        Shot("transfer-picker", [*inbox, press("T")], "QueuePicker"),
        Shot("followup-picker", [*inbox, press("f")], "FollowupPicker"),
        Shot("help", [press("question_mark")], "HelpScreen"),
        Shot("thread", [open_thread(THREAD_WHERE)], "ThreadScreen"),
        Shot("composer-preview",
             [open_thread(WHATSAPP_WHERE, [_write_reply, press("ctrl+t")])], "ThreadScreen"),
        Shot("presence", [press("3"), refresh("team:list", "team:presence", "team:load",
                                              "presence:me"), press("p")], "PresenceScreen"),
        Shot("team", [press("3"), refresh("team:list", "team:presence", "team:load")],
             "TeamScreen"),
        Shot("queues", [press("2"), refresh("queues", "queues")], "QueuesScreen"),
        Shot("queue-position", [press("2"), refresh("queues", "queues"), _follow_position],
             "QueuesScreen"),
        Shot("people-end-users", [press("4")], "PeopleScreen"),
        Shot("people-agents", [press("4", "t")], "PeopleScreen"),
        Shot("admin-tags", [press("5", "enter", "i")], "AdminScreen"),
        Shot("admin-business-hours",
             [press("5", "down", "down", "down", "down", "down", "enter", "plus")],
             "AdminScreen"),
    ]


# ---------------------------------------------------------------------- the sandbox


class Sandbox:
    """The sandbox the pictures are drawn from, and the sessions signed in to it."""

    def __init__(self, folder: Path) -> None:
        from .sandbox import clock as clock_module
        from .sandbox import seed as seed_module
        from .sandbox import server as server_module

        self.identity: str = seed_module.DEMO_AGENT_EMAIL
        self.server: Any = server_module.SandboxServer(
            folder / "sandbox.db", keys=[KEY], seed=SEED, clock=clock_module.ManualClock(NOW),
            rate_limit=False, simulator=False)

    def start(self) -> None:
        """Seed (at NOW) and serve."""
        self.server.start()

    def stop(self) -> None:
        """Stop serving."""
        self.server.stop()

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """Rows of a query on the sandbox's database."""
        rows: list[dict[str, Any]] = self.server.query(sql, params)
        return rows

    def first_id(self, where: str) -> int:
        """The demo agent's first conversation matching ``where`` (anyone's, if the demo
        agent has none)."""
        mine = ("assigned_agent_id = (SELECT id FROM users WHERE email = ? "
                "COLLATE NOCASE) AND ")
        rows = self.query(f"SELECT id FROM conversations WHERE {mine}{where} ORDER BY id "
                          "LIMIT 1", (self.identity,))
        if not rows:
            rows = self.query(f"SELECT id FROM conversations WHERE {where} ORDER BY id LIMIT 1")
        if not rows:
            raise Skip(f"no conversation matches {where}")
        return int(rows[0]["id"])

    def session(self) -> Any:
        """A new session signed in, once started, as the demo agent (its local store in the
        current FRONTDESK_HOME)."""
        from . import launch
        from .api import client as client_module
        from .api import pacing
        from .settings import Settings
        from .store import live as live_module
        from .store import local as local_module
        from .store import session as session_module

        profile = PROFILE
        client = client_module.ApiClient(self.server.base_url, KEY, self.server.integrations_url,
                                         pacer=pacing.Pacer(enabled=False))
        local = local_module.LocalStore(launch.local_store_path(profile))
        session = session_module.Session(client=client, local=local, settings=Settings(),
                                         profile=profile, identity=self.identity)
        timers = PollTimers()
        session.live = live_module.LiveStore(sleep=timers.sleep)
        TIMERS[id(session)] = timers
        return session


CURRENT: Sandbox  # the sandbox of the run in progress (set by take_all)


# ---------------------------------------------------------------------- taking pictures


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
            tui_app = _module("frontdesk.tui.app")
            app = tui_app.FrontdeskApp(CURRENT.session())
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
    global CURRENT
    clock = _module("frontdesk.tui.clock")
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="frontdesk-screenshots-") as scratch:
        sandbox = Sandbox(Path(scratch))
        sandbox.start()
        CURRENT = sandbox
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
        prog="python -m frontdesk.tui.screenshots",
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


if __name__ == "__main__":
    sys.exit(main())
