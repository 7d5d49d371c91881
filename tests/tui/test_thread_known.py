"""A thread opened from the inbox shows the messages its preview already read at once, before
the service answers, then takes the whole thread in without showing a message twice or
mounting the shown ones again."""

from __future__ import annotations

import gc
from typing import Any

from frontdesk.tui.app import FrontdeskApp
from frontdesk.tui.screens.inbox.inbox import InboxScreen
from frontdesk.tui.screens.inbox.thread import ThreadScreen
from frontdesk.tui.widgets.conversation_list import ConversationList
from frontdesk.tui.widgets.preview_pane import PreviewPane

Console = Any  # the `console` fixture of tests/tui/conftest.py


async def test_preview_messages_shown_at_once_then_reconciled(console: Console) -> None:
    app = console.app()
    async with app.run_test(size=(160, 45)) as pilot:
        await console.ready(pilot)
        assert isinstance(app, FrontdeskApp) and app.session is not None
        session = app.session
        inbox = app.screen
        assert isinstance(inbox, InboxScreen)
        listing = inbox.query_one(ConversationList)
        shown_ids = listing.shown_ids()
        assert shown_ids
        # the listed conversation with the most messages: more than the preview holds
        marks = ",".join("?" * len(shown_ids))
        cid = int(console.sandbox.query(
            f"SELECT conversation_id AS id, count(*) AS n FROM messages WHERE conversation_id "
            f"IN ({marks}) GROUP BY conversation_id ORDER BY n DESC LIMIT 1",
            tuple(shown_ids))[0]["id"])
        assert listing.move_to(cid)
        await pilot.pause()
        pane = inbox.query_one(PreviewPane)
        pane.show(listing.highlighted)
        worker = pane.flush()
        if worker is not None:
            await worker.wait()
        known = pane.known_messages(cid)
        assert known, "the preview read the newest messages"
        total = len(await session.client.messages.list(cid))
        assert total > len(known)

        # the service cannot give the thread now: the preview's messages are shown anyway
        console.sandbox.faults.fail(400, count=None,
                                    path_prefix=f"/v1/conversations/{cid}/messages")
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ThreadScreen) and screen.conversation_id == cid
        view = screen.thread_view
        await pilot.pause()
        assert [m.id for m in view.messages] == [m.id for m in known]
        early_views = list(view.message_views)
        assert [v.message.id for v in early_views] == [m.id for m in known]
        assert early_views[-1] in app.screen._compositor.visible_widgets

        # the service answers again, with a message written meanwhile
        console.sandbox.faults.clear()
        await console.customer_writes(cid, "Still there?")
        await session.live.refresh("thread")
        for _ in range(3):
            await pilot.pause()
        everything = [m.id for m in await session.client.messages.list(cid)]
        ids = [m.id for m in view.messages]
        assert ids == everything, "every message, in the service's order, none twice"
        mounted = [v.message.id for v in view.message_views]
        assert len(mounted) == len(set(mounted))
        assert mounted == ids[len(ids) - len(mounted):]
        assert all(v.is_attached for v in early_views), "the known ones were kept, not remounted"
        assert view.message_views[-1].message.attributes.body is not None
        assert view.message_views[-1].message.attributes.body.value == "Still there?"
        assert len(mounted) > len(early_views) + 1, "the older ones mounted above"
        assert view.pinned_to_bottom
        assert view.message_views[-1] in app.screen._compositor.visible_widgets
        assert gc.isenabled(), "collection resumed once the thread was painted"
        await pilot.press("escape")
        await pilot.pause()
        assert gc.isenabled()

        # over a slow service: the preview's messages are on screen at once, and the head
        # does not claim to be loading messages while some are shown
        console.sandbox.faults.latency(0.5, count=1,
                                       path_prefix=f"/v1/conversations/{cid}/messages")
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ThreadScreen) and screen.conversation_id == cid
        view = screen.thread_view
        assert view.messages and view.message_views[-1] in app.screen._compositor.visible_widgets
        assert "loading messages" not in screen.head.text.plain
        topic = session.live.topic("thread")
        assert topic is not None
        for _ in range(400):  # the slow answer, then the head's extras
            if topic.fetched_at is not None:
                break
            await pilot.pause(0.025)
        assert topic.fetched_at is not None and topic.error is None
        assert [m.id for m in view.messages] == everything
        assert "loading messages" not in screen.head.text.plain
        await pilot.press("escape")
        await pilot.pause()

        # a thread it does not know: "loading messages…" only while no message is shown
        other = next(i for i in shown_ids if i != cid)  # opened by number: nothing known
        console.sandbox.faults.latency(0.5, count=1,
                                       path_prefix=f"/v1/conversations/{other}/messages")
        await app.push_screen(ThreadScreen(other))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ThreadScreen)
        topic = session.live.topic("thread")
        assert topic is not None
        said: list[bool] = []
        for _ in range(400):
            loading = "loading messages" in screen.head.text.plain
            said.append(loading)
            assert not (loading and screen.thread_view.messages), "loading, yet messages shown"
            if topic.fetched_at is not None:
                break
            await pilot.pause(0.025)
        assert said[0] or screen.thread_view.messages, "said while nothing was shown"
        assert screen.thread_view.messages and not said[-1]
