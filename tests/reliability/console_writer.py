"""A console process for the tests to kill with SIGKILL while a reply is being written or sent.

It runs the real composer (``frontdesk.tui.widgets.composer.Composer``) headless, on a real
session and local store, and types into it key by key through Textual's pilot, exactly as the
console would::

    python console_writer.py typing    DB URL KEY CID   # type forever: "saved N" per keystroke
    python console_writer.py enqueued  DB URL KEY CID   # type, ctrl+s, never send: "enqueued X"
    python console_writer.py committed DB URL KEY CID   # ctrl+s, the service stores it, the
                                                        # answer never reaches the outbox:
                                                        # "committed X"

``saved N`` is printed once the N-th keystroke's draft save has returned, so the first N
characters of :data:`TEXT` are on disk whatever happens next. ``X`` is the reply's
``externalId``. The process ends on its own after :data:`LIFETIME` seconds, so an interrupted
test run leaves nothing behind. The tests drive it through :class:`Writer`.
"""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: What the writer types, over and over.
TEXT = "Thanks for waiting, the replacement router ships today. "
#: The reply sent in the ``enqueued`` and ``committed`` modes.
REPLY = "Your refund was approved this morning."
LIFETIME = 60.0


def say(line: str) -> None:
    """Print one line for the test and push it out at once."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def key_name(char: str) -> str:
    """The Textual key that types ``char``."""
    return {" ": "space", ",": "comma", ".": "full_stop"}.get(char, char)


async def run(mode: str, db: Path, base_url: str, key: str, cid: int) -> None:
    """Open a session and a composer on ``cid``, then write (and send) as ``mode`` says."""
    from textual.app import App, ComposeResult

    from frontdesk.api.client import ApiClient
    from frontdesk.api.pacing import Pacer
    from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
    from frontdesk.settings import ComposeSettings, Settings
    from frontdesk.store.local import LocalStore
    from frontdesk.store.outbox import OutboxItem
    from frontdesk.store.session import Session
    from frontdesk.tui import compose_link
    from frontdesk.tui.answers import refusal_of
    from frontdesk.tui.widgets.composer import Composer

    session = Session(client=ApiClient(base_url, key, pacer=Pacer(enabled=False)),
                      local=LocalStore(db), profile="writer",
                      settings=Settings(compose=ComposeSettings(undo_seconds=0)),
                      identity=DEMO_AGENT_EMAIL)

    class WriterApp(App[None]):
        """Nothing but the composer, and the store behind it (as the thread screen has)."""

        def compose(self) -> ComposeResult:
            start = compose_link.start(session, cid, None, host=self)
            yield Composer(cid, None, draft=start.draft, content_type=start.content_type,
                           mode=start.mode, id="composer")

        def on_composer_draft_changed(self, event: Composer.DraftChanged) -> None:
            compose_link.save_draft(session, event)

        async def on_composer_send_requested(self, event: Composer.SendRequested) -> None:
            compose_link.answered(event, await refusal_of(compose_link.send(session, event, None)))

    app = WriterApp()
    deadline = time.monotonic() + LIFETIME
    async with app.run_test(headless=True, size=(80, 12)) as pilot:
        composer = app.query_one(Composer)
        composer.focus_editor()
        await pilot.pause()
        if mode == "typing":
            typed = 0
            while time.monotonic() < deadline:
                for char in TEXT:
                    saves = composer.saves
                    await pilot.press(key_name(char))
                    while composer.saves == saves:
                        await pilot.pause()
                    typed += 1
                    say(f"saved {typed}")
            return
        await session.resolve_me()
        await pilot.press(*[key_name(c) for c in REPLY])
        if mode == "enqueued":
            await pilot.press("ctrl+s")
            while not session.outbox.items(cid):
                await pilot.pause()
            item = session.outbox.items(cid)[0]
            say(f"enqueued {item.external_id}")
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
            return
        send: Callable[[OutboxItem], Any] = session.outbox._send

        async def stored_but_unconfirmed(item: OutboxItem) -> None:
            await send(item)  # the service has it now …
            say(f"committed {item.external_id}")
            await asyncio.sleep(LIFETIME)  # … and the outbox never hears back

        session.outbox._send = stored_but_unconfirmed
        await pilot.press("ctrl+s")
        while not session.outbox.items(cid):
            await pilot.pause()
        await session.outbox.flush()


class Writer:
    """The tests' side: run this script as a child process, read its lines, SIGKILL it."""

    def __init__(self, mode: str, db: Path, base_url: str = "http://127.0.0.1:9",
                 key: str = "unused", cid: int = 1) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, mode, str(db), base_url, key, str(cid)],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, bufsize=1,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._pump_thread = threading.Thread(target=self._pump, name="console-writer-stdout",
                                             daemon=True)
        self._pump_thread.start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, wanted: Callable[[str], bool], timeout: float = 60.0) -> str:
        """Block until the child prints a line ``wanted`` accepts; return that line."""
        while True:
            line = self._queue.get(timeout=timeout)
            if line is None:
                raise AssertionError(f"the writer ended early (exit {self.proc.wait()})")
            self.lines.append(line)
            if wanted(line):
                return line

    def kill(self) -> None:
        """``kill -9`` the child; every line it printed is then in :attr:`lines`."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)
        while (line := self._queue.get(timeout=30)) is not None:
            self.lines.append(line)

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)
        self._pump_thread.join(30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4],
                    int(sys.argv[5])))
