"""The agents half of the People store: list and filter, create one or many from a CSV,
edit, teams, presence, downgrade. :class:`~.people.PeopleStore` is made of it; it follows the
same convention (typed records back, :class:`Refused` for a refusal, nothing optimistic)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..api.errors import ApiError
from ..api.models import Agent, BulkActionOutcome, Team, UserPresence
from ..api.pacing import Priority
from .agents_csv import BULK_LIMIT, BulkReport, BulkRow, CsvRow, bulk_detail, read_agents_csv
from .errors import Refused, refusals
from .people_checks import check_email, check_phone, text_of

if TYPE_CHECKING:
    from ..api.client import ApiClient
    from .directory import Directory
    from .hub import Hub

__all__ = ["AgentCalls", "AgentDetail"]


@dataclass(frozen=True)
class AgentDetail:
    """An agent with their teams and presence (``presence`` None when it could not be read,
    ``note`` then says why)."""

    agent: Agent
    teams: list[Team]
    presence: UserPresence | None
    note: str = ""



class AgentCalls:
    """Agents and admins, for the People mode."""

    _hub: Hub
    _directory: Directory

    @property
    def client(self) -> ApiClient:
        """The session's API client."""
        return self._hub.client

    async def list_agents(self, *, email: str = "", phone: str = "") -> list[Agent]:
        """Every agent and admin, or the one with ``email`` or with ``phone`` (not both:
        refused before sending, as the service would)."""
        email, phone = text_of(email), text_of(phone)
        if email and phone:
            raise Refused("Filter agents by email or by phone number, not both")
        check_email(email)
        check_phone(phone)
        with refusals("Could not list agents"):
            agents: list[Agent] = [a async for a in self.client.agents.list(
                email=email or None, phone=phone or None, page_size=200)]
        directory = self._directory
        for agent in agents:
            directory.agents[agent.id] = agent
            directory.names[agent.id] = agent.display_name
        return agents

    async def presence_of_all(self) -> dict[str, UserPresence]:
        """Every agent's presence by agent id (empty when it cannot be read)."""
        try:
            presences: list[UserPresence] = await self.client.agents.list_presence(
                priority=Priority.VISIBLE)
        except ApiError:
            return {}
        return {p.user_id: p for p in presences}

    async def create_agent(self, fields: Mapping[str, object]) -> Agent:
        """A new agent from a form: display name and email required; phone, first and last
        name optional."""
        given = {k: text_of(v) for k, v in fields.items() if text_of(v)}
        if not given.get("display_name"):
            raise Refused("An agent needs a display name")
        if not given.get("email"):
            raise Refused("An agent needs an email address")
        check_email(given["email"])
        check_phone(given.get("phone_number", ""))
        with refusals("Could not create the agent"):
            agent: Agent = await self.client.agents.create(given)
        self._keep(agent)
        return agent

    async def read_csv(self, path: str) -> list[CsvRow]:
        """The rows of an agents CSV file, each an agent to create or why it cannot be one
        (read off the loop; ``Refused`` for a file that cannot be read as a whole)."""
        return await asyncio.to_thread(read_agents_csv, path)

    async def bulk_create_csv(self, path: str) -> BulkReport:
        """Create the agents of a CSV file: one report row per line, in file order — created,
        refused by the service (its reason), or refused here before sending (why)."""
        rows = await asyncio.to_thread(read_agents_csv, path)
        return await self.bulk_create(rows)

    async def bulk_create(self, rows: Sequence[CsvRow]) -> BulkReport:
        """Send the rows that can be agents (in calls of at most 500) and report every row."""
        report: dict[int, BulkRow] = {}
        sendable = [r for r in rows if r.agent is not None]
        for row in rows:
            if row.agent is None:
                report[row.line] = BulkRow(row.line, row.display_name, row.email, False,
                                           "not sent: " + row.refusal)
        for start in range(0, len(sendable), BULK_LIMIT):
            chunk = sendable[start:start + BULK_LIMIT]
            with refusals("Could not create the agents"):
                outcomes: list[BulkActionOutcome[Agent]] = await self.client.agents.bulk_create(
                    [r.agent for r in chunk if r.agent is not None])
            for index, row in enumerate(chunk):
                if index < len(outcomes):
                    ok, detail, agent_id = bulk_detail(outcomes[index])
                else:
                    ok, detail, agent_id = False, "the service gave no outcome", None
                report[row.line] = BulkRow(row.line, row.display_name, row.email, ok, detail,
                                           agent_id)
                if ok and agent_id:
                    self._directory.names[agent_id] = row.display_name
        return BulkReport([report[r.line] for r in rows])

    async def update_agent(self, agent_id: str, fields: Mapping[str, object]) -> Agent:
        """Replace an agent's details (PUT): the display name is required, and an empty field
        clears it. The email address cannot change."""
        given = {k: text_of(v) for k, v in fields.items() if k != "email"}
        if not given.get("display_name"):
            raise Refused("An agent needs a display name")
        check_phone(given.get("phone_number", ""))
        body = {k: v for k, v in given.items() if v}
        with refusals("Could not update the agent"):
            agent: Agent = await self.client.agents.update(agent_id, body)
        self._keep(agent)
        return agent

    async def patch_agent(self, agent: Agent, fields: Mapping[str, object]) -> Agent:
        """Change only the fields that differ from ``agent`` (PATCH). Emptying a field is a
        full update's job (``e``): a patch cannot clear."""
        changes: dict[str, str] = {}
        for name, value in fields.items():
            if name == "email":
                continue
            new = text_of(value)
            old = getattr(agent, name, None) or ""
            if new == old:
                continue
            if not new:
                raise Refused(f"A patch cannot empty {name.replace('_', ' ')}: use the full "
                              "update (e) to clear a field")
            changes[name] = new
        if not changes:
            raise Refused("Nothing changed")
        check_phone(changes.get("phone_number", ""))
        with refusals("Could not change the agent"):
            updated: Agent = await self.client.agents.patch(agent.id, changes)
        self._keep(updated)
        return updated

    async def agent_detail(self, agent_id: str) -> AgentDetail:
        """An agent, the teams they belong to (with names) and their presence."""
        with refusals("Could not read the agent"):
            agent: Agent = await self.client.agents.get(agent_id)
            refs = await self.client.agents.teams(agent_id)
        names: dict[str, str] = {}
        with contextlib.suppress(ApiError):
            names = {t.id: t.name for t in await self.client.teams.list()}
        teams = [Team(id=r.id, name=names.get(r.id, "…" + r.id[-6:])) for r in refs]
        presence: UserPresence | None = None
        note = ""
        try:
            presence = await self.client.agents.presence(agent_id)
        except ApiError as error:
            note = f"Presence not available: {error.message}"
        self._keep(agent)
        return AgentDetail(agent, teams, presence, note)

    async def downgrade_agent(self, agent_id: str) -> None:
        """Downgrade an agent or admin to an end user (same id; roles, presence, team and
        queue memberships go)."""
        with refusals("Could not downgrade the agent"):
            await self.client.agents.downgrade(agent_id)
        self._directory.agents.pop(agent_id, None)
    def _keep(self, agent: Agent) -> None:
        self._directory.agents[agent.id] = agent
        self._directory.names[agent.id] = agent.display_name
