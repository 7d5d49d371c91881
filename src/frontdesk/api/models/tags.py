"""Tags and tagging."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .common import Input, Record


class TagState(StrEnum):
    """Whether a tag can be applied."""

    ACTIVE = "Active"
    INACTIVE = "Inactive"


class Tag(Record):
    """A tag."""

    id: str
    name: str
    color: str | None = None
    state: str = Field(description="Active or Inactive")

    @property
    def active(self) -> bool:
        """Whether the tag can be applied."""
        return self.state == TagState.ACTIVE


class CreateTagInput(Input):
    """A new tag; creating a name that exists returns the existing tag."""

    name: str = Field(min_length=1, max_length=100)
    color: str | None = Field(default=None, max_length=100,
                              description="any text, as published (e.g. #3b82f6 or teal)")


class BulkTagName(Input):
    """One tag of a bulk tagging, by name."""

    name: str = Field(min_length=1, max_length=100)


class BulkTagInput(Input):
    """Tags to apply by name; unknown names are created."""

    data: list[BulkTagName] = Field(min_length=1, max_length=100)


__all__ = ["BulkTagInput", "BulkTagName", "CreateTagInput", "Tag", "TagState"]
