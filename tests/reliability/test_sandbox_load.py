"""docs/quality.md check 11 under load: 20 clients at once on a shared handful of conversations.

Each client is a thread with its own keep-alive ``httpx2.Client`` doing random claims (mostly
``force: false``), transfers, closes, tags, untags, outbound messages with an ``externalId``
(sometimes sent twice, as a retry would), reads, and requests with a wrong key. Every request
is recorded with when it started and ended; afterwards:

* no answer was a 5xx, and every wrong key got a 401;
* no lost or doubled write: every message POST answered 2xx is stored exactly once under its
  ``externalId``, and nothing is stored that was not sent;
* tags: a tag acknowledged after every untag of that pair had ended is in the database, an
  untag acknowledged after every tag of that pair had ended is not;
* the rules hold: no conversation is both assigned and queued, none closed is queued, and no
  ``force: false`` claim took a conversation over from another agent (unless a transfer, or a
  claim by the same agent, may have come in between).

The other parts of check 11 have their own tests: schemathesis (tests/sandbox/
test_openapi_fuzz.py), 401 on every route (tests/security/test_sandbox_auth.py), twenty
simultaneous claims of one conversation (tests/sandbox/test_conversations.py) and a restart
(tests/reliability/test_sandbox_restart.py).
"""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx2

from frontdesk.sandbox.server import SandboxServer

#: What each client sends in ``make test``: 80 requests (some 1,700 in all with the repeated
#: messages: every kind many times over, the 20 clients at once), the same work on a quiet
#: machine and a busy one. ``FRONTDESK_SOAK=60`` (seconds, or more) runs a full soak instead:
#: the clients go on until that much time has passed.
REQUESTS = 80
SOAK = float(os.environ.get("FRONTDESK_SOAK", "0"))
#: How long the clients may take beyond a soak: a guard against a hang, not a bound on speed.
PATIENCE = 120.0
CLIENTS = 20
CONVERSATIONS = 8
#: Tags only ever added (each acknowledged one must be there at the end) and tags toggled.
ADD_ONLY_TAGS = 3
TOGGLED_TAGS = 3


@dataclass
class Call:
    """One request and what came of it."""

    op: str
    cid: int
    start: float
    end: float
    status: int
    arg: str = ""  # agent id, tag id, queue id or externalId
    force: bool | None = None
    body: str = ""


@dataclass
class World:
    """The shared conversations, agents, queues and tags the clients act on."""

    conversations: list[int]
    agents: list[str]
    queues: list[str]
    add_only: list[str]
    toggled: list[str]
    calls: list[Call] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def world_of(sandbox: SandboxServer) -> World:
    def ids(sql: str) -> list[Any]:
        return [row["id"] for row in sandbox.query(sql)]

    return World(
        conversations=ids("SELECT id FROM conversations WHERE channel = 'WidgetChat' AND "
                          f"state = 'Open' AND anonymized_at IS NULL ORDER BY id "
                          f"LIMIT {CONVERSATIONS}"),
        agents=ids("SELECT id FROM users WHERE kind = 'agent' ORDER BY id LIMIT 6"),
        queues=ids("SELECT id FROM queues ORDER BY id LIMIT 3"),
        add_only=ids(f"SELECT id FROM tags WHERE state = 'Active' ORDER BY id "
                     f"LIMIT {ADD_ONLY_TAGS}"),
        toggled=ids(f"SELECT id FROM tags WHERE state = 'Active' ORDER BY id "
                    f"LIMIT {TOGGLED_TAGS} OFFSET {ADD_ONLY_TAGS}"),
    )


def client_loop(sandbox: SandboxServer, world: World, seed: int, until: float | None) -> None:
    """One client: :data:`REQUESTS` random operations, or operations until ``until``."""
    rng = random.Random(seed)
    calls: list[Call] = []
    with httpx2.Client(base_url=sandbox.base_url, headers={"Authorization": sandbox.key},
                      timeout=30) as http:

        def send(op: str, cid: int, method: str, path: str, body: Any = None, *,
                 arg: str = "", force: bool | None = None,
                 headers: dict[str, str] | None = None) -> Call:
            start = time.monotonic()
            response = http.request(method, path, json=body, headers=headers)
            call = Call(op, cid, start, time.monotonic(), response.status_code, arg, force,
                        response.text[:300] if response.status_code >= 400 else "")
            calls.append(call)
            return call

        while (len(calls) < REQUESTS) if until is None else (time.monotonic() < until):
            cid = rng.choice(world.conversations)
            base = f"/v1/conversations/{cid}"
            roll = rng.random()
            if roll < 0.25:
                agent = rng.choice(world.agents)
                force = rng.random() < 0.2
                send("claim", cid, "PUT", base + "/claim", {"agentId": agent, "force": force},
                     arg=agent, force=force)
            elif roll < 0.35:
                queue = rng.choice(world.queues)
                send("transfer", cid, "PUT", base + "/transfer/queue", {"queueId": queue},
                     arg=queue)
            elif roll < 0.42:
                send("close", cid, "PUT", base + "/close")
            elif roll < 0.60:
                tag = rng.choice(world.add_only + world.toggled)
                send("tag", cid, "PUT", f"{base}/tags/{tag}", arg=tag)
            elif roll < 0.68:
                tag = rng.choice(world.toggled)
                send("untag", cid, "DELETE", f"{base}/tags/{tag}", arg=tag)
            elif roll < 0.88:
                external_id = uuid.uuid4().hex
                message = {"_type": "Outbound", "agentId": rng.choice(world.agents),
                           "externalId": external_id,
                           "content": {"_type": "Text", "value": f"load {external_id}"}}
                send("message", cid, "POST", base + "/messages", message, arg=external_id)
                if rng.random() < 0.25:  # the same reply again, as after a lost answer
                    send("message-again", cid, "POST", base + "/messages", message,
                         arg=external_id)
            elif roll < 0.96:
                send("read", cid, "GET", base)
            else:
                send("wrong-key", cid, "GET", base, headers={"Authorization": "sbx_wrong"})
    with world.lock:
        world.calls.extend(calls)


