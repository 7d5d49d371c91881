"""The demo conversations: 1,000 planned over every channel and state (the demo agent's
work first), their threads, tags, custom attributes, ratings, follow-up links and the
activity log of their lives."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from .. import demo_text as text
from ..db import dumps, iso
from ..records import insert_rating_offer, message_text, tag_conversation
from .anonymisations import Anonymisations
from .history import History
from .messages import Messages, Thread
from .names import CHANNELS, CONVERSATION_COLUMNS, CONVERSATION_TYPES
from .state import Person, Plan
from .values import fill, new_uuid

CONVERSATION_STATES = (("queued", 12), ("Open", 18), ("Pending", 10), ("AwaitingPending", 5),
                       ("Closed", 55))
CHANNEL_WEIGHTS = (("Email", 30), ("ContactForm", 10), ("WidgetChat", 25), ("WhatsApp", 12),
                   ("Sms", 10), ("PstnPhone", 13))
GAPS = {"WidgetChat": (20, 360), "WhatsApp": (30, 900), "Sms": (60, 3600),
        "Email": (600, 72_000), "ContactForm": (600, 72_000), "PstnPhone": (3600, 259_200)}
_AGE = {"queued": (300, 36 * 3600), "Open": (600, 7 * 86400), "Pending": (3600, 14 * 86400),
        "AwaitingPending": (3600, 14 * 86400), "Closed": (3600, 60 * 86400)}


def _pick(rng: random.Random, weighted: Sequence[tuple[str, int]]) -> str:
    """One key of ``(key, weight)`` pairs."""
    return rng.choices([k for k, _ in weighted], [w for _, w in weighted])[0]


def _weighted_queue(rng: random.Random, queues: list[str]) -> str:
    """The default queue (first) gets half of the waiting conversations."""
    return queues[0] if rng.random() < 0.5 else rng.choice(queues)


class Conversations(Messages, Anonymisations, History):
    """Seeds the small organisation's conversations."""

    def _length(self, channel: str, state: str) -> int:
        """How many messages a thread has: most are short, a few run to hundreds."""
        rng = self.rng
        if channel == "PstnPhone":
            return rng.randint(1, 2)
        if state == "queued":
            return rng.randint(1, 3)
        roll = rng.random()
        if roll < 0.80:
            return rng.randint(1, 8)
        if roll < 0.97:
            return rng.randint(9, 40)
        return rng.randint(41, 300)

    def _plan(self, channel: str, kind: str, agent: Person | None = None,
              length: int | None = None) -> Plan:
        """A conversation of ``kind`` (a state, or ``queued``) on ``channel``."""
        rng = self.rng
        low, high = _AGE[kind]
        queued = kind == "queued"
        if agent is None and not queued:
            agent = self.demo if rng.random() < 0.08 and self.demo else \
                rng.choice(self.agents[1:])
        outbound = not queued and channel in ("Email", "Sms", "PstnPhone") and rng.random() < 0.12
        return Plan(channel, "Open" if queued else kind, queued, agent,
                    self.at(rng.uniform(low, high)), length or self._length(channel, kind),
                    outbound)

    def _plans(self) -> list[Plan]:
        """1,000 plans in creation order: the demo agent's work first, every channel in every
        state, then random ones."""
        rng = self.rng
        demo = self.demo
        plans = [self._plan(channel, "Open", demo) for channel in CHANNELS]
        plans += [self._plan("Email", "Pending", demo), self._plan("WidgetChat", "AwaitingPending",
                                                                   demo)]
        plans += [self._plan(rng.choice(CHANNELS), "Closed", demo) for _ in range(3)]
        long_chat = self._plan("WidgetChat", "Open", demo, length=300)
        long_chat.created = self.at(2 * 86400)
        showcase = self._plan("WhatsApp", "Open", demo, length=2 * len(text.AGENT_MARKDOWN))
        showcase.showcase, showcase.created = True, self.at(3 * 3600)
        plans += [long_chat, showcase]
        # every channel in every state at least once
        for channel in CHANNELS:
            for kind, _ in CONVERSATION_STATES:
                plans.append(self._plan(channel, kind))
        while len(plans) < 1000:
            plans.append(self._plan(_pick(rng, CHANNEL_WEIGHTS),
                                    _pick(rng, CONVERSATION_STATES)))
        plans.sort(key=lambda p: p.created)
        return plans

    def _times(self, plan: Plan) -> list[datetime]:
        """When each message was written: channel-like gaps, squeezed to end before now."""
        rng = self.rng
        low, high = GAPS[plan.channel]
        offsets = [0.0]
        for _ in range(plan.length - 1):
            offsets.append(offsets[-1] + rng.uniform(low, high))
        room = (self.now - plan.created).total_seconds() - (180 if plan.state == "Closed" else 30)
        if offsets[-1] > room > 0:
            offsets = [o * room / offsets[-1] for o in offsets]
        return [plan.created + timedelta(seconds=o) for o in offsets]

    def _directions(self, plan: Plan) -> list[str]:
        """Who writes each message: customers and agents mostly take turns."""
        rng = self.rng
        if plan.queued:
            return ["Inbound"] * plan.length
        if plan.showcase:
            return ["Inbound", "Outbound"] * (plan.length // 2)
        current = "Outbound" if plan.outbound else "Inbound"
        out = [current]
        for _ in range(plan.length - 1):
            if rng.random() < 0.75:
                current = "Outbound" if current == "Inbound" else "Inbound"
            out.append(current)
        if plan.state == "Pending" and plan.length > 1:
            out[-1] = "Outbound"
        return out

    def _conversations(self) -> None:
        """Write the planned conversations with their messages, tags, attributes, ratings."""
        plans = self._plans()
        conversations: list[tuple[Any, ...]] = []
        messages: list[tuple[Any, ...]] = []
        tags: list[tuple[int, str, str]] = []
        values: list[tuple[str, str, str, Any]] = []
        ratings: list[dict[str, Any]] = []
        written: list[tuple[int, Plan, Person, str | None]] = []
        for plan in plans:
            cid = self.next_id
            self.next_id += 1
            requester = self._requester(plan.channel, self.endusers)
            row, closed_at = self._conversation(cid, plan, requester, messages)
            conversations.append(row)
            written.append((cid, plan, requester, closed_at))
            self._extras(cid, plan, requester, closed_at, tags, values, ratings)
        self._link(conversations, written)
        self._write(conversations, messages)
        for cid, tag_id, at in tags:
            tag_conversation(self.db, cid, tag_id, at)
        self._write_values(values)
        for rating in ratings:
            insert_rating_offer(self.db, **rating)
        self._history(conversations, written, messages, tags, ratings)
        self._anonymisations(written)

    def _conversation(self, cid: int, plan: Plan, requester: Person,
                      messages: list[tuple[Any, ...]]) -> tuple[tuple[Any, ...], str | None]:
        """The conversation's row (and its messages appended); returns the row and closed_at."""
        rng = self.rng
        channel = plan.channel
        times = self._times(plan)
        directions = self._directions(plan)
        subject = fill(rng.choice(text.SUBJECTS), rng) \
            if channel in ("Email", "ContactForm") else None
        endpoint, endpoint_name = rng.choice(self.fixed.email_endpoints)
        number = rng.choice(self.fixed.phone_endpoints)
        form_kind = rng.choice(("EmailAttributes", "ContactFormAttributes"))
        context = Thread(channel, requester, plan.agent, subject, endpoint, endpoint_name,
                         number, form_kind)
        for index, (moment, direction) in enumerate(zip(times, directions, strict=True)):
            author = requester.id if direction == "Inbound" or plan.agent is None \
                else plan.agent.id
            attributes = self._attributes(context, direction, index, plan.showcase)
            external = f"fd-{rng.getrandbits(48):012x}" \
                if direction == "Outbound" and rng.random() < 0.2 else None
            messages.append((new_uuid(rng), cid, author, external, iso(moment), direction,
                             dumps(attributes), message_text(attributes)))
        last = times[-1]
        state = plan.state
        values: dict[str, Any] = dict.fromkeys(CONVERSATION_COLUMNS)
        values.update(id=cid, type=CONVERSATION_TYPES[channel], channel=channel,
                      requester_id=requester.id, created_at=iso(plan.created),
                      direction="Outbound" if plan.outbound else "Inbound", state=state,
                      last_activity_at=iso(last))
        if plan.queued:
            queue = _weighted_queue(rng, self.queues)
            values.update(queue_id=queue, last_queue_id=queue,
                          queued_at=iso(plan.created), state_updated_at=iso(plan.created))
        else:
            if not plan.outbound and self.queues:  # it came in through a queue, then claimed
                values.update(last_queue_id=self.queues[cid % len(self.queues)])
            assert plan.agent is not None
            assigned = plan.created + (times[1] - plan.created) / 2 if len(times) > 1 \
                else plan.created
            values.update(assigned_agent_id=plan.agent.id, assigned_at=iso(assigned),
                          state_updated_at=iso(assigned))
        closed_at: str | None = None
        if state == "Pending":
            values.update(followup_until=iso(self.now + timedelta(
                seconds=rng.uniform(3600, 5 * 86400))), state_updated_at=iso(last))
        elif state == "AwaitingPending":
            values.update(state_updated_at=iso(last))
        elif state == "Closed":
            room = (self.now - last).total_seconds() - 1
            closed = last + timedelta(seconds=rng.uniform(min(30.0, room), min(7200.0, room)))
            closed_at = iso(closed)
            values.update(closed_at=closed_at, state_updated_at=closed_at,
                          last_activity_at=closed_at)
        if channel in ("Email", "ContactForm"):
            customer = requester.email
            inbound = not plan.outbound
            values.update(subject=subject, integration_email=endpoint,
                          from_email=customer if inbound else endpoint,
                          to_email=endpoint if inbound else customer,
                          language=rng.choice(text.LANGUAGES))
        elif channel == "WidgetChat":
            browser, version = rng.choice(text.BROWSERS)
            values.update(language=rng.choice(text.LANGUAGES), browser_info=dumps({
                "name": browser, "version": version,
                "ipAddress": f"198.51.100.{rng.randint(1, 254)}",
                "originatingUrl": rng.choice(text.USER_AGENT_PAGES)}))
        elif channel == "Sms":
            values.update(from_number=number if plan.outbound else requester.phone,
                          to_number=requester.phone if plan.outbound else number)
        if rng.random() < 0.1:
            values["external_id"] = f"ext-{cid:06d}"
        return tuple(values[c] for c in CONVERSATION_COLUMNS), closed_at

    def _extras(self, cid: int, plan: Plan, requester: Person, closed_at: str | None,
                tags: list[tuple[int, str, str]], values: list[tuple[str, str, str, Any]],
                ratings: list[dict[str, Any]]) -> None:
        """Tags, custom attributes and a rating of one conversation."""
        rng = self.rng
        tagged_at = iso(plan.created + timedelta(seconds=60))
        for _ in range(rng.choice((0, 0, 0, 1, 1, 2, 3))):
            tag_id, active = rng.choice(self.tags)
            if active or rng.random() < 0.3:
                tags.append((cid, tag_id, tagged_at))
        for identifier, share in (("product", 0.5), ("priority", 0.3), ("order_number", 0.25)):
            if rng.random() >= share:
                continue
            attribute_id, _, paths = self.fixed.attributes[identifier]
            value: Any = rng.choice(paths) if paths else f"ORD-{rng.randint(10000, 99999)}"
            values.append(("Conversation", str(cid), attribute_id, value))
        if closed_at is None or rng.random() >= 0.3 or plan.agent is None:
            return
        closed = datetime.fromisoformat(closed_at.replace("Z", "+00:00"))
        room = max(1.0, (self.now - closed).total_seconds())
        offered = closed + timedelta(seconds=rng.uniform(0, min(600.0, room / 2)))
        rating_type = rng.choice(("Csat", "Csat", "Csat", "Nps", "ThumbsUpOrDown"))
        rated = rng.random() < 0.6
        score = comment = submitted = None
        if rated:
            score = {"Csat": rng.choice((1, 2, 3, 4, 4, 5, 5, 5)), "Nps": rng.randint(0, 10),
                     "ThumbsUpOrDown": rng.choice((0, 1, 1))}[rating_type]
            comment = rng.choice(text.RATING_COMMENTS) if rng.random() < 0.5 else None
            left = max(1.0, (self.now - offered).total_seconds())
            submitted = iso(offered + timedelta(seconds=rng.uniform(0, min(86400.0, left))))
        ratings.append({"id": new_uuid(rng), "conversation_id": cid, "user_id": requester.id,
                        "agent_id": plan.agent.id, "rating_type": rating_type,
                        "offered_at": iso(offered), "score": score, "comment": comment,
                        "submitted_at": submitted, "language": "en"})

    def _link(self, conversations: list[tuple[Any, ...]],
              written: list[tuple[int, Plan, Person, str | None]]) -> None:
        """A few conversations follow up an earlier one of the same customer."""
        first_of: dict[str, int] = {}
        linked = 0
        link_at = CONVERSATION_COLUMNS.index("link")
        for index, (cid, _plan, requester, _closed) in enumerate(written):
            parent = first_of.setdefault(requester.id, cid)
            if parent != cid and linked < 12 and self.rng.random() < 0.05:
                row = list(conversations[index])
                row[link_at] = dumps({"parentId": parent, "_type": "FollowUp"})
                conversations[index] = tuple(row)
                linked += 1
