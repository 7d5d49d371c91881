"""The conversation list showing a store's view (rows kept by column, each made as it is
read): changes in place land where they belong, the cursor and the filter follow, and the
search strings of the rows not written since are reused, those written again are made."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

from textual.app import App, ComposeResult

from frontdesk.store.inbox_rows import RowTable
from frontdesk.store.rows import InboxRow
from frontdesk.tui.clock import ago
from frontdesk.tui.widgets.conversation_list import ConversationList, RowLookups

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


class Store:
    """A table of rows and names, counting the names asked for (one per string made)."""

    def __init__(self, count: int) -> None:
        self.table = RowTable(
            InboxRow(n, "Open", "Email", f"u{n}", f"Subject {n}", None, None,
                     NOW - timedelta(minutes=n), n) for n in range(1, count + 1))
        self.asked: Counter[str] = Counter()

    def name(self, user: str | None) -> str:
        self.asked[user or ""] += 1
        return f"Person {(user or '')[1:]}"

    def lookups(self) -> RowLookups:
        return RowLookups(name=self.name, queue_name=lambda _q: "—", tag_ids=lambda _c: (),
                          tag_names=lambda _c: (), preview=lambda _c: "",
                          when=lambda row: row.when, ago=lambda m: ago(m, reference=NOW),
                          generation=lambda: 0)


class ListApp(App[None]):
    CSS = "ConversationList { height: 1fr; }"

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        yield ConversationList(self.store.lookups(), id="list")


async def test_a_view_changes_in_place_and_keeps_its_search_strings() -> None:
    store = Store(3_000)
    table = store.table
    app = ListApp(store)
    async with app.run_test(size=(120, 30)) as pilot:
        listing = app.query_one(ConversationList)
        listing.set_rows(table.ordered(table.slots()))
        await pilot.pause()
        assert listing.shown_ids()[:3] == [1, 2, 3] and listing.total_count == 3_000
        assert listing.window_ids()[:2] == (1, 2)
        assert listing.move_to(700) and listing.highlighted_id == 700

        # two rows written again (one moves to the top, one down) and one taken out, all
        # told at once: every one lands in its place, the cursor stays on its conversation
        before = {cid: table[cid] for cid in (500, 2, 9)}
        table[500] = table[500]._replace(when=NOW + timedelta(minutes=1))
        table[2] = table[2]._replace(when=NOW - timedelta(minutes=9, seconds=30))
        del table[9]
        listing.update_rows({500: table[500], 2: table[2], 9: None}, lambda row: row.when)
        assert listing.shown_ids()[:11] == [500, 1, 3, 4, 5, 6, 7, 8, 2, 10, 11]
        assert len(before) == 3 and listing.total_count == 2_999
        assert listing.highlighted_id == 700

        # the filter: strings made once; a view made again reuses those of rows not written
        # since and makes the others
        listing.set_filter("person 12")
        assert listing.shown_ids()[:2] == [12, 112] and listing.search_strings == 2_999
        store.asked.clear()
        table[120] = table[120]._replace(subject="Refund please")
        listing.set_rows(table.ordered(table.slots()))
        assert sum(count for user, count in store.asked.items()) <= 1 + 40  # one, and lines
        assert store.asked["u120"] >= 1 and store.asked["u12"] <= 1
        listing.set_filter("refund")
        assert listing.shown_ids() == [120]
        listing.set_filter("")
        assert listing.row_count == 2_999 and listing.highlighted_id == 120
        assert listing.move_to(700) and listing.cursor == 698  # 9 was taken out
