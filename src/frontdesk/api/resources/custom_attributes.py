"""Custom attributes: their definitions, and setting them on end users and conversations."""

from __future__ import annotations

import builtins
from collections.abc import Mapping

from ..models.custom_attributes import CustomAttributeDefinition, CustomAttributeValue
from ..operations import Operation, operation
from ..pacing import Priority
from ._base import (
    Resource,
    check_conversation_id,
    check_uuid,
    fail,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["CustomAttributesResource"]

_LIST = operation("custom_attributes.list")
_GET = operation("custom_attributes.get")
_PATCH_CONVERSATION = operation("custom_attributes.patch_conversation")
_PATCH_ENDUSER = operation("custom_attributes.patch_enduser")

#: What an attribute is set to: text (Text), the option path (Select), or None to clear it.
AttributeValue = str | builtins.list[str] | None


class CustomAttributesResource(Resource):
    """``client.custom_attributes``: definitions, and values on users and conversations."""

    async def list(self, *, priority: Priority = Priority.INTERACTIVE
                   ) -> builtins.list[CustomAttributeDefinition]:
        """Every custom attribute definition (for end users: ``Contact``; conversations)."""
        reply = await self._transport.send(_LIST, priority=priority)
        return parse_items(_LIST, unwrap(_LIST, reply.body), CustomAttributeDefinition)

    async def get(self, custom_attribute_id: str, *, priority: Priority = Priority.INTERACTIVE
                  ) -> CustomAttributeDefinition:
        """One definition."""
        path = {"customAttributeId": check_uuid(custom_attribute_id, _GET,
                                                "custom attribute id")}
        reply = await self._transport.send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), CustomAttributeDefinition)

    async def patch_conversation(
        self,
        conversation_id: int,
        values: Mapping[str, AttributeValue],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[CustomAttributeValue]:
        """Set custom attributes of a conversation (attribute id → value; None clears one).
        Returns the conversation's attributes afterwards."""
        path = {"conversationId": check_conversation_id(conversation_id, _PATCH_CONVERSATION)}
        body = _patch(_PATCH_CONVERSATION, values)
        reply = await self._transport.send(_PATCH_CONVERSATION, path=path, body=body,
                                           priority=priority)
        return parse_items(_PATCH_CONVERSATION, unwrap(_PATCH_CONVERSATION, reply.body),
                           CustomAttributeValue)

    async def patch_enduser(
        self,
        user_id: str,
        values: Mapping[str, AttributeValue],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[CustomAttributeValue]:
        """Set custom attributes of an end user (attribute id → value; None clears one).
        Returns the end user's attributes afterwards."""
        path = {"userId": check_uuid(user_id, _PATCH_ENDUSER, "end user id")}
        body = _patch(_PATCH_ENDUSER, values)
        reply = await self._transport.send(_PATCH_ENDUSER, path=path, body=body, priority=priority)
        return parse_items(_PATCH_ENDUSER, unwrap(_PATCH_ENDUSER, reply.body),
                           CustomAttributeValue)


def _patch(op: Operation, values: Mapping[str, AttributeValue]) -> dict[str, AttributeValue]:
    """The patch body, checked: UUID keys; text, a list of texts, or None as values."""
    if not isinstance(values, Mapping) or not values:
        raise fail(op, "Give at least one attribute to set (attribute id → value)")
    body: dict[str, AttributeValue] = {}
    for key, value in values.items():
        check_uuid(key, op, "custom attribute id")
        if value is None or isinstance(value, str):
            body[key] = value
        elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            body[key] = builtins.list(value)
        else:
            raise fail(op, "A custom attribute value must be a text, a list of texts "
                       "(a Select option path) or None")
    return body
