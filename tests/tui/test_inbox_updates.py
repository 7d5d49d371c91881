"""The inbox updates a few changed conversations in place: their lines, their places and the
view counts change, and the list is not rebuilt (builds are counted, never timed)."""

from __future__ import annotations

from typing import Any

from test_inbox import parts, settle  # type: ignore[import-not-found]

from frontdesk.store.inbox import NAMES_CHANGED, VIEW_TITLES, VIEWS
from frontdesk.store.session import Session
from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen, ViewTabs
from frontdesk.tui.widgets.conversation_list import ConversationList

Console = Any  # the `console` fixture of tests/tui/conftest.py


def tab_labels(screen: InboxScreen) -> dict[str, str]:
    tabs = screen.query_one(ViewTabs)
    labels = {}
    for name in VIEWS:
        tab = tabs.get_tab(f"view-{name}")
        assert tab is not None
        labels[name] = tab.label_text
    return labels


def expect_consistent(session: Session, screen: InboxScreen, listing: ConversationList) -> None:
    """What the list and the tabs show is what a rebuild would show."""
    assert listing.shown_ids() == [row.id for row in session.inbox.view(screen.view)]
    counts = session.inbox.counts()
    assert tab_labels(screen) == {n: f"{VIEW_TITLES[n]} {counts[n]}" for n in VIEWS}


async def poll(app: FrontdeskApp, session: Session, pilot: Any, *ids: int) -> None:
    session.inbox.want(ids)
    await session.live.refresh("inbox")
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_a_poll_changing_one_conversation_updates_it_in_place(console: Console) -> None:
    app = console.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(console, pilot)
        app_, session, screen, listing = parts(pilot)
        await pilot.pause()
        expect_consistent(session, screen, listing)
        builds, rebuilds = listing.builds, app_.renders["inbox.list"]
        shown = listing.shown_ids()
        await pilot.press("j", "j")
        kept = listing.highlighted_id
        assert kept == shown[2]

        # a new subject: the same place, the new text, no build
        other = shown[5]
        console.sandbox.query("UPDATE conversations SET subject = 'Changed in place' "
                              "WHERE id = ?", (other,))
        await poll(app_, session, pilot, other)
        assert session.inbox.rows[other].subject == "Changed in place"
        assert listing.shown_ids() == shown
        assert "Changed in place" in "".join(
            s.text for s in listing.render_line(1 + shown.index(other) - round(listing.scroll_y)))
        assert listing.highlighted_id == kept

        # closed elsewhere: it leaves Mine, the counts follow
        console.sandbox.query("UPDATE conversations SET state = 'Closed' WHERE id = ?",
                              (other,))
        await poll(app_, session, pilot, other)
        assert other not in listing.shown_ids()
        expect_consistent(session, screen, listing)
        assert listing.highlighted_id == kept

        # activity on the last one: it moves to the top, the cursor stays on its conversation
        last = listing.shown_ids()[-1]
        session.inbox.touch(last)
        session.live.put("inbox", session.inbox.version)
        await pilot.pause()
        assert listing.shown_ids()[0] == last
        expect_consistent(session, screen, listing)
        assert listing.highlighted_id == kept

        # a name resolved by a poll: the lines read anew, nothing is rebuilt
        top = session.inbox.rows[listing.shown_ids()[0]]
        session.directory.names[top.requester_id] = "Renamed Ann"
        session.inbox._bump(NAMES_CHANGED)
        session.live.put("inbox", session.inbox.version)
        await pilot.pause()
        assert "Renamed Ann" in "".join(
            s.text for s in listing.render_line(1 - round(listing.scroll_y)))
        assert listing.highlighted_id == kept

        assert listing.builds == builds
        assert app_.renders["inbox.list"] == rebuilds
        assert app_.renders["inbox.update"] >= 3
        # the other views are still right when shown (rebuilt from the store)
        await pilot.press("tab")
        expect_consistent(session, screen, listing)
