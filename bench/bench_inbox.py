"""Inbox list benchmark: 100,000 conversations — build, filter keystroke, cursor step.

    .venv/bin/python bench/bench_inbox.py [--rows 100000] [--runs 7]

Synthetic rows in an InboxStore-like object (rows, tags, previews, names), shown in the
real :class:`ConversationList` mounted in a headless Textual app (120x40). Prints the median
(and worst) of each measurement over the runs:

* view: the store-like object's view ("all", sorted newest first) — the store's cost;
* build: ``set_rows`` of the whole view plus painting every line on screen (budget 300 ms);
* search strings: their build in slices between frames once the filter line opens (not
  blocking);
* rebuild, 1 changed: a new inbox version with one record changed while a filter is on
  (the filter runs again; unchanged rows reuse their search strings);
* first keystroke: the first filter character (search strings ready);
* keystroke: each following character of a typed filter, and a backspace (budget 50 ms);
* cursor step: one ``j`` (two lines repainted) and a page down (every line repainted)
  (budget 10 ms).

Budgets from the quality document: build ≤ 300 ms, filter keystroke ≤ 50 ms, cursor step
≤ 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from textual.app import App, ComposeResult
from textual.geometry import Region

from frontdesk.store.rows import InboxRow
from frontdesk.tui.clock import ago
from frontdesk.tui.widgets.conversation_list import ConversationList, RowLookups

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
FIRST = ("Anna", "Bo", "Carla", "Dmitri", "Eva", "Farid", "Greta", "Hiro", "Ines", "Jonas",
         "Kaja", "Lars", "Mette", "Nils", "Olga", "Pia", "Rasmus", "Sofie", "Tove", "Ulrik")
LAST = ("Hansen", "Jensen", "Nielsen", "Larsen", "Andersen", "Berg", "Dahl", "Holm", "Lund",
        "Moller", "Nyberg", "Olsen", "Persson", "Quist", "Riis", "Storm", "Thorsen", "Vang")
WORDS = ("router", "invoice", "refund", "login", "delivery", "password", "firmware", "order",
         "broken", "late", "missing", "question", "upgrade", "cancel", "warranty", "account")
CHANNELS = ("Email", "WidgetChat", "Sms", "WhatsApp", "PstnPhone", "ContactForm")
STATES = ("Open", "Open", "Open", "Pending", "Closed")


class FakeInbox:
    """Enough of InboxStore and Directory for the list: rows, tags, previews, names."""

    def __init__(self, count: int, seed: int = 7) -> None:
        rng = random.Random(seed)
        agents = [f"00000000-0000-4000-8000-{i:012d}" for i in range(40)]
        queues = [f"10000000-0000-4000-8000-{i:012d}" for i in range(8)]
        users = [f"20000000-0000-4000-8000-{i:012d}" for i in range(20_000)]
        tags = [f"30000000-0000-4000-8000-{i:012d}" for i in range(40)]
        self.names = {a: f"{rng.choice(FIRST)} {rng.choice(LAST)} (agent)" for a in agents}
        self.names.update({u: f"{rng.choice(FIRST)} {rng.choice(LAST)}" for u in users})
        self.queue_names = {q: f"Queue {i}" for i, q in enumerate(queues)}
        self.tag_names = {t: f"tag-{rng.choice(WORDS)}-{i}" for i, t in enumerate(tags)}
        self.records: dict[int, InboxRow] = {}
        self.tags: dict[int, tuple[str, ...]] = {}
        self.previews: dict[int, str] = {}
        for cid in range(1, count + 1):
            created = NOW - timedelta(seconds=rng.uniform(60, 90 * 86400))
            assigned = rng.random() < 0.6
            requester, channel, state = rng.choice(users), rng.choice(CHANNELS), \
                rng.choice(STATES)
            updated = created + timedelta(minutes=rng.uniform(1, 600))
            agent = rng.choice(agents)
            queue = rng.choice(queues)
            subject = " ".join(rng.choices(WORDS, k=rng.randint(2, 6))).capitalize() \
                if rng.random() < 0.5 else None
            conversation = InboxRow(
                id=cid, state=state, channel=channel, requester_id=requester, subject=subject,
                queue_id=None if assigned else queue, agent_id=agent if assigned else None,
                when=max(created, updated))
            self.records[cid] = conversation
            self.tags[cid] = tuple(rng.sample(tags, rng.randint(0, 3)))
            self.previews[cid] = " ".join(rng.choices(WORDS, k=12))

    def when(self, conversation: InboxRow) -> datetime:
        """The latest time of the record (as the inbox sorts)."""
        return conversation.when

    def view(self, name: str) -> list[InboxRow]:
        """Every record, newest first (as InboxStore.view)."""
        rows = list(self.records.values())
        rows.sort(key=lambda row: row.micros, reverse=True)
        return rows

    def lookups(self) -> RowLookups:
        """The list's lookups, as the inbox screen builds them from the session."""
        tag_names = self.tag_names

        def tags_of(cid: int) -> Sequence[str]:
            return [tag_names[t] for t in self.tags.get(cid, ())]

        return RowLookups(
            name=lambda uid: self.names.get(uid or "", "—"),
            queue_name=lambda qid: self.queue_names.get(qid or "", "—"),
            tag_ids=lambda cid: self.tags.get(cid, ()),
            tag_names=tags_of,
            preview=lambda cid: self.previews.get(cid, ""),
            when=self.when,
            ago=lambda moment: ago(moment, reference=NOW),
            generation=lambda: len(self.names),
        )


