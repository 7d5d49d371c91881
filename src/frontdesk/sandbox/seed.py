"""The demo organisation "Acme Demo": built once per database, deterministically.

``ensure_seeded`` fills a new database in one transaction and marks it (``meta.seeded``), so a
second call does nothing. Every organisation has its fixed parts: the admin on whose behalf
API keys act, contact endpoints, custom attribute definitions and business-hours schedules
(drawn from a fixed generator, so they are the same in every sandbox). The demo data beyond
that comes from ``random.Random(seed)``, and every time in it is relative to ``now``: the same
seed and ``now`` give the same rows, ids included.

* small: ~25 agents with presence (one of them the console's demo agent), teams, queues,
  40 tags, 200 end users and 1,000 conversations over every channel and state, with message
  threads of 1 to 300 messages (~12,000 messages; 12,161 with seed 7), tags, custom
  attributes, ratings and a few processed anonymisation requests.
* large, for benchmarks: the small organisation plus 10,000 end users, 100,000 short
  conversations with threads of 1 to 60 messages (~10.3 on average: waiting ones hold the
  customer's first lines, calls one to four, written threads mostly a few turns, one in ten
  21 to 60) and one conversation of exactly 10,000 messages (``meta.big_thread_id``):
  101,001 conversations and ~1.05 million messages (1,051,076 with seed 7), a ~730 MB file.
  Built in one transaction through a rollback journal (the database is WAL again afterwards),
  messages written by ``executemany`` in batches of 100,000: 15-20 s on a 2-core machine.
"""

from __future__ import annotations

import html
import itertools
import json
import random
import string
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from . import demo_text as text
from . import scrub, seed_knowledge, seed_org, seed_templates
from .clock import ManualClock
from .context import SandboxContext
from .db import Database, dumps, iso
from .records import (
    insert_anonymization_request,
    insert_attribute_definition,
    insert_contact_endpoint,
    insert_queue,
    insert_rating_offer,
    insert_schedule,
    insert_schedule_entry,
    insert_tag,
    insert_team,
    insert_user,
    message_text,
    set_attribute_value,
    set_presence,
    tag_conversation,
)

DEMO_AGENT_EMAIL = "demo.agent@" + text.DOMAIN
"""The agent the console signs in as in the demo; the simulator leaves their work alone."""
ADMIN_EMAIL = "admin@" + text.DOMAIN

#: Channels of the demo conversations and their conversation ``_type``.
CONVERSATION_TYPES = {
    "Email": "EmailConversation",
    "ContactForm": "ContactFormConversation",
    "WidgetChat": "ChatConversation",
    "WhatsApp": "WhatsAppConversation",
    "Sms": "SmsConversation",
    "PstnPhone": "PstnPhoneConversation",
}
CHANNELS = tuple(CONVERSATION_TYPES)
STATES = ("Open", "Pending", "AwaitingPending", "Closed")
WORKING_CHANNELS = ("Email", "InteractiveChat", "Messaging", "Speak")

_FIXED_SEED = "frontdesk-demo-organisation"
_CONVERSATION_COLUMNS = (
    "id", "type", "channel", "requester_id", "created_at", "direction", "state",
    "state_updated_at", "assigned_agent_id", "assigned_at", "queue_id", "queued_at",
    "followup_until", "closed_at", "last_activity_at", "subject", "to_email", "from_email",
    "integration_email", "language", "browser_info", "from_number", "to_number", "link",
    "external_id", "anonymized_at",
)
_MESSAGE_COLUMNS = ("id", "conversation_id", "author_id", "external_id", "created_at",
                    "direction", "attributes", "body_text")


def ensure_seeded(path: Path, *, seed: int | None, empty: bool = False,
                  scale: Literal["small", "large"] = "small", now: datetime | None = None) -> None:
    """Create the database at ``path`` and fill it once (nothing happens when it is filled).

    ``seed`` makes the demo organisation deterministic; ``empty`` (or no seed) keeps only the
    admin, contact endpoints, custom attribute definitions and schedules; ``now`` anchors every
    time (default: the current time).
    """
    moment = _aware(now or datetime.now(UTC))
    bare = empty or seed is None
    db = Database(path)
    try:
        if db.get_meta("seeded") is not None:
            return
        bulk = scale == "large" and not bare
        if bulk:
            # A million rows in one transaction: through a rollback journal they are written
            # once, through the WAL twice (the log, then the checkpoint). A new database has
            # no other connection, so the switch takes; back to WAL below.
            db.run("PRAGMA journal_mode = DELETE")
        with db.tx():
            fixed = _build_fixed(db, moment)
            seed_org.build(db)
            if not bare:
                demo = _Demo(db, random.Random(seed), moment, fixed)
                demo.build_small()
                seed_templates.build(db, random.Random(f"templates {seed}"), moment,
                                     [a.id for a in demo.agents])
                seed_knowledge.build(db, random.Random(seed), moment, [a.id for a in demo.agents])
                if bulk:
                    demo.build_large()
            db.set_meta("scale", "empty" if bare else scale)
            db.set_meta("seeded", "empty" if bare else str(seed))
        db.run("ANALYZE")
        if bulk:
            db.run("PRAGMA journal_mode = WAL")
    finally:
        db.close()


