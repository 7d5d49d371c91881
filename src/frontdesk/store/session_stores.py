"""The session's stores made on first use: the open thread, the actions, the finder, the
composer's, and each mode's own (Team, Queues, Admin, People, Stats, …).

None of them is needed for the first frame, so none is built (nor its module imported) until
a screen first asks. Each gets the session's shared :class:`~frontdesk.store.hub.Hub` and the
collaborators it needs, never the session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..api.models import Agent
    from ..settings import Settings
    from .actions import Actions
    from .admin import AdminStore
    from .compose import Compose
    from .directory import Directory
    from .finder import Finder
    from .hub import Hub
    from .inbox import InboxStore
    from .knowledge import KnowledgeStore
    from .local import LocalStore
    from .organization import OrganizationStore
    from .outbox import Outbox
    from .people import PeopleStore
    from .queues import QueueWatch
    from .stats import StatsWatch
    from .team import TeamWatch
    from .templates import TemplatesStore
    from .threads import ThreadStore
    from .webhooks import WebhooksStore

__all__ = ["SessionStores"]


class SessionStores:
    """The stores a session makes on first use (a part of ``Session``, which holds them)."""

    hub: Hub
    local: LocalStore
    settings: Settings
    directory: Directory
    inbox: InboxStore
    outbox: Outbox
    me: Agent | None
    _threads: ThreadStore | None
    _actions: Actions | None
    _finder: Finder | None
    _compose: Compose | None
    _team: TeamWatch | None
    _queues: QueueWatch | None
    _admin: AdminStore | None
    _people: PeopleStore | None
    _templates: TemplatesStore | None
    _organization: OrganizationStore | None
    _webhooks: WebhooksStore | None
    _knowledge: KnowledgeStore | None
    _stats: StatsWatch | None

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
