"""Team mode's live state: the presence of everyone (or of one team) and the list of teams.

Two topics on the session's :class:`~frontdesk.store.live.LiveStore`:

* ``team:presence`` — ``GET /v1/agents/presence`` (everyone, one request) or the chosen team's
  presence (paged, 200 a page), every ``settings.poll.presence`` seconds while Team mode is
  shown. The value is a :class:`TeamSnapshot` of immutable :class:`MemberRow` tuples without
  the service's ``requestTime``, so a poll where nobody changed compares equal to the last
  one and tells nobody anything.
* ``team:list`` — the teams (id and name), every 60 seconds.
* ``team:load`` — the load of each agent on screen (``visible``): how many open
  conversations are assigned to them. A few searches count everyone shown at once, whatever
  their number (:meth:`TeamWatch._fetch_loads`: agent *i* gets the number *i* + 1, search *b*
  asks for the open conversations of the agents whose number has bit *b* set, and a
  conversation belongs to the agent whose number its searches spell: 25 agents, 5 searches
  of a page each in the demo, where one search an agent took 25). Each tick counts everyone
  shown again, so the figures follow the service within a tick; the ticks spend at most
  :data:`LOAD_REQUESTS_PER_SECOND`, less when the other active topics leave less of the
  console's one request a second. The value is a tuple of :class:`Load` sorted by agent,
  equal when nothing moved.

Names and emails come from the session's directory (loaded at sign-in) and, for a team, from
its member list; ids nobody knows yet are looked up at most once a minute.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..api.errors import ApiError, NotFound
from ..api.models import UserPresence
from ..api.pacing import Priority
from .presence import CHANNELS
from .topics import TopicKey

if TYPE_CHECKING:
    from .directory import Directory
    from .hub import Hub

log = logging.getLogger("frontdesk.store.team")

PRESENCE_TOPIC: TopicKey[TeamSnapshot] = TopicKey("team:presence")
LIST_TOPIC: TopicKey[tuple[TeamRef, ...]] = TopicKey("team:list")
#: How often the list of teams is fetched (seconds).
LIST_INTERVAL = 60.0
#: Presence ticks between two look-ups of names nobody knows (about a minute at 5 s).
NAME_LOOKUP_TICKS = 12
PAGE_SIZE = 200
LOAD_TOPIC: TopicKey[tuple[Load, ...]] = TopicKey("team:load")
#: The most the load topic spends (searches a second).
LOAD_REQUESTS_PER_SECOND = 0.4
#: What one console's polling asks of the service in all (as the queues topic counts it).
CONSOLE_REQUESTS_PER_SECOND = 0.9
#: Seconds between ticks while nobody is shown yet, and when no budget is left.
LOAD_INTERVAL = 2.5
LOAD_IDLE_INTERVAL = 30.0
#: Pages (of :data:`PAGE_SIZE`) one load search reads at most; beyond, loads show "n+".
LOAD_PAGES = 5
#: Agents whose load is counted, when the screen shows fewer.
DEFAULT_VISIBLE = 40


@dataclass(frozen=True, slots=True)
class Load:
    """How many open conversations are assigned to an agent (``more``: beyond one page)."""

    agent_id: str
    open: int
    more: bool = False


@dataclass(frozen=True, slots=True)
class MemberRow:
    """One agent as Team mode shows it (raw text: the screen sanitises)."""

    agent_id: str
    name: str
    email: str
    connection: str
    presence: str
    channels: tuple[str, ...]
    last_seen: datetime | None

    @property
    def online(self) -> bool:
        """Whether the agent is connected."""
        return self.connection == "Online"

    @property
    def working(self) -> bool:
        """Whether the agent is online and working."""
        return self.online and self.presence == "Working"


@dataclass(frozen=True, slots=True)
class TeamSnapshot:
    """The presence of the chosen team's members (``team_id`` None: everyone)."""

    team_id: str | None
    rows: tuple[MemberRow, ...]


@dataclass(frozen=True, slots=True)
class TeamRef:
    """A team in the picker."""

    team_id: str
    name: str


@dataclass(frozen=True, slots=True)
class TeamCounts:
    """The figures at the top of Team mode."""

    members: int
    online: int
    working: int
    per_channel: tuple[tuple[str, int], ...]


def count(rows: Iterable[MemberRow]) -> TeamCounts:
    """Members, online, working, and working per channel (Email, InteractiveChat, …)."""
    members = online = working = 0
    per_channel = dict.fromkeys(CHANNELS, 0)
    for row in rows:
        members += 1
        if row.online:
            online += 1
        if row.working:
            working += 1
            for channel in row.channels:
                per_channel[channel] = per_channel.get(channel, 0) + 1
    return TeamCounts(members, online, working, tuple(per_channel.items()))


