"""Console memory with 100,000 conversations in the inbox store and a 10,000-message thread.

Each sample is a fresh process (``python -m bench.bench_memory --probe``) that holds nothing
but the console: the conversations come from a JSON-lines file of wire records written
beforehand from the large sandbox database (one ``Conversation.model_validate_json`` per
line, as the client parses an answer, then ``InboxStore.upsert`` in batches, as a poll keeps
what it fetched: the row kept by column in memory, the record in the local store), and the
thread from the large sandbox over HTTP through the real path. Steps, with the resident set (VmRSS,
after ``gc.collect()``) read after each:

1. imports: the console's modules loaded;
2. records: a Session whose inbox store holds the 100,000 conversations;
3. inbox: the console (FrontdeskApp, headless 160x45) signed in against the large sandbox,
   Inbox mode on the All view (every row in the list, its search strings built);
4. thread: the big thread (``meta.big_thread_id``) open in the thread screen, every message
   loaded (the screen mounts only those near the viewport);
5. filter (information): a word typed in the All view's filter beneath (the list's search
   strings made, as while a filter is in use), then the filter closed again (they go).

Budget: ≤ 100 MB RSS at step 4. The peak (VmHWM) is reported beside it. The probe also times
``InboxScreen.rebuild()`` on the real InboxStore (the store's views, the view counts and the
list's rows) — information to set beside bench_inbox's list-only build — and polls that each
change one conversation (``poll.one``: ``InboxStore.upsert`` and the screen's store-change
handler, the time on the UI thread; budget ≤ 16 ms with no list build).

``poll.one`` counts the list builds the measured change causes, and only those: the console
is live against the large sandbox, and its own polls go on beside (its first fill brings
records and names, and the fill's end — the inbox complete — rebuilds the view once, as it
should). So the samples start once the first fill is over (2 minutes at most), the
console's polling is held still during them (a poll loop that wakes waits until released; a
poke still goes through, and a poll in flight lands before the first sample), and the
builds are counted around each sample: from just before the change until the console is
quiet again (no worker running, the inbox at one version over a frame), so anything the
change set off on the way (a rebuild it asked for later, a worker) counts.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .common import (
    CACHE,
    ROOT,
    SRC,
    BenchContext,
    Result,
    ServerInfo,
    big_thread_id,
    conversation_wires,
    demo_agent_email,
    failed,
    home_copy,
    measured,
    median,
    rss_mb,
)

BUDGET_MB = 100.0
#: a poll that changes one conversation, 100,000 rows in the inbox: time on the UI thread
POLL_ONE_BUDGET_MS = 16.0
SIZE = (160, 45)
#: typed in the All view's filter for the filter step
FILTER_WORD = "re"


class PollHold:
    """The live store's sleep, able to hold the polls still: a poll loop whose sleep ends
    while held waits until released (a poke cuts the sleep short and polls at once)."""

    def __init__(self) -> None:
        self._free = asyncio.Event()
        self._free.set()

    def hold(self) -> None:
        """No poll starts until :meth:`release`."""
        self._free.clear()

    def release(self) -> None:
        """Polls go on."""
        self._free.set()

    async def sleep(self, delay: float) -> None:
        """Sleep ``delay`` seconds, then wait while held."""
        await asyncio.sleep(delay)
        await self._free.wait()


def records_file(db_path: Path, count: int) -> Path:
    """The JSON-lines file of ``count`` conversations of ``db_path`` (written once)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    stamp = int(db_path.stat().st_mtime)
    path = CACHE / f"conversations-{db_path.stem}-{count}-{stamp}.jsonl"
    if not path.exists():
        partial = path.with_suffix(f".part{os.getpid()}")
        with partial.open("w", encoding="utf-8") as out:
            for wire in conversation_wires(db_path, count):
                out.write(json.dumps(wire, separators=(",", ":")) + "\n")
        os.replace(partial, path)
    return path


# ---------------------------------------------------------------------- the probe


async def _workers_done(app: Any, rounds: int = 20) -> None:
    """Wait until no worker runs (an exclusive worker cancelled by a newer one is no error)."""
    from textual.worker import WorkerCancelled

    for _ in range(rounds):
        try:
            await app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            continue


