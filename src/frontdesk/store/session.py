"""A signed-in console session: the client, the local store, the live topics, the outbox, and
the stores each screen reads (inbox, thread, directory, actions).

The screens talk only to this object (never to HTTP). Building one reads only the local store
(no models, no HTTP stack, no keyring), so the first frame paints from the local snapshot at
once; ``start`` then connects (``connect`` builds the client, on a worker thread: it imports
the HTTP stack and may read the keyring), resolves who I am and starts polling.

One class, over 400 lines, and why: it is the one object the console holds, and its life
cycle (connect, sign in again, stop), what its own live topics fetch (the inbox after finding
out who I am, my presence, the business hours that set the service's clock) and the stores it
makes on first use (none is built, nor its module imported, until a screen first asks; each
gets the shared :class:`~frontdesk.store.hub.Hub`, never the session) all read and set the
same state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from ..api import left_out
from ..api.errors import ApiError, TransportError, Unauthorized
from ..api.pacing import Priority
from ..channels import channel_name
from ..text import one_line
from .connection import Link
from .directory import Directory
from .hub import Hub, Notice
from .inbox import InboxStore
from .live import LiveStore
from .local import LocalStore
from .member import MEMBER_SNAPSHOT, Membership
from .presence import MY_PRESENCE_EVERY, MyPresence
from .topics import DISK, HOURS, INBOX, MEMBER, MY_PRESENCE, OUTBOX, THREAD

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

    from ..api.client import ApiClient
    from ..api.models import Agent, BusinessHoursStatus, UserPresence
    from ..settings import Settings
    from .actions import Actions
    from .admin import AdminStore
    from .business_time import BusinessTime
    from .change_stream import ChangeStream
    from .compose import Compose
    from .finder import Finder
    from .knowledge import KnowledgeStore
    from .organization import OrganizationStore
    from .outbox import Outbox, OutboxItem
    from .people import PeopleStore
    from .queues import QueueWatch
    from .stats import StatsWatch
    from .team import TeamWatch
    from .templates import TemplatesStore
    from .threads import ThreadStore
    from .webhooks import WebhooksStore

log = logging.getLogger("frontdesk.store")

#: Seconds between looks for a key while signed out.
SIGN_IN_RETRY = 10.0


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class HoursNow(NamedTuple):
    """Whether the business is open, and until when (``is_open``) or from when (closed): the
    moment in UTC, for the console to show in the user's own time zone. None when the schedule
    gives none (always open, or never opening soon). Equal readings compare equal, so an
    unchanged poll is no change."""

    is_open: bool
    until: datetime | None


def hours_now(status: BusinessHoursStatus) -> HoursNow:
    """The header's reading of a business-hours status."""
    return HoursNow(status.is_open, status.closes_at if status.is_open else status.opens_at)


