"""Telling a wrong base URL from a service that answers: the sign-in's question.

Signing in asks the service's own list of agents who I am. A 404 there, or an answer that is
not the service's JSON, means the base URL leads somewhere else (a path too many, another web
server); a 404 for one agent id means so only when the list of agents is missing too. Shared
by ``frontdesk login``, the first-run screen and the console's session, so that all of them
say the same line (:func:`frontdesk.service_address.no_service_text`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api.errors import ApiError, NotFound, UnexpectedResponse
from ..service_address import NOT_JSON, no_service_text

if TYPE_CHECKING:
    from ..api.client import ApiClient

__all__ = ["address_problem", "no_agents_route"]

#: The request the sign-in's verdict names.
AGENTS = "GET /v1/agents"


async def no_agents_route(client: ApiClient) -> bool:
    """Whether the service's list of agents is missing (a 404 for it)."""
    try:
        await client.agents.list_page(page_size=1)
    except NotFound:
        return True
    except ApiError:
        return False
    return False


async def address_problem(client: ApiClient, base_url: str, by_email: bool,
                          error: BaseException) -> str | None:
    """The one line saying ``base_url`` is not the service, when ``error`` (from asking who
    I am, by email or by agent id) shows it; None when it does not."""
    if isinstance(error, UnexpectedResponse):
        return no_service_text(base_url, NOT_JSON, AGENTS)
    if not isinstance(error, NotFound):
        return None
    if by_email or await no_agents_route(client):
        return no_service_text(base_url, 404, AGENTS)
    return None