def summary(db: Database | Path | str) -> dict[str, int]:
    """Rows per table (a database or its path): for tests, the demo banner and benchmarks."""
    own = not isinstance(db, Database)
    database = Database(db) if not isinstance(db, Database) else db
    try:
        names = [r["name"] for r in database.all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name")]
        counts: dict[str, int] = {}
        for name in names:
            row = database.one(f"SELECT COUNT(*) AS n FROM {name}")
            counts[name] = int(row["n"]) if row is not None else 0
        return counts
    finally:
        if own:
            database.close()


# --------------------------------------------------------------------------- small helpers


def _aware(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime (a naive one is taken as UTC)."""
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


def new_uuid(rng: random.Random) -> str:
    """A version-4 UUID drawn from ``rng`` (deterministic, unlike ``uuid.uuid4``)."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def ascii_slug(value: str) -> str:
    """``value`` folded to lowercase ASCII letters and digits (for e-mail addresses)."""
    folded = unicodedata.normalize("NFKD", value.replace("Æ", "Ae").replace("æ", "ae")
                                   .replace("Ø", "O").replace("ø", "o").replace("Ł", "L")
                                   .replace("ł", "l"))
    return "".join(c for c in folded.lower() if c in string.ascii_lowercase + string.digits)


def fill(template: str, rng: random.Random, **known: str) -> str:
    """A demo template with its fields filled (``{order}``, ``{city}``, …)."""
    values = {
        "first": "there", "agent": "Alex", "company": text.COMPANY,
        "order": f"ORD-{rng.randint(10000, 99999)}",
        "tracking": f"1Z{rng.randint(10**9, 10**10 - 1)}",
        "date": f"{rng.randint(1, 28)} {rng.choice(('March', 'April', 'May', 'June'))}",
        "weekday": rng.choice(text.WEEKDAYS), "product": rng.choice(text.PRODUCTS),
        "amount": f"€{rng.randint(19, 499)}.{rng.choice(('00', '50', '95'))}",
        "city": rng.choice(text.CITIES), "quote": rng.choice(text.QUOTES),
    }
    values.update(known)
    return template.format(**values)


# --------------------------------------------------------------------------- message attributes


def files(urls: Iterable[str]) -> list[dict[str, str]]:
    """Attachments in wire form: the URL and the name to show (its last path part)."""
    return [{"url": url, "prettyName": url.rsplit("/", 1)[-1]} for url in urls]


def attachment_url(rng: random.Random, name: str) -> str:
    """An http URL of a demo attachment (the sandbox never fetches it)."""
    return f"https://files.{text.DOMAIN}/a/{rng.getrandbits(48):012x}/{name}"


def chat_attributes(direction: str, body: str, *, kind: str = "Text",
                    attachments: Sequence[dict[str, str]] = (), automated: bool = False
                    ) -> dict[str, Any]:
    """``ChatAttributes`` of a widget-chat message."""
    return {"_type": "ChatAttributes", "content": {"value": body, "_type": kind},
            "direction": direction, "isAutomated": automated, "attachments": list(attachments)}


def plain_attributes(type_: str, direction: str, body: str, *, kind: str = "Text",
                     attachments: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
    """``SmsAttributes`` / ``WhatsAppAttributes`` (WhatsApp content is always Markdown)."""
    return {"_type": type_, "content": {"value": body, "_type": kind}, "direction": direction,
            "attachments": list(attachments)}


def email_attributes(type_: str, direction: str, body: str, *, sender: dict[str, str],
                     to: list[dict[str, str]], subject: str | None, kind: str = "Html",
                     cc: list[dict[str, str]] | None = None,
                     attachments: Sequence[dict[str, str]] = ()) -> dict[str, Any]:
    """``EmailAttributes`` (e-mail, web form) or ``ContactFormAttributes`` (chat widget)."""
    out: dict[str, Any] = {
        "_type": type_,
        "emailContent": {"_type": "Regular", "content": {"value": body, "_type": kind}},
        "from": sender, "to": to, "cc": cc or [], "direction": direction,
        "isAutoReply": False, "attachments": list(attachments),
    }
    if subject is not None:
        out["subject"] = subject
    if type_ == "ContactFormAttributes":
        out["replyDefaultToEmails"] = [sender["email"]] if direction == "Inbound" else []
    return out


def phone_attributes(direction: str, caller: str, callee: str, duration: int) -> dict[str, Any]:
    """``PhoneAttributes`` of a call: who called whom, and for how many seconds."""
    return {"_type": "PhoneAttributes", "from": caller, "to": callee, "direction": direction,
            "duration": duration}


def html_email(paragraphs: Iterable[str], greeting: str, signature: str) -> str:
    """An HTML e-mail body (the paragraphs may carry their own inline HTML)."""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (f"<p>{html.escape(greeting)}</p>{body}"
            f"<p>Best regards,<br>{html.escape(signature)}</p>")


# --------------------------------------------------------------------------- fixed parts


@dataclass
class Fixed:
    """What every organisation has: ids the demo data refers to."""

    admin_id: str
    email_endpoints: list[tuple[str, str]]  # (address, name)
    phone_endpoints: list[str]
    #: identifier → (definition id, entity type, Select value paths or None for Text)
    attributes: dict[str, tuple[str, str, list[list[str]] | None]] = field(default_factory=dict)


def _option(rng: random.Random, label: str, value: str, order: int,
            nested: list[dict[str, Any]] | None = None, deactivated: bool = False
            ) -> dict[str, Any]:
    """A Select option in wire form."""
    return {"id": new_uuid(rng), "label": label, "value": value, "nestedOptions": nested or [],
            "isDeactivated": deactivated, "orderIndex": order}


def _flat(rng: random.Random, labels: Sequence[str]) -> list[dict[str, Any]]:
    """Options without nesting, their values the labels folded to ASCII."""
    return [_option(rng, label, ascii_slug(label) or f"option{i}", i)
            for i, label in enumerate(labels)]


def _paths(options: list[dict[str, Any]], prefix: list[str] | None = None) -> list[list[str]]:
    """The value paths of every active option (parents too) of a Select definition."""
    out: list[list[str]] = []
    for option in options:
        if option["isDeactivated"]:
            continue
        path = [*(prefix or []), option["value"]]
        out.append(path)
        out.extend(_paths(option["nestedOptions"], path))
    return out


def _attribute_definitions(rng: random.Random) -> list[dict[str, Any]]:
    """The custom attributes: nested and flat Selects, Texts, one archived."""
    product = [
        _option(rng, "Hardware", "hardware", 0, [
            _option(rng, "Router", "router", 0), _option(rng, "Switch", "switch", 1),
            _option(rng, "Access point", "access_point", 2),
            _option(rng, "Fax machine", "fax_machine", 3, deactivated=True),
        ]),
        _option(rng, "Software", "software", 1, [
            _option(rng, "Billing portal", "billing_portal", 0),
            _option(rng, "Mobile app", "mobile_app", 1),
        ]),
        _option(rng, "Services", "services", 2, [
            _option(rng, "Installation", "installation", 0),
            _option(rng, "Repair", "repair", 1),
        ]),
    ]
    return [
        {"entity": "Conversation", "identifier": "product", "label": "Product",
         "input": {"_type": "Select", "options": product},
         "description": "What the conversation is about"},
        {"entity": "Conversation", "identifier": "priority", "label": "Priority",
         "input": {"_type": "Select",
                   "options": _flat(rng, ("Low", "Normal", "High", "Urgent"))}},
        {"entity": "Conversation", "identifier": "order_number", "label": "Order number",
         "input": {"_type": "Text", "placeholder": "ORD-12345"},
         "description": "The order the customer refers to"},
        {"entity": "Conversation", "identifier": "legacy_case_ref", "label": "Legacy case ref",
         "input": {"_type": "Text", "placeholder": "CASE-0000"}, "archived": True,
         "description": "From the old help desk; no longer used"},
        {"entity": "Contact", "identifier": "customer_tier", "label": "Customer tier",
         "input": {"_type": "Select", "options": _flat(rng, ("Free", "Pro", "Enterprise"))}},
        {"entity": "Contact", "identifier": "account_number", "label": "Account number",
         "input": {"_type": "Text", "placeholder": "ACC-000000"}},
        {"entity": "Contact", "identifier": "preferred_language", "label": "Preferred language",
         "input": {"_type": "Select",
                   "options": [_option(rng, label, value, i) for i, (label, value) in
                               enumerate((("English", "en"), ("Dansk", "da"),
                                          ("Español", "es"), ("日本語", "ja")))]}},
    ]


_SCHEDULES = (
    ("Copenhagen support", "Europe/Copenhagen",
     {1: [("08:00", "17:00")], 2: [("08:00", "17:00")], 3: [("08:00", "17:00")],
      4: [("08:00", "17:00")], 5: [("08:00", "15:30")], 6: [], 7: []},
     ("Christmas Day", 25, 12)),
    ("New York sales", "America/New_York",
     {1: [("09:00", "18:00")], 2: [("09:00", "18:00")], 3: [("09:00", "18:00")],
      4: [("09:00", "18:00")], 5: [("09:00", "18:00")], 6: [("10:00", "14:00")]},
     ("Independence Day", 4, 7)),
    ("Tokyo partners 東京", "Asia/Tokyo",
     {1: [("09:00", "12:00"), ("13:00", "18:00")], 2: [("09:00", "12:00"), ("13:00", "18:00")],
      3: [("09:00", "12:00"), ("13:00", "18:00")], 4: [("09:00", "12:00"), ("13:00", "18:00")],
      5: [("09:00", "12:00"), ("13:00", "17:00")]},
     ("New Year's Day", 1, 1)),
)
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _schedules(db: Database, rng: random.Random, now: datetime) -> None:
    """Three schedules in three time zones, each with a holiday; the first has exceptions."""
    since = (now - timedelta(days=365)).date().isoformat()
    for position, (name, zone, week, (holiday, day, month)) in enumerate(_SCHEDULES):
        schedule_id = insert_schedule(db, id=new_uuid(rng), name=name, timezone=zone,
                                      position=position)
        for weekday, hours in week.items():
            insert_schedule_entry(db, schedule_id=schedule_id, kind="Regular",
                                  name=_DAY_NAMES[weekday - 1], day_of_week=weekday,
                                  status="Open" if hours else "Closed", intervals=hours,
                                  start_date=since)
        insert_schedule_entry(db, schedule_id=schedule_id, kind="Holiday", name=holiday,
                              status="Closed", start_date=since,
                              recurring={"dayOfMonth": day, "monthOfYear": month})
        if position == 0:
            # A one-off shortened day ten days ahead, so the upcoming days show an exception.
            insert_schedule_entry(db, schedule_id=schedule_id, kind="Exception",
                                  name="Staff training (short day)",
                                  start_date=(now + timedelta(days=10)).date().isoformat(),
                                  intervals=[("08:00", "12:00")])
            insert_schedule_entry(db, schedule_id=schedule_id, kind="Exception",
                                  name="Christmas Eve", start_date=since,
                                  intervals=[("09:00", "13:00")],
                                  recurring={"dayOfMonth": 24, "monthOfYear": 12})


def _build_fixed(db: Database, now: datetime) -> Fixed:
    """The admin, endpoints, attribute definitions and schedules (same in every sandbox)."""
    rng = random.Random(_FIXED_SEED)
    created = now - timedelta(days=400)
    db.set_meta("organization_id", new_uuid(rng))
    admin_id = insert_user(db, kind="agent", id=new_uuid(rng), created_at=iso(created),
                           display_name="Acme Admin", email=ADMIN_EMAIL, first_name="Acme",
                           last_name="Admin", roles=["Admin"])
    set_presence(db, admin_id, connection="Offline", status="Away", channels=[],
                 last_seen=iso(now - timedelta(days=2)))
    db.set_meta("api_user_id", admin_id)

    emails = [(f"support@{text.DOMAIN}", "Acme Support", None),
              (f"billing@{text.DOMAIN}", "Acme Billing", f"invoices@{text.DOMAIN}"),
              (f"partners@{text.DOMAIN}", "Acme Partners 東京", None)]
    phones = [("+4570201234", "Copenhagen hotline", ["VoiceInbound", "VoiceOutbound", "Sms"]),
              ("+12025550143", "New York line", ["VoiceInbound", "VoiceOutbound"])]
    for position, (address, name, sender) in enumerate(emails):
        insert_contact_endpoint(db, address=address, name=name, sender_override=sender,
                                legacy_id=new_uuid(rng), position=position)
    for position, (number, name, functionality) in enumerate(phones, start=len(emails)):
        insert_contact_endpoint(db, number=number, name=name, functionality=functionality,
                                legacy_id=new_uuid(rng), position=position)

    fixed = Fixed(admin_id, [(a, n) for a, n, _ in emails], [p for p, _, _ in phones])
    for position, spec in enumerate(_attribute_definitions(rng)):
        archived = bool(spec.get("archived"))
        attribute_id = insert_attribute_definition(
            db, id=new_uuid(rng), entity_type=spec["entity"], identifier=spec["identifier"],
            label=spec["label"], input_definition=spec["input"],
            description=spec.get("description"),
            created_at=iso(created + timedelta(days=position)),
            updated_at=iso(created + timedelta(days=90)) if archived else None,
            is_archived=archived, position=position)
        if not archived:
            paths = _paths(spec["input"]["options"]) if spec["input"]["_type"] == "Select" \
                else None
            fixed.attributes[spec["identifier"]] = (attribute_id, spec["entity"], paths)
    _schedules(db, rng, now)
    return fixed


# --------------------------------------------------------------------------- the demo data


@dataclass
class _Person:
    id: str
    first: str
    name: str
    email: str | None
    phone: str | None


@dataclass
class _Plan:
    """A conversation before it has an id: what it is, whose, and how long its thread is."""

    channel: str
    state: str  # Open (queued or assigned), Pending, AwaitingPending, Closed
    queued: bool
    agent: _Person | None
    created: datetime
    length: int
    outbound: bool = False
    showcase: bool = False


_CONVERSATION_STATES = (("queued", 12), ("Open", 18), ("Pending", 10), ("AwaitingPending", 5),
                        ("Closed", 55))
_CHANNEL_WEIGHTS = (("Email", 30), ("ContactForm", 10), ("WidgetChat", 25), ("WhatsApp", 12),
                    ("Sms", 10), ("PstnPhone", 13))
_GAPS = {"WidgetChat": (20, 360), "WhatsApp": (30, 900), "Sms": (60, 3600),
         "Email": (600, 72_000), "ContactForm": (600, 72_000), "PstnPhone": (3600, 259_200)}
_AGE = {"queued": (300, 36 * 3600), "Open": (600, 7 * 86400), "Pending": (3600, 14 * 86400),
        "AwaitingPending": (3600, 14 * 86400), "Closed": (3600, 60 * 86400)}


_QUEUE_USAGES = {
    "General": {"Email": [f"support@{text.DOMAIN}"], "PstnPhone": ["+4570201234"]},
    "Billing": {"Email": [f"billing@{text.DOMAIN}"]},
    "Nordics": {"PstnPhone": ["+4570201234"]},
}


def _pick(rng: random.Random, weighted: Sequence[tuple[str, int]]) -> str:
    """One key of ``(key, weight)`` pairs."""
    return rng.choices([k for k, _ in weighted], [w for _, w in weighted])[0]


class _Demo:
    """Builds the demo data inside the caller's transaction."""

    def __init__(self, db: Database, rng: random.Random, now: datetime, fixed: Fixed) -> None:
        self.db = db
        self.rng = rng
        self.now = now
        self.fixed = fixed
        self.agents: list[_Person] = []
        self.demo: _Person | None = None
        self.endusers: list[_Person] = []
        self.queues: list[str] = []
        self.tags: list[tuple[str, bool]] = []  # (id, active)
        self.next_id = 1

    def at(self, seconds_ago: float) -> datetime:
        """The time ``seconds_ago`` before ``now``."""
        return self.now - timedelta(seconds=seconds_ago)

    # ------------------------------------------------------------------ people and groups

    def build_small(self) -> None:
        """The small organisation: people, groups, tags and 1,000 conversations."""
        self._agents()
        self._groups()
        self._tags()
        self._endusers()
        self._conversations()

    def _agents(self) -> None:
        """The demo agent first, then the others, with a mix of presence."""
        rng = self.rng
        names = [("Demo", "Agent"), *text.AGENT_NAMES]
        for index, (first, last) in enumerate(names):
            demo = index == 0
            email = DEMO_AGENT_EMAIL if demo else \
                f"{ascii_slug(first)}.{ascii_slug(last)}@{text.DOMAIN}"
            roles = ["Admin"] if index in (3, 9) else ["Agent"]
            if index == 15:
                roles = ["Agent", "Admin"]
            phone = f"+4560{rng.randint(100000, 999999)}" if rng.random() < 0.6 else None
            agent_id = insert_user(
                self.db, kind="agent", id=new_uuid(rng),
                created_at=iso(self.at(rng.uniform(100, 380) * 86400)),
                display_name=f"{first} {last}", email=email, phone_number=phone,
                first_name=first, last_name=last, roles=roles,
                avatar_url=f"https://avatars.{text.DOMAIN}/{ascii_slug(first)}.png"
                if rng.random() < 0.5 else None)
            if demo:
                online, status, channels = True, "Working", ["Email", "InteractiveChat"]
            else:
                online = rng.random() < 0.65
                status = "Working" if online and rng.random() < 0.75 else "Away"
                channels = sorted(rng.sample(WORKING_CHANNELS, rng.randint(1, 3))) \
                    if status == "Working" else []
            seen = self.at(rng.uniform(5, 600) if online else rng.uniform(3600, 5 * 86400))
            set_presence(self.db, agent_id, connection="Online" if online else "Offline",
                         status=status, channels=channels, last_seen=iso(seen))
            person = _Person(agent_id, first, f"{first} {last}", email, phone)
            self.agents.append(person)
            if demo:
                self.demo = person

    def _groups(self) -> None:
        """Teams and queues (the first queue is the default) with their members."""
        rng = self.rng
        created = iso(self.at(300 * 86400))
        ids = [a.id for a in self.agents]
        memberships = ([ids[0], *ids[1:8]], ids[6:14], [ids[0], *ids[14:19]], ids[18:])
        for name, members in zip(text.TEAM_NAMES, memberships, strict=True):
            insert_team(self.db, id=new_uuid(rng), name=name, created_at=created,
                        members=list(members))
        algorithms = ("AgentPriorityOneAtATimeRandom", "AllAtOnce", "LongestIdle",
                      "AgentPriorityAllAtOnce", "OneAtATimeRandom")
        for index, name in enumerate(text.QUEUE_NAMES):
            queue_id = new_uuid(rng)
            settings = {
                "queueThresholds": {"SlaTimeLimit": 3600, "WaitingConversations": 20 + index,
                                    "LongestWait": 1800, "AvailableAgents": 2,
                                    "SlaPercentage": 80},
                "slaCalculationMethod": "AbandonedIgnored",
                "offerTimeout": 30 + 15 * index,
                "offeringAlgorithm": algorithms[index],
                "memberListType": "SkillBased" if name == "VIP" else "Default",
                "wrapupTimeout": 60,
                "priority": index + 1,
                "offerAbandonedConversations": index % 2 == 0,
                "doNotOfferTimeouts": {"Email": 600, "WidgetChat": 60} if index == 2 else {},
                "isDoNotOfferEnabled": index == 2,
                "isPreferredAgentEnabled": name == "VIP",
                "preferredAgentTimeouts": {"Email": 3600} if name == "VIP" else {},
                "preferredAgentOfflineTimeout": 300,
                "personalAgentOfflineTimeout": 600,
                "isRestricted": name == "VIP",
                "usages": {"queueId": queue_id, "usages": _QUEUE_USAGES.get(name, {})},
            }
            pool = ids if index == 0 else rng.sample(ids[1:], rng.randint(5, 10))
            if name in ("General", "Technical") and ids[0] not in pool:
                pool = [ids[0], *pool]
            queue_members = [(agent, rng.choice((1, 2, 3, None))) for agent in pool]
            insert_queue(self.db, id=queue_id, name=name, created_at=created,
                         is_default=index == 0, settings=settings, members=queue_members)
            self.queues.append(queue_id)

    def _tags(self) -> None:
        """40 tags, some inactive, most with a colour."""
        rng = self.rng
        for index, name in enumerate(text.TAG_NAMES):
            active = index % 9 != 8
            color = rng.choice(text.TAG_COLORS) if rng.random() < 0.6 else None
            tag_id = insert_tag(self.db, id=new_uuid(rng), name=name,
                                created_at=iso(self.at(rng.uniform(60, 300) * 86400)),
                                color=color, state="Active" if active else "Inactive")
            self.tags.append((tag_id, active))

    def _person_rows(self, count: int, *, start: int, full: bool
                     ) -> tuple[list[_Person], list[tuple[Any, ...]]]:
        """End users: people and their ``users`` rows (not yet written)."""
        rng = self.rng
        people: list[_Person] = []
        rows: list[tuple[Any, ...]] = []
        for n in range(start, start + count):
            first, last = rng.choice(text.FIRST_NAMES), rng.choice(text.LAST_NAMES)
            name = f"{first} {last}"
            local = f"{ascii_slug(first)}.{ascii_slug(last)}".strip(".") or "customer"
            email = f"{local}{n}@{rng.choice(('example.com', 'example.org', 'example.net'))}" \
                if full or rng.random() < 0.9 else None
            phone = self._phone() if full or rng.random() < 0.8 else None
            external = f"crm-{n:06d}" if rng.random() < 0.3 else None
            middle = dumps([rng.choice(text.MIDDLE_NAMES)]) if rng.random() < 0.1 else None
            extra = dumps([f"{local}.work{n}@example.com"]) if rng.random() < 0.1 else None
            user_id = new_uuid(rng)
            rows.append((user_id, "enduser", iso(self.at(rng.uniform(61, 700) * 86400)),
                         name, email, phone, external, first, last, middle, extra))
            people.append(_Person(user_id, first, name, email, phone))
        return people, rows

    def _write_users(self, rows: list[tuple[Any, ...]]) -> None:
        """Write end users made by ``_person_rows`` in one statement."""
        self.db.conn.executemany(
            "INSERT INTO users (id, kind, created_at, display_name, email, phone_number, "
            "external_id, first_name, last_name, middle_names, additional_emails) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def _phone(self) -> str:
        """A plausible E.164 number from one of a few countries."""
        rng = self.rng
        country = rng.choice(("45", "45", "1", "44", "81", "34", "49"))
        digits = {"45": 8, "1": 10, "44": 10, "81": 10, "34": 9, "49": 10}[country]
        if country == "1":
            return f"+1{rng.choice(('202', '212', '415'))}555{rng.randint(0, 9999):04d}"
        return f"+{country}{rng.randint(10 ** (digits - 1), 10 ** digits - 1)}"

    def _endusers(self) -> None:
        """200 customers, half of them with custom attributes."""
        people, rows = self._person_rows(200, start=1, full=False)
        self._write_users(rows)
        self.endusers = people
        tier_id, _, tiers = self.fixed.attributes["customer_tier"]
        account_id, _, _ = self.fixed.attributes["account_number"]
        language_id, _, languages = self.fixed.attributes["preferred_language"]
        values: list[tuple[str, str, str, Any]] = []
        for person in people:
            if self.rng.random() < 0.5:
                values.append(("Contact", person.id, tier_id, self.rng.choice(tiers or [[]])))
            if self.rng.random() < 0.4:
                values.append(("Contact", person.id, account_id,
                               f"ACC-{self.rng.randint(100000, 999999)}"))
            if self.rng.random() < 0.2:
                values.append(("Contact", person.id, language_id,
                               self.rng.choice(languages or [[]])))
        self._write_values(values)

    def _write_values(self, values: list[tuple[str, str, str, Any]]) -> None:
        """Set custom attribute values: (entity type, entity id, attribute id, value)."""
        for entity_type, entity_id, attribute_id, value in values:
            set_attribute_value(self.db, entity_type=entity_type, entity_id=entity_id,
                                attribute_id=attribute_id, value=value)

    # ------------------------------------------------------------------ conversations

    def _requester(self, channel: str, pool: Sequence[_Person]) -> _Person:
        """A customer who can be reached on ``channel`` (an address or a number)."""
        needs_email = channel in ("Email", "ContactForm")
        needs_phone = channel in ("Sms", "PstnPhone", "WhatsApp")
        while True:
            person = self.rng.choice(pool)
            if (not needs_email or person.email) and (not needs_phone or person.phone):
                return person

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

    def _plan(self, channel: str, kind: str, agent: _Person | None = None,
              length: int | None = None) -> _Plan:
        """A conversation of ``kind`` (a state, or ``queued``) on ``channel``."""
        rng = self.rng
        low, high = _AGE[kind]
        queued = kind == "queued"
        if agent is None and not queued:
            agent = self.demo if rng.random() < 0.08 and self.demo else \
                rng.choice(self.agents[1:])
        outbound = not queued and channel in ("Email", "Sms", "PstnPhone") and rng.random() < 0.12
        return _Plan(channel, "Open" if queued else kind, queued, agent,
                     self.at(rng.uniform(low, high)), length or self._length(channel, kind),
                     outbound)

    def _plans(self) -> list[_Plan]:
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
            for kind, _ in _CONVERSATION_STATES:
                plans.append(self._plan(channel, kind))
        while len(plans) < 1000:
            plans.append(self._plan(_pick(rng, _CHANNEL_WEIGHTS),
                                    _pick(rng, _CONVERSATION_STATES)))
        plans.sort(key=lambda p: p.created)
        return plans

    def _times(self, plan: _Plan) -> list[datetime]:
        """When each message was written: channel-like gaps, squeezed to end before now."""
        rng = self.rng
        low, high = _GAPS[plan.channel]
        offsets = [0.0]
        for _ in range(plan.length - 1):
            offsets.append(offsets[-1] + rng.uniform(low, high))
        room = (self.now - plan.created).total_seconds() - (180 if plan.state == "Closed" else 30)
        if offsets[-1] > room > 0:
            offsets = [o * room / offsets[-1] for o in offsets]
        return [plan.created + timedelta(seconds=o) for o in offsets]

    def _directions(self, plan: _Plan) -> list[str]:
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
        written: list[tuple[int, _Plan, _Person, str | None]] = []
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
        self._anonymisations(written)

    def _write(self, conversations: list[tuple[Any, ...]],
               messages: list[tuple[Any, ...]]) -> None:
        """Write conversation and message rows (one ``executemany`` per table)."""
        columns = ", ".join(_CONVERSATION_COLUMNS)
        marks = ", ".join("?" for _ in _CONVERSATION_COLUMNS)
        self.db.conn.executemany(f"INSERT INTO conversations ({columns}) VALUES ({marks})",
                                 conversations)
        message_marks = ", ".join("?" for _ in _MESSAGE_COLUMNS)
        self.db.conn.executemany(
            f"INSERT INTO messages ({', '.join(_MESSAGE_COLUMNS)}) VALUES ({message_marks})",
            messages)

    def _conversation(self, cid: int, plan: _Plan, requester: _Person,
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
        context = _Thread(channel, requester, plan.agent, subject, endpoint, endpoint_name,
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
        values: dict[str, Any] = dict.fromkeys(_CONVERSATION_COLUMNS)
        values.update(id=cid, type=CONVERSATION_TYPES[channel], channel=channel,
                      requester_id=requester.id, created_at=iso(plan.created),
                      direction="Outbound" if plan.outbound else "Inbound", state=state,
                      last_activity_at=iso(last))
        if plan.queued:
            values.update(queue_id=_weighted_queue(rng, self.queues),
                          queued_at=iso(plan.created), state_updated_at=iso(plan.created))
        else:
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
        return tuple(values[c] for c in _CONVERSATION_COLUMNS), closed_at

    def _attachments(self, channel: str) -> list[dict[str, str]]:
        """Attachments of a message now and then (one for WhatsApp and SMS, allowed kinds)."""
        rng = self.rng
        if rng.random() >= 0.07 or channel == "PstnPhone":
            return []
        names = text.WHATSAPP_ATTACHMENT_NAMES if channel == "WhatsApp" else text.ATTACHMENT_NAMES
        count = 1 if channel in ("WhatsApp", "Sms") else rng.randint(1, 2)
        return files(attachment_url(rng, fill(rng.choice(names), rng)) for _ in range(count))

    def _attributes(self, thread: _Thread, direction: str, index: int, showcase: bool
                    ) -> dict[str, Any]:
        """One message's attributes in wire form (the showcase cycles through every template)."""
        rng = self.rng
        channel = thread.channel
        inbound = direction == "Inbound"
        first = thread.requester.first
        agent_first = thread.agent.first if thread.agent else "Alex"
        attachments = self._attachments(channel)
        if channel == "PstnPhone":
            phone = thread.requester.phone or ""
            caller, callee = (phone, thread.number) if inbound else (thread.number, phone)
            return phone_attributes(direction, caller, callee, rng.randint(15, 1800))
        if channel in ("Email", "ContactForm"):
            customer = {"email": thread.requester.email or "", "name": thread.requester.name}
            us = {"email": thread.endpoint, "name": thread.endpoint_name}
            subject = thread.subject if index == 0 or thread.subject is None \
                else f"Re: {thread.subject}"
            type_ = "EmailAttributes" if channel == "Email" else thread.form_kind
            if inbound and type_ == "ContactFormAttributes":
                body = fill(rng.choice(text.CUSTOMER_EMAIL_PARAGRAPHS), rng)
                return email_attributes(type_, direction, body, sender=customer, to=[us],
                                        subject=subject, kind="Text", attachments=attachments)
            if inbound:
                paragraphs = [fill(html.escape(p), rng) for p in
                              rng.sample(text.CUSTOMER_EMAIL_PARAGRAPHS, rng.randint(1, 3))]
                body = html_email(paragraphs, "Hello,", thread.requester.name)
                return email_attributes(type_, direction, body, sender=customer, to=[us],
                                        subject=subject, attachments=attachments)
            paragraphs = [fill(p, rng) for p in
                          rng.sample(text.AGENT_EMAIL_PARAGRAPHS, rng.randint(1, 3))]
            body = html_email(paragraphs, f"Hi {first},",
                              f"{thread.agent.name if thread.agent else 'Alex'}, {text.COMPANY}")
            cc = [{"email": f"colleague@{text.DOMAIN}"}] if rng.random() < 0.1 else []
            return email_attributes(type_, direction, body, sender=us, to=[customer],
                                    subject=subject, cc=cc, attachments=attachments)
        if inbound:
            body = fill(rng.choice(text.CUSTOMER_LINES), rng, first=first, agent=agent_first)
            kind = "Markdown" if channel == "WhatsApp" else "Text"
        else:
            template = text.AGENT_MARKDOWN[(index // 2) % len(text.AGENT_MARKDOWN)] if showcase \
                else rng.choice(text.AGENT_MARKDOWN)
            body = fill(template, rng, first=first, agent=agent_first)
            kind = "Text" if channel == "Sms" else "Markdown"
        if channel == "WidgetChat":
            return chat_attributes(direction, body, kind=kind, attachments=attachments)
        type_ = "WhatsAppAttributes" if channel == "WhatsApp" else "SmsAttributes"
        return plain_attributes(type_, direction, body, kind=kind, attachments=attachments)

    def _extras(self, cid: int, plan: _Plan, requester: _Person, closed_at: str | None,
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
              written: list[tuple[int, _Plan, _Person, str | None]]) -> None:
        """A few conversations follow up an earlier one of the same customer."""
        first_of: dict[str, int] = {}
        linked = 0
        link_at = _CONVERSATION_COLUMNS.index("link")
        for index, (cid, _plan, requester, _closed) in enumerate(written):
            parent = first_of.setdefault(requester.id, cid)
            if parent != cid and linked < 12 and self.rng.random() < 0.05:
                row = list(conversations[index])
                row[link_at] = dumps({"parentId": parent, "_type": "FollowUp"})
                conversations[index] = tuple(row)
                linked += 1

    def _anonymisations(self, written: list[tuple[int, _Plan, _Person, str | None]]) -> None:
        """A few processed anonymisation requests: two conversations, a message, an end user.

        Scrubbed by the sandbox's own anonymisation code, with the clock at processing time.
        """
        rng = self.rng
        demo_id = self.demo.id if self.demo else ""
        closed = [(cid, closed_at) for cid, plan, _requester, closed_at in written
                  if closed_at is not None and (plan.agent is None or plan.agent.id != demo_id)]
        clock = ManualClock(self.now)
        ctx = SandboxContext(db=self.db, clock=clock)

        def request(type_: str, target: str, at: datetime) -> None:
            clock.set(at)
            insert_anonymization_request(
                self.db, id=new_uuid(rng), type=type_, target_entity_id=target,
                requested_by=self.fixed.admin_id, initiated_at=iso(at - timedelta(seconds=2)),
                processed_at=iso(at))

        for cid, closed_at in closed[:2]:
            at = datetime.fromisoformat(str(closed_at).replace("Z", "+00:00")) + \
                timedelta(hours=1)
            request("Conversation", str(cid), at)
            scrub.scrub_conversation(ctx, cid)
        if len(closed) > 2:
            cid = closed[2][0]
            row = self.db.one("SELECT id FROM messages WHERE conversation_id = ? "
                              "ORDER BY seq LIMIT 1", (cid,))
            if row is not None:
                request("Message", f"{cid}_{row['id']}", self.now - timedelta(days=1))
                scrub.scrub_message(ctx, cid, str(row["id"]))
        # an end user whose conversations are all closed (and none the demo agent's)
        busy = {requester.id for _cid, plan, requester, _c in written
                if plan.state != "Closed" or (plan.agent and plan.agent.id == demo_id)}
        asked = {requester.id for _cid, _plan, requester, _c in written}
        for person in self.endusers:
            if person.id in asked and person.id not in busy:
                request("User", person.id, self.now - timedelta(days=3))
                scrub.scrub_user(ctx, person.id)
                break

    # ------------------------------------------------------------------ large scale

    def build_large(self) -> None:
        """100,000 short conversations (threads of 1 to 60 messages, ~10.3 on average: ~1.03
        million messages) and one thread of exactly 10,000 messages.

        Written in batches of :data:`_BULK_BATCH` messages, inside the caller's transaction.
        Times are naive UTC here (cheaper to add up and format than aware ones).
        """
        rng = self.rng
        people, rows = self._person_rows(10_000, start=1000, full=True)
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
        bodies = _BulkBodies(rng, lines, replies, htmls)
        queues = self.queues
        kinds = [k for k, _ in _CONVERSATION_STATES]
        kind_weights = list(itertools.accumulate((5, 15, 7, 3, 70)))
        channels = [c for c, _ in _CHANNEL_WEIGHTS]
        channel_weights = list(itertools.accumulate(w for _, w in _CHANNEL_WEIGHTS))
        now = self.now.replace(tzinfo=None)
        email_endpoint = self.fixed.email_endpoints[0][0]
        uniform, choice, getrandbits = rng.uniform, rng.choice, rng.getrandbits
        for _ in range(100_000):
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
            count = _bulk_length(rng, channel, queued)
            if state == "Pending" and count % 2:
                count += 1  # pending: the agent wrote last and waits for the customer
            low, high = _GAPS[channel]
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
                messages.append((_fast_uuid(getrandbits(128)), cid,
                                 author if outbound else customer, None,
                                 when.isoformat(timespec="milliseconds") + "Z",
                                 "Outbound" if outbound else "Inbound", attributes, body))
            last = messages[-1][4]
            stamp = _naive_iso(created)
            closed_at = _naive_iso(created + timedelta(seconds=total * scale + uniform(30, 180))) \
                if state == "Closed" else None
            followup = _naive_iso(now + timedelta(hours=uniform(1, 72))) \
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
            if channel in ("Email", "ContactForm"):
                values.update(from_email=person.email, to_email=email_endpoint,
                              integration_email=email_endpoint)
            conversations.append(tuple(values.get(c) for c in _CONVERSATION_COLUMNS))
            if len(messages) >= _BULK_BATCH:
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
        step = (30 * 86400 - 600) / 10_000
        messages: list[tuple[Any, ...]] = []
        for index in range(10_000):
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
        row = dict.fromkeys(_CONVERSATION_COLUMNS)
        row.update(id=cid, type="ChatConversation", channel="WidgetChat",
                   requester_id=person.id, created_at=iso(created), direction="Inbound",
                   state="Open", state_updated_at=iso(created), assigned_agent_id=agent.id,
                   assigned_at=iso(created), last_activity_at=last, language="en",
                   browser_info=dumps({"name": "Firefox", "version": "133.0"}))
        self._write([tuple(row[c] for c in _CONVERSATION_COLUMNS)], messages)
        self.db.set_meta("big_thread_id", str(cid))


@dataclass
class _Thread:
    """What every message of one conversation shares."""

    channel: str
    requester: _Person
    agent: _Person | None
    subject: str | None
    endpoint: str
    endpoint_name: str
    number: str
    form_kind: str


def _weighted_queue(rng: random.Random, queues: list[str]) -> str:
    """The default queue (first) gets half of the waiting conversations."""
    return queues[0] if rng.random() < 0.5 else rng.choice(queues)


#: Messages per batch of the large scale's writes (one ``executemany`` per table and batch).
_BULK_BATCH = 100_000
#: What :func:`dumps` returns, without building an encoder per call.
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_OUR_NUMBER = "+4570201234"


def _naive_iso(value: datetime) -> str:
    """:func:`iso` of a naive UTC datetime, faster (the large scale formats a million)."""
    return value.isoformat(timespec="milliseconds") + "Z"


def _fast_uuid(bits: int) -> str:
    """``str(uuid.UUID(int=bits, version=4))``, without the ``UUID`` object (same text)."""
    bits = (bits & ~(0xC000 << 48) | 0x8000 << 48) & ~(0xF000 << 64) | 4 << 76
    h = f"{bits:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _bulk_length(rng: random.Random, channel: str, queued: bool) -> int:
    """Messages in one of the large scale's 100,000 threads: ~10.3 on average.

    Waiting (queued) threads hold the customer's first lines only; calls are one to four
    (calls and call-backs); written threads are mostly a few turns (2-8), a third a longer
    exchange (9-20), one in ten a long one (21-60).
    """
    if queued:
        return rng.randint(1, 3)
    if channel == "PstnPhone":
        return rng.randint(1, 4)
    roll = rng.random()
    if roll < 0.55:
        return rng.randint(2, 8)
    if roll < 0.90:
        return rng.randint(9, 20)
    return rng.randint(21, 60)


class _BulkBodies:
    """Stored attributes (JSON) and searchable text of the large scale's messages.

    Bodies are drawn from a few hundred filled templates. A chat, SMS or WhatsApp message's
    attributes depend on nothing else, so they are encoded once per (channel, direction,
    body); an e-mail's also name the customer and the subject, so each thread encodes them
    once per direction and splices the (once encoded) body in; a call's are encoded whole.
    The text is what ``json.dumps`` of the attributes gives (:func:`_email_frame` is tested
    against it).
    """

    def __init__(self, rng: random.Random, lines: list[str], replies: list[str],
                 htmls: list[str]) -> None:
        self.random = rng.random
        self.randint = rng.randint
        self.lines = lines
        self.replies = replies
        self.htmls = htmls
        self.html_replies = [f"<p>{html.escape(reply)}</p>" for reply in replies]
        self.encoded: dict[tuple[str, bool, str], tuple[str, str]] = {}
        self.encoded_html = {body: _ENCODE(body) for body in (*htmls, *self.html_replies)}

    def _pick(self, options: list[str]) -> str:
        return options[int(self.random() * len(options))]

    def thread(self, channel: str, person: _Person, subject: str | None
               ) -> Callable[[bool], tuple[str, str]]:
        """For one thread: ``outbound`` → (attributes as stored, body text) of its next
        message, written by ``person`` (inbound) or by an agent to them (outbound)."""
        if channel == "PstnPhone":
            number = person.phone or ""

            def call(outbound: bool) -> tuple[str, str]:
                caller, callee = (_OUR_NUMBER, number) if outbound else (number, _OUR_NUMBER)
                direction = "Outbound" if outbound else "Inbound"
                return _ENCODE(phone_attributes(direction, caller, callee,
                                                self.randint(15, 900))), ""
            return call
        if channel in ("Email", "ContactForm"):
            frames = {outbound: _email_frame(person, subject, outbound)
                      for outbound in (False, True)}
            tail = f"\n{subject}" if subject else ""

            def email(outbound: bool) -> tuple[str, str]:
                body = self._pick(self.html_replies if outbound else self.htmls)
                head, end = frames[outbound]
                return head + self.encoded_html[body] + end, body + tail
            return email

        def written(outbound: bool) -> tuple[str, str]:
            body = self._pick(self.replies if outbound else self.lines)
            key = (channel, outbound, body)
            known = self.encoded.get(key)
            if known is None:
                known = self.encoded[key] = _encode_plain(channel, outbound, body)
            return known
        return written


_BODY_MARK = "\x00body\x00"


def _email_attributes(person: _Person, subject: str | None, outbound: bool, body: str
                      ) -> dict[str, Any]:
    """The attributes of a large-scale e-mail between ``person`` and the support address."""
    customer = {"email": person.email or "", "name": person.name}
    us = {"email": f"support@{text.DOMAIN}", "name": "Acme Support"}
    return email_attributes("EmailAttributes", "Outbound" if outbound else "Inbound", body,
                            sender=us if outbound else customer,
                            to=[customer] if outbound else [us], subject=subject)


def _email_frame(person: _Person, subject: str | None, outbound: bool) -> tuple[str, str]:
    """The stored attributes of such an e-mail around its (JSON-encoded) body."""
    whole = _ENCODE(_email_attributes(person, subject, outbound, _BODY_MARK))
    head, end = whole.split(_ENCODE(_BODY_MARK))
    return head, end


def _encode_plain(channel: str, outbound: bool, body: str) -> tuple[str, str]:
    """(stored attributes, body text) of a large-scale chat, WhatsApp or SMS message."""
    direction = "Outbound" if outbound else "Inbound"
    if channel == "WidgetChat":
        attributes = chat_attributes(direction, body, kind="Markdown" if outbound else "Text")
    elif channel == "WhatsApp":
        attributes = plain_attributes("WhatsAppAttributes", direction, body, kind="Markdown")
    else:
        attributes = plain_attributes("SmsAttributes", direction, body)
    return _ENCODE(attributes), message_text(attributes)


__all__ = [
    "ADMIN_EMAIL",
    "CHANNELS",
    "CONVERSATION_TYPES",
    "DEMO_AGENT_EMAIL",
    "STATES",
    "WORKING_CHANNELS",
    "ensure_seeded",
    "summary",
]
