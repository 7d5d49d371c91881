"""The state the demo builder's parts share, the people and conversation plans they
pass around, and the writers more than one part uses."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ..db import Database
from ..records import set_attribute_value
from .fixed import Fixed
from .names import CONVERSATION_COLUMNS, MESSAGE_COLUMNS


@dataclass
class Person:
    id: str
    first: str
    name: str
    email: str | None
    phone: str | None


@dataclass
class Plan:
    """A conversation before it has an id: what it is, whose, and how long its thread is."""

    channel: str
    state: str  # Open (queued or assigned), Pending, AwaitingPending, Closed
    queued: bool
    agent: Person | None
    created: datetime
    length: int
    outbound: bool = False
    showcase: bool = False


class DemoState:
    """What the demo builder's parts share: the database, the generator, the time, the
    people and groups made so far, and the writers more than one part uses."""

    def __init__(self, db: Database, rng: random.Random, now: datetime, fixed: Fixed) -> None:
        self.db = db
        self.rng = rng
        self.now = now
        self.fixed = fixed
        self.agents: list[Person] = []
        self.demo: Person | None = None
        self.endusers: list[Person] = []
        self.queues: list[str] = []
        self.tags: list[tuple[str, bool]] = []  # (id, active)
        self.next_id = 1

    def at(self, seconds_ago: float) -> datetime:
        """The time ``seconds_ago`` before ``now``."""
        return self.now - timedelta(seconds=seconds_ago)

    def _write_users(self, rows: list[tuple[Any, ...]]) -> None:
        """Write end users made by ``_person_rows`` in one statement."""
        self.db.conn.executemany(
            "INSERT INTO users (id, kind, created_at, display_name, email, phone_number, "
            "external_id, first_name, last_name, middle_names, additional_emails) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def _write_values(self, values: list[tuple[str, str, str, Any]]) -> None:
        """Set custom attribute values: (entity type, entity id, attribute id, value)."""
        for entity_type, entity_id, attribute_id, value in values:
            set_attribute_value(self.db, entity_type=entity_type, entity_id=entity_id,
                                attribute_id=attribute_id, value=value)

    def _requester(self, channel: str, pool: Sequence[Person]) -> Person:
        """A customer who can be reached on ``channel`` (an address or a number)."""
        needs_email = channel in ("Email", "ContactForm")
        needs_phone = channel in ("Sms", "PstnPhone", "WhatsApp")
        while True:
            person = self.rng.choice(pool)
            if (not needs_email or person.email) and (not needs_phone or person.phone):
                return person

    def _write(self, conversations: list[tuple[Any, ...]],
               messages: list[tuple[Any, ...]]) -> None:
        """Write conversation and message rows (one ``executemany`` per table)."""
        columns = ", ".join(CONVERSATION_COLUMNS)
        marks = ", ".join("?" for _ in CONVERSATION_COLUMNS)
        self.db.conn.executemany(f"INSERT INTO conversations ({columns}) VALUES ({marks})",
                                 conversations)
        message_marks = ", ".join("?" for _ in MESSAGE_COLUMNS)
        self.db.conn.executemany(
            f"INSERT INTO messages ({', '.join(MESSAGE_COLUMNS)}) VALUES ({message_marks})",
            messages)
