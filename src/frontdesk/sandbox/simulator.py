"""The simulator: makes the demo organisation live while someone watches the console.

Every couple of seconds (divided by ``speed``) it does one random act, through the same code
paths as the routes: rows are written with ``records`` and every change of a conversation's
state goes through ``rules``, each act in one transaction. Acts: a customer writes, a new
conversation arrives, an agent changes presence or working channels, claims a waiting
conversation, replies (sometimes with a follow-up), or closes one.

The demo agent (the person at the console) keeps control of their own work: the simulator
never acts as them and never touches their conversations, except that customers write into
them. Asynchronous work and follow-up expiry are the worker's business, not the simulator's.

The demo keeps its size however often it runs: the simulator remembers the conversations it
started (in the ``meta`` table, so across restarts) and keeps the newest :data:`KEEP_OWN`;
an older one ages out (deleted with what hangs on it) unless the demo agent has it or has
worked on it (the activity log names the agent: a tag, a note, a reply, a transfer).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from . import activity, origins, records, rules
from . import demo_text as text
from .context import SandboxContext
from .db import loads
from .seed import (
    CHANNELS,
    CONVERSATION_TYPES,
    DEMO_AGENT_EMAIL,
    WORKING_CHANNELS,
    ascii_slug,
    chat_attributes,
    email_attributes,
    fill,
    html_email,
    new_uuid,
    phone_attributes,
    plain_attributes,
)

log = logging.getLogger("frontdesk.sandbox.simulator")

#: Seconds between two acts at speed 1.
INTERVAL = 2.0
#: How many of its own conversations the simulator keeps (the demo database stays bounded).
KEEP_OWN = 60
#: The ``meta`` key listing the simulator's own conversations, oldest first (JSON).
OWN_META = "simulator_conversations"
_NOT_CLOSED = "('Open', 'Pending', 'AwaitingPending')"
_CHANNEL_WEIGHTS = (5, 2, 5, 3, 2, 1)  # in the order of seed.CHANNELS
#: The acts of customers (the others are agents'): the origin of what they change.
_CUSTOMER_ACTS = frozenset({"customer_writes", "new_conversation"})


class Simulator:
    """Random life in a sandbox: customers, new conversations, agents at work."""

    def __init__(self, ctx: SandboxContext, speed: float = 1.0,
                 rng: random.Random | None = None, keep_own: int = KEEP_OWN) -> None:
        self.ctx = ctx
        self.keep_own = keep_own
        self.speed = max(float(speed), 0.001)
        self.rng = rng or random.Random()
        self.steps = 0
        row = ctx.db.one("SELECT id FROM users WHERE email = ? COLLATE NOCASE AND kind = 'agent'",
                         (DEMO_AGENT_EMAIL,))
        #: the console's own agent: never acted as, their conversations left alone
        self.demo_agent_id: str = "" if row is None else str(row["id"])
        self._acts: list[tuple[Callable[[], str | None], int]] = [
            (self.customer_writes, 30), (self.new_conversation, 14), (self.presence, 14),
            (self.claim, 16), (self.reply, 18), (self.close, 8),
        ]

    async def run(self, max_steps: int | None = None) -> None:
        """Act every ~``INTERVAL / speed`` seconds until cancelled (or ``max_steps`` acts)."""
        while max_steps is None or self.steps < max_steps:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * INTERVAL / self.speed)
            try:
                description = self.step()
            except Exception:
                log.exception("simulator step failed")
                self.steps += 1
                continue
            log.debug("simulator: %s", description)

    def step(self) -> str:
        """Do exactly one act now and say what happened."""
        self.steps += 1
        first = self.rng.choices(self._acts, [w for _, w in self._acts])[0][0]
        others = [act for act, _ in self._acts if act != first]
        self.rng.shuffle(others)
        for act in (first, *others):
            origin = origins.END_USER if act.__name__ in _CUSTOMER_ACTS else origins.AGENT
            with self.ctx.db.tx(), origins.acting(origin):
                description = act()
            if description is not None:
                return description
        return "nothing happened"

    # ------------------------------------------------------------------ helpers

    def _now(self) -> str:
        return self.ctx.now_iso()

    def _pick_row(self, where: str, params: tuple[Any, ...] = ()) -> Any:
        """One random conversation matching ``where`` (by position, so ``rng`` decides)."""
        db = self.ctx.db
        count_row = db.one(f"SELECT COUNT(*) AS n FROM conversations WHERE {where}", params)
        count = int(count_row["n"]) if count_row is not None else 0
        if count == 0:
            return None
        return db.one(f"SELECT * FROM conversations WHERE {where} ORDER BY id LIMIT 1 OFFSET ?",
                      (*params, self.rng.randrange(count)))

    def _agents(self, queue_id: str | None = None, *, working: bool = False) -> list[Any]:
        """Agents the simulator may act as: everyone but the demo agent and the API's admin."""
        sql = ("SELECT u.id, u.display_name, u.email, p.connection_status, p.presence_status "
               "FROM users u JOIN presence p ON p.user_id = u.id "
               "WHERE u.kind = 'agent' AND u.id != ? AND u.id != ?")
        params: list[Any] = [self.demo_agent_id, self.ctx.api_user_id]
        if queue_id is not None:
            sql += " AND u.id IN (SELECT agent_id FROM queue_members WHERE queue_id = ?)"
            params.append(queue_id)
        if working:
            sql += " AND p.connection_status = 'Online' AND p.presence_status = 'Working'"
        return self.ctx.db.all(sql + " ORDER BY u.id", tuple(params))

    def _name(self, user_id: str) -> str:
        row = self.ctx.db.one("SELECT display_name, email FROM users WHERE id = ?", (user_id,))
        if row is None:
            return user_id
        return str(row["display_name"] or row["email"] or user_id)

    def _customer_message(self, row: Any, requester: Any) -> dict[str, Any]:
        """What a customer writes into conversation ``row``, as message attributes."""
        rng = self.rng
        channel = row["channel"]
        first = (requester["first_name"] or "there") if requester is not None else "there"
        line = fill(rng.choice(text.CUSTOMER_LINES), rng, first=first)
        if channel == "PstnPhone":
            endpoint = self.ctx.db.one("SELECT key FROM contact_endpoints "
                                       "WHERE type = 'TelephonyEndpoint' ORDER BY position")
            return phone_attributes("Inbound", (requester["phone_number"] if requester else "")
                                    or "", endpoint["key"] if endpoint else "",
                                    rng.randint(15, 900))
        if channel in ("Email", "ContactForm"):
            last = self.ctx.db.one("SELECT attributes FROM messages WHERE conversation_id = ? "
                                   "ORDER BY seq DESC LIMIT 1", (row["id"],))
            kind = "EmailAttributes"
            if last is not None and loads(last["attributes"]).get("_type") == \
                    "ContactFormAttributes":
                kind = "ContactFormAttributes"
            email = (requester["email"] if requester else None) or row["from_email"] or ""
            name = (requester["display_name"] if requester else None) or email
            us = row["integration_email"] or row["to_email"] or f"support@{text.DOMAIN}"
            subject = f"Re: {row['subject']}" if row["subject"] else None
            body = html_email([line], "Hello,", name) if kind == "EmailAttributes" else line
            return email_attributes(kind, "Inbound", body, sender={"email": email, "name": name},
                                    to=[{"email": us}], subject=subject,
                                    kind="Html" if kind == "EmailAttributes" else "Text")
        if channel == "WidgetChat":
            return chat_attributes("Inbound", line)
        if channel == "WhatsApp":
            return plain_attributes("WhatsAppAttributes", "Inbound", line, kind="Markdown")
        if channel == "Sms":
            return plain_attributes("SmsAttributes", "Inbound", line)
        return chat_attributes("Inbound", line)

    def _agent_message(self, row: Any, agent_id: str) -> dict[str, Any]:
        """An agent's reply into conversation ``row``, as message attributes."""
        rng = self.rng
        requester = self.ctx.db.one("SELECT * FROM users WHERE id = ?", (row["requester_id"],))
        first = (requester["first_name"] if requester is not None else None) or "there"
        body = fill(rng.choice(text.AGENT_MARKDOWN), rng, first=first)
        channel = row["channel"]
        if channel in ("Email", "ContactForm"):
            us = row["integration_email"] or f"support@{text.DOMAIN}"
            customer = (requester["email"] if requester is not None else None) or \
                row["from_email"] or ""
            html_body = html_email([body.replace("\n", "<br>")], f"Hi {first},",
                                   self._name(agent_id))
            return email_attributes("EmailAttributes", "Outbound", html_body,
                                    sender={"email": us, "name": text.COMPANY},
                                    to=[{"email": customer}],
                                    subject=f"Re: {row['subject']}" if row["subject"] else None)
        if channel == "WhatsApp":
            return plain_attributes("WhatsAppAttributes", "Outbound", body, kind="Markdown")
        if channel == "Sms":
            return plain_attributes("SmsAttributes", "Outbound", body)
        return chat_attributes("Outbound", body, kind="Markdown")

    # ------------------------------------------------------------------ acts

    def customer_writes(self) -> str | None:
        """A customer writes into one of their conversations (the demo agent's ones too)."""
        rng = self.rng
        demo = self.demo_agent_id
        if demo and rng.random() < 0.3:
            row = self._pick_row(f"assigned_agent_id = ? AND state IN {_NOT_CLOSED} "
                                 "AND type != 'AnonymizedConversation' AND channel != 'PstnPhone'",
                                 (demo,))
        elif rng.random() < 0.1:
            # a closed conversation comes back to life (not one of the demo agent's)
            row = self._pick_row("state = 'Closed' AND type != 'AnonymizedConversation' "
                                 "AND channel != 'PstnPhone' AND (assigned_agent_id IS NULL "
                                 "OR assigned_agent_id != ?)", (demo,))
        else:
            row = self._pick_row(f"state IN {_NOT_CLOSED} AND type != 'AnonymizedConversation' "
                                 "AND channel != 'PstnPhone'")
        if row is None:
            return None
        requester = self.ctx.db.one("SELECT * FROM users WHERE id = ?", (row["requester_id"],))
        if requester is None or requester["anonymized_at"] is not None:
            return None
        attributes = self._customer_message(row, requester)
        at = self._now()
        message_id = records.insert_message(self.ctx.db, conversation_id=row["id"],
                                            author_id=row["requester_id"], created_at=at,
                                            direction="Inbound", attributes=attributes)
        activity.message_added(self.ctx, row["id"], "Inbound", row["requester_id"], message_id,
                               at)
        rules.on_inbound_message(self.ctx, row)
        return f"customer {self._name(row['requester_id'])} wrote in conversation {row['id']}"

    def _enduser(self, channel: str) -> Any:
        """A customer who can use ``channel`` (a new one now and then, or when none exists)."""
        rng = self.rng
        need = "email" if channel in ("Email", "ContactForm") else \
            "phone_number" if channel in ("Sms", "PstnPhone", "WhatsApp") else "id"
        where = f"kind = 'enduser' AND anonymized_at IS NULL AND {need} IS NOT NULL"
        count_row = self.ctx.db.one(f"SELECT COUNT(*) AS n FROM users WHERE {where}")
        count = int(count_row["n"]) if count_row is not None else 0
        if count and rng.random() < 0.9:
            return self.ctx.db.one(f"SELECT * FROM users WHERE {where} ORDER BY id "
                                   "LIMIT 1 OFFSET ?", (rng.randrange(count),))
        first, last = rng.choice(text.FIRST_NAMES), rng.choice(text.LAST_NAMES)
        serial = rng.randrange(10**6)
        local = f"{ascii_slug(first)}.{ascii_slug(last)}".strip(".") or "customer"
        user_id = records.insert_user(
            self.ctx.db, kind="enduser", id=new_uuid(rng), created_at=self._now(),
            display_name=f"{first} {last}", first_name=first, last_name=last,
            email=f"{local}.{serial}@example.com",
            phone_number=f"+4531{rng.randint(100000, 999999)}")
        return self.ctx.db.one("SELECT * FROM users WHERE id = ?", (user_id,))

    def new_conversation(self) -> str | None:
        """A customer starts a conversation: Open, queued, unassigned."""
        rng = self.rng
        db = self.ctx.db
        channel = rng.choices(CHANNELS, _CHANNEL_WEIGHTS)[0]
        requester = self._enduser(channel)
        if requester is None:
            return None
        now = self._now()
        queues = [r["id"] for r in db.all("SELECT id FROM queues ORDER BY created_at, id")]
        queue_id = rng.choice(queues) if queues and rng.random() < 0.4 else None
        columns = rules.enqueue_new(self.ctx, queue_id, now)
        extra: dict[str, Any] = {"direction": "Inbound", "last_activity_at": now}
        endpoint = db.one("SELECT key FROM contact_endpoints WHERE type = 'EmailEndpoint' "
                          "ORDER BY position")
        number = db.one("SELECT key FROM contact_endpoints WHERE type = 'TelephonyEndpoint' "
                        "ORDER BY position")
        if channel in ("Email", "ContactForm"):
            address = endpoint["key"] if endpoint else f"support@{text.DOMAIN}"
            extra.update(subject=fill(rng.choice(text.SUBJECTS), rng),
                         from_email=requester["email"], to_email=address,
                         integration_email=address, language=rng.choice(text.LANGUAGES))
        elif channel == "WidgetChat":
            browser, version = rng.choice(text.BROWSERS)
            extra.update(language=rng.choice(text.LANGUAGES),
                         browser_info={"name": browser, "version": version,
                                       "originatingUrl": rng.choice(text.USER_AGENT_PAGES)})
        elif channel == "Sms":
            extra.update(from_number=requester["phone_number"],
                         to_number=number["key"] if number else None)
        conversation_id = records.insert_conversation(
            db, type=CONVERSATION_TYPES[channel], channel=channel,
            requester_id=requester["id"], created_at=now, **columns, **extra)
        row = rules.get_conversation(self.ctx, conversation_id)
        activity.created(self.ctx, conversation_id, "Inbound", requester["id"],
                         extra.get("subject"), now)
        message_id = records.insert_message(db, conversation_id=conversation_id,
                                            author_id=requester["id"], created_at=now,
                                            direction="Inbound",
                                            attributes=self._customer_message(row, requester))
        activity.message_added(self.ctx, conversation_id, "Inbound", requester["id"],
                               message_id, now)
        self._age_out(conversation_id)
        where = f" in queue {columns['queue_id']}" if columns["queue_id"] else ""
        return (f"new {channel} conversation {conversation_id} from "
                f"{requester['display_name'] or requester['id']}{where}")

    def _age_out(self, newest: int) -> None:
        """Remember ``newest`` as the simulator's own and delete its own conversations beyond
        the newest :attr:`keep_own` (their messages, tags, notes and ratings go with them; the
        demo agent's stay, and are no longer counted as the simulator's: those assigned to it,
        and those it touched at all, as the activity log names it — a conversation the agent
        tagged, noted, answered or transferred elsewhere never vanishes under it)."""
        db = self.ctx.db
        own = [int(cid) for cid in loads(db.get_meta(OWN_META) or "[]") or []]
        own.append(newest)
        while len(own) > self.keep_own:
            oldest = own.pop(0)
            row = db.one("SELECT assigned_agent_id FROM conversations WHERE id = ?", (oldest,))
            if row is None or row["assigned_agent_id"] == self.demo_agent_id:
                continue
            if db.one("SELECT 1 FROM activity_log WHERE conversation_id = ? AND author_id = ? "
                      "LIMIT 1", (oldest, self.demo_agent_id)) is not None:
                continue
            db.run("DELETE FROM activity_log WHERE conversation_id = ?", (oldest,))
            db.run("DELETE FROM custom_attribute_values WHERE entity_type = 'Conversation' "
                   "AND entity_id = ?", (str(oldest),))
            db.run("DELETE FROM conversations WHERE id = ?", (oldest,))
        db.set_meta(OWN_META, json.dumps(own))

    def presence(self) -> str | None:
        """An agent goes online or offline, starts or stops working, changes channels."""
        rng = self.rng
        agents = self._agents()
        if not agents:
            return None
        agent = rng.choice(agents)
        online = rng.random() < 0.7
        working = online and rng.random() < 0.75
        channels = sorted(rng.sample(WORKING_CHANNELS, rng.randint(1, 3))) if working else []
        now = self._now()
        last_seen: str | None = now
        if not online:
            row = self.ctx.db.one("SELECT last_seen FROM presence WHERE user_id = ?",
                                  (agent["id"],))
            last_seen = row["last_seen"] if row is not None and row["last_seen"] else now
        records.set_presence(self.ctx.db, agent["id"], connection="Online" if online
                             else "Offline", status="Working" if working else "Away",
                             channels=channels, last_seen=last_seen)
        state = "Online" if online else "Offline"
        doing = f"working on {', '.join(channels)}" if working else "away"
        return f"agent {agent['display_name'] or agent['email']} is {state}, {doing}"

    def claim(self) -> str | None:
        """An agent takes one of the longest-waiting conversations of a queue."""
        rng = self.rng
        waiting = self.ctx.db.all(
            "SELECT * FROM conversations WHERE queue_id IS NOT NULL AND assigned_agent_id IS NULL "
            f"AND state IN {_NOT_CLOSED} AND type != 'AnonymizedConversation' "
            "ORDER BY queued_at, id LIMIT 5")
        if not waiting:
            return None
        row = rng.choice(waiting)
        agents = self._agents(row["queue_id"], working=True) or self._agents(row["queue_id"]) \
            or self._agents()
        if not agents:
            return None
        agent = rng.choice(agents)
        rules.claim(self.ctx, row, agent["id"], force=False)
        return f"agent {agent['display_name'] or agent['email']} claimed conversation {row['id']}"

    def _assigned(self, states: str) -> Any:
        """A random conversation of another agent than the demo agent, in ``states``."""
        return self._pick_row(
            f"state IN {states} AND assigned_agent_id IS NOT NULL AND assigned_agent_id != ? "
            "AND type != 'AnonymizedConversation' "
            "AND assigned_agent_id IN (SELECT id FROM users WHERE kind = 'agent')",
            (self.demo_agent_id,))

    def reply(self) -> str | None:
        """An agent answers in one of their conversations, sometimes following it up."""
        rng = self.rng
        row = self._assigned("('Open', 'AwaitingPending')")
        if row is None or row["channel"] == "PstnPhone":
            return None
        agent_id = row["assigned_agent_id"]
        at = self._now()
        message_id = records.insert_message(self.ctx.db, conversation_id=row["id"],
                                            author_id=agent_id, created_at=at,
                                            direction="Outbound",
                                            attributes=self._agent_message(row, agent_id),
                                            external_id=f"sim-{rng.getrandbits(64):016x}")
        activity.message_added(self.ctx, row["id"], "Outbound", agent_id, message_id, at)
        rules.on_outbound_message(self.ctx, row)
        name = self._name(agent_id)
        if rng.random() < 0.2:
            until = self.ctx.clock.now() + timedelta(hours=rng.uniform(1, 48))
            rules.followup(self.ctx, rules.get_conversation(self.ctx, row["id"]), until,
                           agent_id)
            return f"agent {name} replied in conversation {row['id']} and follows it up"
        return f"agent {name} replied in conversation {row['id']}"

    def close(self) -> str | None:
        """An agent closes one of their conversations."""
        row = self._assigned(_NOT_CLOSED)
        if row is None:
            return None
        agent_id = row["assigned_agent_id"]
        rules.close(self.ctx, row, agent_id)
        return f"agent {self._name(agent_id)} closed conversation {row['id']}"


__all__ = ["INTERVAL", "KEEP_OWN", "Simulator"]
