"""Linked conversations: side conversations and related ones, under a parent."""

from __future__ import annotations

import builtins

from ..models.conversations import Conversation
from ..models.links import LinkConversationInput, LinkType
from ..operations import operation
from ..pacing import Priority
from ._base import Resource, build, check_conversation_id, parse_items, unwrap

__all__ = ["LinksResource"]

_LINK = operation("links.link")
_LINKED = operation("links.linked")


class LinksResource(Resource):
    """``client.links``: link a conversation to a parent, list a parent's children.
    (Published beyond the spec's tables.)"""

    async def link(
        self,
        conversation_id: int,
        parent_id: int,
        link_type: LinkType | str = LinkType.SIDE_CONVERSATION,
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> None:
        """Make ``conversation_id`` a child of ``parent_id`` (``Related`` or
        ``SideConversation``). A parent has at most 100 children, a child one parent, and a
        child no children of its own."""
        path = {"conversationId": check_conversation_id(conversation_id, _LINK)}
        body = build(_LINK, LinkConversationInput,
                     parent_id=check_conversation_id(parent_id, _LINK, "parent id"),
                     link_type=link_type)
        await self._transport.send(_LINK, path=path, body=body.wire(), priority=priority)

    async def linked(self, conversation_id: int, *, priority: Priority = Priority.INTERACTIVE
                     ) -> builtins.list[Conversation]:
        """The child conversations of a conversation (each with its ``link``)."""
        path = {"conversationId": check_conversation_id(conversation_id, _LINKED)}
        reply = await self._transport.send(_LINKED, path=path, priority=priority)
        return parse_items(_LINKED, unwrap(_LINKED, reply.body), Conversation)
