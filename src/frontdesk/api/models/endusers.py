"""End users: the customers who write in."""

from __future__ import annotations

from pydantic import Field

from .common import Input, Record, UtcDateTime, Uuid
from .custom_attributes import CustomAttributeValue

_EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"
_PHONE = r"^\+?[0-9 ()\-]{5,20}$"


class EndUser(Record):
    """An end user (a customer)."""

    id: str
    created_at: UtcDateTime
    display_name: str | None = None
    email: str | None = None
    phone_number: str | None = None
    additional_emails: list[str] | None = None
    additional_phone_numbers: list[str] | None = None
    first_name: str | None = None
    last_name: str | None = None
    middle_names: list[str] | None = None
    avatar_url: str | None = None
    external_id: str | None = None
    custom_attributes: list[CustomAttributeValue] | None = None


class _EndUserFields(Input):
    """Optional fields shared by every end-user input."""

    email: str | None = Field(default=None, pattern=_EMAIL, max_length=320)
    phone_number: str | None = Field(default=None, pattern=_PHONE)
    additional_emails: list[str] | None = Field(default=None, max_length=50)
    additional_phone_numbers: list[str] | None = Field(default=None, max_length=50)
    first_name: str | None = Field(default=None, max_length=255)
    last_name: str | None = Field(default=None, max_length=255)
    middle_names: list[str] | None = Field(default=None, max_length=10)
    avatar_url: str | None = Field(default=None, max_length=2048)
    external_id: str | None = Field(default=None, min_length=1, max_length=255)


class CreateEndUserInput(_EndUserFields):
    """A new end user; every field is optional."""

    display_name: str | None = Field(default=None, min_length=1, max_length=255)


class UpdateEndUserInput(_EndUserFields):
    """A full update of an end user (PUT): the display name is required; the optional fields
    it does not carry are cleared."""

    display_name: str = Field(min_length=1, max_length=255)


class PatchEndUserInput(_EndUserFields):
    """A partial update of an end user (PATCH): only what is given changes (``null`` clears
    a field; the display name cannot be cleared)."""

    display_name: str | None = Field(default=None, min_length=1, max_length=255)


class BulkUpdateEndUserItem(UpdateEndUserInput):
    """One item of a bulk full update."""

    id: Uuid


class BulkPatchEndUserItem(PatchEndUserInput):
    """One item of a bulk partial update."""

    id: Uuid


class BulkUpdateEndUsersInput(Input):
    """End users to update in full, in one call."""

    data: list[BulkUpdateEndUserItem] = Field(min_length=1, max_length=500)


class BulkPatchEndUsersInput(Input):
    """End users to patch, in one call."""

    data: list[BulkPatchEndUserItem] = Field(min_length=1, max_length=500)


class BulkCreateEndUsersInput(Input):
    """End users to create, in one call."""

    data: list[CreateEndUserInput] = Field(min_length=1, max_length=500)


__all__ = [
    "BulkCreateEndUsersInput",
    "BulkPatchEndUserItem",
    "BulkPatchEndUsersInput",
    "BulkUpdateEndUserItem",
    "BulkUpdateEndUsersInput",
    "CreateEndUserInput",
    "EndUser",
    "PatchEndUserInput",
    "UpdateEndUserInput",
]
