"""The organisation an API key belongs to."""

from __future__ import annotations

from pydantic import Field

from .common import Record


class Organization(Record):
    """The organisation's details."""

    id: str
    name: str
    subdomain: str
    status: str = Field(description="Active or Suspended")
    avatar_url: str | None = None


__all__ = ["Organization"]
