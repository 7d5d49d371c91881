"""People: end users (find, create, profile, custom attributes, anonymisation) and agents
(list and filter, create one or many from a CSV, edit, teams, presence, downgrade), one
class a little over 400 lines: both halves follow one convention over the same hub and
directory.

**The convention of this module and of** :mod:`.admin`: every method returns typed records
(the contract's models, or small dataclasses); a refusal raises :class:`Refused`,
whose ``message`` is the sentence a person reads. A refusal is either the service's (its own
words, after "Could not …:") or the console's, made *before anything is sent* (a form that
cannot be right, such as an agent filter by both email and phone). Nothing else escapes except
bugs, so a screen wraps each call in one ``except Refused``. Nothing here is optimistic:
these are deliberate actions, and the screens show what the service confirmed.

No Textual here; the screens call these methods from their workers.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..api.errors import ApiError, Conflict, NotFound
from ..api.models import (
    Agent,
    AnonymizationRequestStatus,
    BulkActionOutcome,
    Conversation,
    CustomAttributeDefinition,
    CustomAttributeValue,
    EndUser,
    Team,
    UserPresence,
)
from ..api.models.common import is_uuid
from ..api.pacing import Priority
from ..api.resources import Page
from .agents import AgentDetail
from .agents_csv import BULK_LIMIT, BulkReport, BulkRow, CsvRow, bulk_detail, read_agents_csv
from .anonymizations import keep_status, remember_anonymization
from .errors import Refusal, Refused, refusals
from .people_checks import PHONE, check_email, check_phone, text_of
from .topics import anonymization_topic

if TYPE_CHECKING:
    from ..api.client import ApiClient
    from .directory import Directory
    from .hub import Hub
    from .local import LocalStore

__all__ = ["FindKind", "PeopleStore", "Profile"]

#: How an end user is looked for.
FindKind = Literal["auto", "id", "email", "phone", "external_id", "name"]
#: Whose custom attributes: an end user's (``Contact``) or a conversation's.
Entity = Literal["Contact", "Conversation"]

#: Seconds between two looks at an anonymisation request that is not processed yet.
FOLLOW_INTERVAL = 2.0
#: End users read at most when finding by name (the service filters only by email, phone
#: and external id, so names are matched here, page by page, oldest end users first).
NAME_SCAN_LIMIT = 2_000


@dataclass(frozen=True)
class Profile:
    """An end user's page: the user, the attribute definitions that apply to end users, and
    the first page of their conversations (``next_key`` names the next one)."""

    user: EndUser
    definitions: list[CustomAttributeDefinition]
    conversations: list[Conversation]
    next_key: str | None = None


class PeopleStore:
    """End users and agents, for the People mode (and the panels that edit attributes)."""

    def __init__(self, hub: Hub, local: LocalStore, directory: Directory) -> None:
        self._hub = hub
        self._local = local
        self._directory = directory
        self._definitions: list[CustomAttributeDefinition] | None = None

    # ------------------------------------------------------------------ end users

    async def list_endusers(self, page_key: str | None = None, *, page_size: int = 100
                            ) -> Page[EndUser]:
        """One page of every end user, oldest first."""
        with refusals("Could not list end users"):
            page: Page[EndUser] = await self.client.endusers.list_page(
                page_size=page_size, page_key=page_key)
        self._remember_names(page.items)
        return page

    @staticmethod
    def guess_kind(value: str) -> FindKind:
        """What a typed value most likely is: an id, an email, a phone number or else an
        external id."""
        value = value.strip()
        if is_uuid(value):
            return "id"
        if "@" in value:
            return "email"
        if PHONE.match(value) and sum(c.isdigit() for c in value) >= 5:
            return "phone"
        return "external_id"

    async def find_endusers(self, kind: FindKind, value: str) -> list[EndUser]:
        """End users whose id, email, phone number or external id is ``value``, or whose
        name contains its words (``auto`` guesses which; what is neither an id, an email nor
        a phone number is looked for as an external id and as a name). An empty list when
        none is."""
        value = text_of(value)
        if not value:
            raise Refused("Type what to look for")
        if kind == "auto":
            kind = self.guess_kind(value)
            if kind == "external_id":
                by_id = await self.find_endusers("external_id", value)
                by_name = await self.find_endusers("name", value)
                return list({u.id: u for u in [*by_id, *by_name]}.values())
        users: list[EndUser]
        if kind == "name":
            users = await self._endusers_named(value)
        elif kind == "id":
            if not is_uuid(value):
                raise Refused("An end user id is a UUID, like 4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2")
            try:
                users = [await self.client.endusers.get(value)]
            except NotFound:
                users = []
            except ApiError as error:
                raise Refused(f"Could not find the end user: {error.message}",
                              error=error) from error
        else:
            if kind == "email":
                check_email(value)
            with refusals("Could not find end users"):
                page = await self.client.endusers.list_page(
                    page_size=100,
                    email=value if kind == "email" else None,
                    phone=value if kind == "phone" else None,
                    external_id=value if kind == "external_id" else None)
            users = page.items
        self._remember_names(users)
        return users

    async def get_enduser(self, user_id: str) -> EndUser:
        """One end user, with custom attributes."""
        with refusals("Could not read the end user"):
            user: EndUser = await self.client.endusers.get(user_id)
        self._remember_names([user])
        return user

    async def create_enduser(self, fields: Mapping[str, object]) -> EndUser:
        """A new end user from a form (display name, email, phone, external id, first and
        last name); empty fields are left out, at least one must be given."""
        given = {k: text_of(v) for k, v in fields.items() if text_of(v)}
        if not given:
            raise Refused("Give at least a name, an email, a phone number or an external id")
        check_email(given.get("email", ""))
        check_phone(given.get("phone_number", ""))
        with refusals("Could not create the end user"):
            user: EndUser = await self.client.endusers.create(given)
        self._remember_names([user])
        return user

    async def profile(self, user_id: str) -> Profile:
        """An end user, the end-user attribute definitions and their newest conversations."""
        user = await self.get_enduser(user_id)
        definitions = [d for d in await self.definitions() if d.entity_type == "Contact"]
        page = await self.conversations_page(user_id)
        return Profile(user, definitions, page.items, page.next_key)

    async def conversations_page(self, user_id: str, page_key: str | None = None
                                 ) -> Page[Conversation]:
        """One page of the end user's conversations, newest first."""
        with refusals("Could not list the end user's conversations"):
            page: Page[Conversation] = await self.client.endusers.conversations_page(
                user_id, page_size=50, page_key=page_key)
        return page

    # ------------------------------------------------------------------ custom attributes

    async def definitions(self, *, refresh: bool = False) -> list[CustomAttributeDefinition]:
        """Every custom attribute definition (kept for the session once read)."""
        if self._definitions is None or refresh:
            with refusals("Could not read the custom attribute definitions"):
                self._definitions = list(await self.client.custom_attributes.list())
        return list(self._definitions)

    async def attribute_values(self, entity: Entity, entity_id: str
                               ) -> list[CustomAttributeValue]:
        """The custom attributes currently set on an end user or a conversation."""
        if entity == "Contact":
            return list((await self.get_enduser(entity_id)).custom_attributes or [])
        with refusals("Could not read the conversation"):
            conversation: Conversation = await self.client.conversations.get(int(entity_id))
        return list(conversation.custom_attributes or [])

    async def patch_attributes(self, entity: Entity, entity_id: str,
                               values: Mapping[str, str | list[str] | None]
                               ) -> list[CustomAttributeValue]:
        """Set (or clear, with None) some custom attributes; the entity's values afterwards."""
        if not values:
            raise Refused("Nothing changed")
        with refusals("Could not save the custom attributes"):
            if entity == "Contact":
                result: list[CustomAttributeValue] = \
                    await self.client.custom_attributes.patch_enduser(entity_id, dict(values))
            else:
                result = await self.client.custom_attributes.patch_conversation(
                    int(entity_id), dict(values))
        return result

    # ------------------------------------------------------------------ anonymisation

    async def anonymize_enduser(self, user_id: str, *, force: bool = False
                                ) -> AnonymizationRequestStatus:
        """Ask the service to anonymise an end user; ``force`` closes their open
        conversations first. Raises :class:`Refused` of kind ``NEEDS_FORCE`` when some are
        open and ``force`` is not given. The request is kept (Admin → Anonymisation) and
        followed live."""
        try:
            status: AnonymizationRequestStatus = \
                await self.client.anonymization.anonymize_enduser(user_id, force=force)
        except Conflict as error:
            if force:
                raise Refused(f"Could not anonymize the end user: {error.message}",
                              error=error) from error
            raise Refused(error.message, kind=Refusal.NEEDS_FORCE, error=error) from error
        except ApiError as error:
            raise Refused(f"Could not anonymize the end user: {error.message}",
                          error=error) from error
        remember_anonymization(self._local, status)
        self.follow(status)
        return status

    async def anonymization_status(self, request_id: str) -> AnonymizationRequestStatus:
        """The current status of a request (kept when it was made here)."""
        with refusals("Could not read the anonymization request"):
            status: AnonymizationRequestStatus = \
                await self.client.anonymization.get_request(request_id)
        keep_status(self._local, status)
        return status

    def follow(self, status: AnonymizationRequestStatus) -> str:
        """Follow a request live until the service has processed it: the topic (see
        :func:`anonymization_topic`) polls the request and stops once ``processedAt`` is set.
        Returns the topic's name."""
        name = anonymization_topic(status.id)
        live = self._hub.live
        if status.processed:
            return name
        request_id = status.id

        async def fetch() -> AnonymizationRequestStatus:
            current = await self.client.anonymization.get_request(request_id,
                                                                  priority=Priority.VISIBLE)
            keep_status(self._local, current)
            if current.processed:
                asyncio.get_running_loop().call_soon(live.remove, name)
            return current

        live.add(name, fetch, FOLLOW_INTERVAL, always=True, initial=status)
        return name

    # ------------------------------------------------------------------ helpers

    async def _endusers_named(self, value: str) -> list[EndUser]:
        """End users whose names (display, first, last) contain every word of ``value``,
        case-insensitively, among the first :data:`NAME_SCAN_LIMIT` the service lists."""
        words = value.casefold().split()
        found: list[EndUser] = []
        page_key: str | None = None
        read = 0
        while read < NAME_SCAN_LIMIT:
            with refusals("Could not find end users"):
                page = await self.client.endusers.list_page(page_size=100, page_key=page_key)
            read += len(page.items)
            for user in page.items:
                names = " ".join(n for n in (user.display_name, user.first_name,
                                             user.last_name) if n).casefold()
                if all(word in names for word in words):
                    found.append(user)
            if not page.has_more or page.next_key is None:
                break
            page_key = page.next_key
        return found

    def remember(self, user: EndUser) -> None:
        """Keep an end user's name after a change made elsewhere (the edit module)."""
        self._remember_names([user])

    def _remember_names(self, users: Sequence[EndUser]) -> None:
        names = self._directory.names
        for user in users:
            label = user.display_name or user.email or user.phone_number
            if label:
                names[user.id] = label

    # ------------------------------------------------------------------ agents and admins

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