class Session:
    """Everything a signed-in console needs, without Textual."""

    def __init__(self, *, local: LocalStore, settings: Settings, profile: str, identity: str,
                 client: ApiClient | None = None,
                 connect: Callable[[], ApiClient] | None = None,
                 new_key: Callable[[], str | None] | None = None,
                 gateway: bool = False) -> None:
        if client is None and connect is None:
            raise ValueError("a Session needs a client or a way to connect")
        self._client = client
        self._connect = connect
        #: reads the key again (keyring entry, key file) and returns it when it changed;
        #: called, off the loop, while the service refuses the key in use
        self._new_key = new_key
        self._rekeying: asyncio.Task[None] | None = None
        self._signing_in: asyncio.Task[None] | None = None
        #: connected and begun (polling, sending): done once however many find the key
        self._begun = False
        self._connecting = threading.Lock()
        self._connect_error: str | None = None
        #: a few words for the header when connecting failed ("no API key", …)
        self._connect_reason = "cannot connect"
        self.local = local
        self.settings = settings
        self.profile = profile
        self.identity = identity
        self._live = LiveStore()
        self.live = self._live
        local.on_disk_problem = self._disk_problem
        self.on_notice: Notice | None = None
        #: lists with items the client could not read, said once for each list and count
        self._left_out_said: set[tuple[str, int, int]] = set()
        self._stop_hearing_left_out = left_out.listen(self._items_left_out)
        self.me: Agent | None = None
        #: signed in through a team gateway: the member's role and what it allows
        self.membership = Membership(gateway=gateway, cached=local.snapshot(MEMBER_SNAPSHOT))
        #: my id as the last session knew it (the views need it before the service answers)
        self._cached_me_id = ""
        cached_me = local.snapshot("me")
        if isinstance(cached_me, dict) and identity in (cached_me.get("id"),
                                                        cached_me.get("email")):
            self._cached_me_id = str(cached_me.get("id") or "")
        #: the wall clock (tests drive it with virtual time)
        self.wall: Callable[[], datetime] = lambda: datetime.now(UTC)
        self.server_offset = timedelta(0)
        self.clock_known = False  # server_offset measured against the service's clock
        self.schedule_zone: ZoneInfo | None = None
        self.schedule_id: str | None = None
        #: what every sub-store shares, read through providers (the client connects later,
        #: a key is picked up again, the live store may be replaced before the start)
        self.hub = Hub(client=lambda: self.client, me_id=lambda: self.me_id,
                       live=lambda: self.live, notice=self.notice, server_now=self.server_now,
                       clock_known=lambda: self.clock_known, may=self.may)
        hub = self.hub
        self.directory = Directory(hub, local)
        self.inbox = InboxStore(hub, local, self.directory)
        self._outbox: Outbox | None = None
        self._threads: ThreadStore | None = None
        self._actions: Actions | None = None
        self.presence = MyPresence(hub)
        self._finder: Finder | None = None
        self._team: TeamWatch | None = None
        self._queues: QueueWatch | None = None
        self._admin: AdminStore | None = None
        self._people: PeopleStore | None = None
        self._templates: TemplatesStore | None = None
        self._organization: OrganizationStore | None = None
        self._webhooks: WebhooksStore | None = None
        self._knowledge: KnowledgeStore | None = None
        self._stats: StatsWatch | None = None
        self._compose: Compose | None = None
        self._outbox_task: asyncio.Task[None] | None = None
        self._changes: ChangeStream | None = None
        self._listening: asyncio.Task[None] | None = None
        self.started = False

    @property
    def changes(self) -> ChangeStream:
        """The team gateway's change stream (listened to only through a gateway), made on
        first use: its module reads the models (pydantic), which the first frame does not
        need."""
        if self._changes is None:
            from .change_stream import ChangeStream

            self._changes = ChangeStream(lambda: self.client, self.live, self.inbox)
        return self._changes

    @property
    def changes_dropped(self) -> bool:
        """Whether the gateway's change stream was up and dropped (the console polls by
        itself until it is up again); False while nobody listened to it."""
        return self._changes is not None and self._changes.dropped

    # ------------------------------------------------------------------ identity and time

    @property
    def me_id(self) -> str:
        """My agent id ('' until known)."""
        return self.me.id if self.me is not None else self._cached_me_id

    @property
    def live(self) -> LiveStore:
        """The live topics."""
        return self._live

    @live.setter
    def live(self, value: LiveStore) -> None:
        """Use another live store (tests give one with their own sleep): the session listens
        to it as to the first."""
        self._live = value
        value.on_refused = self._key_refused
        value.on_failure = self._topic_failed

    def _topic_failed(self, topic: str, error: Exception) -> None:
        """A topic's fetch or listener failed unexpectedly (once per topic): say so."""
        self.notice("error", f"Could not keep {topic} up to date: {type(error).__name__}: "
                    f"{one_line(str(error), 120)} — the details are in the log.")

    @property
    def client(self) -> ApiClient:
        """The service's client, connected on first use (``start`` connects it off the
        loop). Raises :class:`~frontdesk.api.errors.TransportError` when connecting failed,
        and on the event loop while not connected yet: connecting waits (for the key, for
        the demo's service to come up), and the loop never waits, or every key would."""
        if self._client is None and not _on_event_loop():
            self._connect_now()
        if self._client is None:
            why = self._connect_error or "still connecting to the service"
            raise TransportError(f"Not connected: {why}", sent=False)
        return self._client

    @client.setter
    def client(self, value: ApiClient) -> None:
        self._client = value

    def _connect_now(self) -> None:
        """Build the client once (thread-safe: ``start`` runs this on a worker thread)."""
        with self._connecting:
            if self._client is not None or self._connect_error is not None:
                return
            assert self._connect is not None
            try:
                self._client = self._connect()
            except Exception as error:  # a boundary: a missing key, a locked keyring (its
                # backends raise what they like), a bad address… kept, said with the link
                self._connect_error = str(error) or type(error).__name__
                from ..settings import ConfigError

                if isinstance(error, ConfigError):  # the key: missing, unreadable, no keyring
                    self._connect_reason = "no API key"
                log.warning("could not connect: %s", self._connect_error)

    def server_now(self) -> datetime:
        """The service's current time, as far as the console can tell."""
        return self.wall() + self.server_offset

    def notice(self, severity: str, text: str) -> None:
        """Tell the user something (the app shows it as a notification)."""
        if self.on_notice is not None:
            self.on_notice(severity, text)
        else:
            log.info("%s: %s", severity, text)

    def _items_left_out(self, event: left_out.LeftOut) -> None:
        """Items of a list the client could not read are said, never hidden: once for each
        list and count (every poll reads the same list again)."""
        said = (event.operation, event.left, event.total)
        if said not in self._left_out_said:
            self._left_out_said.add(said)
            self.notice("warning", str(event) + ".")

    def _disk_problem(self, problem: str | None) -> None:
        """The local store cannot write (or can again): the header says so."""
        self.live.announce(DISK, problem)
        if problem is not None:
            self.notice("error", f"The local database cannot be written ({problem}): drafts "
                        "and replies you write now are not kept until this is fixed.")
        else:
            self.notice("information", "The local database can be written again.")

    def _key_refused(self) -> None:
        """The service refused the key: look for a new one (written by `frontdesk login` in
        another terminal, a changed key file or keyring entry), once at a time."""
        if self._new_key is None or self._client is None:
            return
        if self._rekeying is not None and not self._rekeying.done():
            return
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to schedule on
            self._rekeying = asyncio.get_running_loop().create_task(self._pick_up_key())

    async def _pick_up_key(self) -> None:
        assert self._new_key is not None
        try:
            key = await asyncio.to_thread(self._new_key)
        except Exception as error:  # a boundary: the keyring locked, the file gone: keep waiting
            log.info("could not read the key again: %s", error)
            return
        if key is None or self._client is None:
            return
        try:
            self._client.use_key(key)
        except ValueError as error:  # a key with a line break, say: not usable
            self.notice("error", f"The new API key cannot be used: {error}")
            return
        log.info("using a new API key")
        self.notice("information", "A new API key was found; connecting with it.")
        self.live.key_changed()

    # ------------------------------------------------------------------ life cycle

    def may(self, operation: str) -> bool:
        """Whether I may perform ``operation`` (``"tags.create"``): always with the
        service's key; through a team gateway, when my role allows it. The console offers
        only what this allows."""
        return self.membership.may(operation)

    async def resolve_me(self) -> Agent:
        """Who am I: the agent whose email or id is the profile's identity; through a
        team gateway, the agent the member's key acts as (and the member's role)."""
        identity = self.identity
        if self.membership.gateway:
            member = await self.client.gateway.me()
            self.membership.learn(member)
            self.local.save_snapshot(MEMBER_SNAPSHOT, self.membership.wire())
            self.live.announce(MEMBER, self.membership.role_name)
            agent = await self.client.agents.get(member.agent_id)
        elif "@" in identity:
            page = await self.client.agents.list_page(email=identity, page_size=5)
            if not page.items:
                raise LookupError(f"No agent or admin has the email {identity}")
            agent = page.items[0]
        else:
            agent = await self.client.agents.get(identity)
        self.me = agent
        self.local.save_snapshot("me", agent.wire())
        self.directory.names[agent.id] = agent.display_name
        return agent

    async def start(self) -> None:
        """Sign in, learn the organisation, and start polling and sending."""
        if self.started:
            return
        self.started = True
        if self.inbox.read_the_rest():  # the first frame is on screen: the whole inbox now
            self.inbox.changed()
        if self._client is None:
            await asyncio.to_thread(self._connect_now)
            if self._client is None:
                self.live.sign_out(self._connect_reason, self._connect_error or "")
                self.notice("error", f"Could not sign in: {self._connect_error}")
                self._signing_in = asyncio.get_running_loop().create_task(self._keep_trying())
                return
        await self._begin()

    async def _keep_trying(self) -> None:
        """Signed out (no key yet): look for the key now and then, and sign in with it once
        it is there (``frontdesk login`` in another terminal), without a restart."""
        while self._client is None:
            await self.live.sleep(SIGN_IN_RETRY)
            await self.sign_in_again()

    async def sign_in_again(self) -> bool:
        """Read the key again and, when it is there now, sign in and start; whether the
        session is signed in."""
        if self._client is not None:
            return True
        await asyncio.to_thread(self._connect_afresh)
        if self._client is None:
            return False
        if self._begun:  # the retry timer and a caller found the key at once: begun once
            return True
        self.notice("information", "An API key was found; signing in with it.")
        self.live.key_changed()
        await self._begin()
        return True

    def _connect_afresh(self) -> None:
        """Forget the last failure and connect again (on a worker thread: the lock may be
        held by a connection still under way, and the loop never waits)."""
        with self._connecting:
            self._connect_error = None
        self._connect_now()

    async def _begin(self) -> None:
        """Connected: poll, send, find out who I am and load the organisation."""
        if self._begun:
            return
        self._begun = True
        poll = self.settings.poll
        self.live.add(INBOX, self._poll_inbox, poll.conversations, initial=self.inbox.version)
        self.live.add(MY_PRESENCE, self._my_presence, max(poll.presence, MY_PRESENCE_EVERY),
                      always=True)
        self.live.add(HOURS, self._hours, poll.business_hours, always=True)
        self._outbox_task = asyncio.get_running_loop().create_task(self.outbox.run())
        if self.membership.gateway:  # told what changes instead of asking
            self._listening = asyncio.get_running_loop().create_task(self.changes.run())
        try:
            await self.resolve_me()
        except (ApiError, LookupError) as error:
            if isinstance(error, Unauthorized):
                self.live.report(error)
            said = await self._no_service(error)
            self.notice("error", said or f"Could not sign in: {error}")
        self.live.start()
        try:
            await self.directory.load()
            self.inbox.changed()
            self.live.poke(INBOX)  # now that my queues are known, find what waits in them
        except ApiError as error:
            if self.live.connection.link is not Link.NO_SERVICE:  # said once, above
                self.notice("warning",
                            f"Could not load agents, queues and tags: {error.message}")

    async def close(self) -> None:
        """Stop polling and sending; keep what the next start paints from."""
        self._stop_hearing_left_out()
        await self.live.stop()
        for task in (self._rekeying, self._signing_in, self._listening):
            if task is not None:
                task.cancel()
        if self._outbox_task is not None:
            self._outbox_task.cancel()
            # a boundary: closing goes on (the sender logs its own failures)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._outbox_task
        with contextlib.suppress(Exception):  # a boundary: closing goes on to close the rest
            self.inbox.save()
        if self._client is not None:
            await self._client.aclose()
        self.local.close()

    # ------------------------------------------------------------------ replies

    def send_reply(self, conversation_id: int, text: str, *, content_type: str = "Text",
                   attachments: list[dict[str, str]] | None = None) -> OutboxItem:
        """Put a reply in the outbox (it is sent, and retried, from there)."""
        payload: dict[str, Any] = {"content": text, "content_type": content_type,
                                   "attachments": attachments or [], "agent_id": self.me_id}
        item = self.outbox.enqueue(conversation_id, payload)
        return item

    async def _send(self, item: OutboxItem) -> Any:
        from .outbox import is_note

        if is_note(item.payload):
            return await self.compose.deliver_note(item)
        payload = item.payload
        conversation = self.inbox.records.get(item.conversation_id)
        added = await self.client.messages.add(
            item.conversation_id,
            payload.get("content") or None,
            agent_id=payload.get("agent_id") or self.me_id,
            content_type=payload.get("content_type", "Text"),
            attachments=payload.get("attachments") or None,
            external_id=item.external_id,
            channel=conversation.channel if conversation is not None else None,
        )
        self.live.poke(THREAD)
        return added

    def _outbox_changed(self) -> None:
        self.threads.refresh_pending()
        self.live.announce(OUTBOX, self.local.unsent_count())

    # ------------------------------------------------------------------ what its own topics fetch

    async def _poll_inbox(self) -> int:
        if not self.me_id:
            try:
                await self.resolve_me()
            except Unauthorized:
                raise  # the header must say the key is refused, not show an empty inbox
            except (ApiError, LookupError) as error:
                if await self._no_service(error):
                    raise  # nor live over an empty inbox when the address is not the service
        self.local.probe()
        return await self.inbox.poll()

    async def _no_service(self, error: BaseException) -> str | None:
        """The one line saying the base URL is not the service, put in the header, when
        ``error`` (from asking who I am) shows it; None otherwise."""
        from .address import address_problem

        client = self.client
        said = await address_problem(client, client.base_url, "@" in self.identity, error)
        if said is not None:
            self.live.no_service(said)
        return said

    async def _my_presence(self) -> UserPresence | None:
        if not self.me_id:
            return None
        presence = await self.client.agents.presence(self.me_id, priority=Priority.VISIBLE)
        # The service's clock reading is not news: without it an unchanged poll is no change.
        return presence.model_copy(update={"request_time": _EPOCH})

    async def _hours(self) -> HoursNow | None:
        client = self.client
        hours: BusinessTime | None = None
        if self.schedule_id is None:
            wanted = self.settings.ui.business_hours_schedule
            page = await client.business_hours.list_schedules_page(priority=Priority.BACKGROUND)
            if not page.items:
                self.inbox.set_business_time(None)  # plain waits, this machine's clock
                return None
            chosen = next((s for s in page.items if wanted in (s.id, s.name)), page.items[0])
            definition = await client.business_hours.definition(chosen.id,
                                                                priority=Priority.BACKGROUND)
            self.schedule_id = chosen.id
            from .business_time import BusinessTime
            from .hours_calendar import zone_named

            self.schedule_zone = zone_named(definition.timezone)
            hours = BusinessTime.of(definition)
        before = self.wall()
        status = await client.business_hours.status(self.schedule_id, priority=Priority.BACKGROUND)
        after = self.wall()
        self.server_offset = status.timestamp - (before + (after - before) / 2)
        self.clock_known = True
        if hours is not None:  # the first reading: the waits count these hours from now on
            self.inbox.set_business_time(hours)
        return hours_now(status)

    # ------------------------------------------------------------------ stores made on first use

    @property
    def outbox(self) -> Outbox:
        """The replies kept until the service confirms them (made on first use: the first
        frame tells only how many wait, :meth:`LocalStore.unsent_count`; the session's start
        makes it and sends what waits). Holds for undo are read on the session's wall clock
        (tests drive it)."""
        if self._outbox is None:
            from .outbox import Outbox

            self._outbox = Outbox(self.local, self._send, on_change=self._outbox_changed,
                                  wall=lambda: self.wall().timestamp())
        return self._outbox

    @property
    def threads(self) -> ThreadStore:
        """The open thread's store (made on first use: the first frame needs no thread)."""
        if self._threads is None:
            from .threads import ThreadStore

            self._threads = ThreadStore(self.hub, self.inbox, self.directory, self.outbox,
                                        self.settings.poll.thread)
        return self._threads

    @property
    def actions(self) -> Actions:
        """What the action keys do (made on first use, like :attr:`threads`)."""
        if self._actions is None:
            from .actions import Actions

            self._actions = Actions(self.hub, self.local, self.inbox, self.directory)
        return self._actions

    @property
    def finder(self) -> Finder:
        """Search, open and create (made on first use, like :attr:`threads`)."""
        if self._finder is None:
            from .finder import Finder

            self._finder = Finder(self.hub, self.inbox, self.directory)
        return self._finder

    @property
    def compose(self) -> Compose:
        """Drafts, replies and notes (made on first use, like :attr:`threads`)."""
        if self._compose is None:
            from .compose import Compose

            self._compose = Compose(self.hub, self.local, self.outbox, self.threads,
                                    hold=lambda: self.settings.compose.undo_seconds)
        return self._compose

    @property
    def team(self) -> TeamWatch:
        """The Team mode's store (its topics are registered on first use)."""
        if self._team is None:
            from .team import TeamWatch

            self._team = TeamWatch(self.hub, self.directory, self.settings.poll.presence)
        return self._team

    @property
    def queues(self) -> QueueWatch:
        """The Queues mode's store (its topics are registered on first use)."""
        if self._queues is None:
            from .queues import QueueWatch

            self._queues = QueueWatch(self.hub, self.inbox, self.directory,
                                      self.settings.poll.queues)
        return self._queues

    @property
    def admin(self) -> AdminStore:
        """The Admin mode's store."""
        if self._admin is None:
            from .admin import AdminStore

            self._admin = AdminStore(self.hub, self.local, self.directory)
        return self._admin

    @property
    def people(self) -> PeopleStore:
        """The People mode's store."""
        if self._people is None:
            from .people import PeopleStore

            self._people = PeopleStore(self.hub, self.local, self.directory)
        return self._people

    @property
    def templates(self) -> TemplatesStore:
        """Quick responses for the composer, every template for Admin."""
        if self._templates is None:
            from .templates import TemplatesStore

            self._templates = TemplatesStore(self.hub, self.inbox, lambda: self.me)
        return self._templates

    @property
    def organization(self) -> OrganizationStore:
        """The organisation's details and flows (Admin)."""
        if self._organization is None:
            from .organization import OrganizationStore

            self._organization = OrganizationStore(self.hub)
        return self._organization

    @property
    def webhooks(self) -> WebhooksStore:
        """Admin → Webhooks."""
        if self._webhooks is None:
            from .webhooks import WebhooksStore

            self._webhooks = WebhooksStore(self.hub)
        return self._webhooks

    @property
    def knowledge(self) -> KnowledgeStore:
        """The help centre (the composer's article finder, Admin → Knowledge)."""
        if self._knowledge is None:
            from .knowledge import KnowledgeStore

            self._knowledge = KnowledgeStore(self.hub)
        return self._knowledge

    @property
    def stats(self) -> StatsWatch:
        """The Stats mode's figures (its topic is registered on first use)."""
        if self._stats is None:
            from .stats import StatsWatch

            self._stats = StatsWatch(self.hub)
        return self._stats


def _on_event_loop() -> bool:
    """Whether this thread runs an event loop (the console's): no blocking wait here."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def describe_presence(presence: UserPresence | None) -> str:
    """``Working · Email, Messaging`` / ``Away`` / ``Offline``."""
    if presence is None:
        return ""
    if presence.connection_status != "Online":
        return "○ Offline"
    status = presence.presence_status or "Away"
    channels = ", ".join(channel_name(c) or c for c in presence.active_channels)
    return f"● {status}" + (f" · {channels}" if channels else "")
