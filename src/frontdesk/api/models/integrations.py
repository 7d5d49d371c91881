"""The deprecated endpoint-listing interface (served at the integrations URL; snake_case)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class _Deprecated(BaseModel):
    """Records of the deprecated interface: snake_case, unknown fields kept."""

    model_config = ConfigDict(extra="allow")


class EmailAddressEndpoint(_Deprecated):
    """An email endpoint of the deprecated interface."""

    id: str
    internal_email_address: str
    spf_email: str | None = None


class PhoneNumberEndpoint(_Deprecated):
    """A phone endpoint of the deprecated interface (E.164)."""

    phone_number: str
    id: str | None = None


class Endpoint(_Deprecated):
    """A listed endpoint: one of the two members is set (by id, the other is null)."""

    email_address: EmailAddressEndpoint | None = None
    phone_number: PhoneNumberEndpoint | None = None


class Cursors(_Deprecated):
    """Cursors of the deprecated paging."""

    after: str | None = None
    before: str | None = None


class Paging(_Deprecated):
    """Paging of the deprecated interface."""

    cursors: Cursors | None = None
    next_page: str | None = None
    prev_page: str | None = None


class EndpointPage(_Deprecated):
    """One page of the deprecated listing."""

    data: list[Endpoint]
    paging: Paging | None = None


__all__ = [
    "Cursors",
    "EmailAddressEndpoint",
    "Endpoint",
    "EndpointPage",
    "Paging",
    "PhoneNumberEndpoint",
]
