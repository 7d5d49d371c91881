"""The custom attribute definitions every organisation has: nested and flat Selects,
Texts, one archived."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .values import ascii_slug, new_uuid


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


def value_paths(options: list[dict[str, Any]], prefix: list[str] | None = None) -> list[list[str]]:
    """The value paths of every active option (parents too) of a Select definition."""
    out: list[list[str]] = []
    for option in options:
        if option["isDeactivated"]:
            continue
        path = [*(prefix or []), option["value"]]
        out.append(path)
        out.extend(value_paths(option["nestedOptions"], path))
    return out


def attribute_definitions(rng: random.Random) -> list[dict[str, Any]]:
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

