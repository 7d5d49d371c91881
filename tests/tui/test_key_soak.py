"""Soak: random bursts of the console's keys during its first start, against a lively
sandbox (the demo's: seeded, its simulator writing). After every burst the console settles
(no key held) and answers the next key; a key is never given up as stuck.

The suite runs one short round; a longer soak (the same test, more rounds and bursts):

    FRONTDESK_SOAK_ROUNDS=40 FRONTDESK_SOAK_BURSTS=8 .venv/bin/pytest -q -p no:xdist \
        tests/tui/test_key_soak.py --log-cli-level=INFO   # logs each burst and the key queue
"""

from __future__ import annotations

import logging
import os
import random
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import DataTable

from frontdesk.api.client import ApiClient, pacer_for
from frontdesk.launch import local_store_path
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import Settings
from frontdesk.store.local import LocalStore
from frontdesk.store.session import Session
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.shared.help import HelpScreen

#: the keys an agent uses most, as bursts bring them, with the character each types
KEYS = {"tab": "\t", "shift+tab": None, "j": "j", "k": "k", "enter": "\r", "escape": "\x1b",
        "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "question_mark": "?", "slash": "/",
        "f1": None}
BURST_KEYS = sorted(set(KEYS) - {"f1"})
ROUNDS = int(os.environ.get("FRONTDESK_SOAK_ROUNDS", "1"))
BURSTS = int(os.environ.get("FRONTDESK_SOAK_BURSTS", "4"))
#: pauses a burst may take to be handled before the console counts as stuck
SETTLE_PAUSES = 400

log = logging.getLogger("frontdesk.soak")


@pytest.fixture
def lively(seeded_db: Path, tmp_path: Path) -> Iterator[SandboxServer]:
    """The seeded organisation with the simulator writing, as in the demo."""
    db = tmp_path / "lively" / "sandbox.db"
    db.parent.mkdir(parents=True)
    shutil.copyfile(seeded_db, db)
    server = SandboxServer(db, simulator=True, rate_limit=False).start()
    yield server
    server.close()


def key_state(app: Any) -> str:
    """The key queue's state, for the log and for a failure's message."""
    flight = app._key_in_flight
    return (f"held={[k.key for k in app._held_keys]} "
            f"in_flight={None if flight is None else flight.key} "
            f"settling={app._keys_settling} screen={type(app.screen).__name__} "
            f"focused={type(app.focused).__name__} busy={busy(app)}")


def busy(app: Any) -> dict[str, list[str]]:
    """The messages waiting in the screen in front and its widgets (what holds a key)."""
    if not app.screen_stack:
        return {}
    screen = app.screen
    return {repr(node): [type(m).__name__ for m in list(node._message_queue.values)]
            for node in (screen, *screen.walk_children()) if not node._message_queue.empty()}


async def send(pilot: Pilot[Any], keys: list[str]) -> None:
    """Post ``keys`` as one read of the terminal brings them."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, KEYS[key])
        event.set_sender(app)
        driver.send_message(event)


async def settle(pilot: Pilot[Any], what: str) -> None:
    """Wait (in pauses, not time) until no key of the bursts is held."""
    app: Any = pilot.app
    for _ in range(SETTLE_PAUSES):
        await pilot.pause()
        if not app.keys_waiting:
            return
    raise AssertionError(f"{what}: the console never settled: {key_state(app)}")


async def answers(pilot: Pilot[Any], what: str) -> None:
    """The console answers a key: F1 opens the help, or, on a modal screen (where the app's
    keys do not apply), Escape closes it."""
    app: Any = pilot.app
    before = app.screen
    probe = "escape" if isinstance(before, ModalScreen) else "f1"
    await send(pilot, [probe])
    await settle(pilot, what)
    for _ in range(50):
        if app.screen is not before:
            break
        await pilot.pause()
    assert app.screen is not before, f"{what}: {probe} went unanswered: {key_state(app)}"
    if isinstance(app.screen, HelpScreen):
        await send(pilot, ["escape"])
        await settle(pilot, what)


async def test_random_bursts_during_the_first_fill_always_settle(
        lively: SandboxServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="frontdesk.tui")
    settings = Settings()
    rng = random.Random(int(os.environ.get("FRONTDESK_SOAK_SEED", "7")))
    for round_ in range(ROUNDS):
        # the console starts before it can reach the service, as the demo does
        reachable = threading.Event()

        def connect(reachable: threading.Event = reachable) -> ApiClient:
            reachable.wait(30)  # paced as the demo's console is: the first fill takes a while
            return ApiClient(lively.base_url, lively.key, lively.integrations_url,
                             pacer=pacer_for(settings.rate.rate, settings.rate.burst))

        profile = f"soak{round_}"
        session = Session(connect=connect, local=LocalStore(local_store_path(profile)),
                          settings=settings, profile=profile, identity=DEMO_AGENT_EMAIL)
        app = FrontdeskApp(session)
        async with app.run_test(size=(100, 30)) as pilot:
            for burst in range(BURSTS):
                keys = [rng.choice(BURST_KEYS) for _ in range(rng.randint(2, 8))]
                what = f"round {round_} burst {burst} {keys}"
                log.info("%s; before: %s", what, key_state(app))
                await send(pilot, keys)
                if burst == 1:
                    reachable.set()  # the rest of the bursts land during the first fill
                await settle(pilot, what)
                await answers(pilot, what)
            reachable.set()
    stuck = [r.getMessage() for r in caplog.records if "never done with" in r.getMessage()]
    assert not stuck


async def test_keys_while_the_service_comes_up_are_answered_at_once(
        lively: SandboxServer) -> None:
    """The demo's console starts before its service answers (the first start seeds it). A
    screen opened meanwhile (Admin, whose panes load at once) finds no client yet and says
    so; the console never waits for the service, so every key is answered meanwhile."""
    held = threading.Event()
    came_up = threading.Event()

    def connect() -> ApiClient:
        # The service comes up only when the test says so (the guard only keeps a failed test
        # from hanging): a busy machine may take any time over the keys below.
        held.wait(600)
        came_up.set()
        return ApiClient(lively.base_url, lively.key, lively.integrations_url,
                         pacer=pacer_for(Settings().rate.rate, Settings().rate.burst))

    session = Session(connect=connect, local=LocalStore(local_store_path("early")),
                      settings=Settings(), profile="early", identity=DEMO_AGENT_EMAIL)
    app = FrontdeskApp(session)
    async with app.run_test(size=(100, 30)) as pilot:
        try:
            await send(pilot, ["5", "slash", "enter", "tab", "slash", "slash"])
            await settle(pilot, "admin while connecting")
            await answers(pilot, "admin while connecting")
            await send(pilot, ["1", "tab", "tab", "shift+tab", "shift+tab", "j", "j", "enter"])
            await settle(pilot, "inbox while connecting")
            await answers(pilot, "inbox while connecting")
            assert not came_up.is_set(), "the console waited for the service"
        finally:
            held.set()
        # Admin, opened before the service answered, reads its section again once it does
        await send(pilot, ["5"])
        await settle(pilot, "admin once connected")
        caption = app.screen.query_one("#tags-caption")
        for _ in range(SETTLE_PAUSES):
            if "connect" not in str(caption.render()) and app.screen.query_one(
                    "#tags-table", DataTable).row_count:
                break
            await pilot.pause()
        assert "connect" not in str(caption.render())
