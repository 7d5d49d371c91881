"""Custom attributes: definitions (Text or Select with nested options) and values."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .common import Record, UtcDateTime, ZonedDateTime


class CustomAttributeValue(Record):
    """A custom attribute on an end user or a conversation.

    ``value`` is text for a Text attribute, and the path of option values from the top
    (parent → child) for a Select attribute.
    """

    id: str
    name: str
    identifier: str
    value: str | list[str] | None = None


class SelectOption(Record):
    """One option of a Select attribute, with its nested options."""

    id: str
    label: str
    value: str
    nested_options: list[SelectOption] = Field(default_factory=list)
    is_deactivated: bool = False
    order_index: int = 0


class InputDefinition(Record):
    """How an attribute is entered: ``Text`` (with a placeholder) or ``Select`` (options)."""

    type: str = Field(alias="_type", description="Text or Select")
    placeholder: str | None = None
    options: list[SelectOption] | None = None


class CustomAttributeDefinition(Record):
    """The definition of a custom attribute."""

    id: str
    entity_type: str = Field(description="Contact (end users) or Conversation")
    identifier: str
    label: str
    input_definition: InputDefinition
    description: str | None = None
    created_at: ZonedDateTime
    updated_at: UtcDateTime | None = None
    is_required: bool = False
    is_archived: bool = False
    is_deactivated: bool = False


#: The body of a custom-attribute patch: attribute id → text, option path, or null to clear.
CustomAttributesPatch = dict[
    Annotated[str, Field(pattern=r"^[0-9a-fA-F-]{36}$")],
    str | list[str] | None,
]

__all__ = [
    "CustomAttributeDefinition",
    "CustomAttributeValue",
    "CustomAttributesPatch",
    "InputDefinition",
    "SelectOption",
]
