"""Contact endpoints: the organisation's email addresses and phone numbers."""

from __future__ import annotations

from pydantic import Field

from .common import Record


class ContactEndpoint(Record):
    """An ``EmailEndpoint`` (with ``address``) or a ``TelephonyEndpoint`` (with ``number``)."""

    type: str = Field(alias="_type", description="EmailEndpoint or TelephonyEndpoint")
    address: str | None = None
    number: str | None = None
    sender_override: str | None = None
    name: str | None = None
    functionality: list[str] | None = None

    @property
    def key(self) -> str:
        """The endpoint's identity: its address or its number."""
        return self.address or self.number or ""


__all__ = ["ContactEndpoint"]
