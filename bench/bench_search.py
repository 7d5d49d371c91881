"""A text search (``s``) at the service's pace: what is listed after one round trip.

The sandbox (its own process, on a copy of the small database, no simulator, TCP_NODELAY)
enforces the service's budget (10 requests a second, bursts of 4) and answers every request
``LATENCY`` late (its latency fault), as a service across a network does. A session as the
console builds it (the settings' pacer) signs in and completes its first fill (Mine and
Queue known, as after a start); then, alternating, for words of the seeded subjects:

* one round trip: the same search by another client (pacing off) — the reference;
* the console's search (``Finder.search_text``, as the inbox screen runs it): the time to
  the service's answer, when what the inbox knows is listed (``answered``), to the first
  screen of results (the first ``SCREEN`` in the service's order, or all when fewer) listed,
  and to every result read.

Budget: the answer with the known results listed ≤ one round trip + 30 ms. The first screen
and the rest are information: the others' records cost a request each, at most 10 a second.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .common import (
    KEY,
    BenchContext,
    Result,
    db_rows,
    demo_agent_email,
    failed,
    late_sandbox,
    measured,
    median,
)

LATENCY = 0.15
BUDGET_MS = 30.0
#: the rows of the list on a 160x45 terminal
SCREEN = 36
WORDS = 5

def words(db: Path, count: int = WORDS, least: int = 10) -> list[str]:
    """Words of the seeded subjects, each found in ``least`` to 100 of them."""
    seen: Counter[str] = Counter()
    for row in db_rows(db, "SELECT subject FROM conversations WHERE subject IS NOT NULL"):
        seen.update({w for w in re.findall(r"[a-z]{5,}", str(row["subject"]).lower())})
    return [w for w, n in seen.most_common() if least <= n <= 100][:count]


async def _measure(base_url: str, queries: list[str], runs: int, paced: bool
                   ) -> dict[str, Any]:
    from frontdesk.api.client import ApiClient, pacer_for
    from frontdesk.api.pacing import Pacer
    from frontdesk.settings import Settings
    from frontdesk.store.local import LocalStore
    from frontdesk.store.session import Session
    from frontdesk.store.topics import INBOX

    got: dict[str, Any] = {"trip": [], "answered": [], "screen": [], "all": [], "known": [],
                           "found": []}
    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-search-"))
    settings = Settings()
    pacer = pacer_for(settings.rate.rate, settings.rate.burst) if paced else Pacer(enabled=False)
    reference = ApiClient(base_url, KEY, pacer=Pacer(enabled=False))
    client = ApiClient(base_url, KEY, pacer=pacer)
    session = Session(client=client, local=LocalStore(folder / "local.db"), settings=settings,
                      profile="bench", identity=demo_agent_email())
    inbox = session.inbox
    try:
        session.live.watch(INBOX)
        await session.start()
        for _ in range(1200):  # the first fill: Mine and Queue known
            if inbox.filled and inbox.settled:
                break
            await asyncio.sleep(0.1)
        session.live.unwatch(INBOX)  # the search alone at the pacer
        for run in range(runs):
            query = queries[run % len(queries)]
            await asyncio.sleep(1.0)  # the service's bucket is full again
            started = time.perf_counter()
            await reference.search.conversations_page(query, page_size=100)
            got["trip"].append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.5)
            marks: dict[str, float] = {}
            ranked: list[int] = []

            def listed(ids: list[int], marks: dict[str, float] = marks,
                       ranked: list[int] = ranked) -> None:
                marks["answered"] = time.perf_counter()
                ranked.extend(ids)
                got["known"].append(sum(1 for cid in ids if cid in inbox.rows))
                got["found"].append(len(ids))

            def changed(topic: str, value: Any, marks: dict[str, float] = marks,
                        ranked: list[int] = ranked) -> None:
                if topic == INBOX and ranked and "screen" not in marks and all(
                        cid in inbox.rows for cid in ranked[:SCREEN]):
                    marks["screen"] = time.perf_counter()

            unsubscribe = session.live.subscribe(changed)
            started = time.perf_counter()
            await session.finder.search_text(query, listed)
            finished = time.perf_counter()
            unsubscribe()
            got["answered"].append((marks["answered"] - started) * 1000)
            got["screen"].append((marks.get("screen", finished) - started) * 1000)
            got["all"].append((finished - started) * 1000)
    finally:
        await session.close()
        await reference.aclose()
        shutil.rmtree(folder, ignore_errors=True)
    return got


def run(ctx: BenchContext) -> tuple[list[Result], dict[str, Any]]:
    """The search rows."""
    folder = Path(tempfile.mkdtemp(prefix="frontdesk-bench-searchdb-"))
    try:
        db = folder / "sandbox.db"
        shutil.copy(ctx.small_db, db)
        queries = words(db, least=2 if ctx.quick else 10)  # --quick: a smaller organisation
        paced = not ctx.quick
        if ctx.quick:  # neither late nor paced: the run's small sandbox is such a server
            got = asyncio.run(_measure(ctx.server("small").base_url, queries, 1, paced))
        else:
            with late_sandbox(db, LATENCY, rate_limit=paced) as base_url:
                got = asyncio.run(_measure(base_url, queries, ctx.runs, paced))
    except Exception as error:  # a row saying why, never a dead table
        return [failed("search", "search: the first results listed", repr(error),
                       f"≤ 1 round trip + {BUDGET_MS:.0f} ms")], {}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    extra = median(got["answered"]) - median(got["trip"])
    known, found = sum(got["known"]), sum(got["found"])
    rows = [
        measured("search.trip", "one search round trip (reference)", got["trip"],
                 budget="reference"),
        measured("search.answered", "search: the results the inbox knows listed",
                 got["answered"], budget=f"≤ 1 round trip + {BUDGET_MS:.0f} ms",
                 met=None if ctx.quick else extra <= BUDGET_MS,
                 note=f"+{extra:.1f} ms over the round trip; {known} of {found} results "
                      "known then"),
        measured("search.screen", f"the same: the first {SCREEN} results listed",
                 got["screen"], budget="information"),
        measured("search.all", "the same: every result read", got["all"],
                 budget="information"),
    ]
    return rows, {"samples": got, "queries": queries}
