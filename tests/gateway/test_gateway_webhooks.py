"""The gateway hears the service's webhooks (``serve --public-url``): a real sandbox delivering
to a real gateway over loopback (the gateway's public URL is its own loopback address).

The gateway subscribes on start and finds its subscription again on the next; a customer's
message reaches a console listening to the change stream by its delivery, not by a look of
the poller; a delivery that is forged, altered, foreign or stale is refused and tells nothing,
and one heard before (a replay, or the service trying again) is answered as taken and tells
nothing; the poller slows down while webhooks are heard and comes back when they are silent;
``frontdesk gateway unsubscribe`` removes the subscription.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import AsyncGenerator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from frontdesk.api.client import ApiClient
from frontdesk.api.models.webhooks import SIGNATURE_HEADER, SUBSCRIPTION_HEADER, sign
from frontdesk.api.pacing import Pacer
from frontdesk.cli.main import main
from frontdesk.gateway.change_feed import SLOWER, ChangeFeed
from frontdesk.gateway.webhook_feed import EVENTS, MAX_DELIVERY_BYTES, NAME, WebhookFeed
from frontdesk.sandbox.server import SandboxServer
from gateway_harness import (
    DEMO_AGENT_EMAIL,
    OWN_URL,
    PATIENCE,
    RunningGateway,
    customer_writes,
    running_gateway,
)

#: The poller's interval while a test needs it out of the way: one look at the start, then
#: none for as long as any test runs (what reaches a console came by webhook).
NEVER = 3600.0


def _until(condition: Callable[[], object], what: str) -> None:
    """Wait until ``condition`` holds (the deadline only guards against a hang)."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


def _feeds(gateway: RunningGateway) -> tuple[ChangeFeed, WebhookFeed]:
    feed, webhooks = gateway.state.feed, gateway.state.webhooks
    assert feed is not None and webhooks is not None
    return feed, webhooks


def _subscribed(gateway: RunningGateway) -> tuple[ChangeFeed, WebhookFeed]:
    """The running gateway's feeds, once its subscription is set up and its first look
    done."""
    _until(lambda: gateway.state.webhooks is not None
           and gateway.state.webhooks.subscription_id is not None, "subscribed")
    feed, webhooks = _feeds(gateway)
    _until(lambda: feed.searches >= 1, "the poller's first look")
    return feed, webhooks


def _told_since(feed: ChangeFeed, seq: int) -> list[tuple[str, tuple[int, ...]]]:
    """The notices the feed published after ``seq`` (kind, conversations), read from the
    test's thread: again when the gateway's thread published meanwhile."""
    while True:
        try:
            return [(notice.kind, notice.conversations) for notice in feed.missed(seq)]
        except RuntimeError:  # the notices held changed while they were read
            continue


def _hook(gateway: RunningGateway) -> str:
    assert gateway.config.public_url is not None
    return gateway.config.public_url + "/gateway/v1/webhooks"


def _subscriptions(gateway: RunningGateway) -> list[dict[str, Any]]:
    """The sandbox's subscriptions delivering to the gateway."""
    return gateway.sandbox.query("SELECT * FROM webhooks WHERE url = ?", (_hook(gateway),))


def _open_conversations(sandbox: SandboxServer) -> list[int]:
    rows = sandbox.query("SELECT id FROM conversations WHERE state = 'Open' ORDER BY id "
                         "LIMIT 3")
    return [int(row["id"]) for row in rows]


def _set_subscription(sandbox: SandboxServer, webhook_id: str, **changes: Any) -> None:
    with httpx2.Client(base_url=sandbox.base_url, headers={"Authorization": sandbox.key},
                      timeout=PATIENCE) as http:
        changed = http.patch(f"/v1/webhooks/{webhook_id}", json=changes)
        assert changed.status_code == 200, changed.text


@pytest.fixture
def hearing(sandbox: SandboxServer, tmp_path: Path) -> Iterator[RunningGateway]:
    """A gateway hearing the sandbox's webhooks, its poller out of the way."""
    with running_gateway(sandbox, tmp_path, public_url=OWN_URL, feed_interval=NEVER) as gateway:
        yield gateway