class TeamWatch:
    """Registers the Team topics and fetches them; ``choose`` picks the team shown."""

    def __init__(self, hub: Hub, directory: Directory, presence_interval: float) -> None:
        self._hub = hub
        self._directory = directory
        self.team_id: str | None = None
        self._names: dict[str, tuple[str, str]] = {}
        self._team_members: dict[str, tuple[str, ...]] = {}
        self._ticks = 0
        self._looked_up_at: int | None = None
        self._urgent = False
        live = self._hub.live
        live.add(PRESENCE_TOPIC, self._fetch_presence, presence_interval)
        live.add(LIST_TOPIC, self._fetch_teams, LIST_INTERVAL)
        self._loads: dict[str, Load] = {}
        #: the screen's answer to "which agents are shown?" (ids in row order)
        self.visible: Callable[[], Sequence[str] | None] | None = None
        live.add(LOAD_TOPIC, self._fetch_loads, LOAD_INTERVAL)

    # ------------------------------------------------------------------ reading

    @property
    def snapshot(self) -> TeamSnapshot | None:
        """The latest presence snapshot (None before the first fetch)."""
        value = self._hub.live.get(PRESENCE_TOPIC)
        return value if isinstance(value, TeamSnapshot) else None

    @property
    def teams(self) -> tuple[TeamRef, ...]:
        """The teams known so far."""
        value = self._hub.live.get(LIST_TOPIC)
        return value if isinstance(value, tuple) else ()

    @property
    def loads(self) -> dict[str, Load]:
        """Each counted agent's load, by agent id."""
        value = self._hub.live.get(LOAD_TOPIC)
        return {load.agent_id: load for load in value} if isinstance(value, tuple) else {}

    # ------------------------------------------------------------------ choosing

    async def choose(self, team_id: str | None) -> None:
        """Show ``team_id`` (None: everyone) and fetch it now, ahead of background polling."""
        if team_id == self.team_id and self.snapshot is not None \
                and self.snapshot.team_id == team_id:
            return
        self.team_id = team_id
        self._urgent = True
        try:
            await self._hub.live.refresh(PRESENCE_TOPIC)
        except ApiError:
            self._hub.live.poke(PRESENCE_TOPIC)

    # ------------------------------------------------------------------ fetching

    async def _fetch_teams(self) -> tuple[TeamRef, ...]:
        teams = await self._hub.client.teams.list(priority=Priority.BACKGROUND)
        refs = [TeamRef(t.id, t.name) for t in teams]
        refs.sort(key=lambda ref: (ref.name.casefold(), ref.team_id))
        return tuple(refs)

    async def _fetch_presence(self) -> TeamSnapshot:
        """One tick; refetches if the team was changed while the request was out."""
        self._ticks += 1
        while True:
            team_id = self.team_id
            priority = Priority.INTERACTIVE if self._urgent else Priority.VISIBLE
            self._urgent = False
            if team_id is None:
                presences = await self._hub.client.agents.list_presence(priority=priority)
            else:
                try:
                    presences = [p async for p in self._hub.client.teams.presence(
                        team_id, page_size=PAGE_SIZE, priority=priority)]
                except NotFound:
                    if team_id == self.team_id:  # deleted meanwhile: show everyone instead
                        self._hub.notice("warning", "That team no longer exists: "
                                             "showing everyone.")
                        self.team_id = None
                    continue
            await self._learn_names(team_id, presences, priority)
            if team_id == self.team_id:
                return TeamSnapshot(team_id, self._rows(presences))

    async def _learn_names(self, team_id: str | None, presences: list[UserPresence],
                           priority: Priority) -> None:
        """Know the name and email of everyone in ``presences`` (as far as cheaply possible)."""
        directory = self._directory
        names = self._names
        for agent in directory.agents.values():  # the directory's are the freshest (a rename)
            names[agent.id] = (agent.display_name, agent.email)
        unknown = [p.user_id for p in presences if p.user_id not in names]
        if team_id is not None and (team_id not in self._team_members or unknown):
            await self._load_team_members(team_id, priority)
            unknown = [p.user_id for p in presences if p.user_id not in names]
        if not unknown or not directory.agents:
            return  # nothing missing, or sign-in is still loading the directory
        if self._looked_up_at is not None and \
                self._ticks - self._looked_up_at < NAME_LOOKUP_TICKS:
            return
        self._looked_up_at = self._ticks
        try:
            async for agent in self._hub.client.agents.list(page_size=PAGE_SIZE,
                                                                priority=Priority.BACKGROUND):
                names[agent.id] = (agent.display_name, agent.email)
                directory.names.setdefault(agent.id, agent.display_name)
        except ApiError as error:
            log.info("could not look up agents' names: %s", error)

    async def _load_team_members(self, team_id: str, priority: Priority) -> None:
        try:
            members = await self._hub.client.teams.members(team_id, priority=priority)
        except ApiError as error:
            log.info("could not read the members of team %s: %s", team_id, error)
            return
        self._team_members[team_id] = tuple(m.id for m in members)
        for member in members:
            known = self._names.get(member.id)
            self._names[member.id] = (member.name or (known[0] if known else ""),
                                      member.email or (known[1] if known else ""))

    async def _fetch_loads(self) -> tuple[Load, ...]:
        """Count the open conversations of every agent shown, in as many searches as their
        count has bits: agent *i* is number *i* + 1, search *b* finds the open
        conversations assigned to the agents whose number has bit *b* set, and each
        conversation's searches spell its agent's number. A conversation that moves between
        two of a tick's searches spells a wrong number (or none) for that tick only."""
        shown = self.shown_agents()
        codes: dict[int, int] = {}
        whole = True
        requests = 0
        for bit in range(len(shown).bit_length()):
            group = [agent for number, agent in enumerate(shown, 1) if number >> bit & 1]
            found = await self._open_of(group)
            if found is None:  # the service has no search: no loads to show
                break
            ids, complete, pages = found
            whole = whole and complete
            requests += pages
            for conversation_id in ids:
                codes[conversation_id] = codes.get(conversation_id, 0) | 1 << bit
        else:
            per_number: dict[int, int] = {}
            for code in codes.values():
                per_number[code] = per_number.get(code, 0) + 1
            for number, agent_id in enumerate(shown, 1):
                self._loads[agent_id] = Load(agent_id, per_number.get(number, 0), not whole)
        self._pace_loads(bool(shown), requests)
        return tuple(sorted(self._loads.values(), key=lambda load: load.agent_id))

    async def _open_of(self, agents: list[str]) -> tuple[list[int], bool, int] | None:
        """The open conversations assigned to ``agents`` (up to :data:`LOAD_PAGES` pages),
        whether that is all of them and the pages read; None when the service has no
        search."""
        body = {"strategy": "All", "conditions": [
            {"field": {"_type": "AgentId", "operator": {"_type": "IsOneOf", "values": agents}}},
            {"field": {"_type": "Status", "operator": {"_type": "IsOneOf",
                                                       "values": ["open"]}}},
        ]}
        ids: list[int] = []
        key: str | None = None
        for pages in range(1, LOAD_PAGES + 1):
            try:
                page = await self._hub.client.search.conversations_page(
                    filters=body, page_size=PAGE_SIZE, page_key=key,
                    priority=Priority.BACKGROUND)
            except NotFound:
                return None
            ids += [hit.id for hit in page.items]
            key = page.next_key
            if not page.has_more:
                return ids, True, pages
            if key is None:  # a next page the service links to without a key: stop here
                break
        return ids, False, pages

    def _pace_loads(self, shown: bool, requests: int) -> None:
        """The next tick waits as long as this one's requests cost of the load's budget
        (soon while nobody is shown yet; long when the service has no search)."""
        topic = self._hub.live.topic(LOAD_TOPIC)
        if topic is None:
            return
        if not shown:
            topic.interval, topic.cost = LOAD_INTERVAL, 0.0
            return
        rate = self._load_rate()
        topic.interval = requests / rate if rate > 0 and requests else LOAD_IDLE_INTERVAL
        topic.cost = float(requests)

    def shown_agents(self) -> list[str]:
        """The agents whose load is counted: those on screen, then the other rows up to
        :data:`DEFAULT_VISIBLE` (counting a few more costs little, and a row scrolled or
        sorted into view then has its load already)."""
        snapshot = self.snapshot
        known = [row.agent_id for row in snapshot.rows] if snapshot is not None else []
        wanted = self.visible() if self.visible is not None else None
        ids = set(known)
        shown = [agent_id for agent_id in wanted or () if agent_id in ids]
        chosen = set(shown)
        room = max(DEFAULT_VISIBLE, len(shown)) - len(shown)
        shown += [agent_id for agent_id in known if agent_id not in chosen][:room]
        return shown

    def _load_rate(self) -> float:
        """Searches a second the load topic may spend: what the other active topics leave
        of the console's budget (each counted as one request a poll), at most
        :data:`LOAD_REQUESTS_PER_SECOND`."""
        live = self._hub.live
        others = 0.0
        for name in live.stats():
            topic = live.topic(name)
            if topic is None or name == LOAD_TOPIC or not topic.active or topic.interval <= 0:
                continue
            others += topic.cost / topic.interval
        return min(LOAD_REQUESTS_PER_SECOND, CONSOLE_REQUESTS_PER_SECOND - others)

    def _rows(self, presences: list[UserPresence]) -> tuple[MemberRow, ...]:
        rows: list[MemberRow] = []
        for presence in presences:
            name, email = self._names.get(presence.user_id, ("", ""))
            rows.append(MemberRow(
                agent_id=presence.user_id,
                name=name or "…" + presence.user_id[-6:],
                email=email,
                connection=presence.connection_status,
                presence=presence.presence_status or "Away",
                channels=tuple(presence.active_channels),
                last_seen=presence.last_seen,
            ))
        rows.sort(key=lambda row: (row.name.casefold(), row.agent_id))
        return tuple(rows)
