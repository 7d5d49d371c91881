"""Undo send in the outbox: a held reply or note waits, leaves once its hold is over and is
sent once; undo takes it back only while nothing was attempted (undo and the send are never
both done); a hold survives a restart; several holds each keep their own time."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from crash_writer import AGENT_ID

from frontdesk.api.errors import ServiceUnavailable
from frontdesk.settings import Settings, SettingsError
from frontdesk.store.draft_modes import draft_mode
from frontdesk.store.local import LocalStore
from frontdesk.store.outbox import Outbox, OutboxItem, UndoTooLate, hold_left
from frontdesk.store.outbox_payloads import note_payload, reply_payload

START = 1_800_000_000.0


class Wall:
    """The hold's clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class Sent:
    """A ``send`` that records what reached it and can run something while "in flight"."""

    def __init__(self) -> None:
        self.items: list[OutboxItem] = []
        self.in_flight: Any = None
        self.errors: list[BaseException] = []

    async def __call__(self, item: OutboxItem) -> None:
        if self.in_flight is not None:
            self.in_flight(item)
        if self.errors:
            raise self.errors.pop(0)
        self.items.append(item)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "work.db"


@pytest.fixture
def local(db_path: Path) -> Iterator[LocalStore]:
    with LocalStore(db_path) as store:
        yield store


def reply(text: str, **extra: Any) -> dict[str, Any]:
    return reply_payload(text, agent_id=AGENT_ID, **extra)


async def test_a_held_reply_leaves_once_its_hold_is_over_and_only_once(
        local: LocalStore) -> None:
    wall, sent = Wall(), Sent()
    outbox = Outbox(local, sent, wall=wall)
    item = outbox.enqueue(4, reply("Thanks!"), hold=5)
    assert item.send_at == START + 5 and hold_left(item, wall()) == 5
    assert outbox.held() == [item] and outbox.next_release() == 5
    assert await outbox.flush() == 0 and sent.items == []  # held: nothing leaves
    wall.now += 4.9
    assert await outbox.flush() == 0 and outbox.next_release() == pytest.approx(0.1)
    wall.now += 0.1
    assert await outbox.flush() == 1
    assert [i.external_id for i in sent.items] == [item.external_id]
    assert outbox.items() == [] and outbox.held() == [] and outbox.next_release() is None
    with pytest.raises(UndoTooLate) as late:  # too late, and told as sent
        outbox.undo(item.id)
    assert late.value.why == "sent"
    assert local.draft(4) is None
    # no hold: it may leave at once
    now = outbox.enqueue(4, reply("At once"))
    assert now.send_at is None and outbox.held() == []
    assert await outbox.flush() == 1


async def test_undo_puts_it_back_as_written_and_it_never_leaves(local: LocalStore) -> None:
    wall, sent = Wall(), Sent()
    outbox = Outbox(local, sent, wall=wall)
    composed = [{"path": "/home/me/invoice.pdf", "prettyName": "invoice.pdf"}]
    item = outbox.enqueue(4, reply("See the invoice", content_type="Markdown", attachments=[
        {"url": "data:application/pdf;base64,JVBERi0=", "prettyName": "invoice.pdf"}],
        composed=composed), hold=5)
    local.save_draft(4, "and one more thing")  # written since, kept after it
    draft = outbox.undo(item.id)
    assert draft is not None
    assert draft.text == "See the invoice\n\nand one more thing"
    assert draft.attachments == composed  # the file by its path, as the composer had it
    assert outbox.items() == []
    wall.now += 60
    assert await outbox.flush() == 0 and sent.items == []  # it can never leave
    with pytest.raises(UndoTooLate) as late:
        outbox.undo(item.id)
    assert late.value.why == "gone"  # not "sent": it never was

    note = outbox.enqueue(5, note_payload("Customer is VIP", agent_id=AGENT_ID,
                                          created_at="2026-11-28T10:00:00.000Z"), hold=5)
    draft = outbox.undo(note.id)
    assert draft is not None and draft.text == "Customer is VIP"
    assert draft_mode(local, 5) == "note", "a note comes back as a note"


