"""Textual's test pilot waits for the console to settle, not for the process to fall quiet.

After each key it presses (two waits) and at each ``pilot.pause()``, Textual's pilot waits
until *the process* spends under 1 ms of CPU in a 20 ms slice (``textual._wait``), for up to
a second. In these tests the process also runs the sandbox serving the console, and another
test's console may share the machine: each wait then runs on towards its second while the
console itself has long settled. Summed over a run that was some 380 s of waiting in 740 s
of tests, most of it for nothing the test looked at.

:func:`install` puts a wait for a settled state in its place: one 20 ms slice as before (the
screen's refresh and Textual's resize timer fall within it), then until no message waits in
the app, its screens or their widgets, no key of a burst is held and no worker is pending or
running (the same state ``Console.idle`` waits for), within the same second at most. Outside
a running app (none is active) Textual's own wait runs. The two names it replaces are listed
in ``frontdesk/tui/textual_private.py``.
"""

from __future__ import annotations

import asyncio
from time import monotonic
from typing import Any

import textual.app
import textual.pilot
from textual.worker import WorkerState

from frontdesk.tui.textual_private import active_app, wait_for_idle

#: Textual's own slice: the pilot waits at least this long, as before
SLICE = 1 / 50
#: how often a wait looks again while the console is still busy
LOOK_EVERY = 0.002

def busy_nodes(app: Any) -> list[str]:
    """Nodes of the app with messages still queued (the app, its screens, their widgets)."""
    nodes = [app, *app.screen_stack]
    for screen in app.screen_stack:
        nodes.extend(screen.walk_children())
    return [repr(node) for node in nodes if not node._message_queue.empty()]


def settled(app: Any) -> bool:
    """Whether nothing waits in the app: no message queued in it, its screens or their
    widgets, no key of a burst held, no worker pending or running."""
    if getattr(app, "keys_waiting", 0) or busy_nodes(app):
        return False
    return not any(worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
                   for worker in app.workers)


async def wait_until_settled(min_sleep: float = SLICE, max_sleep: float = 1.0) -> None:
    """One slice, then until the active app has settled (at most ``max_sleep`` in all)."""
    try:
        app = active_app.get()
    except LookupError:  # no app runs in this task: Textual's wait as it is
        await wait_for_idle(min_sleep, max_sleep)
        return
    deadline = monotonic() + max_sleep
    await asyncio.sleep(SLICE)
    # no event tells that Textual's queues are empty and its workers done: look again
    while monotonic() < deadline and not settled(app):  # noqa: ASYNC110
        await asyncio.sleep(LOOK_EVERY)


def install() -> None:
    """Make the pilot's key presses and pauses wait for a settled console."""
    textual.pilot.wait_for_idle = wait_until_settled  # type: ignore[attr-defined]
    textual.app.wait_for_idle = wait_until_settled  # type: ignore[attr-defined]


async def tables_laid_out(screen: Any) -> None:
    """Until every table of ``screen`` has worked out its columns' widths and its height for
    the rows it was given (a picture taken before shows them cut to their titles). A table
    does that when its queue is next empty (its idle handler), which may come after the
    console looks settled: the last message taken off a queue is still being handled. A
    callback it runs next comes after that handler."""
    from textual.widgets import DataTable

    waits = []
    for table in screen.query(DataTable):
        if table.is_running:
            done = asyncio.Event()
            table.call_next(done.set)
            waits.append(done.wait())
    if waits:  # the time is a guard against a hang, not a wait for anything
        await asyncio.wait_for(asyncio.gather(*waits), 30.0)