async def test_the_gateway_subscribes_and_a_customers_message_reaches_a_console_by_webhook(
        hearing: RunningGateway) -> None:
    gateway, sandbox = hearing, hearing.sandbox
    feed, webhooks = await asyncio.to_thread(_subscribed, gateway)
    [subscription] = _subscriptions(gateway)
    assert subscription["id"] == webhooks.subscription_id
    assert subscription["name"] == NAME and subscription["enabled"] == 1
    assert set(json.loads(subscription["events"])) == set(EVENTS)
    assert "ConversationMessageAdded" in EVENTS and "AgentBannedIp" not in EVENTS
    assert feed.pace() == NEVER * SLOWER  # webhooks heard: the poller slows down
    key = gateway.add_member(DEMO_AGENT_EMAIL, "agent")
    conversation = _open_conversations(sandbox)[0]
    looks = feed.searches
    async with ApiClient(gateway.base_url, key, pacer=Pacer(enabled=False)) as client:
        health = await client.gateway.health()
        assert (health.upstream, health.webhooks) == ("ok", "heard")
        told: list[int] = []
        stream = client.gateway.changes()
        assert isinstance(stream, AsyncGenerator)  # closed when left, not when collected
        async with asyncio.timeout(PATIENCE), \
                contextlib.aclosing(stream) as changes:  # the timeout: a hang guard only
            async for notice in changes:
                if notice.kind == "hello":
                    await asyncio.to_thread(customer_writes, sandbox, conversation,
                                            "heard by webhook")
                elif notice.kind == "conversations":
                    told.extend(notice.conversations)
                    what = notice.what
                    if conversation in told:
                        break
    assert told == [conversation]
    assert what == ["messages"]  # the delivery said what changed: a console reads just that
    assert feed.searches == looks  # no look of the poller told it: the delivery did
    assert webhooks.taken == 1 and webhooks.refused == 0
    await asyncio.to_thread(sandbox.run_pending)  # the delivery's outcome in its log
    log = sandbox.query("SELECT success, response_code FROM webhook_deliveries "
                        "WHERE webhook_id = ?", (subscription["id"],))
    assert log == [{"success": 1, "response_code": 204}]


def test_a_delivery_says_what_changed_in_its_conversation() -> None:
    """A webhook's event names the change (``event_fqn``): its notice says what changed, so
    a console reads only that (nothing said for an event the gateway does not know)."""
    from frontdesk.gateway.webhook_feed import _what

    said = {name: _what({"event_fqn": name}) for name in (
        "CONVERSATION_MESSAGE_ADDED", "CONVERSATION_NOTE_ADDED", "CONVERSATION_TAG_ADDED",
        "CONVERSATION_TAG_REMOVED", "CONVERSATION_RATED", "CONVERSATION_CLOSED",
        "CONVERSATION_ASSIGNED", "CONVERSATION_MESSAGE_DELIVERY_SEEN", "AGENT_BANNED_IP",
        "SOMETHING_ELSE")}
    assert said == {
        "CONVERSATION_MESSAGE_ADDED": ("messages",), "CONVERSATION_NOTE_ADDED": ("notes",),
        "CONVERSATION_TAG_ADDED": ("tags",), "CONVERSATION_TAG_REMOVED": ("tags",),
        "CONVERSATION_RATED": ("rating",), "CONVERSATION_CLOSED": ("record",),
        "CONVERSATION_ASSIGNED": ("record",),
        "CONVERSATION_MESSAGE_DELIVERY_SEEN": ("delivery",),
        "AGENT_BANNED_IP": (), "SOMETHING_ELSE": ()}
    assert _what({"event_fqn": 7}) == () and _what({}) == ()


def _delivery(conversation: int, event_id: str | None = None) -> bytes:
    return json.dumps({
        "event_id": event_id or str(uuid.uuid4()), "event_fqn": "CONVERSATION_MESSAGE_ADDED",
        "event_version": "1", "event_timestamp": "2026-01-05T09:00:00Z",
        "data": {"conversation": {"csid": conversation, "status": "OPEN"},
                 "text": "hello"}}).encode()


