"""The conversation list's search strings: made only while a filter is wanted, remade only
for the rows that changed, and dropped when the filter closes (with 100,000 rows they weigh
more than the rows themselves)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

from textual.app import App, ComposeResult

from frontdesk.store.rows import InboxRow
from frontdesk.tui.clock import ago
from frontdesk.tui.widgets.conversation_list import ConversationList, RowLookups

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
CHANNELS = ("Email", "WidgetChat", "Sms")


class Store:
    """Rows, tags, previews and names, counting the names asked for (one per string made)."""

    def __init__(self, count: int) -> None:
        self.rows = [InboxRow(id=n, state="Open", channel=CHANNELS[n % 3],
                              requester_id=f"u{n}", subject=f"Subject {n}", queue_id=None,
                              agent_id=None, when=NOW - timedelta(minutes=n))
                     for n in range(1, count + 1)]
        self.tags: dict[int, tuple[str, ...]] = {}
        self.previews: dict[int, str] = {}
        self.names = {f"u{n}": f"Person {n}" for n in range(1, count + 1)}
        self.asked: Counter[str] = Counter()
        self.generation = 0

    def name(self, user: str | None) -> str:
        self.asked[user or ""] += 1
        return self.names.get(user or "", "—")

    def lookups(self) -> RowLookups:
        return RowLookups(name=self.name, queue_name=lambda _q: "—",
                          tag_ids=lambda cid: self.tags.get(cid, ()),
                          tag_names=lambda cid: list(self.tags.get(cid, ())),
                          preview=lambda cid: self.previews.get(cid, ""),
                          when=lambda row: row.when, ago=lambda m: ago(m, reference=NOW),
                          generation=lambda: self.generation)


class ListApp(App[None]):
    CSS = "ConversationList { height: 1fr; }"

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        yield ConversationList(self.store.lookups(), id="list")


async def test_search_strings_follow_the_filter_and_the_changed_rows() -> None:
    store = Store(5_000)  # more than one slice of strings
    app = ListApp(store)
    async with app.run_test(size=(120, 30)) as pilot:
        listing = app.query_one(ConversationList)
        listing.set_rows(store.rows)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert listing.search_strings == 0 and sum(store.asked.values()) < 100  # lines only

        # the filter line opens: the strings are made in slices, then every row has one
        listing.prepare_search()
        await app.workers.wait_for_complete()
        assert listing.search_strings == len(store.rows)
        listing.set_filter("person 12")
        assert listing.shown_ids()[0] == 12 and 4999 not in listing.shown_ids()
        listing.set_filter("chat")  # the channel by its name
        assert listing.row_count == len(store.rows) // 3 + (len(store.rows) % 3 >= 2)

        # a rebuild with one row changed and one row's tags changed: two strings made
        store.asked.clear()
        rows = list(store.rows)
        rows[10] = rows[10]._replace(subject="Refund please")
        store.tags[30] = ("vip",)
        listing.set_filter("refund")
        listing.set_rows(rows)
        assert listing.shown_ids() == [11]
        assert sum(store.asked.values()) <= 2 + 40  # two strings, and the lines painted
        listing.set_filter("vip")
        assert listing.shown_ids() == [30]

        # a change in place: that row's string only
        store.asked.clear()
        moved = rows[40]._replace(subject="VIP refund", when=NOW + timedelta(minutes=1))
        listing.update_rows({moved.id: moved}, lambda row: row.when)
        assert listing.shown_ids() == [moved.id, 30]
        assert listing.search_strings == len(rows)
        assert store.asked[moved.requester_id] >= 1 and store.asked["u100"] == 0

        # the filter closes: the strings go; a filter typed at once makes them again
        listing.set_filter("")
        listing.drop_search()
        assert listing.search_strings == 0
        listing.set_rows(rows)
        await app.workers.wait_for_complete()
        assert listing.search_strings == 0
        listing.set_filter("person 4999")
        assert listing.shown_ids() == [4999] and listing.search_strings == len(rows)

        # names read differently: every string is made again
        store.names["u7"] = "Zelda Quist"
        store.generation += 1
        listing.set_rows(rows)
        listing.set_filter("zelda")
        assert listing.shown_ids() == [7]
