"""Queues: where conversations wait, who takes them, and how busy each chat channel is."""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import Any

from ..models.common import BulkActionOutcome
from ..models.queues import (
    AvailabilityOutcome,
    ConversationPosition,
    CreateQueueInput,
    Queue,
    QueueMember,
    QueueMembersInput,
    QueueRequest,
)
from ..operations import operation
from ..pacing import Priority
from ._base import (
    Resource,
    build,
    check_conversation_id,
    check_uuid,
    check_uuids,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["QueuesResource"]

_LIST = operation("queues.list")
_CREATE = operation("queues.create")
_GET = operation("queues.get")
_MEMBERS = operation("queues.members")
_ADD = operation("queues.add_members")
_REMOVE = operation("queues.remove_members")
_AVAILABILITY = operation("queues.availability")
_POSITION = operation("queues.conversation_position")


class QueuesResource(Resource):
    """``client.queues``: queues, their members, availability and waiting positions."""

    async def list(self, *, priority: Priority = Priority.INTERACTIVE) -> builtins.list[Queue]:
        """Every queue."""
        reply = await self._transport.send(_LIST, priority=priority)
        return parse_items(_LIST, unwrap(_LIST, reply.body), Queue)

    async def create(
        self,
        name: str | None = None,
        *,
        request: QueueRequest | CreateQueueInput | Mapping[str, Any] | None = None,
        call_functionality: bool = False,
        is_default: bool = False,
        is_do_not_offer_enabled: bool = False,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Queue:
        """Create a queue by ``name`` (other settings by keyword), or from a full ``request``.

        Not retried once it may have reached the service.
        """
        if isinstance(request, CreateQueueInput):
            body = request
        else:
            inner = build(_CREATE, QueueRequest, request, name=name,
                          call_functionality=call_functionality, is_default=is_default,
                          is_do_not_offer_enabled=is_do_not_offer_enabled)
            body = build(_CREATE, CreateQueueInput, request=inner)
        reply = await self._transport.send(_CREATE, body=body.wire(), priority=priority)
        return parse_one(_CREATE, unwrap(_CREATE, reply.body), Queue)

    async def get(self, queue_id: str, *, priority: Priority = Priority.INTERACTIVE) -> Queue:
        """One queue with its settings."""
        path = {"queueId": check_uuid(queue_id, _GET, "queue id")}
        reply = await self._transport.send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), Queue)

    async def members(self, queue_id: str, *, priority: Priority = Priority.INTERACTIVE
                      ) -> builtins.list[QueueMember]:
        """The agents and admins who take conversations from the queue."""
        path = {"queueId": check_uuid(queue_id, _MEMBERS, "queue id")}
        reply = await self._transport.send(_MEMBERS, path=path, priority=priority)
        return parse_items(_MEMBERS, unwrap(_MEMBERS, reply.body), QueueMember)

    async def add_members(self, queue_id: str, agent_ids: Sequence[str], *,
                          priority: Priority = Priority.INTERACTIVE
                          ) -> builtins.list[BulkActionOutcome[str]]:
        """Assign agents to the queue; one outcome per agent (an unknown one fails alone)."""
        path = {"queueId": check_uuid(queue_id, _ADD, "queue id")}
        body = build(_ADD, QueueMembersInput, agent_ids=check_uuids(agent_ids, _ADD, "agent ids"))
        reply = await self._transport.send(_ADD, path=path, body=body.wire(), priority=priority)
        if reply.body is None:
            return []
        return parse_items(_ADD, unwrap(_ADD, reply.body), BulkActionOutcome[str])

    async def remove_members(self, queue_id: str, agent_ids: Sequence[str], *,
                             priority: Priority = Priority.INTERACTIVE) -> None:
        """Remove agents from the queue."""
        path = {"queueId": check_uuid(queue_id, _REMOVE, "queue id")}
        body = build(_REMOVE, QueueMembersInput,
                     agent_ids=check_uuids(agent_ids, _REMOVE, "agent ids"))
        await self._transport.send(_REMOVE, path=path, body=body.wire(), priority=priority)

    async def availability(self, queue_id: str, *, priority: Priority = Priority.INTERACTIVE
                           ) -> builtins.list[AvailabilityOutcome]:
        """Whether each supported chat channel of the queue can take a conversation now.

        409 (:class:`~frontdesk.api.errors.Conflict`) when the organisation has none of the
        supported channels.
        """
        path = {"queueId": check_uuid(queue_id, _AVAILABILITY, "queue id")}
        reply = await self._transport.send(_AVAILABILITY, path=path, priority=priority)
        return parse_items(_AVAILABILITY, unwrap(_AVAILABILITY, reply.body),
                           AvailabilityOutcome)

    async def conversation_position(
        self, conversation_id: int, *, priority: Priority = Priority.INTERACTIVE
    ) -> ConversationPosition:
        """Where a waiting conversation stands in its queue (approximate, 1 = next).

        404 when the conversation is not waiting in a queue.
        """
        path = {"csid": check_conversation_id(conversation_id, _POSITION)}
        reply = await self._transport.send(_POSITION, path=path, priority=priority)
        return parse_one(_POSITION, unwrap(_POSITION, reply.body), ConversationPosition)