def test_forged_altered_foreign_and_stale_deliveries_are_refused_and_repeats_tell_nothing(
        hearing: RunningGateway) -> None:
    gateway, sandbox = hearing, hearing.sandbox
    feed, webhooks = _subscribed(gateway)
    [row] = _subscriptions(gateway)
    ours, secret = row["id"], row["secret_key"]
    now = int(sandbox.clock.now().timestamp() * 1000)  # the service's clock
    conversation = _open_conversations(sandbox)[0]

    def deliver(body: bytes | Iterator[bytes], signature: str | None, subscription: str = ours,
                **options: Any) -> httpx2.Response:
        headers = {SUBSCRIPTION_HEADER: subscription, "Content-Type": "application/json"}
        if signature is not None:
            headers[SIGNATURE_HEADER] = signature
        with httpx2.Client(timeout=PATIENCE) as http:
            return http.post(_hook(gateway), headers=headers, content=body, **options)

    good = _delivery(conversation)
    before = feed.last
    taken = deliver(good, sign(secret, now, good))
    assert taken.status_code == 204, taken.text
    assert _told_since(feed, before) == [("conversations", (conversation,))]
    told = feed.last
    other = _delivery(conversation)
    minutes = 60_000
    # a repeat (the service trying again, or a replay) is answered as taken, so that the
    # service stops trying, and tells nothing
    repeats = {
        "replayed as it was": deliver(good, sign(secret, now, good)),
        "tried again, signed anew": deliver(good, sign(secret, now + 1, good)),
    }
    assert {what: answer.status_code for what, answer in repeats.items()} == \
        dict.fromkeys(repeats, 204)
    assert feed.last == told and webhooks.repeated == 2
    refused = {
        "forged": deliver(other, sign("ab" * 32, now, other)),
        "altered": deliver(other.replace(b"hello", b"HELLO"), sign(secret, now, other)),
        "foreign": deliver(other, sign(secret, now, other), str(uuid.uuid4())),
        "unsigned": deliver(other, None),
        "malformed": deliver(other, "t=nan,v1=" + "0" * 64),
        "stale": deliver(other, sign(secret, now - 10 * minutes, other)),
        "from the future": deliver(other, sign(secret, now + 10 * minutes, other)),
    }
    statuses = {what: answer.status_code for what, answer in refused.items()}
    assert statuses == dict.fromkeys(refused, 401)
    reasons = {what: answer.json()["message"] for what, answer in refused.items()}
    assert "subscription" in reasons["foreign"]
    assert all("signature" in reasons[what] for what in (
        "forged", "altered", "unsigned", "malformed", "stale", "from the future"))
    unreadable = b"\xff not json"
    assert deliver(unreadable, sign(secret, now, unreadable)).status_code == 400
    huge = b" " * (MAX_DELIVERY_BYTES + 1)
    assert deliver(huge, sign(secret, now, huge)).status_code == 413
    streamed = deliver(iter([b" " * MAX_DELIVERY_BYTES, b" "]), "t=1,v1=0")  # no length
    assert streamed.status_code == 413
    assert feed.last == told  # nothing refused told anything
    assert webhooks.taken == 1 and webhooks.refused == len(refused) + 1
    assert webhooks.repeated == 2
    # a new delivery is taken still
    fresh = _delivery(conversation)
    assert deliver(fresh, sign(secret, now, fresh)).status_code == 204
    assert feed.last == told + 1


