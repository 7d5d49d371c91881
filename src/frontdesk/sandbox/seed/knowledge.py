"""The demo organisation's help centre: a public collection (orders, returns, account, and a
locked announcements category) and an internal playbook for agents; a dozen articles in
English, most also in Danish and German. Most translations are published; one article is
still a draft, one Danish draft was edited after publishing, one German translation was
taken out of search."""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta

from ..db import Database, dumps, iso
from ..knowledge import plaintext

#: (key, title, description, internal)
COLLECTIONS = (
    ("help", "Acme Help Center", "Answers for Acme's customers", False),
    ("playbook", "Support playbook", "How the support team works (agents only)", True),
)

#: (key, collection, parent category, {language: title}, locked)
CATEGORIES = (
    ("orders", "help", None, {"en": "Orders & delivery", "da": "Ordrer og levering",
                              "de": "Bestellungen & Lieferung"}, False),
    ("returns", "help", None, {"en": "Returns & refunds", "da": "Returnering og refusion",
                               "de": "Rücksendungen & Erstattungen"}, False),
    ("account", "help", None, {"en": "Your account", "da": "Din konto", "de": "Ihr Konto"},
     False),
    ("payments", "help", "account", {"en": "Payment methods", "da": "Betalingsmetoder",
                                     "de": "Zahlungsarten"}, False),
    ("news", "help", None, {"en": "Announcements", "da": "Nyheder"}, True),
    ("escalations", "playbook", None, {"en": "Escalations"}, False),
    ("tone", "playbook", None, {"en": "Tone of voice"}, False),
)

_P = "<p>{}</p>"

#: (parent category, {language: (title, html)}, state) — state: "published", "draft",
#: "edited" (Danish draft newer than its published version), "partial" (German unpublished)
ARTICLES: tuple[tuple[str, dict[str, tuple[str, str]], str], ...] = (
    ("orders", {
        "en": ("Where is my order?",
               _P.format("Every order gets a tracking link by email as soon as it ships. "
                         "Parcels arrive within 2 to 4 working days.")),
        "da": ("Hvor er min ordre?",
               _P.format("Alle ordrer får et sporingslink på mail, så snart de afsendes. "
                         "Pakker når frem inden for 2 til 4 hverdage.")),
        "de": ("Wo ist meine Bestellung?",
               _P.format("Jede Bestellung erhält beim Versand einen Tracking-Link per E-Mail. "
                         "Pakete kommen in 2 bis 4 Werktagen an.")),
    }, "published"),
    ("orders", {
        "en": ("Changing your delivery address",
               _P.format("You can change the address until the order ships: open the order "
                         "page and choose <b>Edit address</b>.")),
        "da": ("Skift leveringsadresse",
               _P.format("Du kan ændre adressen, indtil ordren afsendes: åbn ordresiden og "
                         "vælg <b>Ret adresse</b>.")),
    }, "edited"),
    ("orders", {
        "en": ("Shipping to other countries",
               _P.format("We ship to every EU country, Norway, Switzerland and the UK. "
                         "Customs fees outside the EU are paid on delivery.")),
        "de": ("Versand in andere Länder",
               _P.format("Wir liefern in alle EU-Länder, nach Norwegen, in die Schweiz und "
                         "nach Großbritannien.")),
    }, "partial"),
    ("returns", {
        "en": ("Our 30-day return policy",
               _P.format("Return anything within 30 days, no questions asked. Print the label "
                         "from your order page and drop the parcel at any post office.")
               + _P.format("Refunds reach your account within 5 working days.")),
        "da": ("Vores 30 dages returret",
               _P.format("Returner alt inden for 30 dage. Print etiketten fra din ordreside "
                         "og aflever pakken på et posthus.")),
        "de": ("Unsere 30-Tage-Rückgabe",
               _P.format("Sie können alles innerhalb von 30 Tagen zurückgeben. Drucken Sie "
                         "das Etikett auf Ihrer Bestellseite aus.")),
    }, "published"),
    ("returns", {
        "en": ("When will I get my refund?",
               _P.format("We refund within 2 working days of receiving your return; your bank "
                         "may take 3 more days to show it.")),
        "da": ("Hvornår får jeg mine penge tilbage?",
               _P.format("Vi refunderer inden for 2 hverdage efter at have modtaget din "
                         "returnering.")),
    }, "published"),
    ("returns", {
        "en": ("Damaged or faulty items",
               _P.format("Sorry about that! Send us a photo of the damage and we replace the "
                         "item or refund it in full, return shipping included.")),
    }, "published"),
    ("account", {
        "en": ("Resetting your password",
               _P.format("Go to https://acme-demo.example/reset and enter your email; the link "
                         "we send is valid for one hour.")),
        "da": ("Nulstil din adgangskode",
               _P.format("Gå til https://acme-demo.example/reset og indtast din mail; linket "
                         "gælder i en time.")),
        "de": ("Passwort zurücksetzen",
               _P.format("Gehen Sie zu https://acme-demo.example/reset und geben Sie Ihre "
                         "E-Mail-Adresse ein.")),
    }, "published"),
    ("account", {
        "en": ("Deleting your account",
               _P.format("Write to us from the email address of your account and we delete it "
                         "with all your data within 30 days.")),
    }, "draft"),
    ("payments", {
        "en": ("Which payment methods do you take?",
               _P.format("Visa, Mastercard, MobilePay, PayPal and invoice (Klarna).")),
        "da": ("Hvilke betalingsmetoder tager I imod?",
               _P.format("Visa, Mastercard, MobilePay, PayPal og faktura (Klarna).")),
    }, "published"),
    ("news", {
        "en": ("Holiday opening hours",
               _P.format("Between 24 and 26 December support answers email only; chat opens "
                         "again on 27 December at 09:00 CET.")),
    }, "published"),
    ("escalations", {
        "en": ("When to escalate to billing",
               _P.format("Escalate double charges, chargebacks and refunds over €500 to the "
                         "billing queue; tag the conversation <i>billing</i>.")),
    }, "published"),
    ("tone", {
        "en": ("Writing to upset customers",
               _P.format("Acknowledge first, then explain. No jargon, no blame, and always "
                         "say what happens next and when.")),
    }, "published"),
)


