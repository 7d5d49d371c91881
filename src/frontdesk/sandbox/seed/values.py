"""Small deterministic values every seed module draws: ids, ASCII slugs and filled
demo templates."""

from __future__ import annotations

import random
import string
import unicodedata
import uuid

from .. import demo_text as text


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
