"""Agents and admins: the people, their teams, their presence and working channels."""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import httpx2

from ..models.agents import (
    Agent,
    BulkCreateAgentsInput,
    BulkPatchAgentItem,
    BulkUpdateAgentItem,
    CreateAgentInput,
    PatchAgentInput,
    UpdateAgentInput,
    UserPresence,
    WorkingChannel,
    WorkingChannelInput,
)
from ..models.common import BulkActionOutcome, IdRef
from ..operations import Operation, operation
from ..pacing import Priority
from ._base import (
    Page,
    Resource,
    build,
    check_uuid,
    fail,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["AgentsResource"]

_LIST = operation("agents.list")
_CREATE = operation("agents.create")
_BULK_UPDATE = operation("agents.bulk_update")
_BULK_PATCH = operation("agents.bulk_patch")
_BULK_CREATE = operation("agents.bulk_create")
_GET = operation("agents.get")
_UPDATE = operation("agents.update")
_PATCH = operation("agents.patch")
_DOWNGRADE = operation("agents.downgrade")
_TEAMS = operation("agents.teams")
_ALL_PRESENCE = operation("agents.list_presence")
_PRESENCE = operation("agents.presence")
_WORKING_CHANNEL = operation("agents.set_working_channel")


class AgentsResource(Resource):
    """``client.agents``: list, create, update and downgrade agents; presence."""

    async def list(
        self,
        *,
        email: str | None = None,
        phone: str | None = None,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[Agent]:
        """Every agent and admin, page by page; optionally the one with ``email`` or
        ``phone`` (not both: the service refuses that, so the client does first)."""
        params = _filters(email, phone)

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[Agent]:
            return await self._fetch_page(_LIST, Agent, params=params, page_size=page_size,
                                          page_key=key, priority=priority, url=url)

        async for agent in self._iterate(fetch, _LIST):
            yield agent

    async def list_page(
        self,
        *,
        email: str | None = None,
        phone: str | None = None,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Page[Agent]:
        """One page of agents; pass the previous page's ``next_key`` for the next."""
        return await self._fetch_page(_LIST, Agent, params=_filters(email, phone),
                                      page_size=page_size, page_key=page_key,
                                      priority=priority)

    async def create(
        self,
        agent: CreateAgentInput | Mapping[str, Any] | None = None,
        *,
        display_name: str | None = None,
        email: str | None = None,
        phone_number: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        avatar_url: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Agent:
        """Create an agent (``display_name`` and ``email`` required)."""
        body = build(_CREATE, CreateAgentInput, agent, display_name=display_name, email=email,
                     phone_number=phone_number, first_name=first_name, last_name=last_name,
                     avatar_url=avatar_url)
        reply = await self._transport.send(_CREATE, body=body.wire(), priority=priority)
        return parse_one(_CREATE, unwrap(_CREATE, reply.body), Agent)

    async def bulk_create(
        self,
        agents: Sequence[CreateAgentInput | Mapping[str, Any]] | BulkCreateAgentsInput,
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[BulkActionOutcome[Agent]]:
        """Create several agents; one outcome per agent, success or failure."""
        if isinstance(agents, BulkCreateAgentsInput):
            body = agents
        else:
            items = [build(_BULK_CREATE, CreateAgentInput, a) for a in agents]
            body = build(_BULK_CREATE, BulkCreateAgentsInput, data=items)
        reply = await self._transport.send(_BULK_CREATE, body=body.wire(), priority=priority)
        return parse_items(_BULK_CREATE, unwrap(_BULK_CREATE, reply.body), BulkActionOutcome[Agent])

    async def bulk_update(
        self,
        agents: Sequence[BulkUpdateAgentItem | Mapping[str, Any]],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[BulkActionOutcome[Agent]]:
        """Fully update several agents (``id`` and ``display_name`` each); one outcome each."""
        body = _items(_BULK_UPDATE, BulkUpdateAgentItem, agents)
        reply = await self._transport.send(_BULK_UPDATE, body=body, priority=priority)
        return parse_items(_BULK_UPDATE, unwrap(_BULK_UPDATE, reply.body), BulkActionOutcome[Agent])

    async def bulk_patch(
        self,
        agents: Sequence[BulkPatchAgentItem | Mapping[str, Any]],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[BulkActionOutcome[Agent]]:
        """Partly update several agents (``id`` and the fields to change); one outcome each."""
        body = _items(_BULK_PATCH, BulkPatchAgentItem, agents)
        reply = await self._transport.send(_BULK_PATCH, body=body, priority=priority)
        return parse_items(_BULK_PATCH, unwrap(_BULK_PATCH, reply.body), BulkActionOutcome[Agent])

    async def get(self, agent_id: str, *, priority: Priority = Priority.INTERACTIVE) -> Agent:
        """One agent or admin."""
        path = {"agentId": check_uuid(agent_id, _GET, "agent id")}
        reply = await self._transport.send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), Agent)

    async def update(
        self,
        agent_id: str,
        agent: UpdateAgentInput | Mapping[str, Any] | None = None,
        *,
        display_name: str | None = None,
        phone_number: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        avatar_url: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Agent:
        """Replace an agent's details (``display_name`` required; the email cannot change)."""
        path = {"agentId": check_uuid(agent_id, _UPDATE, "agent id")}
        body = build(_UPDATE, UpdateAgentInput, agent, display_name=display_name,
                     phone_number=phone_number, first_name=first_name, last_name=last_name,
                     avatar_url=avatar_url)
        reply = await self._transport.send(_UPDATE, path=path, body=body.wire(), priority=priority)
        return parse_one(_UPDATE, unwrap(_UPDATE, reply.body), Agent)

    async def patch(
        self,
        agent_id: str,
        agent: PatchAgentInput | Mapping[str, Any] | None = None,
        *,
        display_name: str | None = None,
        phone_number: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        avatar_url: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Agent:
        """Change some of an agent's details; what is not given stays."""
        path = {"agentId": check_uuid(agent_id, _PATCH, "agent id")}
        body = build(_PATCH, PatchAgentInput, agent, display_name=display_name,
                     phone_number=phone_number, first_name=first_name, last_name=last_name,
                     avatar_url=avatar_url)
        reply = await self._transport.send(_PATCH, path=path, body=body.wire(), priority=priority)
        return parse_one(_PATCH, unwrap(_PATCH, reply.body), Agent)

    async def downgrade(self, agent_id: str, *, priority: Priority = Priority.INTERACTIVE
                        ) -> None:
        """Downgrade an agent or admin to an end user (the spec's DELETE of an agent)."""
        path = {"agentId": check_uuid(agent_id, _DOWNGRADE, "agent id")}
        await self._transport.send(_DOWNGRADE, path=path, priority=priority)

    async def teams(self, agent_id: str, *, priority: Priority = Priority.INTERACTIVE
                    ) -> builtins.list[IdRef]:
        """The teams the agent belongs to (their ids)."""
        path = {"agentId": check_uuid(agent_id, _TEAMS, "agent id")}
        reply = await self._transport.send(_TEAMS, path=path, priority=priority)
        return parse_items(_TEAMS, unwrap(_TEAMS, reply.body), IdRef)

    async def list_presence(self, *, priority: Priority = Priority.INTERACTIVE
                            ) -> builtins.list[UserPresence]:
        """The presence of every agent and admin (the service may send a bare list)."""
        reply = await self._transport.send(_ALL_PRESENCE, priority=priority)
        return parse_items(_ALL_PRESENCE, unwrap(_ALL_PRESENCE, reply.body), UserPresence)

    async def presence(self, agent_id: str, *, priority: Priority = Priority.INTERACTIVE
                       ) -> UserPresence:
        """One agent's presence: connection, working or away, active channels."""
        path = {"agentId": check_uuid(agent_id, _PRESENCE, "agent id")}
        reply = await self._transport.send(_PRESENCE, path=path, priority=priority)
        return parse_one(_PRESENCE, unwrap(_PRESENCE, reply.body), UserPresence)

    async def set_working_channel(
        self,
        agent_id: str,
        channel: WorkingChannel | str,
        working: bool,
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> None:
        """Turn one working channel of an agent on or off (Email, InteractiveChat,
        Messaging, Speak)."""
        path = {"agentId": check_uuid(agent_id, _WORKING_CHANNEL, "agent id")}
        body = build(_WORKING_CHANNEL, WorkingChannelInput, channel=channel, working=working)
        await self._transport.send(_WORKING_CHANNEL, path=path, body=body.wire(), priority=priority)


def _filters(email: str | None, phone: str | None) -> dict[str, str]:
    if email is not None and phone is not None:
        raise fail(_LIST, "Filter agents by email or by phone number, not both")
    given = {k: v for k, v in (("email", email), ("phone", phone)) if v is not None}
    for name, value in given.items():
        if not isinstance(value, str) or not value.strip():
            raise fail(_LIST, f"The {name} filter must be a non-empty text")
    return given


def _items(op: Operation, model: type[BulkUpdateAgentItem] | type[BulkPatchAgentItem],
           items: Sequence[Any]) -> builtins.list[dict[str, Any]]:
    """The body of a bulk update: a bare JSON array of checked items."""
    if isinstance(items, str | Mapping) or not items:
        raise fail(op, "Give a non-empty list of agents")
    return [build(op, model, item).wire() for item in items]
