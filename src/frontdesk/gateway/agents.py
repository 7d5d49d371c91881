"""Who an agent is, looked up at the service with the organisation's key: a member is added
by the agent's email or id, and the gateway keeps the agent's id, email and name."""

from __future__ import annotations

from frontdesk.api.client import ApiClient
from frontdesk.api.errors import ApiError, NotFound, Unauthorized
from frontdesk.api.models.agents import Agent

from .members import MemberError

__all__ = ["find_agent"]


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
