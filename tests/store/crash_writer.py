"""A process for the tests to kill with SIGKILL while it writes to a LocalStore.

    python crash_writer.py drafts PATH   # save drafts in a loop, printing "saved N" after each
    python crash_writer.py outbox PATH   # save a draft, enqueue it, start sending it, and hang

The tests drive it through :class:`Writer` (start, wait for a line, ``kill -9``).
Every line is flushed as soon as the write it reports has returned, so whatever the test read
before the kill must be on disk afterwards. The process ends on its own after a while, so an
interrupted test run leaves nothing behind.
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

from frontdesk.store.local import LocalStore
from frontdesk.store.outbox import Outbox, OutboxItem
from frontdesk.store.outbox_payloads import reply_payload

#: The conversation whose draft is rewritten on every "keystroke".
DRAFT_CONVERSATION = 1
#: The conversation whose reply is left in flight.
OUTBOX_CONVERSATION = 7
AGENT_ID = "4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2"
LIFETIME = 60.0


def say(line: str) -> None:
    """Print one line for the test and push it out at once."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def write_drafts(path: Path) -> None:
    """Type into a composer forever: one draft save per keystroke, each reported."""
    store = LocalStore(path)
    deadline = time.monotonic() + LIFETIME
    n = 0
    while time.monotonic() < deadline:
        n += 1
        store.save_draft(DRAFT_CONVERSATION, f"draft {n}",
                         [{"url": f"https://example.com/{n}.png"}])
        say(f"saved {n}")


def write_outbox(path: Path) -> None:
    """Send a reply whose request never ends: killed, it is left ``sending`` on disk."""
    store = LocalStore(path)
    store.save_draft(OUTBOX_CONVERSATION, "hello from the crash writer")

    async def hang(item: OutboxItem) -> None:
        say(f"sending {item.id} {item.external_id}")
        await asyncio.sleep(LIFETIME)

    async def main() -> None:
        outbox = Outbox(store, hang)
        item = outbox.enqueue(OUTBOX_CONVERSATION,
                              reply_payload("hello from the crash writer", agent_id=AGENT_ID))
        say(f"enqueued {item.id} {item.external_id}")
        await outbox.flush()

    asyncio.run(main())


class Writer:
    """The tests' side: run this script as a child process, read its lines, SIGKILL it."""

    def __init__(self, mode: str, path: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, mode, str(path)],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._pump_thread = threading.Thread(target=self._pump, name="crash-writer-stdout",
                                             daemon=True)
        self._pump_thread.start()

    def _pump(self) -> None:
        """Move the child's lines into the queue; None marks its end."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def wait_for(self, wanted: Callable[[str], bool], timeout: float = 30.0) -> str:
        """Block until the child prints a line ``wanted`` accepts; return that line."""
        while True:
            line = self._lines.get(timeout=timeout)
            if line is None:
                raise AssertionError(f"the writer ended early (exit {self.proc.wait()})")
            if wanted(line):
                return line

    def kill(self) -> list[str]:
        """SIGKILL the child and return the lines it printed that were not read yet."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)
        rest: list[str] = []
        while (line := self._lines.get(timeout=30)) is not None:
            rest.append(line)
        return rest

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
    mode, target = sys.argv[1], Path(sys.argv[2])
    {"drafts": write_drafts, "outbox": write_outbox}[mode](target)
