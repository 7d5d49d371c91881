"""The fixed parts of every organisation (the empty one too): the admin on whose behalf
API keys act, contact endpoints, custom attribute definitions and schedules, drawn from a
fixed generator so they are the same in every sandbox."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .. import demo_text as text
from ..db import Database, iso
from ..records import (
    insert_attribute_definition,
    insert_contact_endpoint,
    insert_user,
    set_presence,
)
from .attribute_definitions import attribute_definitions, value_paths
from .names import ADMIN_EMAIL
from .schedules import build_schedules
from .values import new_uuid

_FIXED_SEED = "frontdesk-demo-organisation"


@dataclass
class Fixed:
    """What every organisation has: ids the demo data refers to."""

    admin_id: str
    email_endpoints: list[tuple[str, str]]  # (address, name)
    phone_endpoints: list[str]
    #: identifier → (definition id, entity type, Select value paths or None for Text)
    attributes: dict[str, tuple[str, str, list[list[str]] | None]] = field(default_factory=dict)


def build_fixed(db: Database, now: datetime) -> Fixed:
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
    for position, spec in enumerate(attribute_definitions(rng)):
        archived = bool(spec.get("archived"))
        attribute_id = insert_attribute_definition(
            db, id=new_uuid(rng), entity_type=spec["entity"], identifier=spec["identifier"],
            label=spec["label"], input_definition=spec["input"],
            description=spec.get("description"),
            created_at=iso(created + timedelta(days=position)),
            updated_at=iso(created + timedelta(days=90)) if archived else None,
            is_archived=archived, position=position)
        if not archived:
            paths = value_paths(spec["input"]["options"]) if spec["input"]["_type"] == "Select" \
                else None
            fixed.attributes[spec["identifier"]] = (attribute_id, spec["entity"], paths)
    build_schedules(db, rng, now)
    return fixed
