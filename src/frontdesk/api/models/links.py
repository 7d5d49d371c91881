"""Linked conversations: a child conversation (a side conversation, a related one) under a
parent."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .common import ConversationId, Input


class LinkType(StrEnum):
    """How a child conversation relates to its parent."""

    RELATED = "Related"
    SIDE_CONVERSATION = "SideConversation"


class LinkConversationInput(Input):
    """Link a conversation to a parent. A parent has at most 100 children, a child one parent,
    and a child has no children of its own."""

    parent_id: ConversationId
    link_type: LinkType = Field(strict=False)


__all__ = ["LinkConversationInput", "LinkType"]
