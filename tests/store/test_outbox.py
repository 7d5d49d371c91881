"""The outbox: stored before sending, sent in order, retried safely, posted exactly once."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from crash_writer import AGENT_ID, OUTBOX_CONVERSATION, Writer

from frontdesk.api.client import ApiClient
from frontdesk.api.errors import (
    ApiError,
    Conflict,
    InvalidRequest,
    NotFound,
    RateLimited,
    ServiceUnavailable,
    TransportError,
    Unauthorized,
    error_from_exception,
    error_from_response,
)
from frontdesk.api.retry import RetryPolicy
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import data_dir
from frontdesk.store.local import LocalStore, LocalWriteError
from frontdesk.store.outbox import Outbox, OutboxBusy, OutboxItem
from frontdesk.store.outbox_payloads import outbound_message, reply_payload
from full_disk import FullDiskStore

Send = Callable[[OutboxItem], Awaitable[Any]]


@pytest.fixture
def db_path() -> Path:
    return data_dir() / "work.db"


@pytest.fixture
def local(db_path: Path) -> Iterator[LocalStore]:
    with LocalStore(db_path) as store:
        yield store


class Recorder:
    """A ``send`` that records each item (with its state as stored at that moment) and then
    does what the test scripted: nothing (success) or raise the next queued error."""

    def __init__(self, local: LocalStore) -> None:
        self.local = local
        self.outbox: Outbox | None = None
        self.calls: list[tuple[int, str, str]] = []  # (item id, external id, stored state)
        self.errors: list[BaseException | None] = []

    async def __call__(self, item: OutboxItem) -> None:
        assert self.outbox is not None
        stored = self.outbox.item(item.id)
        self.calls.append((item.id, item.external_id, stored.state if stored else "gone"))
        if self.errors:
            error = self.errors.pop(0)
            if error is not None:
                raise error


class Changes:
    """An ``on_change`` that counts calls and lets a test wait until a condition holds."""

    def __init__(self) -> None:
        self.count = 0
        self._waiters: list[tuple[Callable[[], bool], asyncio.Event]] = []

    def __call__(self) -> None:
        self.count += 1
        for condition, event in self._waiters:
            if condition():
                event.set()

    async def until(self, condition: Callable[[], bool]) -> None:
        """Return once ``condition()`` holds, checked now and after every change (10 s cap)."""
        if condition():
            return
        event = asyncio.Event()
        self._waiters.append((condition, event))
        try:
            await asyncio.wait_for(event.wait(), 10.0)
        finally:
            self._waiters.remove((condition, event))


def make_outbox(local: LocalStore, **options: Any) -> tuple[Outbox, Recorder, Changes]:
    recorder = Recorder(local)
    changes = Changes()
    outbox = Outbox(local, recorder, on_change=changes, **options)
    recorder.outbox = outbox
    return outbox, recorder, changes


def payload(text: str, agent_id: str = AGENT_ID, **extra: Any) -> dict[str, Any]:
    return reply_payload(text, agent_id=agent_id, **extra)


# --------------------------------------------------------------------------- enqueue


def test_enqueue_stores_first_and_deletes_the_draft(local: LocalStore, db_path: Path) -> None:
    outbox, recorder, changes = make_outbox(local)
    local.save_draft(4, "Thanks, on it")
    local.save_draft(5, "another conversation's draft")
    item = outbox.enqueue(4, payload("Thanks, on it", content_type="Markdown",
                                     attachments=[{"url": "https://example.com/a.pdf"}]))
    assert re.fullmatch(r"[0-9a-f]{32}", item.external_id)
    assert (item.state, item.attempts, item.last_error) == ("pending", 0, None)
    assert item.payload == {"content": "Thanks, on it", "content_type": "Markdown",
                            "attachments": [{"url": "https://example.com/a.pdf"}],
                            "agent_id": AGENT_ID}
    assert local.draft(4) is None and local.draft(5) is not None
    assert changes.count == 1 and recorder.calls == []  # nothing sent without a flush or run
    # On disk, as another process would see it.
    with LocalStore(db_path) as other:
        assert Outbox(other, recorder).items() == [item]
    second = outbox.enqueue(4, payload("and a second one"))
    assert second.external_id != item.external_id
    assert outbox.pending_count == 2 and [i.id for i in outbox.items()] == [item.id, second.id]
    assert outbox.items(conversation_id=5) == []


@pytest.mark.parametrize("bad", [
    {"content": "", "agent_id": AGENT_ID},
    {"content": "hi"},
    {"content": "hi", "agent_id": AGENT_ID, "content_type": "Rtf"},
    {"content": "hi", "agent_id": AGENT_ID, "attachments": ["https://x"]},
])
def test_enqueue_refuses_a_reply_that_could_never_be_sent(local: LocalStore,
                                                          bad: dict[str, Any]) -> None:
    outbox, _, changes = make_outbox(local)
    local.save_draft(4, "keep me")
    with pytest.raises(ValueError):
        outbox.enqueue(4, bad)
    assert outbox.items() == [] and changes.count == 0
    assert local.draft(4) is not None


def test_outbound_message_carries_the_external_id(local: LocalStore) -> None:
    outbox, _, _ = make_outbox(local)
    item = outbox.enqueue(4, payload("**hi**", content_type="Markdown",
                                     attachments=[{"url": "https://example.com/a.png",
                                                   "prettyName": "a.png"}]))
    assert outbound_message(item).wire() == {
        "_type": "Outbound", "agentId": AGENT_ID, "externalId": item.external_id,
        "content": {"value": "**hi**", "_type": "Markdown"},
        "attachments": [{"url": "https://example.com/a.png", "prettyName": "a.png"}],
    }


# --------------------------------------------------------------------------- flush


async def test_flush_sends_oldest_first_marking_sending_then_deletes(local: LocalStore) -> None:
    outbox, recorder, changes = make_outbox(local)
    a = outbox.enqueue(1, payload("a"))
    b = outbox.enqueue(2, payload("b"))
    c = outbox.enqueue(1, payload("c"))
    changes.count = 0
    assert await outbox.flush() == 3
    assert recorder.calls == [(a.id, a.external_id, "sending"), (b.id, b.external_id, "sending"),
                              (c.id, c.external_id, "sending")]
    assert outbox.items() == [] and outbox.pending_count == 0
    assert changes.count == 6  # sending + confirmed, for each
    assert await outbox.flush() == 0


@pytest.mark.parametrize("error", [
    TransportError("connection reset", sent=True),
    ServiceUnavailable("bad gateway", status=502),
    RateLimited("slow down", status=429, retry_after=7.0),
])
async def test_transient_failure_goes_back_to_pending_and_stops_the_flush(
    local: LocalStore, error: ApiError
) -> None:
    outbox, recorder, _ = make_outbox(local, clock=lambda: 100.0)
    a = outbox.enqueue(1, payload("a"))
    b = outbox.enqueue(2, payload("b"))
    recorder.errors = [error]
    assert await outbox.flush() == 0
    assert [call[0] for call in recorder.calls] == [a.id]  # b is not hammered too
    stored = outbox.item(a.id)
    assert stored is not None
    assert (stored.state, stored.attempts) == ("pending", 1)
    assert stored.last_error is not None and error.message in stored.last_error
    wait = outbox.retry_in()
    assert wait is not None and 0 <= wait <= max(30.0, error.retry_after or 0)
    if error.retry_after is not None:
        assert wait >= error.retry_after
    # Next time: the same item, the same external id, then the rest.
    assert await outbox.flush() == 2
    assert recorder.calls[1:] == [(a.id, a.external_id, "sending"),
                                  (b.id, b.external_id, "sending")]
    assert outbox.retry_in() is None


async def test_a_conversations_later_reply_never_overtakes_an_earlier_one(
    local: LocalStore,
) -> None:
    outbox, recorder, _ = make_outbox(local)
    first = outbox.enqueue(1, payload("first"))
    second = outbox.enqueue(1, payload("second"))
    # A second process is sending ``first`` right now: ``second`` must wait for it.
    local.execute("UPDATE outbox SET state = 'sending' WHERE id = ?", (first.id,))
    assert await outbox.flush() == 0
    assert recorder.calls == []
    local.execute("UPDATE outbox SET state = 'pending' WHERE id = ?", (first.id,))
    assert await outbox.flush() == 2
    assert [call[0] for call in recorder.calls] == [first.id, second.id]


@pytest.mark.parametrize("error", [
    InvalidRequest("User 123 does not exist", status=400),
    NotFound("Conversation 9 not found", status=404),
    Conflict("conversation is closed", status=409),
    Unauthorized("not allowed", status=403),
    ApiError("payload too large", status=413),
])
async def test_refused_item_fails_with_its_error_and_does_not_block(
    local: LocalStore, error: ApiError
) -> None:
    outbox, recorder, _ = make_outbox(local)
    bad = outbox.enqueue(1, payload("bad"))
    good = outbox.enqueue(1, payload("good"))
    recorder.errors = [error]
    assert await outbox.flush() == 1
    assert [call[0] for call in recorder.calls] == [bad.id, good.id]
    [failed] = outbox.items()
    assert (failed.id, failed.state, failed.attempts) == (bad.id, "failed", 1)
    assert failed.last_error is not None and error.message in failed.last_error
    assert outbox.pending_count == 0 and outbox.failed_count == 1
    assert await outbox.flush() == 0  # failed items wait for the user
    assert len(recorder.calls) == 2


async def test_a_refused_key_keeps_the_reply_waiting_not_failed(local: LocalStore) -> None:
    outbox, recorder, _ = make_outbox(local)
    item = outbox.enqueue(1, payload("kept for a key that works"))
    recorder.errors = [Unauthorized("unknown key", status=401)]
    assert await outbox.flush() == 0
    [waiting] = outbox.items()
    assert (waiting.id, waiting.state) == (item.id, "pending")
    assert outbox.failed_count == 0 and outbox.pending_count == 1
    assert await outbox.flush() == 1  # the key works again: sent, with the same externalId
    assert [call[1] for call in recorder.calls] == [item.external_id, item.external_id]


async def test_retry_sends_a_failed_item_again_with_the_same_external_id(
    local: LocalStore,
) -> None:
    outbox, recorder, _ = make_outbox(local)
    item = outbox.enqueue(1, payload("x"))
    recorder.errors = [InvalidRequest("nope", status=400)]
    await outbox.flush()
    retried = outbox.retry(item.id)
    assert retried is not None and retried.state == "pending"
    assert await outbox.flush() == 1
    assert [call[1] for call in recorder.calls] == [item.external_id, item.external_id]
    assert outbox.retry(item.id) is None


async def test_an_unexpected_exception_fails_the_item(local: LocalStore) -> None:
    outbox, recorder, _ = make_outbox(local)
    item = outbox.enqueue(1, payload("x"))
    recorder.errors = [ValueError("cannot build the request")]
    assert await outbox.flush() == 0
    stored = outbox.item(item.id)
    assert stored is not None and stored.state == "failed"
    assert stored.last_error == "ValueError: cannot build the request"


async def test_cancelled_send_goes_back_to_pending(local: LocalStore) -> None:
    started = asyncio.Event()

    async def hang(item: OutboxItem) -> None:
        started.set()
        await asyncio.Event().wait()

    outbox = Outbox(local, hang)
    item = outbox.enqueue(1, payload("x"))
    task = asyncio.create_task(outbox.flush())
    await started.wait()
    stored = outbox.item(item.id)
    assert stored is not None and stored.state == "sending"
    with pytest.raises(OutboxBusy):
        outbox.discard(item.id)
    with pytest.raises(OutboxBusy):
        outbox.restore_to_draft(item.id)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    stored = outbox.item(item.id)
    assert stored is not None and (stored.state, stored.attempts) == ("pending", 1)


def test_items_left_sending_by_a_crash_are_pending_again(local: LocalStore) -> None:
    outbox, _, _ = make_outbox(local)
    item = outbox.enqueue(1, payload("x"))
    local.execute("UPDATE outbox SET state = 'sending', attempts = 1 WHERE id = ?", (item.id,))
    again = Outbox(local, Recorder(local))
    [stored] = again.items()
    assert (stored.state, stored.external_id, stored.attempts) == ("pending", item.external_id, 1)


async def test_a_send_left_sending_on_a_full_disk_goes_once_the_disk_has_room(
        db_path: Path) -> None:
    with FullDiskStore(db_path) as local:
        outbox, recorder, _ = make_outbox(local)
        item = outbox.enqueue(1, payload("x"))
        local.execute("UPDATE outbox SET state = 'sending', attempts = 1 WHERE id = ?",
                      (item.id,))
        local.full = True  # the next start finds the disk full
        again, recorder, _ = make_outbox(local)  # it starts all the same
        assert local.unsent_count() == 1
        with pytest.raises(LocalWriteError):
            await again.flush()  # nothing is sent before it is taken back
        assert recorder.calls == []
        local.full = False
        assert await again.flush() == 1
        assert recorder.calls == [(item.id, item.external_id, "sending")]
        assert again.items() == [] and local.unsent_count() == 0


def test_the_unsent_count_counts_pending_sending_and_failed(local: LocalStore) -> None:
    outbox, _, _ = make_outbox(local)
    ids = [outbox.enqueue(1, payload(text)).id for text in ("a", "b", "c")]
    local.execute("UPDATE outbox SET state = 'sending' WHERE id = ?", (ids[1],))
    local.execute("UPDATE outbox SET state = 'failed' WHERE id = ?", (ids[2],))
    assert local.unsent_count() == len(outbox.items()) == 3


# --------------------------------------------------------------------------- discard, restore


def test_discard_returns_the_payload(local: LocalStore) -> None:
    outbox, _, changes = make_outbox(local)
    item = outbox.enqueue(1, payload("take it back"))
    assert outbox.discard(item.id) == item.payload
    assert outbox.items() == [] and changes.count == 2
    assert outbox.discard(item.id) is None


def test_restore_to_draft_puts_the_reply_back_in_the_composer(local: LocalStore) -> None:
    outbox, _, _ = make_outbox(local)
    item = outbox.enqueue(1, payload("my reply", attachments=[{"url": "https://e.com/a"}]))
    local.save_draft(1, "started typing", [{"url": "https://e.com/b"}])
    draft = outbox.restore_to_draft(item.id)
    assert draft is not None and draft == local.draft(1)
    assert draft.text == "my reply\n\nstarted typing"
    assert draft.attachments == [{"url": "https://e.com/a"}, {"url": "https://e.com/b"}]
    assert outbox.items() == []
    assert outbox.restore_to_draft(item.id) is None
    lone = outbox.enqueue(2, payload("alone"))
    restored = outbox.restore_to_draft(lone.id)
    assert restored is not None and restored.text == "alone"


def test_a_failing_on_change_does_not_break_the_outbox(local: LocalStore) -> None:
    def broken() -> None:
        raise RuntimeError("the UI fell over")

    outbox = Outbox(local, Recorder(local), on_change=broken)
    item = outbox.enqueue(1, payload("x"))
    assert outbox.items() == [item]


# --------------------------------------------------------------------------- run


async def test_run_wakes_on_enqueue_and_backs_off_after_a_failure(local: LocalStore) -> None:
    delays: list[float] = []
    slept = asyncio.Event()
    proceed = asyncio.Event()

    async def sleep(seconds: float) -> None:
        delays.append(seconds)
        slept.set()
        await proceed.wait()

    outbox, recorder, changes = make_outbox(
        local, sleep=sleep, retry=RetryPolicy(base_delay=2.0, max_delay=2.0))
    runner = asyncio.create_task(outbox.run())
    try:
        outbox.enqueue(1, payload("first"))
        await changes.until(lambda: len(recorder.calls) == 1 and outbox.pending_count == 0)

        recorder.errors = [ServiceUnavailable("down", status=503)]
        item = outbox.enqueue(1, payload("second"))
        await slept.wait()  # the loop waits out the backoff…
        assert 0 <= delays[0] <= 2.0
        stored = outbox.item(item.id)
        assert stored is not None and stored.state == "pending"
        proceed.set()  # …and then tries again
        await changes.until(lambda: outbox.pending_count == 0)
        assert [call[1] for call in recorder.calls[1:]] == [item.external_id] * 2
    finally:
        runner.cancel()
        with pytest.raises(asyncio.CancelledError):
            await runner


async def test_a_new_item_cuts_the_backoff_short(local: LocalStore) -> None:
    async def never(seconds: float) -> None:
        await asyncio.Event().wait()

    outbox, recorder, changes = make_outbox(local, sleep=never)
    recorder.errors = [TransportError("down")]
    runner = asyncio.create_task(outbox.run())
    try:
        outbox.enqueue(1, payload("a"))
        await changes.until(lambda: outbox.retry_in() is not None)
        outbox.enqueue(2, payload("b"))
        await changes.until(lambda: outbox.items() == [])
        assert len(recorder.calls) == 3
    finally:
        runner.cancel()
        with pytest.raises(asyncio.CancelledError):
            await runner


# --------------------------------------------------------------------------- kill -9


def test_outbox_survives_kill_9_mid_send(db_path: Path) -> None:
    with Writer("outbox", db_path) as writer:
        enqueued = writer.wait_for(lambda line: line.startswith("enqueued "))
        sending = writer.wait_for(lambda line: line.startswith("sending "))
        writer.kill()
    _, item_id, external_id = enqueued.split()
    assert sending.split()[1:] == [item_id, external_id]
    with LocalStore(db_path) as reopened:
        assert reopened.recovery is None
        assert reopened.draft(OUTBOX_CONVERSATION) is None  # went with the enqueue
        [item] = Outbox(reopened, Recorder(reopened)).items()
    assert (item.id, item.external_id) == (int(item_id), external_id)
    assert (item.state, item.attempts) == ("pending", 1)
    assert item.conversation_id == OUTBOX_CONVERSATION
    assert item.payload["content"] == "hello from the crash writer"


# --------------------------------------------------------------------------- against the sandbox


def _conversation_with_agent(sandbox: SandboxServer) -> tuple[int, str]:
    """A fresh open chat conversation and an agent who may write in it."""

    def insert(ctx: SandboxContext) -> tuple[int, str]:
        created = "2026-01-05T08:00:00.000Z"
        with ctx.db.tx():
            agent = records.insert_user(ctx.db, kind="agent", created_at=created,
                                        display_name="Olga Outbox",
                                        email="olga.outbox@example.com")
            requester = records.insert_user(ctx.db, kind="enduser", created_at=created,
                                            display_name="Carl Customer")
            conversation_id = records.insert_conversation(
                ctx.db, type="ChatConversation", channel="WidgetChat", requester_id=requester,
                created_at=created, assigned_agent_id=agent, assigned_at=created)
        return conversation_id, agent

    return sandbox.call(insert)


def http_sender(client: httpx2.AsyncClient, answers: list[str]) -> Send:
    """Post an item as the API client would: its external id, typed errors on failure."""

    async def send(item: OutboxItem) -> Any:
        body = outbound_message(item).wire()
        try:
            response = await client.post(f"/v1/conversations/{item.conversation_id}/messages",
                                         json=body)
        except httpx2.HTTPError as exc:
            answers.append(type(exc).__name__)
            raise error_from_exception(exc) from exc
        answers.append(str(response.status_code))
        if response.status_code == 400:  # a repeat? the thread says (as the client reads it)
            thread = await client.get(f"/v1/conversations/{item.conversation_id}/messages")
            for message in thread.json().get("data", []):
                if message.get("externalId") == item.external_id:
                    return message
        if response.status_code >= 400:
            raise error_from_response(response.status_code, response.content,
                                      response.headers.get("content-type"))
        return response.json()

    return send


@pytest.fixture
async def sandbox_client(sandbox: SandboxServer) -> AsyncIterator[httpx2.AsyncClient]:
    async with httpx2.AsyncClient(base_url=sandbox.base_url,
                                 headers={"Authorization": sandbox.key}, timeout=10) as client:
        yield client


async def test_exactly_once_when_the_answer_is_lost(
    sandbox: SandboxServer, sandbox_client: httpx2.AsyncClient, local: LocalStore
) -> None:
    conversation_id, agent_id = _conversation_with_agent(sandbox)
    answers: list[str] = []
    outbox = Outbox(local, http_sender(sandbox_client, answers))
    item = outbox.enqueue(conversation_id, payload("Your refund is on its way.", agent_id))

    sandbox.faults.drop_after_commit(methods=("POST",))
    assert await outbox.flush() == 0
    [stored] = outbox.items()
    assert (stored.state, stored.attempts, stored.external_id) == ("pending", 1,
                                                                    item.external_id)
    # The service has the message although we never heard back.
    rows = sandbox.query("SELECT id FROM messages WHERE external_id = ?", (item.external_id,))
    assert len(rows) == 1

    assert await outbox.flush() == 1
    assert answers[-1] == "400"  # the resend was refused as a duplicate: already there
    assert outbox.items() == []
    rows = sandbox.query("SELECT conversation_id FROM messages WHERE external_id = ?",
                         (item.external_id,))
    assert rows == [{"conversation_id": conversation_id}]
    # And reading the thread back shows it once.
    thread = (await sandbox_client.get(f"/v1/conversations/{conversation_id}/messages")).json()
    mine = [m for m in thread["data"] if m.get("externalId") == item.external_id]
    assert len(mine) == 1
    assert mine[0]["authorId"] == agent_id
    assert mine[0]["attributes"]["content"] == {"value": "Your refund is on its way.",
                                                "_type": "Text"}


async def test_run_retries_through_a_503_against_the_sandbox(
    sandbox: SandboxServer, sandbox_client: httpx2.AsyncClient, local: LocalStore
) -> None:
    conversation_id, agent_id = _conversation_with_agent(sandbox)
    answers: list[str] = []
    changes = Changes()
    delays: list[float] = []

    async def sleep(seconds: float) -> None:
        delays.append(seconds)

    outbox = Outbox(local, http_sender(sandbox_client, answers), sleep=sleep, on_change=changes)
    sandbox.faults.fail(503, methods=("POST",))
    runner = asyncio.create_task(outbox.run())
    try:
        item = outbox.enqueue(conversation_id, payload("Back online", agent_id))
        await changes.until(lambda: outbox.pending_count == 0)  # sent, or refused
    finally:
        runner.cancel()
        with pytest.raises(asyncio.CancelledError):
            await runner
    assert answers == ["503", "200"] and len(delays) == 1
    rows = sandbox.query("SELECT id FROM messages WHERE external_id = ?", (item.external_id,))
    assert len(rows) == 1


async def test_a_refusal_from_the_sandbox_stays_visible(
    sandbox: SandboxServer, sandbox_client: httpx2.AsyncClient, local: LocalStore
) -> None:
    conversation_id, _ = _conversation_with_agent(sandbox)
    answers: list[str] = []
    outbox = Outbox(local, http_sender(sandbox_client, answers))
    stranger = "0b5e3c9a-1f2d-4e6b-8a7c-9d0e1f2a3b4c"  # not a user of the organisation
    item = outbox.enqueue(conversation_id, payload("who am I?", stranger))
    assert await outbox.flush() == 0
    [failed] = outbox.items()
    assert failed.state == "failed" and answers == ["400"]
    assert failed.last_error is not None and stranger in failed.last_error
    assert outbox.discard(item.id) == item.payload
    assert sandbox.query("SELECT id FROM messages WHERE external_id = ?",
                         (item.external_id,)) == []


async def test_exactly_once_through_the_api_client(
    sandbox: SandboxServer, local: LocalStore
) -> None:
    """The app's own sender: ``client.messages.add`` with the item's external id."""
    conversation_id, agent_id = _conversation_with_agent(sandbox)
    # One attempt per call, so the outbox (not the client) does the retrying here.
    client = ApiClient(sandbox.base_url, sandbox.key, retry=RetryPolicy(max_attempts=1))
    async with client:

        async def send(item: OutboxItem) -> Any:
            return await client.messages.add(item.conversation_id,
                                             message=outbound_message(item))

        outbox = Outbox(local, send)
        item = outbox.enqueue(conversation_id, payload("Sent through the client", agent_id))
        # The answer is lost, and so is the client's look at the thread afterwards.
        sandbox.faults.drop_after_commit(methods=("POST",))
        sandbox.faults.fail(503, methods=("GET",))
        assert await outbox.flush() == 0
        [stored] = outbox.items()
        assert (stored.state, stored.external_id) == ("pending", item.external_id)
        # The resend is refused as a duplicate; the client finds the message: success.
        assert await outbox.flush() == 1
        assert outbox.items() == []
        thread = await client.messages.list(conversation_id)
    assert [m.external_id for m in thread].count(item.external_id) == 1
    rows = sandbox.query("SELECT id FROM messages WHERE external_id = ?", (item.external_id,))
    assert len(rows) == 1
