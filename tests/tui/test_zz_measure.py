import asyncio
import statistics
import time
from datetime import timedelta
from typing import Any

import httpx
from textual import events

from frontdesk.sandbox import records
from frontdesk.sandbox.db import iso
from frontdesk.tui.screens.thread import ThreadScreen


async def test_measure(console: Any) -> None:
    cid = console.sandbox.query("SELECT id FROM conversations WHERE channel='WidgetChat' AND state='Open' ORDER BY id LIMIT 1")[0]["id"]
    row = console.sandbox.query("SELECT requester_id FROM conversations WHERE id = ?", (cid,))[0]
    def fill(ctx: Any) -> None:
        start = ctx.clock.now() - timedelta(days=30)
        with ctx.db.tx():
            for n in range(5_000):
                records.insert_message(ctx.db, conversation_id=cid, author_id=row["requester_id"],
                    created_at=iso(start + timedelta(seconds=n * 30)), direction="Inbound",
                    attributes={"_type": "ChatAttributes", "direction": "Inbound",
                                "content": {"_type": "Text", "value": f"message {n} " + "lorem ipsum " * (n % 9)}})
    console.sandbox.call(fill)
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await console.ready(pilot)
        screen = ThreadScreen(cid)
        t = time.perf_counter()
        await app.push_screen(screen)
        await pilot.pause()
        await app.session.live.refresh("thread")
        await pilot.pause()
        print(f"\nopen+first poll {1000*(time.perf_counter()-t):.0f} ms")
        frames = asyncio.Event()
        original = app._display
        def display(target, renderable):
            original(target, renderable)
            if renderable is not None:
                frames.set()
        app._display = display
        applied = []
        orig_apply = screen._apply
        def apply(state):
            t0 = time.perf_counter()
            orig_apply(state)
            applied.append((t0, time.perf_counter()))
        screen._apply = apply
        arrivals = []
        async with httpx.AsyncClient(base_url=console.sandbox.base_url, headers={"Authorization": console.sandbox.key}) as http:
            for i in range(8):
                await http.post(f"/v1/conversations/{cid}/messages", json={"_type": "Inbound", "content": {"_type": "Text", "value": f"new {i}"}})
                frames.clear(); applied.clear()
                t0 = time.perf_counter()
                await app.session.live.refresh("thread")
                t1 = time.perf_counter()
                await asyncio.wait_for(frames.wait(), 5)
                t2 = time.perf_counter()
                a0, a1 = applied[-1]
                arrivals.append(((t1-t0)*1000, (a1-a0)*1000, (t2-a0)*1000))
        for a in arrivals: print("poll %.1f ms, apply %.2f ms, apply→frame %.1f ms" % a)
        await pilot.press("i")
        await pilot.pause()
        timings = []
        for n, char in enumerate("the quick brown fox jumps over the lazy dog " * 3):
            await asyncio.sleep((n % 7) / 400)
            frames.clear()
            started = time.perf_counter()
            app.post_message(events.Key("space" if char == " " else char, char))
            await asyncio.wait_for(frames.wait(), 5)
            timings.append((time.perf_counter() - started) * 1000)
        timings.sort()
        print(f"keystroke→frame median {statistics.median(timings):.1f} p90 {timings[int(len(timings)*0.9)]:.1f} max {timings[-1]:.1f}")
        store = app.session.local
        t = time.perf_counter()
        for i in range(200):
            store.save_draft(cid, "x" * (i + 1), [])
        print(f"save_draft {1000*(time.perf_counter()-t)/200:.2f} ms each")
