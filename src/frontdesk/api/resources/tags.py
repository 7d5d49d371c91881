"""Tags: the organisation's tags, and tagging conversations."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from ..models.tags import BulkTagInput, CreateTagInput, Tag
from ..operations import operation
from ..pacing import Priority
from ._base import (
    Resource,
    build,
    check_conversation_id,
    check_uuid,
    fail,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["TagsResource"]

_LIST = operation("tags.list")
_CREATE = operation("tags.create")
_GET = operation("tags.get")
_DELETE = operation("tags.delete")
_DEACTIVATE = operation("tags.deactivate")
_ACTIVATE = operation("tags.activate")
_OF_CONVERSATION = operation("tags.list_for_conversation")
_TAG = operation("tags.tag_conversation")
_UNTAG = operation("tags.untag_conversation")
_BULK = operation("tags.bulk_tag_conversation")


class TagsResource(Resource):
    """``client.tags``: list, create, read, (de)activate and delete tags; tag conversations."""

    async def list(
        self, *, include_deactivated: bool = False, priority: Priority = Priority.INTERACTIVE
    ) -> builtins.list[Tag]:
        """Active tags; deactivated ones too with ``include_deactivated=True``."""
        params = {"includeDeactivated": True} if include_deactivated else None
        reply = await self._transport.send(_LIST, params=params, priority=priority)
        return parse_items(_LIST, unwrap(_LIST, reply.body), Tag)

    async def create(
        self,
        name: str | CreateTagInput,
        *,
        color: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Tag:
        """Create a tag (``color`` is any text, e.g. ``#rrggbb``); a name that exists returns
        that tag."""
        body = build_tag(name, color)
        reply = await self._transport.send(_CREATE, body=body.wire(), priority=priority)
        return parse_one(_CREATE, unwrap(_CREATE, reply.body), Tag)

    async def get(self, tag_id: str, *, priority: Priority = Priority.INTERACTIVE) -> Tag:
        """One tag."""
        path = {"tagId": check_uuid(tag_id, _GET, "tag id")}
        reply = await self._transport.send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), Tag)

    async def delete(self, tag_id: str, *, priority: Priority = Priority.INTERACTIVE) -> None:
        """Delete a tag and every association with it. Irreversible."""
        path = {"tagId": check_uuid(tag_id, _DELETE, "tag id")}
        await self._transport.send(_DELETE, path=path, priority=priority)

    async def deactivate(self, tag_id: str, *, priority: Priority = Priority.INTERACTIVE
                         ) -> None:
        """Deactivate a tag: it can no longer be applied, but can still be removed."""
        path = {"tagId": check_uuid(tag_id, _DEACTIVATE, "tag id")}
        await self._transport.send(_DEACTIVATE, path=path, priority=priority)

    async def activate(self, tag_id: str, *, priority: Priority = Priority.INTERACTIVE) -> None:
        """Make a deactivated tag applicable again."""
        path = {"tagId": check_uuid(tag_id, _ACTIVATE, "tag id")}
        await self._transport.send(_ACTIVATE, path=path, priority=priority)

    async def list_for_conversation(
        self, conversation_id: int, *, priority: Priority = Priority.INTERACTIVE
    ) -> builtins.list[Tag]:
        """The tags applied to a conversation."""
        path = {"conversationId": check_conversation_id(conversation_id, _OF_CONVERSATION)}
        reply = await self._transport.send(_OF_CONVERSATION, path=path, priority=priority)
        return parse_items(_OF_CONVERSATION, unwrap(_OF_CONVERSATION, reply.body), Tag)

    async def tag_conversation(
        self, conversation_id: int, tag_id: str, *, priority: Priority = Priority.INTERACTIVE
    ) -> None:
        """Apply an active tag to a conversation (a deactivated one is refused: 400)."""
        path: dict[str, str | int] = {
            "conversationId": check_conversation_id(conversation_id, _TAG),
            "tagId": check_uuid(tag_id, _TAG, "tag id")}
        await self._transport.send(_TAG, path=path, priority=priority)

    async def untag_conversation(
        self, conversation_id: int, tag_id: str, *, priority: Priority = Priority.INTERACTIVE
    ) -> None:
        """Remove a tag, active or not, from a conversation."""
        path: dict[str, str | int] = {
            "conversationId": check_conversation_id(conversation_id, _UNTAG),
            "tagId": check_uuid(tag_id, _UNTAG, "tag id")}
        await self._transport.send(_UNTAG, path=path, priority=priority)

    async def bulk_tag_conversation(
        self,
        conversation_id: int,
        names: Sequence[str] | BulkTagInput,
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> None:
        """Tag a conversation by tag names, asynchronously; unknown names are created.

        The service accepts the work (202) and does it moments later.
        """
        path = {"conversationId": check_conversation_id(conversation_id, _BULK)}
        if isinstance(names, BulkTagInput):
            body = names
        else:
            if isinstance(names, str):
                raise fail(_BULK, "Give the tag names as a list, not one text")
            body = build(_BULK, BulkTagInput, {"data": [{"name": n} for n in names]})
        await self._transport.send(_BULK, path=path, body=body.wire(), priority=priority)


def build_tag(name: str | CreateTagInput, color: str | None) -> CreateTagInput:
    """The input of a new tag from a name and a color, or as given."""
    if isinstance(name, CreateTagInput):
        return name
    return build(_CREATE, CreateTagInput, name=name, color=color)
