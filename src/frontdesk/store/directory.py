"""Who and what the console names: agents, end users, queues and tags, cached.

Names are resolved once and kept (in memory and in the local store), so lists and threads
show people's names without a request per row; unknown ids are looked up in the background.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from ..api.errors import ApiError
from ..api.pacing import Priority
from .errors import Refused
from .queue_members import member_ids

if TYPE_CHECKING:
    from ..api.models import Agent, Queue, Tag
    from .hub import Hub
    from .local import LocalStore

log = logging.getLogger("frontdesk.store")

#: names looked up in one go (about a screenful of rows; the rest wait for the next go)
NAMES_AT_ONCE = 20

R = TypeVar("R")


class _Records(Generic[R]):
    """A directory's records of one kind, by id: the cached JSON becomes models the first
    time they are asked for (so the models load then, not with the first frame), until a
    load from the service replaces them."""

    def __init__(self, model: str) -> None:
        self._model = model  # its name in frontdesk.api.models
        self._kind = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._kind = name

    def __get__(self, directory: Directory, owner: object = None) -> dict[str, R]:
        loaded = directory.loaded.get(self._kind)
        if loaded is None:
            loaded = directory.loaded[self._kind] = directory.validated(self._kind, self._model)
        return cast("dict[str, R]", loaded)

    def __set__(self, directory: Directory, value: dict[str, R]) -> None:
        directory.loaded[self._kind] = value


class Directory:
    """Agents, queues, tags and people's names.

    The cached agents, queues and tags are kept as the local store gave them (JSON) until
    something needs them as records: the first frame shows queue and tag names from the JSON
    without loading the models.
    """

    #: every agent, by id (the cached ones until the service answered)
    agents: _Records[Agent] = _Records("Agent")
    #: every queue, by id
    queues: _Records[Queue] = _Records("Queue")
    #: every tag (deactivated ones too), by id
    tags: _Records[Tag] = _Records("Tag")

    def __init__(self, hub: Hub, local: LocalStore) -> None:
        self._hub = hub
        self._local = local
        self.names: dict[str, str] = dict(self._local.names())
        #: the records made so far, by kind ("agents", "queues", "tags")
        self.loaded: dict[str, dict[str, Any]] = {}
        self.my_queue_ids: set[str] = set()
        self._pending: set[str] = set()
        self._lookups: asyncio.Task[None] | None = None
        self._cached: dict[str, list[dict[str, Any]]] = {}
        #: queue and tag names from the cache, until the records are loaded
        self._queue_names: dict[str, str] = {}
        self._tag_names: dict[str, str] = {}
        self._tag_colors: dict[str, str | None] = {}
        cached = self._local.snapshot("directory")
        if isinstance(cached, dict):
            self._keep_cached(cached)

    def _keep_cached(self, cached: dict[str, Any]) -> None:
        try:
            for kind in ("agents", "queues", "tags"):
                items = cached.get(kind, [])
                self._cached[kind] = [i for i in items if isinstance(i, dict)] \
                    if isinstance(items, list) else []
            self._queue_names = {str(q["id"]): str(q.get("name") or "")
                                 for q in self._cached["queues"]}
            self._tag_names = {str(t["id"]): str(t.get("name") or "")
                               for t in self._cached["tags"]}
            self._tag_colors = {str(t["id"]): t["color"] if isinstance(t.get("color"), str)
                                else None for t in self._cached["tags"]}
            self.my_queue_ids = {str(q) for q in cached.get("my_queues", [])}
        except (KeyError, TypeError, ValueError, AttributeError):  # another version's cache
            log.warning("ignoring an unreadable directory cache")
            self._cached, self._queue_names, self._tag_names = {}, {}, {}
            self._tag_colors = {}

    def validated(self, kind: str, model_name: str) -> dict[str, Any]:
        """The cached records of ``kind`` as ``model_name`` models (those that no longer
        parse are left out)."""
        from ..api import models

        model: Any = getattr(models, model_name)
        out: dict[str, Any] = {}
        for item in self._cached.pop(kind, []):
            try:
                record = model.model_validate(item)
            except ValueError:  # a cache from another version (pydantic's ValidationError)
                continue
            out[record.id] = record
        return out

    @property
    def settled(self) -> bool:
        """No name asked for is still waiting to be looked up."""
        return not self._pending

    def name(self, user_id: str | None) -> str:
        """A person's display name, or a short form of the id while it is looked up."""
        if not user_id:
            return "—"
        known = self.names.get(user_id)
        if known is not None:
            return known
        self._pending.add(user_id)
        return "…" + user_id[-6:]

    def queue_name(self, queue_id: str | None) -> str:
        """A queue's name."""
        if not queue_id:
            return "—"
        if "queues" not in self.loaded and queue_id in self._queue_names:
            return self._queue_names[queue_id]
        queue = self.queues.get(queue_id)
        return queue.name if queue is not None else "…" + queue_id[-6:]

    def tag_name(self, tag_id: str) -> str:
        """A tag's name (a short form of the id while it is unknown)."""
        if "tags" not in self.loaded and tag_id in self._tag_names:
            return self._tag_names[tag_id]
        tag = self.tags.get(tag_id)
        return tag.name if tag is not None else "…" + tag_id[-6:]

    def tag_color(self, tag_id: str) -> str | None:
        """A tag's colour as the service gave it (None when it has none or is unknown); from
        the cache until the records are loaded, so painting a row loads no models."""
        if "tags" not in self.loaded and tag_id in self._tag_colors:
            return self._tag_colors[tag_id]
        tag = self.tags.get(tag_id)
        return tag.color if tag is not None else None

    def known_counts(self) -> tuple[int, int, int]:
        """How many names, queues and tags are known (changes when rows may read anew)."""
        loaded = self.loaded
        queues = len(loaded["queues"]) if "queues" in loaded else len(self._queue_names)
        tags = len(loaded["tags"]) if "tags" in loaded else len(self._tag_names)
        return len(self.names), queues, tags

    def tag_by_name(self, name: str) -> Tag | None:
        """The tag with this name (case-insensitive)."""
        wanted = name.casefold()
        return next((t for t in self.tags.values() if t.name.casefold() == wanted), None)

    async def load(self) -> None:
        """Fetch agents, queues (with my memberships) and tags, and keep them.

        My queues decide what the Queue view asks for, so their members are read at once,
        side by side and at the priority of what is on screen (with the tags), not behind
        the inbox's first fill."""
        client = self._hub.client
        me = self._hub.me_id
        agents = [a async for a in client.agents.list(page_size=200, priority=Priority.VISIBLE)]
        self.agents = {a.id: a for a in agents}
        self.names.update({a.id: a.display_name for a in agents})
        queues = await client.queues.list(priority=Priority.VISIBLE)
        self.queues = {q.id: q for q in queues}
        *memberships, tags = await asyncio.gather(
            *(member_ids(client, queue.id, Priority.VISIBLE) for queue in queues),
            self.load_tags(), return_exceptions=True)
        for outcome in (*memberships, tags):  # a queue's members missing is no failure
            if isinstance(outcome, BaseException) and (
                    outcome is tags or not isinstance(outcome, Refused)):
                raise outcome
        mine = {queue.id for queue, members in zip(queues, memberships, strict=True)
                if isinstance(members, list) and me in members}
        self.my_queue_ids = mine or set(self.queues)
        self._save()

    async def load_tags(self) -> None:
        """Fetch every tag, deactivated ones too."""
        tags = await self._hub.client.tags.list(include_deactivated=True,
                                                    priority=Priority.VISIBLE)
        self.tags = {t.id: t for t in tags}
        self._save()

    def _save(self) -> None:
        self._local.save_snapshot("directory", {
            "agents": [a.wire() for a in self.agents.values()],
            "queues": [q.wire() for q in self.queues.values()],
            "tags": [t.wire() for t in self.tags.values()],
            "my_queues": sorted(self.my_queue_ids),
        })
        self._local.remember_names(self.names)

    async def resolve_pending(self, only: set[str] | None = None,
                              priority: Priority = Priority.BACKGROUND) -> bool:
        """Look up names asked for but unknown (end users); True when any was found.

        ``only`` limits the look-up to these ids (the open thread's authors), so a thread
        never waits behind the inbox's list of names.
        """
        if only is not None:
            wanted = [u for u in only if u not in self.names]
            self._pending.difference_update(wanted)
        else:
            wanted = [u for u in self._pending if u not in self.names]
            self._pending.clear()
        found: dict[str, str] = {}
        for user_id in wanted[:NAMES_AT_ONCE]:
            try:
                user = await self._hub.client.endusers.get(user_id, priority=priority)
            except ApiError:
                try:
                    agent = await self._hub.client.agents.get(user_id, priority=priority)
                except ApiError:
                    continue
                found[user_id] = agent.display_name
                continue
            found[user_id] = user.display_name or user.email or user.phone_number or "customer"
        self._pending.update(wanted[NAMES_AT_ONCE:])
        if only is not None:
            self._pending.update(u for u in wanted if u not in found)
        if found:
            self.names.update(found)
            self._local.remember_names(found)
        return bool(found)
