"""The sandbox's webhooks: subscriptions (each published error too), and a real receiver on
loopback that gets each subscribed event as it happens — signed, with its headers and
authorization, retried on the sandbox's clock after a failure — while the delivery status
and logs say what happened."""

from __future__ import annotations

import base64
import json
import random
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from factories_conversations import advance, create_chat, create_email, org, outbound, tag
from test_published_shapes import fits

from frontdesk.api.models import (
    Envelope,
    EventDeliveryLog,
    EventDeliveryStatus,
    WebhookSubscription,
)
from frontdesk.sandbox import worker
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.db import iso
from frontdesk.sandbox.listen import Received, Receiver
from frontdesk.sandbox.server import SandboxServer
from frontdesk.sandbox.simulator import Simulator
from frontdesk.sandbox.webhooks import RETRY_DELAYS, is_loopback, sign, verify
from frontdesk.sandbox.webhooks_sender import Attempt, Sender

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"
EVERY_KIND = ["ConversationCreated", "ConversationMessageAdded", "ConversationAssigned",
              "ConversationTransferred", "ConversationTagAdded", "ConversationTagRemoved",
              "ConversationPending", "ConversationOpen", "ConversationClosed",
              "ConversationNoteAdded", "ConversationRated"]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as running:
        yield running


def _subscribe(http: httpx2.Client, url: str, events: list[str], **extra: Any) -> dict[str, Any]:
    body = {"name": "Integration", "url": url, "events": events,
            "authorization": {"_type": "TokenAuth", "value": "tok-123"},
            "customHeaders": {"X-Team": "billing"}, **extra}
    response = http.post("/v1/webhooks", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = Envelope[WebhookSubscription].model_validate(response.json()).data \
        .wire()
    return data


def test_subscriptions_and_their_errors(http: httpx2.Client) -> None:
    assert http.get("/v1/webhooks").json() == {"data": []}
    made = _subscribe(http, "http://127.0.0.1:9/hook", ["ConversationCreated"],
                      authorization={"_type": "BasicAuth", "username": "u", "password": "p"},
                      filters={"Conversation": {"strategy": "All", "_type": "CombinedFilters",
                                                "conditions": [{"field": "InitialChannel",
                                                                "values": ["email"],
                                                                "_type": "IsOneOf"}]}})
    assert made["headers"] == {"X-Team": "billing",
                               "Authorization": "Basic " + base64.b64encode(b"u:p").decode()}
    assert made["enabled"] is True and len(made["secretKey"]) == 64
    assert made["subscribedEvents"] == ["ConversationCreated"]
    assert made["filters"]["Conversation"]["conditions"][0]["values"] == ["email"]
    typed = WebhookSubscription.model_validate(made).filters  # read as published
    assert typed is not None and typed["Conversation"].strategy == "All"
    condition = typed["Conversation"].conditions[0]
    assert (condition.type, condition.field, condition.values) == (
        "IsOneOf", "InitialChannel", ["email"])
    wid = made["id"]
    assert http.get(f"/v1/webhooks/{wid}").json()["data"] == made
    assert [w["id"] for w in http.get("/v1/webhooks").json()["data"]] == [wid]

    patched = http.patch(f"/v1/webhooks/{wid}", json={
        "enabled": False, "events": ["ConversationClosed", "ConversationClosed"],
        "authorization": {"_type": "NoAuth"}})
    assert patched.status_code == 200, patched.text
    changed = patched.json()["data"]
    assert changed["enabled"] is False and changed["subscribedEvents"] == ["ConversationClosed"]
    assert changed["headers"] == {"X-Team": "billing"} and changed["name"] == "Integration"
    assert changed["secretKey"] == made["secretKey"]

    status = http.get(f"/v1/webhooks/{wid}/delivery-status")
    assert status.json()["data"] == [{"event": "ConversationClosed",
                                      "deliveryStatus": {"_type": "NoRecentDelivery"}}]
    assert http.get(f"/v1/webhooks/{wid}/delivery-status/logs/ConversationClosed"
                    ).json()["data"] == []

    good = {"name": "x", "url": "http://127.0.0.1:9/", "authorization": {"_type": "NoAuth"},
            "customHeaders": {}}
    for bad in ({**good, "url": "ftp://127.0.0.1/"}, {**good, "url": "not a url"},
                {**good, "events": ["Nope"]}, {**good, "name": " "},
                {**good, "customHeaders": {"X-DIXA-SIGNATURE": "forged"}},
                {**good, "customHeaders": {"x-dixa-subscription-id": "forged"}},
                {**good, "customHeaders": {"X-Team": "Zürich"}},
                {**good, "authorization": {"_type": "TokenAuth", "value": "tök"}},
                {**good, "customHeaders": {"Bad Name": "v"}},
                {**good, "customHeaders": {"X-A": "two\r\nlines"}},
                {**good, "authorization": {"_type": "Magic"}},
                {k: v for k, v in good.items() if k != "customHeaders"},
                {**good, "filters": {"Agent": {"strategy": "All", "conditions": [
                    {"field": "QueueId", "values": ["x"], "_type": "IsOneOf"}]}}}):
        response = http.post("/v1/webhooks", json=bad)
        assert response.status_code == 400, (bad, response.text)
        assert set(response.json()) == {"message"}
    assert http.patch(f"/v1/webhooks/{wid}", json={"url": "nope"}).status_code == 400
    itself = f"http://127.0.0.1:{http.base_url.port}/v1/tags"
    assert http.patch(f"/v1/webhooks/{wid}", json={"url": itself}).status_code == 400
    assert http.patch(f"/v1/webhooks/{UNKNOWN}", json={"name": "y"}).status_code == 404
    for path in (f"/v1/webhooks/{UNKNOWN}", f"/v1/webhooks/{UNKNOWN}/delivery-status",
                 f"/v1/webhooks/{UNKNOWN}/delivery-status/logs/ConversationClosed"):
        assert http.get(path).status_code == 404, path
    assert http.get("/v1/webhooks/not-a-uuid").status_code == 400
    assert http.get(f"/v1/webhooks/{wid}/delivery-status/logs/Nope").status_code == 400
    assert http.delete(f"/v1/webhooks/{wid}").status_code == 204
    assert http.delete(f"/v1/webhooks/{wid}").status_code == 404
    assert http.get("/v1/webhooks").json() == {"data": []}


def test_a_receiver_gets_each_event_signed_and_retried(
        http: httpx2.Client, sandbox: SandboxServer, receiver: Receiver) -> None:
    world = org(sandbox)
    hook = _subscribe(http, receiver.url, EVERY_KIND)
    receiver.secret = hook["secretKey"]
    emails_only = _subscribe(http, receiver.url.replace("/hook", "/emails"),
                             ["ConversationCreated"], filters={"Conversation": {
                                 "strategy": "All", "_type": "CombinedFilters", "conditions": [
                                     {"field": "InitialChannel", "values": ["email"],
                                      "_type": "IsOneOf"}]}})
    cid = create_chat(http, world.requester)
    base = f"/v1/conversations/{cid}"
    vip = tag(sandbox, name="vip-hooks")
    later = iso(sandbox.clock.now() + timedelta(hours=2))
    for method, path, body in (
            ("PUT", "claim", {"agentId": world.agent}),
            ("POST", "messages", outbound(world.agent)),
            ("PUT", f"tags/{vip}", None), ("DELETE", f"tags/{vip}", None),
            ("PUT", "transfer/queue", {"queueId": world.queue}),
            ("PUT", "followup", {"timestamp": later}), ("PUT", "reopen", None),
            ("POST", "notes", {"message": "Internal: refund approved"}),
            ("PUT", "close", None)):
        response = http.request(method, f"{base}/{path}", json=body)
        assert response.status_code < 300, (path, response.text)
    offer = http.post(f"{base}/ratings/offer", json={"ratingType": "Csat"}).json()["data"]
    assert http.post(f"{base}/ratings/{offer['id']}/submit", json={
        "ratingResult": {"_type": "Csat", "value": 5}}).status_code < 300
    assert http.put(f"{base}/claim", json={"agentId": "nope"}).status_code == 400  # no event
    sandbox.run_pending()

    mine = [r for r in receiver.received if r.path == "/hook"]
    kinds = [r.event for r in mine]
    assert kinds == ["ConversationCreated", "ConversationMessageAdded", "ConversationAssigned",
                     "ConversationMessageAdded", "ConversationTagAdded",
                     "ConversationTagRemoved", "ConversationTransferred",
                     "ConversationPending", "ConversationOpen", "ConversationNoteAdded",
                     "ConversationClosed", "ConversationRated"]
    assert all(r.signed for r in mine) and all(r.status == 200 for r in mine)
    first = mine[0]
    assert first.headers["authorization"] == "Bearer tok-123"
    assert first.headers["x-team"] == "billing"
    assert first.headers["content-type"] == "application/json"
    assert first.headers["x-dixa-subscription-id"] == hook["id"]
    assert vendor_recipe_accepts(hook["secretKey"], first.headers["x-dixa-signature"],
                                 first.body, now_ms=int(sandbox.clock.now().timestamp() * 1000))
    assert all(vendor_recipe_accepts(hook["secretKey"], r.headers["x-dixa-signature"], r.body,
                                     now_ms=int(sandbox.clock.now().timestamp() * 1000))
               for r in mine)
    assert verify(hook["secretKey"], first.headers["x-dixa-signature"], first.body,
                  now=sandbox.clock.now().timestamp())
    assert not verify("ab" * 32, first.headers["x-dixa-signature"], first.body,
                      now=sandbox.clock.now().timestamp())
    payload = first.payload()
    assert payload["event_fqn"] == "CONVERSATION_CREATED" and payload["event_version"] == "1"
    assert payload["data"]["conversation"]["csid"] == cid
    assert payload["data"]["conversation"]["channel"] == "WIDGET_CHAT"
    note = next(r.payload() for r in mine if r.event == "ConversationNoteAdded")
    assert note["data"]["text"] == "Internal: refund approved"
    assert [r.path for r in receiver.received].count("/emails") == 0  # a chat: filtered out
    create_email(http, world.requester)
    sandbox.run_pending()
    assert [r.path for r in receiver.received].count("/emails") == 1

    # the receiver fails twice: the event is tried again on the sandbox's clock
    receiver.fail_next(503, count=2)
    before = len(receiver.received)
    http.post(f"{base}/notes", json={"message": "second note"})
    sandbox.run_pending()
    assert [r.status for r in receiver.received[before:]] == [503]
    sandbox.run_pending()
    assert len(receiver.received) == before + 1  # not yet due
    advance(sandbox, RETRY_DELAYS[0])
    sandbox.run_pending()
    advance(sandbox, RETRY_DELAYS[1])
    sandbox.run_pending()
    tries = receiver.received[before:]
    assert [r.status for r in tries] == [503, 503, 200]
    assert len({r.headers["x-frontdesk-delivery"] for r in tries}) == 1
    assert len({r.headers["x-dixa-signature"] for r in tries}) == 3  # signed as each is sent
    assert len({r.body for r in tries}) == 1

    log = http.get(f"/v1/webhooks/{hook['id']}/delivery-status/logs/ConversationNoteAdded")
    entries = Envelope[list[EventDeliveryLog]].model_validate(log.json()).data
    assert [(e.delivery_detail.success, e.delivery_detail.response_code) for e in entries] == [
        (True, 200), (False, 503), (False, 503), (True, 200)]
    assert json.loads(entries[0].payload)["data"]["text"] == "second note"
    assert entries[0].payload.encode() == tries[-1].body
    status = http.get(f"/v1/webhooks/{hook['id']}/delivery-status")
    statuses = {s.event: s.delivery_status
                for s in Envelope[list[EventDeliveryStatus]].model_validate(status.json()).data}
    assert list(statuses) == EVERY_KIND
    for answer, name in ((status, "EventDeliveryStatus"), (log, "EventDeliveryLog"),
                         (http.get("/v1/webhooks"), "WebhookSubscription")):
        for item in answer.json()["data"]:
            fits(item, name)
            if name == "EventDeliveryStatus":
                fits(item["deliveryStatus"], item["deliveryStatus"]["_type"])
    assert statuses["ConversationNoteAdded"].type == "DeliveryDetail"
    assert statuses["ConversationNoteAdded"].response_code == 200
    assert all(s.type == "DeliveryDetail" for s in statuses.values())

    # disabled: nothing more is sent; deleted: nothing either
    assert http.patch(f"/v1/webhooks/{hook['id']}", json={"enabled": False}).status_code == 200
    assert http.delete(f"/v1/webhooks/{emails_only['id']}").status_code == 204
    before = len(receiver.received)
    http.post(f"{base}/notes", json={"message": "unheard"})
    create_email(http, world.requester)
    sandbox.run_pending()
    assert len(receiver.received) == before


def test_a_receiver_that_never_answers_is_given_up(http: httpx2.Client,
                                                   sandbox: SandboxServer) -> None:
    world = org(sandbox)
    with Receiver() as gone:
        url = gone.url
    hook = _subscribe(http, url, ["ConversationCreated"])
    elsewhere = _subscribe(http, "http://192.0.2.1/hook", ["ConversationCreated"])
    create_chat(http, world.requester)
    sandbox.run_pending()
    for delay in RETRY_DELAYS:
        advance(sandbox, delay)
        sandbox.run_pending()
    advance(sandbox, 10 * RETRY_DELAYS[-1])
    sandbox.run_pending()
    log = http.get(f"/v1/webhooks/{hook['id']}/delivery-status/logs/ConversationCreated")
    details = [e["deliveryDetail"] for e in log.json()["data"]]
    assert len(details) == len(RETRY_DELAYS) + 1
    assert {(d["success"], d["responseCode"]) for d in details} == {(False, 0)}
    far = http.get(f"/v1/webhooks/{elsewhere['id']}/delivery-status/logs/ConversationCreated")
    assert "loopback" in far.json()["data"][0]["deliveryDetail"]["responseText"]


def vendor_recipe_accepts(secret: str, header: str, body: bytes, *, now_ms: int) -> bool:
    """A receiver written only from the vendor's documentation ("Security best practices"
    for webhooks): ``X-DIXA-SIGNATURE`` holds ``t=<timestamp>,v1=<signature>``; concatenate
    t, ``.`` and the raw body; HMAC-SHA256 it with the subscription's secret key, which is hex
    encoded and must be decoded; the hex digest must equal v1; refuse it older than 5 min."""
    import hashlib
    import hmac

    pairs = dict(item.split("=", 1) for item in header.split(","))
    t, v1 = pairs["t"], pairs["v1"]
    if abs(now_ms - int(t)) > 5 * 60 * 1000:
        return False
    mac = hmac.new(bytes.fromhex(secret), f"{t}.".encode() + body, hashlib.sha256)
    return hmac.compare_digest(mac.hexdigest(), v1)


def test_only_this_machine_is_loopback_and_no_name_is_looked_up_for_it() -> None:
    assert is_loopback("localhost") and is_loopback("LOCALHOST.") and is_loopback("::1")
    assert is_loopback("127.0.0.1") and is_loopback("127.9.9.9")
    # a name under .localhost would be resolved through DNS, which may send it anywhere
    for elsewhere in ("x.localhost", "evil.localhost.", "localhost.evil.example", "10.0.0.1",
                      "", None):
        assert not is_loopback(elsewhere), elsewhere


def test_the_signature_is_the_vendors() -> None:
    import hashlib
    import hmac

    secret = "0f" * 32
    body = b'{"event_id":"x"}'
    expected = hmac.new(bytes.fromhex(secret), b"1700000000000." + body,
                        hashlib.sha256).hexdigest()
    header = sign(secret, 1_700_000_000_000, body)
    assert header == f"t=1700000000000,v1={expected}"
    assert vendor_recipe_accepts(secret, header, body, now_ms=1_700_000_100_000)
    assert verify(secret, header, body, now=1_700_000_100)
    assert not verify(secret, header, body, now=1_700_000_400)  # older than five minutes
    assert verify(secret, header, body, now=1_800_000_000, tolerance=None)
    assert not verify(secret, header, body + b" ", now=1_700_000_000)
    for forged in (f"t=nan,v1={expected}", f"t=1e12,v1={expected}", f"t=,v1={expected}",
                   f"v1={expected}", "t=1700000000000", "", "t=-1700000000000,v1=00",
                   f"t=1700000000000 ,v1={expected}x"):
        assert not verify(secret, forged, body, now=1_700_000_000), forged


def test_a_receiver_that_hangs_holds_up_no_request(http: httpx2.Client,
                                                   sandbox: SandboxServer) -> None:
    """Deliveries are made off the request path: while one receiver holds its delivery open
    (it blocks until the test lets it go), the API answers every request and another
    receiver gets its events; the hung attempt is logged only once it comes back."""
    world = org(sandbox)
    arrived, release, quick_got = threading.Event(), threading.Event(), threading.Event()

    def hang(_: Received) -> None:
        arrived.set()
        release.wait(30)

    with Receiver(on_event=hang) as slow, Receiver(
            on_event=lambda _: quick_got.set()) as quick:
        try:
            stuck = _subscribe(http, slow.url, ["ConversationCreated", "ConversationNoteAdded"])
            _subscribe(http, quick.url, ["ConversationCreated"])
            cid = create_chat(http, world.requester)
            sandbox.call(worker.run_due)  # hand the due deliveries over (no waiting for them)
            assert arrived.wait(30) and quick_got.wait(30)

            # the slow receiver still holds its delivery: the API answers all the same
            assert http.get(f"/v1/conversations/{cid}").status_code == 200
            note = http.post(f"/v1/conversations/{cid}/notes", json={"message": "meanwhile"})
            assert note.status_code < 300, note.text
            logs = f"/v1/webhooks/{stuck['id']}/delivery-status/logs/ConversationCreated"
            assert http.get(logs).json()["data"] == []  # the attempt has not come back
            assert not release.is_set() and len(slow.received) == 1
        finally:
            release.set()
        sandbox.run_pending()  # returns once both of the slow receiver's deliveries are back
        assert slow.events() == ["ConversationCreated", "ConversationNoteAdded"]
        assert quick.events() == ["ConversationCreated"]
        details = [e["deliveryDetail"] for e in http.get(logs).json()["data"]]
        assert [(d["success"], d["responseCode"]) for d in details] == [(True, 200)]


def _origin(kind: str, *origins: str) -> dict[str, Any]:
    return {"Conversation": {"strategy": "All", "_type": "CombinedFilters", "conditions": [
        {"field": "OperationOrigin", "values": list(origins), "_type": kind}]}}


def test_the_operation_origin_filter(http: httpx2.Client, sandbox: SandboxServer,
                                     receiver: Receiver) -> None:
    """Each change has an origin — a request to the API, an import, a customer or an agent
    (the simulator's), the service's own rules — and ``OperationOrigin`` conditions let a
    subscription's events in or keep them out by it."""
    world = org(sandbox)
    kinds = ["ConversationCreated", "ConversationMessageAdded", "ConversationAssigned",
             "ConversationClosed", "ConversationPending", "ConversationPendingExpired"]
    for path, filters in (("/no-imports", _origin("IsNotOneOf", "ApiImport")),
                          ("/imports", _origin("IsOneOf", "apiimport")),
                          ("/customers", _origin("IsOneOf", "EndUser")),
                          ("/agents", _origin("IsOneOf", "Agent")),
                          ("/rules", _origin("IsOneOf", "System"))):
        _subscribe(http, receiver.url.replace("/hook", path), kinds, filters=filters)

    def got(path: str) -> list[Received]:
        return [r for r in receiver.received if r.path == path]

    cid = create_chat(http, world.requester)  # a request to the API
    imported = http.post("/v1/conversations/import", json={
        "genericChannelName": "genericapimessaging", "requesterId": world.requester,
        "direction": "Inbound", "createdAt": "2025-12-01T11:00:00.000Z",
        "messages": [{"_type": "Inbound", "content": {"_type": "Text", "value": "Hi"},
                      "createdAt": "2025-12-01T11:00:01.000Z"}],
        "closing": {"closedAt": "2025-12-01T12:00:00.000Z", "closedBy": world.agent}})
    assert imported.status_code == 200, imported.text
    later = iso(sandbox.clock.now() + timedelta(minutes=5))
    assert http.put(f"/v1/conversations/{cid}/followup",
                    json={"timestamp": later}).status_code < 300
    sandbox.run_pending()
    assert {r.payload()["data"]["conversation"]["csid"] for r in got("/imports")} == {
        imported.json()["data"]["id"]}
    assert [r.event for r in got("/imports")] == [
        "ConversationCreated", "ConversationMessageAdded", "ConversationClosed"]
    assert [r.event for r in got("/no-imports")] == [
        "ConversationCreated", "ConversationMessageAdded", "ConversationPending"]
    assert got("/rules") == []
    advance(sandbox, 600)  # the follow-up expires: the service's own rule
    sandbox.run_pending()
    assert [r.event for r in got("/rules")] == ["ConversationPendingExpired"]
    assert len(got("/no-imports")) == 4

    def simulate(ctx: SandboxContext) -> None:
        simulator = Simulator(ctx, rng=random.Random(4))
        for _ in range(30):
            simulator.step()

    sandbox.call(simulate)
    sandbox.run_pending()
    customers, agents = got("/customers"), got("/agents")
    assert customers and agents
    assert {r.event for r in customers} <= {"ConversationCreated", "ConversationMessageAdded",
                                            "ConversationPendingExpired"}
    for r in customers:
        if r.event != "ConversationPendingExpired":
            assert r.payload()["data"]["author"]["roles"] == ["Enduser"]
    assert all(r.payload()["data"]["author"]["roles"] != ["Enduser"] for r in agents)
    assert {r.event for r in agents} & {"ConversationAssigned", "ConversationClosed"}


def test_closing_the_delivery_threads_hands_back_what_was_not_sent() -> None:
    """On stop, the attempt being sent finishes (and is reported); the ones queued behind
    it in its lane come back unsent, to be queued again; nothing more is taken."""
    arrived, release = threading.Event(), threading.Event()

    def hang(_: Received) -> None:
        arrived.set()
        release.wait(30)

    sender = Sender()
    with Receiver(on_event=hang) as slow, Receiver() as quick:
        def attempt(url: str, n: int) -> Attempt:
            return Attempt({"n": n}, url, {}, str(n).encode(), f"2026-01-05T09:00:0{n}.000Z")

        sender.submit("slow", attempt(slow.url, 1))
        sender.submit("slow", attempt(slow.url, 2))
        sender.submit("quick", attempt(quick.url, 3))
        assert arrived.wait(30)
        try:
            unsent = sender.close(timeout=0)  # do not wait: the first is still held
        finally:
            release.set()
        assert [a.job["n"] for a in unsent] == [2]
        assert sender.settle(30) and sender.in_flight == 0
        assert sorted((o.attempt.job["n"], o.code) for o in sender.finished()) == [
            (1, 200), (3, 200)]
        with pytest.raises(RuntimeError):
            sender.submit("slow", attempt(slow.url, 4))
        assert [r.body for r in slow.received] == [b"1"]


class Dripper:
    """A receiver that answers one byte at a time, a byte every 0.3 s, for as long as the
    sender stays (a per-read deadline never ends such an attempt)."""

    def __init__(self) -> None:
        import socket

        self._server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._server.getsockname()[1]}/hook"
        self._stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: Any) -> None:
        with conn:
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"z" * 200:
                if self._stop.wait(0.3):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return

    def close(self) -> None:
        self._stop.set()
        self._server.close()


