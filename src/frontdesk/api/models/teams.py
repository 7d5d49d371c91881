"""Teams and their members."""

from __future__ import annotations

from pydantic import Field

from .common import Input, Record, Uuid


class Team(Record):
    """A team of agents."""

    id: str
    name: str


class CreateTeamInput(Input):
    """A new team."""

    name: str = Field(min_length=1, max_length=255)


class TeamMember(Record):
    """A member of a team."""

    id: str
    name: str | None = None
    email: str | None = None
    phone_number: str | None = None


class TeamMembersInput(Input):
    """Agents to add to or remove from a team."""

    agent_ids: list[Uuid] = Field(min_length=1, max_length=500)


__all__ = ["CreateTeamInput", "Team", "TeamMember", "TeamMembersInput"]
