"""Templates: quick responses agents insert into replies, and email auto-replies."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .common import Record, UtcDateTime


class TemplateType(StrEnum):
    """Kinds of template."""

    EMAIL_AUTO_REPLY = "EmailAutoReply"
    QUICK_RESPONSE = "QuickResponse"


class TemplateTranslation(Record):
    """A template in one more locale (``da``, ``de-AT``, ``uz-Arab-AF``)."""

    locale: str
    content: str
    is_deactivated: bool
    subject: str | None = None


class Template(Record):
    """A template; ``content`` and ``subject`` hold placeholders such as
    ``{{requester_firstname}}``, ``{{agent_firstname}}`` and ``{{csid}}``."""

    id: str
    type: str = Field(alias="_type", description="EmailAutoReply or QuickResponse")
    name: str
    content: str
    created_by: str
    created_at: UtcDateTime
    last_edited_by: str | None = None
    last_edited_at: UtcDateTime | None = None
    translations: list[TemplateTranslation] | None = None
    subject: str | None = None


__all__ = ["Template", "TemplateTranslation", "TemplateType"]
