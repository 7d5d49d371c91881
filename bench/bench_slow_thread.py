"""A thread opened over a slow service: its messages on screen after one round trip.

The sandbox (its own process, on a copy of the small database, no simulator, TCP_NODELAY as
in ``common.NODELAY_LAUNCHER``) answers every request 150 ms late (its latency fault).
Measured, alternating, in one run:

* one round trip: ``client.messages.list`` of the thread (the console's own client, pacing
  off) — what the messages cannot come sooner than;
* open, the thread unknown to the console (opened by number, from a search, from the outbox,
  or from the inbox before its preview read it): the console (FrontdeskApp, headless
  160x45, signed in, the inbox settled) opens the thread screen on that conversation (once
  the inbox's first fill is over: every record, text, name and tag read); the time from
  building the screen (what the user's ``enter`` does; its messages are asked for from
  there) to the first frame that shows the newest message (``App._display`` wrapped, as in
  ``bench_thread``), and to the frame where the thread's first tick is complete (the head's
  record, tags, ratings, names);
* open from the inbox after its preview read the thread (the newest messages it keeps are
  handed to the screen, as the inbox's ``enter`` does): the first frame showing the newest
  message, and the frame showing the whole thread taken in (information).

Budget: open (unknown thread) ≤ one round trip + 30 ms (the difference of the medians); the
complete head and the preview case are information.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from .common import (
    KEY,
    BenchContext,
    Result,
    big_thread_id,
    demo_agent_email,
    failed,
    late_sandbox,
    measured,
    median,
)

LATENCY = 0.15
QUICK_LATENCY = 0.02
BUDGET_MS = 30.0
#: the newest messages the inbox's preview keeps (``Finder.last_messages``)
PREVIEW = 5
SIZE = (160, 45)

async def _measure(base_url: str, thread_id: int, runs: int, settle: float
                   ) -> dict[str, list[float]]:
    from frontdesk.api.client import ApiClient
    from frontdesk.api.pacing import Pacer
    from frontdesk.settings import Settings
    from frontdesk.store.local import LocalStore
    from frontdesk.store.session import Session
    from frontdesk.store.threads import ThreadState
    from frontdesk.tui.app import FrontdeskApp
    from frontdesk.tui.screens.inbox.thread import ThreadScreen

    from .bench_memory import _workers_done
    from .bench_thread import FrameClock

    got: dict[str, list[float]] = {"trip": [], "open": [], "complete": [], "known": [],
                                   "known_whole": []}
    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-slow-"))
    try:
        reference = ApiClient(base_url, KEY, pacer=Pacer(enabled=False))
        client = ApiClient(base_url, KEY, pacer=Pacer(enabled=False))
        session = Session(client=client, local=LocalStore(folder / "local.db"),
                          settings=Settings(), profile="bench", identity=demo_agent_email())
        app = FrontdeskApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await _workers_done(app)
            await pilot.pause()
            inbox = session.inbox
            for _ in range(int(settle * 10)):  # the inbox's first fill (slow too) is over
                if inbox.filled and inbox.settled and not session.directory._pending and \
                        all(cid in inbox.tags for cid in inbox.rows):
                    break
                await asyncio.sleep(0.1)
            await _workers_done(app)
            # the newest messages the inbox's preview keeps (the connection is open, too)
            preview = (await reference.messages.list(thread_id))[-PREVIEW:]
            frames = FrameClock(app)
            ticks: list[float] = []
            ticked = asyncio.Event()
            poll = session.threads.poll

            async def timed() -> ThreadState:  # when each tick of the thread returns
                state = await poll()
                ticks.append(time.perf_counter())
                ticked.set()
                return state

            session.threads.poll = timed  # type: ignore[method-assign]

            async def open_thread(known: list[Any]) -> tuple[float, float, float]:
                """Open the thread: the first frame showing its newest message, the first
                showing all of it read, and the end of its opening tick (from the build)."""
                ticks.clear()
                ticked.clear()
                started = time.perf_counter()  # the user's enter: the screen is built
                screen = ThreadScreen(thread_id, known=known)

                def shown(screen: ThreadScreen = screen) -> bool:
                    views = screen.thread_view.message_views
                    return bool(views) and views[-1] in app.screen._compositor.visible_widgets

                def whole(screen: ThreadScreen = screen) -> bool:
                    return len(screen.thread_view.messages) > len(known) and shown(screen)

                first = asyncio.ensure_future(frames.frame_where(shown))
                read = asyncio.ensure_future(frames.frame_where(whole))
                await app.push_screen(screen)
                at, everything = await first, await read
                await ticked.wait()  # the opening tick has returned
                tick = ticks[0]
                app.pop_screen()
                await _workers_done(app)
                await pilot.pause()
                return ((at - started) * 1000, (everything - started) * 1000,
                        (tick - started) * 1000)

            for _ in range(runs):
                started = time.perf_counter()
                await reference.messages.list(thread_id)
                got["trip"].append((time.perf_counter() - started) * 1000)
                at, _everything, tick = await open_thread([])
                got["open"].append(at)
                got["complete"].append(tick)
                at, everything, _tick = await open_thread(preview)
                got["known"].append(at)
                got["known_whole"].append(everything)
        await reference.aclose()
        await session.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return got


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """The slow-service thread rows."""
    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-slowdb-"))
    # --quick: late still, but little, so that the console's first fill is soon over
    latency = QUICK_LATENCY if ctx.quick else LATENCY
    try:
        db = folder / "sandbox.db"
        shutil.copy(ctx.small_db, db)
        runs = 1 if ctx.quick else ctx.runs
        with late_sandbox(db, latency) as base_url:
            got = asyncio.run(_measure(base_url, big_thread_id(db), runs,
                                       5.0 if ctx.quick else 120.0))
    except Exception as error:  # a row saying why, never a dead table
        return [failed("slow", "thread over a slow service", repr(error),
                       f"≤ 1 round trip + {BUDGET_MS:.0f} ms")], {}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    extra = median(got["open"]) - median(got["trip"])
    rows = [
        measured("slow.trip", f"one round trip, sandbox {latency * 1000:.0f} ms late",
                 got["trip"], budget="reference"),
        measured("slow.open", "open a thread it does not know: messages on screen",
                 got["open"], budget=f"≤ 1 round trip + {BUDGET_MS:.0f} ms",
                 met=extra <= BUDGET_MS, note=f"+{extra:.1f} ms over the round trip"),
        measured("slow.complete", "the same: the head's record, tags, ratings read",
                 got["complete"], budget="information"),
        measured("slow.known", f"open one the preview read: its {PREVIEW} newest on screen",
                 got["known"], budget="information"),
        measured("slow.known_whole", "the same: the whole thread taken in, on screen",
                 got["known_whole"], budget="information"),
    ]
    return rows, {"samples": got}