def overlaps(a_start: float, a_end: float, b: Call) -> bool:
    """Whether ``b`` may have run (on the server) between ``a_start`` and ``a_end``."""
    return b.end > a_start and b.start < a_end


def test_twenty_clients_lose_nothing_and_break_no_rule(sandbox: SandboxServer) -> None:
    world = world_of(sandbox)
    assert len(world.conversations) == CONVERSATIONS and len(world.agents) >= 3
    until = time.monotonic() + SOAK if SOAK else None
    threads = [threading.Thread(target=client_loop, args=(sandbox, world, seed, until),
                                name=f"load-{seed}") for seed in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(SOAK + PATIENCE)
    assert not any(thread.is_alive() for thread in threads)
    calls = world.calls
    assert len(calls) >= min(REQUESTS, 20) * CLIENTS, "the clients barely ran"

    # No 5xx; a wrong key is always a 401; the rest answer as documented.
    errors = [c for c in calls if c.status >= 500]
    assert errors == [], errors[:5]
    assert {c.status for c in calls if c.op == "wrong-key"} == {401}
    assert {c.status for c in calls if c.op in ("claim", "transfer", "close", "tag", "untag")
            } <= {204, 409}
    assert {c.status for c in calls if c.op == "message-again"} <= {400}
    assert {c.status for c in calls if c.op in ("message", "read")} == {200}

    ids = tuple(world.conversations)
    marks = ", ".join("?" for _ in ids)

    # Messages: every acknowledged one stored exactly once, nothing stored twice.
    stored: dict[str, int] = defaultdict(int)
    for row in sandbox.query(f"SELECT external_id FROM messages WHERE conversation_id IN "
                             f"({marks}) AND body_text LIKE 'load %'", ids):
        stored[row["external_id"]] += 1
    acknowledged = {c.arg for c in calls if c.op == "message" and c.status == 200}
    assert all(stored[e] == 1 for e in acknowledged), "an acknowledged message is missing"
    assert set(stored) == acknowledged and max(stored.values()) == 1

    # Tags: the last acknowledged write of a pair is what the database holds.
    tagged = {(row["conversation_id"], row["tag_id"]) for row in sandbox.query(
        f"SELECT conversation_id, tag_id FROM conversation_tags WHERE conversation_id IN "
        f"({marks})", ids)}
    by_pair: dict[tuple[int, str], list[Call]] = defaultdict(list)
    for c in calls:
        if c.op in ("tag", "untag"):
            by_pair[(c.cid, c.arg)].append(c)
    checked = 0
    for pair, pair_calls in by_pair.items():
        for c in pair_calls:
            if c.status != 204:
                continue
            others = [o for o in pair_calls if o.op != c.op]
            if all(o.end < c.start for o in others):  # nothing could come after it
                checked += 1
                assert (pair in tagged) == (c.op == "tag"), (pair, c)
    assert checked > 0

    # The rules, at the end ...
    for row in sandbox.query(f"SELECT id, state, assigned_agent_id, queue_id FROM "
                             f"conversations WHERE id IN ({marks})", ids):
        assert not (row["assigned_agent_id"] and row["queue_id"]), row
        assert not (row["state"] == "Closed" and row["queue_id"]), row
    # ... and all along: a claim without force never took over from another agent.
    by_conversation: dict[int, list[Call]] = defaultdict(list)
    for c in calls:
        if c.op in ("claim", "transfer") and c.status == 204:
            by_conversation[c.cid].append(c)
    for cid, changes in by_conversation.items():
        claims = [c for c in changes if c.op == "claim"]
        for b in (c for c in claims if c.force is False):
            # the other agent's claim certainly before b that started last: if anything
            # could have come between, it is in this (the shortest) window
            before = [x for x in claims if x.arg != b.arg and x.end < b.start]
            if not before:
                continue
            x = max(before, key=lambda c: c.start)
            between = [o for o in changes if o is not b and o is not x
                       and overlaps(x.start, b.end, o)
                       and (o.op == "transfer" or o.arg == b.arg)]
            assert between, f"#{cid}: {b.arg} took it from {x.arg} without force"
