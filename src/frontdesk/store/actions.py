"""What an agent does to a conversation: applied on screen at once, sent to the service, and
rolled back with the service's own words when it refuses.

Every action returns when the service did it and raises :class:`~frontdesk.store.errors.Refused`
(its ``reason`` one line for the screen to show) when the service or a rule refused it.
:meth:`Actions.each` does one of them to many conversations, one after the other, and says
what came of each.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from ..api.errors import ApiError
from ..api.pacing import Priority
from .anonymizations import remember_anonymization
from .errors import Refused
from .topics import INBOX, THREAD

if TYPE_CHECKING:
    from ..api.models import AnonymizationRequestStatus, Conversation
    from .directory import Directory
    from .hub import Hub
    from .inbox import InboxStore
    from .local import LocalStore

log = logging.getLogger("frontdesk.store")


class Outcome(NamedTuple):
    """What came of one conversation of an action on many: ``reason`` is None when the
    service did it, else why it was refused (one line, the service's own words)."""

    conversation_id: int
    reason: str | None

    @property
    def done(self) -> bool:
        """The service did it."""
        return self.reason is None


class Actions:
    """Claim, close, reopen, transfer, follow up, tag, anonymize."""

    def __init__(self, hub: Hub, local: LocalStore, inbox: InboxStore,
                 directory: Directory) -> None:
        self._hub = hub
        self._local = local
        self._inbox = inbox
        self._directory = directory

    async def _apply(self, conversation_id: int, change: dict[str, Any] | None,
                     call: Callable[[], Awaitable[Any]], what: str) -> None:
        inbox = self._inbox
        old = inbox.records.get(conversation_id)
        if old is not None and change is not None:
            inbox.replace(old.model_copy(update=change))
            self._inbox.changed()
        try:
            await call()
        except ApiError as error:
            if old is not None and change is not None:
                inbox.replace(old)
                self._inbox.changed()
            raise Refused(f"Could not {what} #{conversation_id}: {error.message}",
                          error=error) from error
        self._hub.live.poke(THREAD)
        self._inbox.want([conversation_id])
        self._hub.live.poke(INBOX)

    async def each(self, conversation_ids: Iterable[int],
                   action: Callable[[int], Awaitable[None]]) -> AsyncIterator[Outcome]:
        """Do ``action`` (one of this class's, for one conversation) to each conversation,
        once, in the order given (a number given twice is done once), and yield what came of
        each as soon as the service answered.

        One at a time: each request waits for the client's pacer like any other, so a
        hundred conversations spend the rate budget evenly instead of all at once and the
        screen's own reads still go first; a refusal of one is its outcome and the next goes
        on. Nothing is repeated here: a conversation is tried again only when asked again."""
        for conversation_id in dict.fromkeys(conversation_ids):
            try:
                await action(conversation_id)
            except Refused as refusal:
                yield Outcome(conversation_id, refusal.reason)
            else:
                yield Outcome(conversation_id, None)

    @staticmethod
    def _now() -> datetime:
        return datetime.now(UTC)

    async def claim(self, conversation_id: int, *, force: bool = False) -> None:
        """Assign the conversation to me; ``force`` takes it over from someone else."""
        me = self._hub.me_id
        if not me:
            raise Refused("Not signed in as an agent")
        from ..api.models import Assignment

        change = {"assignment": Assignment(agent_id=me, assigned_at=self._now()), "queue": None,
                  "state": "Open"}
        await self._apply(
            conversation_id, change,
            lambda: self._hub.client.conversations.claim(conversation_id, me, force=force),
            "claim")

    async def close(self, conversation_id: int) -> None:
        """Close the conversation."""
        me = self._hub.me_id or None
        await self._apply(
            conversation_id, {"state": "Closed", "queue": None},
            lambda: self._hub.client.conversations.close(conversation_id, user_id=me),
            "close")

    async def reopen(self, conversation_id: int) -> None:
        """Open a conversation again: a Closed one is queued again, a Pending one's
        follow-up ends now. The service answers 204 whatever it did, so the record is read
        back: success only when it really is Open."""
        me = self._hub.me_id or None
        await self._apply(
            conversation_id, {"state": "Open"},
            lambda: self._hub.client.conversations.reopen(conversation_id, user_id=me),
            "reopen")
        inbox = self._inbox
        try:
            record = await self._hub.client.conversations.get(
                conversation_id, priority=Priority.INTERACTIVE)
        except ApiError as failure:
            raise Refused(f"#{conversation_id} may not be open: {failure.message}",
                          error=failure) from failure
        inbox.upsert([record])
        self._inbox.changed()
        if record.state != "Open":
            raise Refused(f"The service left #{conversation_id} "
                          f"{record.state or 'in an unknown state'!s}: it is not open.")

    async def transfer(self, conversation_id: int, queue_id: str) -> None:
        """Move the conversation to a queue (it becomes unassigned)."""
        me = self._hub.me_id or None
        from ..api.models import QueueRef

        change = {"assignment": None, "queue": QueueRef(id=queue_id, queued_at=self._now())}
        await self._apply(
            conversation_id, change,
            lambda: self._hub.client.conversations.transfer(conversation_id, queue_id,
                                                            user_id=me),
            "transfer")

    async def followup(self, conversation_id: int, until: datetime) -> None:
        """Pending until ``until``, then open again (the time is remembered for the list)."""
        me = self._hub.me_id or None
        await self._apply(
            conversation_id, {"state": "Pending"},
            lambda: self._hub.client.conversations.followup(conversation_id, until,
                                                            user_id=me),
            "follow up")
        self._inbox.set_followup(conversation_id, until)
        self._inbox.changed()

    async def set_tags(self, conversation_id: int, add: Iterable[str], remove: Iterable[str],
                       create: Iterable[str] = ()) -> None:
        """Apply the difference chosen in the tag picker; new names are created first."""
        client = self._hub.client
        inbox = self._inbox
        before = inbox.tags.get(conversation_id, ())
        add_ids = set(add)
        remove_ids = set(remove)
        try:
            for name in create:
                tag = await client.tags.create(name)
                self._directory.tags[tag.id] = tag
                add_ids.add(tag.id)
        except ApiError as error:
            raise Refused(f"Could not create the tag: {error.message}", error=error) from error
        inbox.set_tags(conversation_id, (set(before) | add_ids) - remove_ids)
        self._inbox.changed()
        failures: list[str] = []
        for tag_id in sorted(add_ids):
            try:
                await client.tags.tag_conversation(conversation_id, tag_id)
            except ApiError as error:
                failures.append(error.message)
        for tag_id in sorted(remove_ids):
            try:
                await client.tags.untag_conversation(conversation_id, tag_id)
            except ApiError as error:
                failures.append(error.message)
        try:
            tags = await client.tags.list_for_conversation(conversation_id,
                                                           priority=Priority.VISIBLE)
            inbox.set_tags(conversation_id, (t.id for t in tags))
        except ApiError:
            if failures:
                inbox.set_tags(conversation_id, before)
        self._inbox.changed()
        self._hub.live.poke(THREAD)
        if failures:
            raise Refused("Some tags were not changed: " + "; ".join(failures))

    async def bulk_tag(self, conversation_id: int, names: list[str]) -> None:
        """Tag by names in one request (asynchronous on the service; unknown names created).

        The tags show once the service has applied them: the thread and the inbox are asked
        to look again shortly after."""
        try:
            await self._hub.client.tags.bulk_tag_conversation(conversation_id, names)
        except ApiError as error:
            raise Refused(f"Could not tag #{conversation_id}: {error.message}",
                          error=error) from error
        self._inbox.want_tags([conversation_id])
        self._hub.live.poke(THREAD)
        self._hub.live.poke(INBOX)

    async def anonymize_message(self, conversation_id: int, message_id: str
                                ) -> AnonymizationRequestStatus:
        """Ask the service to scrub one message; returns the request."""
        try:
            status = await self._hub.client.anonymization.anonymize_message(
                conversation_id, message_id)
        except ApiError as error:
            raise Refused(f"Could not anonymize the message: {error.message}",
                          error=error) from error
        remember_anonymization(self._local, status)
        return status


def copy_with(conversation: Conversation, **change: Any) -> Conversation:
    """A record with some fields changed (for optimistic updates)."""
    return conversation.model_copy(update=change)
