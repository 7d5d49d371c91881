"""Anonymisation: request that a conversation, a message or an end user be scrubbed, and
follow the request until it is processed.

Each request files a new anonymisation, so none of these calls is retried once it may have
reached the service.
"""

from __future__ import annotations

from typing import Literal

from ..models.anonymization import AnonymizationInput, AnonymizationRequestStatus
from ..operations import operation
from ..pacing import Priority
from ._base import (
    Resource,
    build,
    check_conversation_id,
    check_uuid,
    parse_one,
    unwrap,
)

__all__ = ["AnonymizationResource"]

_CONVERSATION = operation("anonymization.anonymize_conversation")
_MESSAGE = operation("anonymization.anonymize_message")
_ENDUSER = operation("anonymization.anonymize_enduser")
_REQUEST = operation("anonymization.get_request")
_DEPRECATED = operation("anonymization.anonymize_deprecated")


class AnonymizationResource(Resource):
    """``client.anonymization``: scrub personal data, and read the requests' status."""

    async def anonymize_conversation(
        self,
        conversation_id: int,
        *,
        force: bool = False,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AnonymizationRequestStatus:
        """Request anonymisation of a closed conversation; ``force=True`` closes an open one
        first (without it, an open conversation is refused: 409)."""
        path = {"conversationId": check_conversation_id(conversation_id, _CONVERSATION)}
        reply = await self._transport.send(_CONVERSATION, path=path, params={"force": bool(force)},
                                           priority=priority)
        return parse_one(_CONVERSATION, unwrap(_CONVERSATION, reply.body),
                         AnonymizationRequestStatus)

    async def anonymize_message(
        self,
        conversation_id: int,
        message_id: str,
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AnonymizationRequestStatus:
        """Request anonymisation of one message."""
        path: dict[str, str | int] = {
            "conversationId": check_conversation_id(conversation_id, _MESSAGE),
            "messageId": check_uuid(message_id, _MESSAGE, "message id")}
        reply = await self._transport.send(_MESSAGE, path=path, priority=priority)
        return parse_one(_MESSAGE, unwrap(_MESSAGE, reply.body), AnonymizationRequestStatus)

    async def anonymize_enduser(
        self,
        user_id: str,
        *,
        force: bool | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AnonymizationRequestStatus:
        """Request anonymisation of an end user (``force=True`` also closes their open
        conversations, where the service supports it)."""
        path = {"userId": check_uuid(user_id, _ENDUSER, "end user id")}
        params = None if force is None else {"force": bool(force)}
        reply = await self._transport.send(_ENDUSER, path=path, params=params, priority=priority)
        return parse_one(_ENDUSER, unwrap(_ENDUSER, reply.body), AnonymizationRequestStatus)

    async def get_request(self, request_id: str, *, priority: Priority = Priority.INTERACTIVE
                          ) -> AnonymizationRequestStatus:
        """An earlier request; ``processed_at`` is set once the data is scrubbed."""
        path = {"requestId": check_uuid(request_id, _REQUEST, "anonymization request id")}
        reply = await self._transport.send(_REQUEST, path=path, priority=priority)
        return parse_one(_REQUEST, unwrap(_REQUEST, reply.body), AnonymizationRequestStatus)

    async def anonymize_deprecated(
        self,
        entity_id: str | int,
        type: Literal["Conversation", "Message", "User"],
        *,
        force_anonymization: bool | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AnonymizationRequestStatus:
        """Deprecated (``POST /v1/anonymization``): use :meth:`anonymize_conversation`,
        :meth:`anonymize_message` or :meth:`anonymize_enduser` instead.

        ``entity_id`` is a conversation id, ``<conversation id>_<message id>`` or a user id;
        ``force_anonymization`` closes an open conversation first.
        """
        body = build(_DEPRECATED, AnonymizationInput, entity_id=str(entity_id), type=type,
                     force_anonymization=force_anonymization)
        reply = await self._transport.send(_DEPRECATED, body=body.wire(), priority=priority)
        return parse_one(_DEPRECATED, unwrap(_DEPRECATED, reply.body),
                         AnonymizationRequestStatus)