def test_a_restart_finds_the_same_subscription_and_unsubscribe_removes_it(
        hearing: RunningGateway, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    gateway, sandbox = hearing, hearing.sandbox
    _subscribed(gateway)
    [first] = _subscriptions(gateway)
    # an admin disabled it and cut its events while the gateway was away
    _set_subscription(sandbox, first["id"], enabled=False, events=["ConversationClosed"])
    gateway.restart()
    _subscribed(gateway)
    [again] = _subscriptions(gateway)
    assert again["id"] == first["id"] and again["enabled"] == 1
    assert set(json.loads(again["events"])) == set(EVENTS)
    assert again["secret_key"] == first["secret_key"]
    gateway.restart()  # found as it is: nothing to change
    _subscribed(gateway)
    assert [row["updated_at"] for row in _subscriptions(gateway)] == [again["updated_at"]]

    def unsubscribe(*options: str) -> tuple[int, str, str]:
        code = main(["gateway", "unsubscribe", *options])
        out, err = capsys.readouterr()
        return code, out, err

    public_url = gateway.config.public_url
    assert public_url is not None
    monkeypatch.setenv("FRONTDESK_UPSTREAM_KEY", "sbx_not-the-key")
    code, out, err = unsubscribe("--public-url", public_url, "--upstream", sandbox.base_url)
    assert code == 1 and "refused the organisation key" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert len(_subscriptions(gateway)) == 1
    monkeypatch.setenv("FRONTDESK_UPSTREAM_KEY", sandbox.key)
    code, _, err = unsubscribe("--public-url", "ftp://x", "--upstream", sandbox.base_url)
    assert code == 2 and "--public-url" in err and len(err.strip().splitlines()) == 1
    code, out, err = unsubscribe("--public-url", public_url + "/", "--upstream",
                                 sandbox.base_url)
    assert code == 0, err
    assert out.startswith("Removed the gateway's webhook subscription") and first["id"] in out
    assert _subscriptions(gateway) == []
    code, out, _ = unsubscribe("--public-url", public_url, "--upstream", sandbox.base_url)
    assert code == 0 and out.startswith("No webhook subscription delivers to")


def test_the_poller_slows_while_webhooks_are_heard_and_looks_again_when_they_are_silent(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    """Silent webhooks: the poller tells the change at its own pace, and the gateway finds
    its subscription disabled at the service and puts it right by itself."""
    interval = 0.2
    with running_gateway(sandbox, tmp_path, public_url=OWN_URL,
                         feed_interval=interval) as gateway:
        feed, webhooks = _subscribed(gateway)
        assert feed.pace() == interval * SLOWER
        [row] = _subscriptions(gateway)
        first, second = _open_conversations(sandbox)[:2]
        with gateway.client(None) as anonymous:
            assert anonymous.get("/gateway/v1/health").json()["data"]["webhooks"] == "heard"
            # the service stops delivering (an admin disabled the subscription; the gateway
            # is not told): the poller finds the change at its slow pace and tells it
            _set_subscription(sandbox, row["id"], enabled=False)
            told = feed.last
            customer_writes(sandbox, first, "while the webhooks are silent")
            _until(lambda: any(first in ids for _, ids in _told_since(feed, told)),
                   "the poller tells the change")
            assert feed.silences == 1 and webhooks.taken == 0
            # silence makes the gateway check its subscription: enabled again, by itself
            _until(lambda: webhooks.put_right == 1, "the subscription put right")
            assert [bool(found["enabled"]) for found in _subscriptions(gateway)] == [True]
            # delivering again: the next delivery is heard, and the poller slows down again
            customer_writes(sandbox, second, "heard again")
            _until(lambda: webhooks.taken == 1, "the delivery")
            assert feed.webhooks_heard() and feed.pace() == interval * SLOWER
            assert anonymous.get("/gateway/v1/health").json()["data"]["webhooks"] == "heard"
            assert webhooks.subscription_id == row["id"].lower()


def test_a_late_look_tells_silent_webhooks_from_heard_ones(
        sandbox: SandboxServer, tmp_path: Path) -> None:
    """While the webhooks are heard the feed looks less often than its searches overlap, so
    every look is late and tells all it finds again. What a delivery told, or the last look
    found, is no sign of silence then; a change found new that no delivery told of is, and
    the gateway puts its subscription right."""
    with running_gateway(sandbox, tmp_path, public_url=OWN_URL, feed_interval=0.2,
                         feed_overlap=0.1) as gateway:
        feed, webhooks = _subscribed(gateway)
        [row] = _subscriptions(gateway)
        first, second = _open_conversations(sandbox)[:2]
        customer_writes(sandbox, first, "heard")
        _until(lambda: webhooks.taken == 1, "the delivery")
        # (a look made before the delivery came may count it as unheard: that is not what is
        # tested; the looks after it are, and find it again and again, late)
        silences, searches = feed.silences, feed.searches
        _until(lambda: feed.searches >= searches + 2, "two late looks after the delivery")
        assert feed.silences == silences, "a change a delivery told of taken for silence"
        # silent: the next late look finds a change no delivery told of
        _set_subscription(sandbox, row["id"], enabled=False)
        customer_writes(sandbox, second, "unheard")
        _until(lambda: feed.silences == silences + 1, "the silence noticed")
        _until(lambda: webhooks.put_right == 1, "the subscription put right")
        assert [bool(found["enabled"]) for found in _subscriptions(gateway)] == [True]


def test_a_gateway_without_a_public_url_hears_no_webhooks(
        shared_gateway: RunningGateway) -> None:
    with shared_gateway.client(None) as anonymous:
        refused = anonymous.post("/gateway/v1/webhooks", content=b"{}")
        health = anonymous.get("/gateway/v1/health").json()["data"]
    assert refused.status_code == 404 and "--public-url" in refused.json()["message"]
    assert "webhooks" not in health
