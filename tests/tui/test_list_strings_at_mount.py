"""A conversation list given its rows before it is mounted makes no search strings when it
mounts: they are made only once a filter is wanted (its line opened), as for rows given
later — with a large view they would weigh more than the rows themselves."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

from textual.app import App, ComposeResult

from frontdesk.store.rows import InboxRow
from frontdesk.tui.clock import ago
from frontdesk.tui.widgets.conversation_list import ConversationList, RowLookups

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


class Store:
    """Rows and names, counting the names asked for (one per line painted or string made)."""

    def __init__(self, count: int) -> None:
        self.rows = [InboxRow(n, "Open", "Email", f"u{n}", f"Subject {n}", None, None,
                              NOW - timedelta(minutes=n)) for n in range(1, count + 1)]
        self.asked: Counter[str] = Counter()

    def name(self, user: str | None) -> str:
        self.asked[user or ""] += 1
        return f"Person {(user or 'u0')[1:]}"

    def lookups(self) -> RowLookups:
        return RowLookups(name=self.name, queue_name=lambda _q: "—", tag_ids=lambda _c: (),
                          tag_names=lambda _c: [], preview=lambda _c: "",
                          when=lambda row: row.when, ago=lambda m: ago(m, reference=NOW),
                          generation=lambda: 0)


class EarlyRowsApp(App[None]):
    """A list whose rows are set before it is mounted."""

    CSS = "ConversationList { height: 1fr; }"

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        listing = ConversationList(self.store.lookups(), id="list")
        listing.set_rows(self.store.rows)
        yield listing


async def test_rows_given_before_mounting_make_no_strings_until_a_filter_is_wanted() -> None:
    store = Store(3_000)
    app = EarlyRowsApp(store)
    async with app.run_test(size=(120, 30)) as pilot:
        listing = app.query_one(ConversationList)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert listing.total_count == len(store.rows)
        assert listing.search_strings == 0 and sum(store.asked.values()) < 100  # lines only

        listing.prepare_search()  # the filter line opens
        await app.workers.wait_for_complete()
        assert listing.search_strings == len(store.rows)
        listing.set_filter("person 12")
        assert listing.shown_ids()[0] == 12
