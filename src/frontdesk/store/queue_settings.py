"""The queue form's settings: what the service takes when creating a queue, read from what
an admin typed (numbers as text), refused with one sentence when it cannot be."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, get_args

from ..api.models.queues import OfferingAlgorithm
from .errors import Refused

__all__ = ["ALGORITHMS", "QueueSettings"]

#: The offering algorithms a queue can use, as the service names them (the contract's list).
ALGORITHMS: tuple[str, ...] = get_args(OfferingAlgorithm)


@dataclass(frozen=True)
class QueueSettings:
    """What the queue form asks: the settings the service takes when creating a queue."""

    name: str
    is_default: bool = False
    is_do_not_offer_enabled: bool = False
    call_functionality: bool = False
    priority: int | None = None
    offer_timeout: int | None = None
    wrapup_timeout: int | None = None
    offer_algorithm: str | None = None
    offer_abandoned_conversations: bool | None = None
    is_restricted: bool | None = None
    is_preferred_agent_enabled: bool | None = None
    preferred_agent_offline_timeout: int | None = None
    personal_agent_offline_timeout: int | None = None

    @classmethod
    def from_form(cls, values: Mapping[str, object]) -> QueueSettings:
        """Settings from the form's values (numbers typed as text); refuses what cannot be."""
        name = str(values.get("name") or "").strip()
        if not name:
            raise Refused("A queue needs a name")

        def number(key: str, label: str, top: int) -> int | None:
            text = str(values.get(key) or "").strip()
            if not text:
                return None
            if not text.isdigit() or not 0 <= int(text) <= top:
                raise Refused(f"{label} must be a whole number from 0 to {top}")
            return int(text)

        algorithm = str(values.get("offer_algorithm") or "").strip() or None
        if algorithm is not None and algorithm not in ALGORITHMS:
            raise Refused(f"Unknown offering algorithm {algorithm}")
        return cls(
            name=name,
            is_default=bool(values.get("is_default")),
            is_do_not_offer_enabled=bool(values.get("is_do_not_offer_enabled")),
            call_functionality=bool(values.get("call_functionality")),
            priority=number("priority", "The priority", 1000),
            offer_timeout=number("offer_timeout", "The offer timeout", 86_400),
            wrapup_timeout=number("wrapup_timeout", "The wrap-up timeout", 86_400),
            offer_algorithm=algorithm,
            offer_abandoned_conversations=bool(values.get("offer_abandoned_conversations")),
            is_restricted=bool(values.get("is_restricted")),
            is_preferred_agent_enabled=bool(values.get("is_preferred_agent_enabled")),
            preferred_agent_offline_timeout=number(
                "preferred_agent_offline_timeout", "The preferred agent's offline timeout",
                86_400),
            personal_agent_offline_timeout=number(
                "personal_agent_offline_timeout", "The personal agent's offline timeout",
                86_400),
        )

    def request(self) -> dict[str, Any]:
        """The ``request`` of the create call."""
        body: dict[str, Any] = {
            "name": self.name, "call_functionality": self.call_functionality,
            "is_default": self.is_default, "is_do_not_offer_enabled": self.is_do_not_offer_enabled,
        }
        for key in ("priority", "offer_timeout", "wrapup_timeout", "offer_algorithm",
                    "offer_abandoned_conversations", "is_restricted",
                    "is_preferred_agent_enabled", "preferred_agent_offline_timeout",
                    "personal_agent_offline_timeout"):
            value = getattr(self, key)
            if value is not None:
                body[key] = value
        return body
