"""Message attributes in wire form (chat, SMS/WhatsApp, e-mail, phone), attachments and
HTML e-mail bodies: what the seed and the simulator write as messages."""

from __future__ import annotations

import html
import random
from collections.abc import Iterable, Sequence
from typing import Any

from .. import demo_text as text


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
