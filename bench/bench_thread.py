"""Benchmark of the thread view: opening long threads, a new message, typing beside a thread.

Run: ``.venv/bin/python bench/bench_thread.py [--runs N]``.  Prints the median (and p90) of
N runs (default 7) of:

* open 50 / open 10,000: from the client's answer to the frame that shows the newest
  message, and their ratio (budget: 10,000 ≤ 150 ms and ≤ 1.2 x 50).  The path timed is the
  console's: the client reads a thread as ``WireMessage`` records (each message's JSON with
  its id, author and external id), the thread store holds them as ``MessageRows.of_wires``
  and the thread screen hands those rows to ``ThreadView.set_messages``; so the timing starts
  with the store's rows being made and ends with the frame;
* append: ``ThreadView.append`` of one message to the frame that shows it (budget ≤ 30 ms);
* keystroke → frame: a key event posted to the app to the frame that shows the character in
  a TextArea (the composer) beside a 5,000-message thread (budget: median ≤ 17 ms, p90 ≤ 25).

Timing stops at the frame itself: ``App._display`` is wrapped so that each frame is also
turned into the bytes a terminal would get (Textual skips that step when headless), and the
clock is read when those bytes exist.  The app runs headless at 100x40.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import RenderableType
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import TextArea

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from frontdesk.api.models.messages import Message  # noqa: E402
from frontdesk.api.resources.messages import WireMessage, _wire_of  # noqa: E402
from frontdesk.store.message_rows import MessageRows  # noqa: E402
from frontdesk.tui.render import body_cache_clear  # noqa: E402
from frontdesk.tui.widgets.thread_view import ThreadView  # noqa: E402

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
SIZE = (100, 40)

_BODIES = (
    ("Markdown", "Hi, my order **#{i}** has not arrived. Could you _check_ it? See `ref-{i}`."),
    ("Text", "Thanks for waiting. I have looked at order {i} and it left our warehouse today."),
    (
        "Html",
        "<p>Hello,</p><p>Please find the <b>invoice</b> for order {i} "
        "<a href='https://shop.example/o/{i}'>here</a>.</p><ul><li>one</li><li>two</li></ul>",
    ),
    ("Markdown", "> quoted line {i}\n- a list item\n- another with ~~old~~ new\n1. first"),
)


def make_messages(count: int, prefix: str = "m") -> list[Message]:
    """Synthetic messages: alternating directions, mixed bodies, some attachments."""
    messages = []
    start = NOW - timedelta(minutes=count)
    for i in range(count):
        kind, template = _BODIES[i % len(_BODIES)]
        attributes: dict[str, object] = {
            "_type": "EmailAttributes" if kind == "Html" else "ChatAttributes",
            "direction": "Inbound" if i % 2 else "Outbound",
            "content": {"_type": kind, "value": template.format(i=i)},
        }
        if kind == "Html":
            attributes["subject"] = f"Order {i}"
            attributes["from"] = {"email": "ann@example.com", "name": "Ann"}
        if i % 7 == 0:
            attributes["attachments"] = [
                {"url": f"https://files.example/{i}.pdf", "prettyName": f"invoice-{i}.pdf"}
            ]
        messages.append(
            Message.model_validate(
                {
                    "id": f"{prefix}{i:06d}",
                    "authorId": "customer-1" if i % 2 else "agent-7",
                    "externalId": None,
                    "createdAt": (start + timedelta(minutes=i)).isoformat(),
                    "attributes": attributes,
                }
            )
        )
    return messages


def make_wires(count: int, prefix: str = "m") -> list[WireMessage]:
    """The messages of :func:`make_messages` as the client reads them from an answer: each
    one's JSON through the client's own reading of a message (``_wire_of``)."""
    wires: list[WireMessage] = []
    for message in make_messages(count, prefix):
        raw = message.model_dump(mode="json", by_alias=True)
        wire = _wire_of(raw, json.dumps(raw, ensure_ascii=False, separators=(",", ":")))
        assert isinstance(wire, WireMessage)
        wires.append(wire)
    return wires


class FrameClock:
    """Wraps ``App._display``: renders each frame to terminal bytes, records when."""

    def __init__(self, app: App[None]) -> None:
        self.app = app
        self.waiters: list[tuple[Callable[[], bool], asyncio.Future[float]]] = []
        original = app._display

        def display(screen: Screen[object], renderable: RenderableType | None) -> None:
            original(screen, renderable)
            if renderable is None:
                return
            render = getattr(renderable, "render_segments", None)
            if render is not None:
                render(app.console)
            now = time.perf_counter()
            for check, future in list(self.waiters):
                if not future.done() and check():
                    future.set_result(now)
                    self.waiters.remove((check, future))

        app._display = display  # type: ignore[method-assign]

    async def frame_where(self, check: Callable[[], bool]) -> float:
        """The time of the first frame after now for which ``check()`` holds (10 s at most)."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters.append((check, future))
        async with asyncio.timeout(10):
            return await future


