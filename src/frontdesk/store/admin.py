"""Admin: tags, teams, queues, custom attribute definitions, contact endpoints (and the
deprecated endpoint listing), business hours, anonymisation requests and ratings.

One class a little over 400 lines, ratings' calls included. The convention is
:mod:`.people`'s: every method returns typed records, and a refusal — the service's, or the
console's before sending — raises :class:`~.errors.Refused` with the sentence a person reads.
No Textual here.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from ..api.errors import ApiError
from ..api.models import (
    AnonymizationRequestStatus,
    AuditEntry,
    BusinessHoursStatus,
    ContactEndpoint,
    ConversationRating,
    CustomAttributeDefinition,
    Endpoint,
    Queue,
    QueueMember,
    RatingOffer,
    RatingResult,
    ScheduleDefinition,
    ScheduleRef,
    Tag,
    Team,
    TeamMember,
    UserPresence,
)
from ..api.models.common import is_uuid
from ..api.models.queues import QueueRequest
from .anonymizations import keep_status, remember_anonymization
from .errors import Refused, refusals
from .hours_calendar import Calendar, build_calendar, zone_named
from .memberships import MembersChange, change_membership
from .queue_members import change_members
from .queue_settings import QueueSettings
from .ratings import RATING_RANGES
from .typed_time import parse_typed_time

if TYPE_CHECKING:
    from ..api.client import ApiClient
    from .directory import Directory
    from .hub import Hub
    from .local import LocalStore

__all__ = [
    "AdminStore",
    "AuditPage",
    "MembersChange",
]

#: Audit entries read at a time (the gateway keeps many; a person reads the newest).
AUDIT_PAGE = 100

#: The deprecated listing is followed page by page, up to this many endpoints.
MAX_DEPRECATED_ENDPOINTS = 2000
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True, slots=True)
class AuditPage:
    """One page of a team gateway's audit, newest first, and the key of the next (None:
    the last)."""

    entries: list[AuditEntry]
    next_key: str | None


class AdminStore:
    """What admins manage, for the Admin mode (and the ratings panel of a thread)."""

    def __init__(self, hub: Hub, local: LocalStore, directory: Directory) -> None:
        self._hub = hub
        self._local = local
        self._directory = directory

    # ------------------------------------------------------------------ the gateway's audit

    async def audit(self, member: str = "", page_key: str | None = None) -> AuditPage:
        """A page of what members did through the team gateway, newest first (admins
        only); ``member`` keeps one member's entries (their email or member id)."""
        with refusals("Could not read the audit"):
            page = await self.client.gateway.audit_page(member=member.strip() or None,
                                                        page_size=AUDIT_PAGE,
                                                        page_key=page_key)
        return AuditPage(page.items, page.next_key)

    # ------------------------------------------------------------------ tags

    async def list_tags(self, *, include_deactivated: bool = False) -> list[Tag]:
        """Tags by name: active ones, and deactivated ones too when asked."""
        with refusals("Could not list tags"):
            tags = await self.client.tags.list(include_deactivated=include_deactivated)
        if include_deactivated:
            self._directory.tags = {t.id: t for t in tags}
        return sorted(tags, key=lambda t: t.name.casefold())

    async def get_tag(self, tag_id: str) -> Tag:
        """One tag."""
        with refusals("Could not read the tag"):
            return await self.client.tags.get(tag_id)

    async def create_tag(self, name: str, color: str = "") -> Tag:
        """A new tag (``color`` as ``#rrggbb``, optional); an existing name answers that tag."""
        name, color = name.strip(), color.strip()
        if not name:
            raise Refused("A tag needs a name")
        if len(name) > 100:
            raise Refused("A tag name has at most 100 characters")
        if color and not _COLOR.match(color):
            raise Refused("A color is written #rrggbb, like #3366ff")
        with refusals("Could not create the tag"):
            tag = await self.client.tags.create(name, color=color or None)
        self._directory.tags[tag.id] = tag
        return tag

    async def set_tag_active(self, tag: Tag, active: bool) -> Tag:
        """Activate or deactivate a tag; the tag as the service has it afterwards."""
        what = "activate" if active else "deactivate"
        with refusals(f"Could not {what} the tag"):
            if active:
                await self.client.tags.activate(tag.id)
            else:
                await self.client.tags.deactivate(tag.id)
        try:
            updated = await self.client.tags.get(tag.id)
        except ApiError:
            updated = tag.model_copy(update={"state": "Active" if active else "Inactive"})
        self._directory.tags[updated.id] = updated
        return updated

    async def delete_tag(self, tag_id: str) -> None:
        """Delete a tag and every association with it. Irreversible."""
        with refusals("Could not delete the tag"):
            await self.client.tags.delete(tag_id)
        self._directory.tags.pop(tag_id, None)

    # ------------------------------------------------------------------ teams

    async def list_teams(self) -> list[Team]:
        """Every team, by name."""
        with refusals("Could not list teams"):
            teams = await self.client.teams.list()
        return sorted(teams, key=lambda t: t.name.casefold())

    async def get_team(self, team_id: str) -> Team:
        """One team."""
        with refusals("Could not read the team"):
            return await self.client.teams.get(team_id)

    async def create_team(self, name: str) -> Team:
        """A new team."""
        name = name.strip()
        if not name:
            raise Refused("A team needs a name")
        if len(name) > 255:
            raise Refused("A team name has at most 255 characters")
        with refusals("Could not create the team"):
            return await self.client.teams.create(name)

    async def delete_team(self, team_id: str) -> None:
        """Delete a team (its agents stay)."""
        with refusals("Could not delete the team"):
            await self.client.teams.delete(team_id)

    async def team_members(self, team_id: str) -> list[TeamMember]:
        """The team's members."""
        with refusals("Could not list the team's members"):
            return await self.client.teams.members(team_id)

    async def team_presence(self, team_id: str) -> list[UserPresence]:
        """The presence of every member of the team."""
        with refusals("Could not read the team's presence"):
            return [p async for p in self.client.teams.presence(team_id, page_size=200)]

    async def change_team_members(self, team_id: str, add: Iterable[str],
                                  remove: Iterable[str]) -> MembersChange:
        """Add several agents and remove several, in two calls."""
        client = self.client
        return await change_membership(
            add, remove, name=lambda agent_id: agent_id,
            adding=lambda ids: client.teams.add_members(team_id, ids),
            removing=lambda ids: client.teams.remove_members(team_id, ids))

    # ------------------------------------------------------------------ queues

    async def list_queues(self) -> list[Queue]:
        """Every queue (the default first, then by priority and name)."""
        with refusals("Could not list queues"):
            queues = await self.client.queues.list()
        self._directory.queues.update({q.id: q for q in queues})
        return sorted(queues, key=lambda q: (not q.is_default, q.priority or 0,
                                             q.name.casefold()))

    async def get_queue(self, queue_id: str) -> Queue:
        """One queue with its settings."""
        with refusals("Could not read the queue"):
            return await self.client.queues.get(queue_id)

    async def create_queue(self, settings: QueueSettings) -> Queue:
        """A new queue with the form's settings."""
        try:
            request = QueueRequest.model_validate(settings.request())
        except ValueError as error:
            raise Refused(f"The queue settings are not valid: {error}") from None
        with refusals("Could not create the queue"):
            queue = await self.client.queues.create(request=request)
        self._directory.queues[queue.id] = queue
        return queue

    async def queue_members(self, queue_id: str) -> list[QueueMember]:
        """The agents who take conversations from the queue."""
        with refusals("Could not list the queue's members"):
            return await self.client.queues.members(queue_id)

    async def change_queue_members(self, queue_id: str, add: Iterable[str],
                                   remove: Iterable[str]) -> MembersChange:
        """Assign several agents and remove several (see
        :func:`~frontdesk.store.queue_members.change_members`)."""
        return await change_members(self.client, self._directory.name, queue_id, add, remove)

    # ------------------------------------------------------------------ custom attributes

    async def list_definitions(self) -> list[CustomAttributeDefinition]:
        """Every custom attribute definition, end users' first."""
        with refusals("Could not list custom attributes"):
            definitions = await self.client.custom_attributes.list()
        return sorted(definitions, key=lambda d: (d.entity_type != "Contact", d.label.casefold()))

    async def get_definition(self, attribute_id: str) -> CustomAttributeDefinition:
        """One definition, as the service has it now."""
        with refusals("Could not read the custom attribute"):
            return await self.client.custom_attributes.get(attribute_id)

    # ------------------------------------------------------------------ contact endpoints

    async def list_contact_endpoints(self) -> list[ContactEndpoint]:
        """Every contact endpoint (email addresses, then phone numbers)."""
        with refusals("Could not list contact endpoints"):
            endpoints = await self.client.contact_endpoints.list()
        return sorted(endpoints, key=lambda e: (e.type != "EmailEndpoint", e.key))

    async def get_contact_endpoint(self, key: str) -> ContactEndpoint:
        """One contact endpoint, by its address or number."""
        with refusals("Could not read the contact endpoint"):
            return await self.client.contact_endpoints.get(key)

    @property
    def integrations_configured(self) -> bool:
        """Whether the deprecated endpoint listing can be reached (an integrations URL)."""
        return self.client.integrations_url is not None

    async def list_deprecated_endpoints(self) -> list[Endpoint]:
        """Deprecated: the endpoint listing of the integrations URL, every page followed."""
        if not self.integrations_configured:
            raise Refused("No integrations URL is configured for this profile")
        out: list[Endpoint] = []
        with refusals("Could not read the deprecated endpoint listing"):
            async for endpoint in self.client.integrations.list_endpoints(page_size=100):
                out.append(endpoint)
                if len(out) >= MAX_DEPRECATED_ENDPOINTS:
                    break
        return out

    async def get_deprecated_endpoint(self, endpoint_id: str) -> Endpoint:
        """Deprecated: one endpoint of the deprecated listing, by its id."""
        if not self.integrations_configured:
            raise Refused("No integrations URL is configured for this profile")
        with refusals("Could not read the endpoint (deprecated listing)"):
            return await self.client.integrations.get_endpoint(endpoint_id)

    # ------------------------------------------------------------------ business hours

    async def list_schedules(self) -> list[ScheduleRef]:
        """Every schedule, every page."""
        with refusals("Could not list business-hours schedules"):
            return [s async for s in self.client.business_hours.list_schedules(page_size=100)]

    async def definition(self, schedule_id: str) -> ScheduleDefinition:
        """A schedule's weekly hours, exceptions and holidays."""
        with refusals("Could not read the schedule"):
            return await self.client.business_hours.definition(schedule_id)

    async def status(self, schedule_id: str, at: datetime | None = None) -> BusinessHoursStatus:
        """Open or closed now, or at ``at``."""
        with refusals("Could not read whether the business is open"):
            return await self.client.business_hours.status(schedule_id, at=at)

    async def calendar(self, schedule_id: str, days: int,
                       definition: ScheduleDefinition | None = None) -> Calendar:
        """The coming ``days`` days (1 to 90) as a calendar, from today in the schedule's
        time zone."""
        if not 1 <= days <= 90:
            raise Refused("The calendar shows 1 to 90 days")
        with refusals("Could not read the coming days"):
            upcoming = await self.client.business_hours.upcoming(schedule_id, days=days)
            status = await self.client.business_hours.status(schedule_id)
        return build_calendar(upcoming, definition, status, days)

    async def status_at_text(self, schedule_id: str, text: str, timezone: str,
                             now: datetime | None = None) -> BusinessHoursStatus:
        """Open or closed at a typed time (read in the schedule's time zone; "today" is the
        service's, ``now`` when known)."""
        moment = parse_typed_time(text, zone_named(timezone) or UTC, now or self._hub.server_now())
        return await self.status(schedule_id, moment)

    # ------------------------------------------------------------------ anonymisation

    def requests_made_here(self) -> list[AnonymizationRequestStatus]:
        """The anonymisation requests made from this console (newest first)."""
        kept = self._local.snapshot("anonymizations")
        out: list[AnonymizationRequestStatus] = []
        for item in kept if isinstance(kept, list) else []:
            with contextlib.suppress(ValueError):  # kept by another version: left out
                out.append(AnonymizationRequestStatus.model_validate(item))
        return out

    async def lookup_request(self, request_id: str) -> AnonymizationRequestStatus:
        """Any anonymisation request, by its id (kept up to date when made here)."""
        request_id = request_id.strip()
        if not is_uuid(request_id):
            raise Refused("A request id is a UUID, like 4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2")
        with refusals("Could not read the anonymization request"):
            status = await self.client.anonymization.get_request(request_id)
        keep_status(self._local, status)
        return status

    async def refresh_requests(self) -> list[AnonymizationRequestStatus]:
        """Ask again about every request made here that is not processed yet."""
        kept = self.requests_made_here()
        for request in kept:
            if request.processed:
                continue
            with contextlib.suppress(ApiError):
                status = await self.client.anonymization.get_request(request.id)
                keep_status(self._local, status)
        return self.requests_made_here()

    async def anonymize_conversation(self, conversation_id: str, force: bool
                                     ) -> AnonymizationRequestStatus:
        """Anonymise a conversation (``PATCH …/anonymize``); ``force`` closes it first when
        it is open (without, an open one is refused)."""
        checked = self.check_target("Conversation", conversation_id)
        with refusals("Could not anonymize the conversation"):
            status = await self.client.anonymization.anonymize_conversation(int(checked),
                                                                            force=force)
        remember_anonymization(self._local, status)
        return status

    @staticmethod
    def check_target(kind: str, entity_id: str) -> str:
        """The id of what to anonymise, checked for its kind's shape (refused otherwise)."""
        entity_id = entity_id.strip()
        if not entity_id:
            raise Refused("Type the id of what to anonymize")
        if kind == "User" and not is_uuid(entity_id):
            raise Refused("A user id is a UUID")
        if kind == "Conversation" and not entity_id.isdigit():
            raise Refused("A conversation id is a number")
        if kind == "Message" and not re.fullmatch(r"\d+_[0-9a-fA-F-]{36}", entity_id):
            raise Refused("A message is named <conversation id>_<message id>")
        return entity_id

    async def anonymize_deprecated(self, kind: Literal["Conversation", "Message", "User"],
                                   entity_id: str, force: bool) -> AnonymizationRequestStatus:
        """Deprecated interface (``POST /v1/anonymization``): anonymise a conversation
        (its id), a message (``<conversation id>_<message id>``) or a user (their id)."""
        entity_id = self.check_target(kind, entity_id)
        with refusals("Could not anonymize (deprecated interface)"):
            status = await self.client.anonymization.anonymize_deprecated(
                entity_id, kind, force_anonymization=force or None)
        remember_anonymization(self._local, status)
        return status

    # ------------------------------------------------------------------ ratings

    @property
    def client(self) -> ApiClient:
        """The session's API client."""
        return self._hub.client

    async def rating_statuses(self, conversation_id: int) -> list[ConversationRating]:
        """Each rating question of a conversation, Offered or Rated."""
        with refusals("Could not read the ratings"):
            return await self.client.ratings.list(conversation_id)

    async def rating_statuses_deprecated(self, conversation_id: int
                                         ) -> list[ConversationRating]:
        """Deprecated path (``GET …/rating``): the same statuses."""
        with refusals("Could not read the ratings (deprecated path)"):
            return await self.client.ratings.list_deprecated(conversation_id)

    async def offer_rating(self, conversation_id: int, rating_type: str) -> RatingOffer:
        """Offer a rating of ``rating_type`` (Csat, Nps or ThumbsUpOrDown)."""
        if rating_type not in RATING_RANGES:
            raise Refused("A rating is Csat, Nps or ThumbsUpOrDown")
        with refusals("Could not offer the rating"):
            return await self.client.ratings.offer(conversation_id, rating_type)

    async def submit_rating(self, conversation_id: int, rating_id: str, rating_type: str,
                            value: str, comment: str = "") -> RatingResult:
        """Submit a result for the offer ``rating_id`` (for imports and testing): the value
        is checked against the kind before sending."""
        rating_id = rating_id.strip()
        if not is_uuid(rating_id):
            raise Refused("A rating id is a UUID (the id of an offer)")
        if rating_type not in RATING_RANGES:
            raise Refused("A rating is Csat, Nps or ThumbsUpOrDown")
        low, high, meaning = RATING_RANGES[rating_type]
        text = value.strip()
        if not text.isdigit() or not low <= int(text) <= high:
            raise Refused(f"A {rating_type} value is {meaning}")
        with refusals("Could not submit the rating"):
            return await self.client.ratings.submit(
                conversation_id, rating_id, int(text), rating_type=rating_type,
                comment=comment.strip() or None)