async def _probe(server: ServerInfo, records: Path, thread_id: int, identity: str
                 ) -> dict[str, Any]:
    steps: dict[str, float] = {}

    def step(name: str) -> None:
        gc.collect()
        steps[name] = rss_mb()[0]

    from frontdesk.api.client import ApiClient
    from frontdesk.api.models import Conversation
    from frontdesk.api.pacing import Pacer
    from frontdesk.launch import local_store_path
    from frontdesk.settings import Settings
    from frontdesk.store.live import LiveStore
    from frontdesk.store.local import LocalStore
    from frontdesk.store.session import Session
    from frontdesk.tui.app import FrontdeskApp
    from frontdesk.tui.screens.inbox.inbox import InboxScreen
    from frontdesk.tui.screens.inbox.thread import ThreadScreen

    step("imports")
    settings = Settings()
    client = ApiClient(server.base_url, server.key, server.integrations_url,
                       pacer=Pacer(enabled=False))  # pacing holds no memory
    session = Session(client=client, local=LocalStore(local_store_path("bench")),
                      settings=settings, profile="bench", identity=identity)
    polls = PollHold()
    session.live = LiveStore(sleep=polls.sleep)
    inbox = session.inbox
    batch: list[Conversation] = []
    with records.open(encoding="utf-8") as lines:
        for line in lines:
            batch.append(Conversation.model_validate_json(line))
            if len(batch) == 1_000:
                inbox.upsert(batch, "inbox")
                batch = []
    inbox.upsert(batch, "inbox")
    step("records")
    app = FrontdeskApp(session)
    out: dict[str, Any] = {"conversations": len(inbox.rows)}
    async with app.run_test(size=SIZE) as pilot:
        await _workers_done(app)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        screen.show_view("all")
        await _workers_done(app)
        await pilot.pause()
        started = time.perf_counter()
        screen.rebuild()
        out["rebuild_ms"] = (time.perf_counter() - started) * 1000
        await _workers_done(app)
        await pilot.pause()
        out.update(await _poll_one(app, screen, inbox, pilot, polls))
        out["rows"] = screen.conversation_list.total_count
        step("inbox")
        thread = ThreadScreen(thread_id)
        await app.push_screen(thread)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            await pilot.pause()
            if len(thread.thread_view.messages) >= 1 and session.threads.state is not None \
                    and len(session.threads.state.messages) == len(thread.thread_view.messages):
                break
            await asyncio.sleep(0.2)
        out["messages"] = len(thread.thread_view.messages)
        out["mounted"] = len(thread.thread_view.message_views)
        await pilot.pause()
        step("thread")
        out["peak_mb"] = rss_mb()[1]
        listing = screen.conversation_list
        listing.set_filter(FILTER_WORD)
        out["filtered"] = listing.row_count
        await pilot.pause()
        step("filter")
        listing.set_filter("")
        listing.drop_search()
        await pilot.pause()
        step("unfiltered")
    out["steps_mb"] = steps
    return out


