"""The demo messages' attributes: every channel's kind, attachments now and then, and the
showcase thread that cycles through every agent template."""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from .. import demo_text as text
from .message_attributes import (
    attachment_url,
    chat_attributes,
    email_attributes,
    files,
    html_email,
    phone_attributes,
    plain_attributes,
)
from .state import DemoState, Person
from .values import fill


@dataclass
class Thread:
    """What every message of one conversation shares."""

    channel: str
    requester: Person
    agent: Person | None
    subject: str | None
    endpoint: str
    endpoint_name: str
    number: str
    form_kind: str


class Messages(DemoState):
    """Makes the attributes of each demo message."""

    def _attachments(self, channel: str) -> list[dict[str, str]]:
        """Attachments of a message now and then (one for WhatsApp and SMS, allowed kinds)."""
        rng = self.rng
        if rng.random() >= 0.07 or channel == "PstnPhone":
            return []
        names = text.WHATSAPP_ATTACHMENT_NAMES if channel == "WhatsApp" else text.ATTACHMENT_NAMES
        count = 1 if channel in ("WhatsApp", "Sms") else rng.randint(1, 2)
        return files(attachment_url(rng, fill(rng.choice(names), rng)) for _ in range(count))

    def _attributes(self, thread: Thread, direction: str, index: int, showcase: bool
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
