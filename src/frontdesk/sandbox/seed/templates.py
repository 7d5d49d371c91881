"""The demo organisation's templates: quick responses and email auto-replies, several with
translations (Danish, German, Spanish, Japanese, Arabic), written by its agents over the past
year. Placeholders are the service's: ``{{requester_firstname}}``, ``{{agent_firstname}}``,
``{{csid}}``."""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta
from typing import Any

from ..db import Database, dumps, iso

_SIGN = "\n\n{{agent_firstname}}"

#: (type, name, subject, content, {locale: (subject, content)})
TEMPLATES: tuple[tuple[str, str, str | None, str, dict[str, tuple[str | None, str]]], ...] = (
    ("QuickResponse", "Greeting", None,
     "Hi {{requester_firstname}}, thanks for reaching out! Let me look into this for you.",
     {"da": (None, "Hej {{requester_firstname}}, tak fordi du skrev! Jeg ser på det med det "
                   "samme."),
      "de": (None, "Hallo {{requester_firstname}}, danke für Ihre Nachricht! Ich kümmere mich "
                   "darum."),
      "es": (None, "Hola {{requester_firstname}}, ¡gracias por escribirnos! Lo reviso ahora "
                   "mismo.")}),
    ("QuickResponse", "30-day return policy", "Returns at Acme (case {{csid}})",
     "Hi {{requester_firstname}},\n\nWhen you shop at Acme you can return anything within 30 "
     "days, no questions asked. Print the label from your order page and drop the parcel at "
     "any post office." + _SIGN,
     {"da": ("Returnering hos Acme (sag {{csid}})",
             "Hej {{requester_firstname}},\n\nHos Acme kan du returnere alt inden for 30 dage. "
             "Print etiketten fra din ordreside og aflever pakken på et posthus." + _SIGN),
      "de-AT": ("Rücksendung bei Acme (Fall {{csid}})",
                "Hallo {{requester_firstname}},\n\nBei Acme können Sie alles innerhalb von 30 "
                "Tagen zurückgeben. Drucken Sie das Etikett auf Ihrer Bestellseite aus."
                + _SIGN),
      "ar": ("الإرجاع لدى Acme (الحالة {{csid}})",
             "مرحبًا {{requester_firstname}}،\n\nيمكنك إرجاع أي منتج خلال 30 يومًا." + _SIGN)}),
    ("QuickResponse", "Where is my order", None,
     "Your order is on its way: you can follow it with the tracking link in your confirmation "
     "email. Parcels usually arrive within 2 to 4 working days.",
     {"ja": (None, "ご注文の商品は発送済みです。"
                   "確認メールの追跡リンクから配送状況をご確認ください。")}),
    ("QuickResponse", "Refund issued", None,
     "I've issued a full refund. It shows on your statement within 5 working days.", {}),
    ("QuickResponse", "Password reset", None,
     "You can reset your password at https://acme-demo.example/reset — the link is valid for "
     "one hour.",
     {"da": (None, "Du kan nulstille din adgangskode på https://acme-demo.example/reset — "
                   "linket gælder i en time.")}),
    ("QuickResponse", "Closing — anything else?", None,
     "Is there anything else I can help you with today?",
     {"es": (None, "¿Hay algo más en lo que pueda ayudarte hoy?"),
      "de": (None, "Kann ich Ihnen heute sonst noch helfen?")}),
    ("QuickResponse", "Escalated to billing", None,
     "I've passed this on to our billing team; they answer within one working day.", {}),
    ("EmailAutoReply", "We got your email", "We received your message (case {{csid}})",
     "Hi {{requester_firstname}},\n\nThanks for writing to Acme. We answer within one working "
     "day; your case number is {{csid}}.\n\nAcme Support",
     {"da": ("Vi har modtaget din besked (sag {{csid}})",
             "Hej {{requester_firstname}},\n\nTak for din mail. Vi svarer inden for en "
             "arbejdsdag; dit sagsnummer er {{csid}}.\n\nAcme Support"),
      "ja": ("お問い合わせを受け付けました ({{csid}})",
             "{{requester_firstname}} 様\n\nお問い合わせありがとうございます。1営業日以内に"
             "ご返信いたします。\n\nAcme Support")}),
    ("EmailAutoReply", "Out of hours", "We're closed right now",
     "Hi {{requester_firstname}},\n\nOur office is closed; we open again at 09:00 CET and will "
     "answer you first thing.\n\nAcme Support", {}),
)


def build(db: Database, rng: random.Random, now: datetime, authors: list[str]) -> None:
    """Write the templates, created by ``authors`` (agents) over the past year; some were
    edited since, and one translation is switched off."""
    for index, (kind, name, subject, content, translations) in enumerate(TEMPLATES):
        created = now - timedelta(days=360 - index * 30, minutes=rng.randrange(600))
        author = authors[index % len(authors)]
        edited = created + timedelta(days=rng.randrange(1, 20)) if index % 3 == 0 else None
        items: list[dict[str, Any]] = []
        for n, (locale, (tr_subject, tr_content)) in enumerate(translations.items()):
            item: dict[str, Any] = {"locale": locale, "content": tr_content,
                                    "isDeactivated": index == 1 and n == 2}
            if tr_subject is not None:
                item["subject"] = tr_subject
            items.append(item)
        db.run(
            "INSERT INTO templates (id, type, name, content, subject, created_by, created_at, "
            "last_edited_by, last_edited_at, translations) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (str(uuid.UUID(int=rng.getrandbits(128), version=4)), kind, name, content,
             subject, author, iso(created),
             authors[(index + 1) % len(authors)] if edited else None,
             iso(edited) if edited else None, dumps(items) if items else None),
        )