async def _poll_one(app: Any, screen: Any, inbox: Any, pilot: Any, polls: PollHold,
                    samples: int = 9) -> dict[str, Any]:
    """Polls that each change one conversation (a new subject), as the poll keeps it
    (``InboxStore.upsert``) and the screen shows it (its store-change handler): the time on
    the UI thread, and how many list builds the change caused (the console's polling held
    still meanwhile; see the module's description)."""
    from frontdesk.store.topics import INBOX
    from frontdesk.tui.store_changed import StoreChanged

    listing = screen.conversation_list
    deadline = time.monotonic() + 120
    while not inbox.filled and time.monotonic() < deadline:  # the first fill's end rebuilds
        await _quiet(app, inbox, pilot)
        await asyncio.sleep(0.1)
    polls.hold()
    await _quiet(app, inbox, pilot)
    ids = list(inbox.rows)
    step = max(1, len(ids) // samples)
    times: list[float] = []
    caused = 0
    for n, conversation_id in enumerate(ids[::step][:samples]):
        changed = inbox.records[conversation_id].model_copy(update={"subject": f"Changed {n}"})
        await pilot.pause()
        before = listing.builds
        started = time.perf_counter()
        inbox.upsert([changed], "inbox")
        screen.on_store_changed(StoreChanged(INBOX, inbox.version))
        times.append((time.perf_counter() - started) * 1000)
        await _quiet(app, inbox, pilot)  # and whatever the change set off, to its end
        caused += listing.builds - before
    polls.release()
    return {"poll_one_ms": times, "poll_one_builds": caused, "poll_one_filled": inbox.filled}


async def _quiet(app: Any, inbox: Any, pilot: Any, rounds: int = 50) -> None:
    """Wait until no worker runs and the inbox stays at one version over a frame (a poll in
    flight when polling was held has landed)."""
    for _ in range(rounds):
        version = inbox.version
        await _workers_done(app)
        await pilot.pause()
        if inbox.version == version:
            return


def probe(server_json: str, records: str, thread_id: str, identity: str) -> None:
    """In the measured process: load, show, read the RSS; print the report as JSON."""
    server = ServerInfo(**json.loads(server_json))
    # httpcore2 imports trio when it can (5.6 MB). frontdesk does not depend on it: the
    # development environment has it for the browser test's selenium, an installed console
    # does not. The probe measures the console as installed.
    sys.modules.setdefault("trio", None)  # type: ignore[arg-type]
    report = asyncio.run(_probe(server, Path(records), int(thread_id), identity))
    print(json.dumps(report), flush=True)


# ---------------------------------------------------------------------- the benchmark


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """(i) RSS of fresh console processes holding the inbox and the thread."""
    server = ctx.server("big")
    db_path = ctx.big_db
    count = 1_000 if ctx.quick else 100_000
    records = records_file(db_path, count)
    thread_id = big_thread_id(db_path)
    runs = 1 if ctx.quick else max(5, ctx.runs // 2)
    reports: list[dict[str, Any]] = []
    errors: list[str] = []
    for _ in range(runs):
        with home_copy() as home:
            env = {**os.environ, "PYTHONPATH": str(SRC), "FRONTDESK_HOME": str(home)}
            done = subprocess.run(
                [sys.executable, "-m", "bench.bench_memory", "--probe",
                 json.dumps(server.__dict__), str(records), str(thread_id),
                 demo_agent_email()],
                capture_output=True, timeout=600, env=env, cwd=ROOT, check=False)
        lines = done.stdout.decode(errors="replace").strip().splitlines()
        try:
            reports.append(json.loads(lines[-1]))
        except (IndexError, ValueError):
            errors.append(f"exit {done.returncode}: "
                          + done.stderr.decode(errors="replace")[-600:])
    if not reports:
        return [failed("memory.console", "console memory", "; ".join(errors),
                       f"≤ {BUDGET_MB:.0f} MB")], {"errors": errors}
    last = reports[-1]
    rss = [r["steps_mb"]["thread"] for r in reports]
    peaks = [r["peak_mb"] for r in reports]
    steps = last["steps_mb"]
    label = f"{last['conversations']:,} conversations + {last['messages']:,}-message thread"
    rows = [
        measured("memory.console", f"console RSS, {label}", rss, unit="MB",
                 budget=f"≤ {BUDGET_MB:.0f} MB", met=median(rss) <= BUDGET_MB,
                 note=f"peak {median(peaks):.0f} MB; steps: imports {steps['imports']:.0f}, "
                      f"+records {steps['records']:.0f}, +inbox (All, {last['rows']:,} rows) "
                      f"{steps['inbox']:.0f}, +thread ({last['mounted']} mounted) "
                      f"{steps['thread']:.0f} MB; then a filter typed in the All view "
                      f"({last.get('filtered', 0):,} rows shown) "
                      f"{steps.get('filter', 0):.0f}, closed {steps.get('unfiltered', 0):.0f} MB"),
        measured("memory.rebuild", f"InboxScreen.rebuild, real store, {last['rows']:,} rows",
                 [r["rebuild_ms"] for r in reports], budget="information (build ≤ 300 ms)",
                 note="the store's view + the 5 view counts + the list's set_rows"),
    ]
    polls = [t for r in reports for t in r.get("poll_one_ms", [])]
    if polls:
        builds = max(r.get("poll_one_builds", 0) for r in reports)
        rows.append(measured(
            "poll.one", f"poll changing one conversation, {last['rows']:,} rows: UI thread",
            polls, budget=f"≤ {POLL_ONE_BUDGET_MS:.0f} ms",
            met=median(polls) <= POLL_ONE_BUDGET_MS and builds == 0,
            note=f"InboxStore.upsert + the inbox screen's update; list builds the changes "
                 f"caused {builds} (worst run; sampled after the first fill"
                 f"{'' if all(r.get('poll_one_filled') for r in reports) else ' (not over!)'}"
                 f", the console's polling held still)"))
    return rows, {"reports": reports, "errors": errors}


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--probe":
        probe(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
        raise SystemExit(0)
    print("run the memory benchmark with: python -m bench --only memory", file=sys.stderr)
    raise SystemExit(2)
