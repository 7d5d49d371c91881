"""An agent as the People store reads one (:class:`AgentDetail`: with their teams and
presence); the calls themselves are :class:`~.people.PeopleStore`'s."""

from __future__ import annotations

from dataclasses import dataclass

from ..api.models import Agent, Team, UserPresence

__all__ = ["AgentDetail"]


@dataclass(frozen=True)
class AgentDetail:
    """An agent with their teams and presence (``presence`` None when it could not be read,
    ``note`` then says why)."""

    agent: Agent
    teams: list[Team]
    presence: UserPresence | None
    note: str = ""
