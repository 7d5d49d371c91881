"""The large scale, for benchmarks: 10,000 more end users, 100,000 short conversations and
one thread of exactly 10,000 messages."""

from __future__ import annotations

import html
import itertools
from datetime import timedelta
from typing import Any

from .. import demo_text as text
from ..db import dumps, iso
from .bulk_messages import BULK_BATCH, BulkBodies, bulk_length, fast_uuid, naive_iso
from .conversations import CHANNEL_WEIGHTS, CONVERSATION_STATES, GAPS
from .message_attributes import chat_attributes, html_email
from .names import CONVERSATION_COLUMNS, CONVERSATION_TYPES
from .people import People
from .values import fill, new_uuid

#: what the large scale adds: end users, short conversations, messages in the one big thread
#: (module constants, so a test can prove the build's invariants at a smaller size)
END_USERS = 10_000
CONVERSATIONS = 100_000
BIG_THREAD = 10_000


class Large(People):
    """Seeds the large scale on top of the small organisation."""

    def build_large(self) -> None:
        """100,000 short conversations (threads of 1 to 60 messages, ~10.3 on average: ~1.03
        million messages) and one thread of exactly 10,000 messages.

        Written in batches of :data:`BULK_BATCH` messages, inside the caller's transaction.
        Times are naive UTC here (cheaper to add up and format than aware ones).
        """
        rng = self.rng
        people, rows = self._person_rows(END_USERS, start=1000, full=True)
        self._write_users(rows)
        pool = [p for p in (*self.endusers, *people) if p.email and p.phone]
        agents = self.agents
        conversations: list[tuple[Any, ...]] = []
        messages: list[tuple[Any, ...]] = []
        lines = [fill(line, rng) for line in text.CUSTOMER_LINES for _ in range(3)]
        replies = [fill(line, rng) for line in text.AGENT_MARKDOWN for _ in range(3)]
        htmls = [html_email([fill(html.escape(p), rng)], "Hello,", "A customer")
                 for p in text.CUSTOMER_EMAIL_PARAGRAPHS]
        subjects = [fill(s, rng) for s in text.SUBJECTS for _ in range(3)]
        bodies = BulkBodies(rng, lines, replies, htmls)
        queues = self.queues
        kinds = [k for k, _ in CONVERSATION_STATES]
        kind_weights = list(itertools.accumulate((5, 15, 7, 3, 70)))
        channels = [c for c, _ in CHANNEL_WEIGHTS]
        channel_weights = list(itertools.accumulate(w for _, w in CHANNEL_WEIGHTS))
        now = self.now.replace(tzinfo=None)
        email_endpoint = self.fixed.email_endpoints[0][0]
        uniform, choice, getrandbits = rng.uniform, rng.choice, rng.getrandbits
        for _ in range(CONVERSATIONS):
            cid = self.next_id
            self.next_id += 1
            kind = rng.choices(kinds, cum_weights=kind_weights)[0]
            channel = rng.choices(channels, cum_weights=channel_weights)[0]
            person = choice(pool)
            queued = kind == "queued"
            state = "Open" if queued else kind
            agent = None if queued else choice(agents)
            age = uniform(3600, 730 * 86400) if kind == "Closed" else uniform(3600, 30 * 86400)
            created = now - timedelta(seconds=age)
            count = bulk_length(rng, channel, queued)
            if state == "Pending" and count % 2:
                count += 1  # pending: the agent wrote last and waits for the customer
            low, high = GAPS[channel]
            offsets = [0.0] * count
            total = 0.0
            for index in range(1, count):
                total += uniform(low, high)
                offsets[index] = total
            room = age - 240  # the last message (and the closing) before now
            scale = room / total if total > room else 1.0
            subject = choice(subjects) if channel in ("Email", "ContactForm") else None
            thread = bodies.thread(channel, person, subject)
            customer = person.id
            author = agent.id if agent is not None else customer
            for index in range(count):
                outbound = index % 2 == 1 and agent is not None
                attributes, body = thread(outbound)
                when = created + timedelta(seconds=offsets[index] * scale)
                messages.append((fast_uuid(getrandbits(128)), cid,
                                 author if outbound else customer, None,
                                 when.isoformat(timespec="milliseconds") + "Z",
                                 "Outbound" if outbound else "Inbound", attributes, body))
            last = messages[-1][4]
            stamp = naive_iso(created)
            closed_at = naive_iso(created + timedelta(seconds=total * scale + uniform(30, 180))) \
                if state == "Closed" else None
            followup = naive_iso(now + timedelta(hours=uniform(1, 72))) \
                if state == "Pending" else None
            values = {
                "id": cid, "type": CONVERSATION_TYPES[channel], "channel": channel,
                "requester_id": customer, "created_at": stamp, "direction": "Inbound",
                "state": state, "state_updated_at": closed_at or stamp,
                "assigned_agent_id": agent.id if agent else None,
                "assigned_at": stamp if agent else None,
                "queue_id": choice(queues) if queued else None,
                "queued_at": stamp if queued else None, "followup_until": followup,
                "closed_at": closed_at, "last_activity_at": closed_at or last,
                "subject": subject,
            }
            values["last_queue_id"] = values["queue_id"]
            if channel in ("Email", "ContactForm"):
                values.update(from_email=person.email, to_email=email_endpoint,
                              integration_email=email_endpoint)
            conversations.append(tuple(values.get(c) for c in CONVERSATION_COLUMNS))
            if len(messages) >= BULK_BATCH:
                self._write(conversations, messages)
                conversations, messages = [], []
        self._write(conversations, messages)
        self._big_thread()

    def _big_thread(self) -> None:
        """One widget chat of exactly 10,000 messages, assigned to the demo agent."""
        rng = self.rng
        agent = self.demo or self.agents[0]
        person = self._requester("WidgetChat", self.endusers)
        cid = self.next_id
        self.next_id += 1
        created = self.at(30 * 86400)
        step = (30 * 86400 - 600) / BIG_THREAD
        messages: list[tuple[Any, ...]] = []
        for index in range(BIG_THREAD):
            inbound = index % 2 == 0
            direction = "Inbound" if inbound else "Outbound"
            template = rng.choice(text.CUSTOMER_LINES if inbound else text.AGENT_MARKDOWN)
            body = fill(template, rng, first=person.first, agent=agent.first)
            attributes = chat_attributes(direction, body,
                                         kind="Text" if inbound else "Markdown")
            moment = created + timedelta(seconds=index * step + rng.uniform(0, step / 2))
            messages.append((new_uuid(rng), cid, person.id if inbound else agent.id, None,
                             iso(moment), direction, dumps(attributes), body))
        last = messages[-1][4]
        row = dict.fromkeys(CONVERSATION_COLUMNS)
        row.update(id=cid, type="ChatConversation", channel="WidgetChat",
                   requester_id=person.id, created_at=iso(created), direction="Inbound",
                   state="Open", state_updated_at=iso(created), assigned_agent_id=agent.id,
                   assigned_at=iso(created), last_activity_at=last, language="en",
                   browser_info=dumps({"name": "Firefox", "version": "133.0"}))
        self._write([tuple(row[c] for c in CONVERSATION_COLUMNS)], messages)
        self.db.set_meta("big_thread_id", str(cid))
