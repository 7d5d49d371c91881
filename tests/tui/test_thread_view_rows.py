"""The thread view given what the console really hands it: the thread store's rows of the
client's answer (``MessageRows.of_wires``), which are split into columns only after the first
frame. Duplicates, echoes, appends, older batches and reconciling work on them as on models,
and the store's rows are never changed by the view."""

from __future__ import annotations

from test_thread_view import (  # type: ignore[import-not-found]
    SIZE,
    ThreadApp,
    make_message,
    settle,
    visible,
)

from frontdesk.api.models.messages import Message
from frontdesk.api.resources.messages import WireMessage
from frontdesk.store.message_rows import MessageRows
from frontdesk.tui.widgets.thread_view import ThreadView


def wire_of(message: Message) -> WireMessage:
    """A message as the client reads it from an answer."""
    return WireMessage(message.id, message.author_id, message.external_id,
                       message.model_dump_json(by_alias=True))


def thread_wires(count: int) -> list[WireMessage]:
    return [wire_of(make_message(i, direction="Inbound" if i % 2 else "Outbound",
                                 external_id="ext-7" if i == count - 7 else None))
            for i in range(count)]


async def test_a_thread_of_the_clients_rows_keeps_every_behaviour() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        wires = thread_wires(300)
        wires.insert(150, wires[100])  # the same message twice: the first is kept
        rows = MessageRows.of_wires(wires)
        assert rows._entries is wires, "nothing done per message when the rows are made"
        thread.set_messages(rows)
        assert thread._messages._entries is wires, "nor before the first frame"
        await settle(pilot)
        assert thread._messages._entries is None  # split once the frame is on screen
        assert len(thread.messages) == 300 and len(rows) == 301
        views = thread.message_views
        assert views[-1].message.id == "m00299" and visible(app, views[-1])

        # an echo of a message the thread holds (by its external id) is not shown
        thread.add_pending(make_message(900, prefix="local", direction="Outbound",
                                        external_id="ext-7"))
        # a message shown already is not shown twice; a new one is, at the bottom
        thread.append([make_message(299), make_message(300, prefix="n")])
        await settle(pilot)
        ids = [view.message.id for view in thread.message_views]
        assert ids[-2:] == ["m00299", "n00300"] and len(ids) == len(set(ids))
        assert not any(view.has_class("-pending") for view in thread.message_views)
        assert len(thread.messages) == 301 and len(rows) == 301  # the store's rows as they were
        assert rows.ids[150] == "m00100"

        # scrolling up mounts the older batch above
        lo = thread.window[0]
        assert lo > 0, ("older messages were mounted before the view went up",
                        thread.window, thread.scroll_y, thread.max_scroll_y)
        thread.scroll_home(animate=False, immediate=True)
        await settle(pilot)
        assert thread.window[0] < lo


async def test_the_whole_thread_reconciled_after_the_newest_few() -> None:
    app = ThreadApp()
    async with app.run_test(size=SIZE) as pilot:
        thread = app.query_one(ThreadView)
        wires = thread_wires(500)
        known = [Message.model_validate_json(wire.wire) for wire in wires[-5:]]
        thread.set_messages(known)
        await settle(pilot)
        early = list(thread.message_views)
        rows = MessageRows.of_wires([*wires, wire_of(make_message(500, prefix="n"))])
        thread.reconcile(rows)
        assert thread._messages._entries is not None, "nothing per message before the frame"
        await settle(pilot)
        ids = [message.id for message in thread.messages]
        assert ids == rows.ids
        mounted = [view.message.id for view in thread.message_views]
        assert mounted == ids[len(ids) - len(mounted):] and mounted[-1] == "n00500"
        assert len(mounted) > len(early), "older ones mounted above"
        assert all(view.is_attached for view in early), "the shown ones kept, not remounted"
        assert thread.pinned_to_bottom and thread.unseen == 0

        # the same message twice in the answer: shown once, the newest still at the bottom
        thread.set_messages(known)
        await settle(pilot)
        doubled = MessageRows.of_wires([*wires[:200], wires[100], *wires[200:]])
        thread.reconcile(doubled)
        await settle(pilot)
        ids = [message.id for message in thread.messages]
        assert len(ids) == 500 and len(set(ids)) == 500
        mounted = [view.message.id for view in thread.message_views]
        assert mounted[-1] == "m00499" and len(mounted) == len(set(mounted))
        assert visible(app, thread.message_views[-1])
