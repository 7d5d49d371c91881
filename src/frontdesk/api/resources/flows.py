"""Conversation flows: how conversations arriving on a channel are routed."""

from __future__ import annotations

import builtins

from ..models.conversations import Channel
from ..models.flows import ConversationFlow
from ..operations import operation
from ..pacing import Priority
from ._base import Resource, fail, parse_items, unwrap

__all__ = ["FlowsResource"]

_LIST = operation("flows.list")


class FlowsResource(Resource):
    """``client.flows``: the organisation's conversation flows. (Published beyond the spec's
    tables.)"""

    async def list(self, channel: Channel | str | None = None, *,
                   priority: Priority = Priority.INTERACTIVE) -> builtins.list[ConversationFlow]:
        """The flows of ``channel`` (the service's default when not given: ``PstnPhone``)."""
        if channel is not None and channel not in set(Channel):
            raise fail(_LIST, f"The channel must be one of {', '.join(Channel)}")
        params = None if channel is None else {"channel": str(channel)}
        reply = await self._transport.send(_LIST, params=params, priority=priority)
        return parse_items(_LIST, unwrap(_LIST, reply.body), ConversationFlow)