def _id(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def build(db: Database, rng: random.Random, now: datetime, authors: list[str]) -> None:
    """Write the help centre; articles were written by ``authors`` (agents) over the past
    half year."""
    collections = {key: _id(rng) for key, *_ in COLLECTIONS}
    for position, (key, title, description, internal) in enumerate(COLLECTIONS):
        db.run("INSERT INTO knowledge_collections (id, title, description, internal, position) "
               "VALUES (?, ?, ?, ?, ?)", (collections[key], title, description, int(internal),
                                          position))
    categories: dict[str, tuple[str, str]] = {}
    for position, (key, collection, parent, titles, locked) in enumerate(CATEGORIES):
        category_id = _id(rng)
        categories[key] = (category_id, collections[collection])
        db.run("INSERT INTO knowledge_categories (id, collection_id, parent_id, titles, "
               "is_locked, position) VALUES (?, ?, ?, ?, ?, ?)",
               (category_id, collections[collection],
                categories[parent][0] if parent else None, dumps(titles), int(locked),
                position))
    for index, (category, translations, state) in enumerate(ARTICLES):
        article_id = _id(rng)
        author = authors[index % len(authors)]
        created = now - timedelta(days=180 - index * 12, minutes=rng.randrange(600))
        published_at = created + timedelta(days=1)
        edited = created + timedelta(days=rng.randrange(2, 9))
        category_id, collection_id = categories[category]
        db.run("INSERT INTO knowledge_articles (id, collection_id, category_id, created_at, "
               "updated_at, created_by, updated_by, owned_by, indexed_at, indexed_by) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (article_id, collection_id, category_id, iso(created), iso(edited), author,
                author, author, None if state == "draft" else iso(published_at),
                None if state == "draft" else author))
        for language, (title, body) in translations.items():
            draft_body = body
            if state == "edited" and language == "da":
                draft_body = body + _P.format("Efter afsendelse kan du kontakte fragtfirmaet.")
            rows = [("draft", title, draft_body, edited)]
            if state != "draft" and not (state == "partial" and language == "de"):
                rows.append(("published", title, body, published_at))
            for version, text_title, markup, stamp in rows:
                db.run("INSERT INTO knowledge_translations (article_id, language, version, "
                       "title, html, plaintext, created_at, updated_at, created_by, "
                       "updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (article_id, language, version, text_title, markup, plaintext(markup),
                        iso(created), iso(stamp), author, author))
