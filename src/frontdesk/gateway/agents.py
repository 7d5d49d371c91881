"""Agents at the service, as the gateway needs them: who an agent is, looked up with the
organisation's key when a member is added by email or id; and one agent's presence picked from
every agent's, so that a team's consoles asking each for their own presence cost the service
one read of everybody's."""

from __future__ import annotations

import json
from typing import Any

from frontdesk.api.client import ApiClient
from frontdesk.api.errors import ApiError, NotFound, Unauthorized
from frontdesk.api.models.agents import Agent

from .members import MemberError

__all__ = ["ALL_PRESENCE", "find_agent", "presence_of"]

#: The path of every agent's presence, read once for the whole team.
ALL_PRESENCE = "/v1/agents/presence"


async def find_agent(client: ApiClient, who: str) -> Agent:
    """The agent whose email or id is ``who``; MemberError (one line) when there is none."""
    who = who.strip()
    if not who:
        raise MemberError("Name the agent by email or agent id")
    try:
        if "@" in who:
            async for agent in client.agents.list(email=who):
                if agent.email.lower() == who.lower():
                    return agent
            raise MemberError(f"The service has no agent with the email {who!r}")
        return await client.agents.get(who)
    except NotFound:
        raise MemberError(f"The service has no agent {who!r}") from None
    except Unauthorized:
        raise MemberError("The service refused the organisation key (check "
                          "--upstream-key-file or FRONTDESK_UPSTREAM_KEY)") from None
    except ApiError as error:
        raise MemberError(f"Could not look the agent up at the service: {error.message}") \
            from None


def presence_of(every: bytes, agent_id: str) -> bytes | None:
    """One agent's presence as ``GET /v1/agents/{agentId}/presence`` answers it
    (``{"data": …}``), picked from every agent's (a bare list or ``{"data": […]}``); None when
    that answer is not JSON or does not hold the agent (the service is then asked for the
    one)."""
    try:
        found: Any = json.loads(every)
    except ValueError:
        return None
    if isinstance(found, dict):
        found = found.get("data")
    if not isinstance(found, list):
        return None
    wanted = agent_id.lower()
    for item in found:
        if isinstance(item, dict) and str(item.get("userId", "")).lower() == wanted:
            return json.dumps({"data": item}, ensure_ascii=False).encode()
    return None