async def test_undo_racing_the_send_either_wins_or_is_told_it_lost(local: LocalStore) -> None:
    wall, sent = Wall(), Sent()
    outbox = Outbox(local, sent, wall=wall)
    raced = outbox.enqueue(4, reply("Raced"), hold=5)
    wall.now += 5
    answers: list[str] = []

    def undo_now(item: OutboxItem) -> None:  # ctrl+z while the request is on its way
        try:
            outbox.undo(item.id)
        except UndoTooLate as late:
            answers.append(late.why)

    sent.in_flight = undo_now
    assert await outbox.flush() == 1
    assert answers == ["sending"] and [i.id for i in sent.items] == [raced.id]
    sent.in_flight = None
    with pytest.raises(UndoTooLate) as late:
        outbox.undo(raced.id)
    assert late.value.why == "sent"
    assert local.draft(4) is None, "a sent reply is not put back as if it were not"

    # an attempt that failed may still have reached the service: no undo, the outbox keeps it
    tried = outbox.enqueue(4, reply("Tried"), hold=5)
    wall.now += 5
    sent.errors = [ServiceUnavailable("down", status=503)]
    assert await outbox.flush() == 0
    with pytest.raises(UndoTooLate) as late:
        outbox.undo(tried.id)
    assert late.value.why == "tried" and [i.id for i in outbox.items()] == [tried.id]
    assert hold_left(outbox.items()[0], wall()) == 0


async def test_a_hold_survives_a_restart_and_then_the_reply_leaves_once(db_path: Path) -> None:
    wall, sent = Wall(), Sent()
    with LocalStore(db_path) as local:
        item = Outbox(local, sent, wall=wall).enqueue(4, reply("Survives"), hold=5)
    wall.now += 2  # the console is started again two seconds later
    with LocalStore(db_path) as local:
        outbox = Outbox(local, sent, wall=wall)
        [kept] = outbox.held()
        assert kept.external_id == item.external_id and hold_left(kept, wall()) == 3
        assert await outbox.flush() == 0
        wall.now += 3
        assert await outbox.flush() == 1
    assert [i.external_id for i in sent.items] == [item.external_id]


async def test_several_holds_each_keep_their_time_and_run_waits_for_each(
        local: LocalStore) -> None:
    wall, sent = Wall(), Sent()
    slept: list[float] = []

    async def sleep(seconds: float) -> None:  # virtual time: the wait passes at once
        slept.append(seconds)
        wall.now += seconds
        await asyncio.sleep(0)

    outbox = Outbox(local, sent, wall=wall, sleep=sleep)
    first = outbox.enqueue(4, reply("first"), hold=5)
    wall.now += 2
    second = outbox.enqueue(7, reply("second"), hold=5)
    third = outbox.enqueue(9, reply("third"), hold=5)
    assert [hold_left(i, wall()) for i in outbox.held()] == [3, 5, 5]
    assert outbox.release([third.id]) == 1  # "send now" for one of them
    assert [i.id for i in outbox.held()] == [first.id, second.id]
    runner = asyncio.create_task(outbox.run())
    try:
        for _ in range(200):
            if len(sent.items) == 3:
                break
            await asyncio.sleep(0)
        assert [i.id for i in sent.items] == [third.id, first.id, second.id]
        assert slept[:2] == [3, 2], "the loop sleeps until each hold ends, no busier"
    finally:
        runner.cancel()
        with pytest.raises(asyncio.CancelledError):
            await runner


def test_undo_seconds_is_a_number_of_seconds_from_0_to_60() -> None:
    assert Settings().compose.undo_seconds == 5
    assert Settings.from_mapping({"compose": {"undo_seconds": 0}}).compose.undo_seconds == 0
    for wrong in (-1, 61, "soon", float("nan")):
        with pytest.raises(SettingsError, match=r"compose\.undo_seconds"):
            Settings.from_mapping({"compose": {"undo_seconds": wrong}})