class BenchApp(App[None]):
    """A thread and a composer, styled like the app."""

    CSS_PATH = str(ROOT / "styles" / "thread.tcss")
    CSS = "TextArea { height: 6; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield ThreadView(
                names={"customer-1": "Ann", "agent-7": "Bob"}.__getitem__, clock=lambda: NOW
            )
            yield TextArea(id="composer")


def _shown(app: App[None], thread: ThreadView, message_id: str) -> bool:
    """Whether the widget of ``message_id`` is in the frame's visible widgets."""
    views = thread.message_views
    if not views or views[-1].message.id != message_id:
        return False
    return views[-1] in app.screen._compositor.visible_widgets


async def open_thread(count: int, wires: list[WireMessage]) -> float:
    """Milliseconds from the client's answer (``wires``) to the frame showing the newest
    message: the thread store's rows made of it, handed to the view as the screen does."""
    body_cache_clear()
    app = BenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        clock = FrameClock(app)
        thread = app.query_one(ThreadView)
        newest = wires[-1].id
        gc.collect()
        start = time.perf_counter()
        thread.set_messages(MessageRows.of_wires(wires))
        end = await clock.frame_where(lambda: _shown(app, thread, newest))
        assert len(thread.message_views) <= 100, len(thread.message_views)
        return (end - start) * 1000


async def append_one(wires: list[WireMessage]) -> float:
    """Milliseconds from append of one message to the frame showing it."""
    app = BenchApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(MessageRows.of_wires(wires))
        await pilot.pause()
        await pilot.pause()
        clock = FrameClock(app)
        new = make_messages(1, prefix="new")[0]
        gc.collect()
        start = time.perf_counter()
        thread.append([new])
        end = await clock.frame_where(lambda: _shown(app, thread, new.id))
        return (end - start) * 1000


async def keystrokes(wires: list[WireMessage], keys: int = 40) -> list[float]:
    """Milliseconds from each key event to the frame showing the typed character."""
    app = BenchApp()
    samples: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        thread.set_messages(MessageRows.of_wires(wires))
        composer = app.query_one(TextArea)
        composer.focus()
        await pilot.pause()
        await pilot.pause()
        clock = FrameClock(app)
        for n in range(keys):
            char = "abcdefghij"[n % 10]
            expected = len(composer.text) + 1
            await asyncio.sleep(0.02)  # let the previous frame settle, like a typist
            start = time.perf_counter()
            app.post_message(events.Key(char, char))

            def typed(expected: int = expected) -> bool:
                return len(composer.text) == expected

            end = await clock.frame_where(typed)
            samples.append((end - start) * 1000)
    return samples


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


async def main(runs: int) -> None:
    small = make_wires(50)
    large = make_wires(10_000)
    medium = make_wires(5_000)
    # Warm up imports, CSS parsing and caches of Textual once.
    await open_thread(50, small)

    opens_small: list[float] = []
    opens_large: list[float] = []
    ratios: list[float] = []
    for _ in range(runs):
        a = await open_thread(50, small)
        b = await open_thread(10_000, large)
        opens_small.append(a)
        opens_large.append(b)
        ratios.append(b / a)
    appends = [await append_one(large) for _ in range(runs)]
    keys: list[float] = []
    for _ in range(max(1, runs // 2)):
        keys.extend(await keystrokes(medium))

    def row(name: str, values: list[float], budget: str) -> None:
        print(
            f"{name:<34} median {statistics.median(values):8.1f}   "
            f"p90 {_p90(values):8.1f}   budget {budget}"
        )

    print(f"thread view, {runs} runs, headless {SIZE[0]}x{SIZE[1]} (ms)")
    row("open thread, 50 messages", opens_small, "reference")
    row("open thread, 10,000 messages", opens_large, "<= 150")
    print(
        f"{'ratio 10,000 / 50':<34} median {statistics.median(ratios):8.2f}   "
        f"p90 {_p90(ratios):8.2f}   budget <= 1.2"
    )
    row("append one message", appends, "<= 30")
    row(f"keystroke -> frame ({len(keys)} keys)", keys, "median <= 17, p90 <= 25")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    asyncio.run(main(parser.parse_args().runs))
