"""Fast message rows for the large scale: a million stored attributes and texts made from
a few hundred encoded bodies."""

from __future__ import annotations

import html
import json
import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

from .. import demo_text as text
from ..records import message_text
from .message_attributes import (
    chat_attributes,
    email_attributes,
    phone_attributes,
    plain_attributes,
)
from .state import Person

BULK_BATCH = 100_000
#: What :func:`dumps` returns, without building an encoder per call.
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_OUR_NUMBER = "+4570201234"


def naive_iso(value: datetime) -> str:
    """:func:`iso` of a naive UTC datetime, faster (the large scale formats a million)."""
    return value.isoformat(timespec="milliseconds") + "Z"


def fast_uuid(bits: int) -> str:
    """``str(uuid.UUID(int=bits, version=4))``, without the ``UUID`` object (same text)."""
    bits = (bits & ~(0xC000 << 48) | 0x8000 << 48) & ~(0xF000 << 64) | 4 << 76
    h = f"{bits:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def bulk_length(rng: random.Random, channel: str, queued: bool) -> int:
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


class BulkBodies:
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

    def thread(self, channel: str, person: Person, subject: str | None
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


def _email_attributes(person: Person, subject: str | None, outbound: bool, body: str
                     ) -> dict[str, Any]:
    """The attributes of a large-scale e-mail between ``person`` and the support address."""
    customer = {"email": person.email or "", "name": person.name}
    us = {"email": f"support@{text.DOMAIN}", "name": "Acme Support"}
    return email_attributes("EmailAttributes", "Outbound" if outbound else "Inbound", body,
                            sender=us if outbound else customer,
                            to=[customer] if outbound else [us], subject=subject)


def _email_frame(person: Person, subject: str | None, outbound: bool) -> tuple[str, str]:
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