class BenchApp(App[None]):
    """Just the list, full screen."""

    CSS = "ConversationList { height: 1fr; }"

    def __init__(self, inbox: FakeInbox) -> None:
        super().__init__()
        self.inbox = inbox

    def compose(self) -> ComposeResult:
        yield ConversationList(self.inbox.lookups(), id="list")


def paint(widget: ConversationList, lines: Sequence[int] | None = None) -> None:
    """Render lines as the compositor would (all lines on screen by default)."""
    width = widget.scrollable_content_region.width
    if lines is None:
        widget.render_lines(Region(0, 0, width, widget.scrollable_content_region.height))
    else:
        for y in lines:
            widget.render_line(y)


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


async def measure(inbox: FakeInbox, runs: int) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {k: [] for k in (
        "view", "build", "search strings", "rebuild, 1 changed", "first keystroke",
        "keystroke", "cursor step", "page down")}
    app = BenchApp(inbox)
    async with app.run_test(size=(120, 40)) as pilot:
        widget = app.query_one(ConversationList)
        widget.focus()
        await pilot.pause()
        for _ in range(runs):
            widget.set_filter("")
            rows: list[InboxRow] = []

            def view(rows: list[InboxRow] = rows) -> None:
                rows[:] = inbox.view("all")

            results["view"].append(timed(view))

            def build(rows: list[InboxRow] = rows) -> None:
                widget.set_rows(rows, keep=rows[len(rows) // 2].id)
                paint(widget)

            widget.drop_search()  # every run builds its search strings afresh
            results["build"].append(timed(build))
            widget.prepare_search()  # the filter line opens, as "/" does
            started = time.perf_counter()
            await app.workers.wait_for_complete()
            results["search strings"].append((time.perf_counter() - started) * 1000)
            await pilot.pause()
            typed = ""
            for index, char in enumerate("anna h"):
                typed += char

                def keystroke(text: str = typed) -> None:
                    widget.set_filter(text)
                    paint(widget)

                results["first keystroke" if index == 0 else "keystroke"].append(
                    timed(keystroke))
            def backspace() -> None:
                widget.set_filter("anna ")
                paint(widget)

            results["keystroke"].append(timed(backspace))
            # a poll changed one record while the filter is on: the list is rebuilt
            changed = rows[5]._replace(subject="Anna changed it")
            inbox.records[changed.id] = changed
            fresh = [changed if c.id == changed.id else c for c in rows]

            def rebuild(fresh: list[InboxRow] = fresh) -> None:
                widget.set_rows(fresh)
                paint(widget)

            results["rebuild, 1 changed"].append(timed(rebuild))
            widget.set_filter("")
            widget.action_cursor_first()
            paint(widget)
            await pilot.pause()
            for _ in range(20):
                def step() -> None:
                    before = widget.cursor
                    widget.action_cursor_down()
                    top = round(widget.scroll_y)
                    paint(widget, [before - top + 1, widget.cursor - top + 1])

                results["cursor step"].append(timed(step))
            def page_down() -> None:
                widget.action_cursor_page_down()
                paint(widget)

            for _ in range(5):
                results["page down"].append(timed(page_down))
            await pilot.pause()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    started = time.perf_counter()
    inbox = FakeInbox(args.rows)
    print(f"{args.rows:,} synthetic conversations made in "
          f"{time.perf_counter() - started:.1f} s; {args.runs} runs")
    results = asyncio.run(measure(inbox, args.runs))
    budgets = {"build": 300.0, "first keystroke": 50.0, "keystroke": 50.0,
               "cursor step": 10.0, "page down": 10.0}
    print(f"{'what':<18}{'median ms':>11}{'worst ms':>10}{'budget':>9}")
    for name, values in results.items():
        budget = budgets.get(name)
        median = statistics.median(values)
        mark = "" if budget is None else f"{budget:>7.0f}{' ok' if median <= budget else ' !!'}"
        print(f"{name:<18}{median:>11.2f}{max(values):>10.2f}{mark:>9}")


if __name__ == "__main__":
    main()