def test_a_dripping_receiver_holds_up_only_its_own_deliveries() -> None:
    """Four subscriptions to a receiver that drips its answer do not delay a fifth, healthy
    one (each lane has its own thread), and each dripping attempt ends at the attempt's
    deadline as a whole, however long the receiver would drip."""
    quick_got = threading.Event()
    dripper = Dripper()
    sender = Sender(timeout=1.0)
    try:
        with Receiver(on_event=lambda _: quick_got.set()) as quick:
            def attempt(url: str, n: int) -> Attempt:
                return Attempt({"n": n}, url, {}, b"{}", "2026-01-05T09:00:00.000Z")

            for n in range(4):
                sender.submit(f"slow-{n}", attempt(dripper.url, n))
            sender.submit("quick", attempt(quick.url, 4))
            assert quick_got.wait(30)
            assert sender.settle(30)
        outcomes = {o.attempt.job["n"]: (o.code, o.text) for o in sender.finished()}
    finally:
        sender.close()
        dripper.close()
    assert outcomes[4] == (200, "OK")
    assert all(outcomes[n] == (0, "No answer within 1 s") for n in range(4)), outcomes


def test_enqueued_and_abandoned_are_sent_when_they_happen(
        http: httpx2.Client, sandbox: SandboxServer, receiver: Receiver) -> None:
    """Every event a subscription may ask for is sent: ``ConversationEnqueued`` when a
    conversation starts waiting in a queue (a customer writes in, a transfer, a reopening),
    ``ConversationAbandoned`` when it ends while still waiting there, unanswered."""
    world = org(sandbox)
    hook = _subscribe(http, receiver.url, ["ConversationEnqueued", "ConversationAbandoned"])
    waiting = create_chat(http, world.requester)  # queued: enqueued
    answered = create_chat(http, world.requester)
    base = f"/v1/conversations/{answered}"
    assert http.put(f"{base}/claim", json={"agentId": world.agent}).status_code < 300
    assert http.put(f"{base}/transfer/queue",
                    json={"queueId": world.queue}).status_code < 300  # enqueued again
    assert http.put(f"{base}/claim", json={"agentId": world.agent}).status_code < 300
    assert http.put(f"{base}/close", json={"userId": world.agent}).status_code < 300  # no
    assert http.put(f"/v1/conversations/{waiting}/close", json={}).status_code < 300  # yes
    sandbox.run_pending()
    got = [(r.event, r.payload()["data"]["conversation"]["csid"]) for r in receiver.received
           if r.headers.get("x-dixa-subscription-id") == hook["id"]]
    assert got == [("ConversationEnqueued", waiting), ("ConversationEnqueued", answered),
                   ("ConversationEnqueued", answered), ("ConversationAbandoned", waiting)]
    assert all(r.payload()["event_fqn"] in ("CONVERSATION_ENQUEUED", "CONVERSATION_ABANDONED")
               for r in receiver.received)
