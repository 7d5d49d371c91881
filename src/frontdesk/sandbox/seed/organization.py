"""The organisation's details and its conversation flows, as every sandbox has them (the
empty one too): the flows route conversations arriving at the seeded contact endpoints."""

from __future__ import annotations

import uuid

from .. import demo_text as text
from ..db import Database

#: Deterministic ids: the same flow has the same id in every sandbox.
_NAMESPACE = uuid.UUID("6f1d8a52-3c1e-4c55-9a51-2f0b8f3c7d10")

#: (name, channel, contact endpoint) of each flow, in the organisation's order.
FLOWS: tuple[tuple[str, str, str], ...] = (
    ("Copenhagen hotline", "PstnPhone", "+4570201234"),
    ("New York line", "PstnPhone", "+12025550143"),
    ("After-hours voicemail", "Voicemail", "+4570201234"),
    ("Callback requests", "Callback", "+4570201234"),
    ("Support inbox", "Email", f"support@{text.DOMAIN}"),
    ("Billing inbox", "Email", f"billing@{text.DOMAIN}"),
    ("Partner desk 東京", "Email", f"partners@{text.DOMAIN}"),
    ("Web contact form", "ContactForm", f"support@{text.DOMAIN}"),
    ("Copenhagen SMS", "Sms", "+4570201234"),
    ("Website chat", "WidgetChat", "acme-website"),
)


def build(db: Database) -> None:
    """Write the organisation's details and its flows."""
    db.set_meta("organization_name", "Acme Demo")
    db.set_meta("organization_subdomain", "acme-demo")
    db.set_meta("organization_status", "Active")
    for position, (name, channel, endpoint) in enumerate(FLOWS):
        flow_id = str(uuid.uuid5(_NAMESPACE, f"{channel}/{name}"))
        db.run("INSERT INTO flows (id, name, channel, contact_endpoint_id, position) "
               "VALUES (?, ?, ?, ?, ?)", (flow_id, name, channel, endpoint, position))
