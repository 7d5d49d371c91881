"""Finding and starting conversations: text search on the service, open by id, create, import.

The inbox's own views come from the polled working set; this module answers the user's
explicit requests beyond it (``s`` search, ``o`` open by id, ``n`` new conversation, the
preview pane's last messages). Every record found is kept in the inbox working set, so what
the user has seen stays listed. Every method returns the result or the error's text (for the
screen to show); none raises for a refusal of the service.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..api.errors import ApiError, InvalidRequest, NotFound
from ..api.pacing import Priority
from .connection import Link
from .errors import Refusal, Refused
from .people_checks import check_email
from .topics import INBOX

if TYPE_CHECKING:
    from ..api.models import Conversation, EndUser, Message
    from ..api.models.contact_endpoints import ContactEndpoint
    from .directory import Directory
    from .hub import Hub
    from .inbox import InboxStore

log = logging.getLogger("frontdesk.store")

#: search results kept at most (one page of the service's search)
SEARCH_LIMIT = 100
#: search results read first, at a key press's priority (about a screenful)
FIRST_PAGE = 40


class Finder:
    """Search, open, create and import conversations for one session."""

    def __init__(self, hub: Hub, inbox: InboxStore, directory: Directory) -> None:
        self._hub = hub
        self._inbox = inbox
        self._directory = directory
        self._endpoints: dict[str, list[ContactEndpoint]] = {}

    # ------------------------------------------------------------------ finding

    async def search_text(self, query: str,
                          found: Callable[[list[int]], None] | None = None, *,
                          deprecated: bool = False) -> list[Conversation]:
        """Conversations whose text matches ``query``, as the service ranks them.

        The service answers with ids only: ``found`` is told them, in rank order, as soon as
        it answers (the ones the inbox knows can be listed at once). Records not known yet
        (at most :data:`SEARCH_LIMIT`) are then asked for all together — the first
        :data:`FIRST_PAGE` at a key press's priority, the rest behind them, the pacer
        spreading them over the service's budget — and each is kept (and the inbox told) as
        it arrives. Known ones are refreshed at the next poll; all stay in the working set.
        ``deprecated`` asks through the service's deprecated search by text (the same
        answer, from ``GET /v1/search/conversations``).
        """
        query = query.strip()
        if not query:
            raise Refused("Type something to search for.")
        client = self._hub.client
        inbox = self._inbox
        try:
            if deprecated:
                hits = []
                async for hit in client.search.conversations_by_text(
                        query, page_size=SEARCH_LIMIT, priority=Priority.INTERACTIVE):
                    hits.append(hit)
                    if len(hits) == SEARCH_LIMIT:  # the first page, as the other search
                        break
            else:
                hits = (await client.search.conversations_page(
                    query, page_size=SEARCH_LIMIT, priority=Priority.INTERACTIVE)).items
        except NotFound as error:
            raise Refused("This service has no conversation search.", error=error) from error
        except ApiError as error:
            raise Refused(f"Could not search: {error.message}", error=error) from error
        ids = list(dict.fromkeys(hit.id for hit in hits))
        if found is not None:
            found(ids)
        unknown = [cid for cid in ids if cid not in inbox.records]
        inbox.want([cid for cid in ids if cid in inbox.records], Priority.VISIBLE)
        failures = await self._read_found(unknown)
        self._inbox.changed()
        result = [inbox.records[cid] for cid in ids if cid in inbox.records]
        if failures and not result:
            raise Refused(f"Could not read the conversations found: {failures[0]}")
        return result

    async def _read_found(self, ranked: list[int]) -> list[str]:
        """Ask for these records all at once (the first page first) and keep each group
        that has arrived, telling the inbox; the failures' messages (a record that failed is
        fetched again at the next poll)."""
        client = self._hub.client
        inbox = self._inbox
        asked = {asyncio.ensure_future(client.conversations.get(
            cid, priority=Priority.INTERACTIVE if rank < FIRST_PAGE else Priority.VISIBLE)): cid
            for rank, cid in enumerate(ranked)}
        failures: list[str] = []
        waiting = set(asked)
        try:
            while waiting:
                done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                arrived: list[Conversation] = []
                for task in done:
                    error = task.exception()
                    if error is None:
                        arrived.append(task.result())
                    elif isinstance(error, ApiError):
                        if not isinstance(error, NotFound):
                            failures.append(error.message)
                            inbox.want([asked[task]], Priority.VISIBLE)
                    else:
                        raise error
                if arrived:
                    inbox.upsert(arrived, "seen")
                    inbox.changed()
        finally:
            for task in waiting:
                task.cancel()
        return failures

    async def open_by_id(self, conversation_id: int) -> Conversation:
        """One conversation, fetched now (and kept)."""
        try:
            conversation = await self._hub.client.conversations.get(
                conversation_id, priority=Priority.INTERACTIVE)
        except NotFound as error:
            wrong_address = self._hub.live.connection.problem \
                if self._hub.live.connection.link is Link.NO_SERVICE else None
            raise Refused(wrong_address or f"There is no conversation #{conversation_id}.",
                          error=error) from error
        except ApiError as error:
            raise Refused(f"Could not open #{conversation_id}: {error.message}",
                          error=error) from error
        self._inbox.upsert([conversation], "opened")
        self._inbox.changed()
        return conversation

    async def refresh_tags(self, conversation_id: int) -> None:
        """Read a conversation's tags now (before the tag picker shows them)."""
        try:
            tags = await self._hub.client.tags.list_for_conversation(
                conversation_id, priority=Priority.INTERACTIVE)
        except ApiError as error:
            raise Refused(f"Could not read the tags of #{conversation_id}: {error.message}",
                          error=error) from error
        for tag in tags:
            self._directory.tags.setdefault(tag.id, tag)
        self._inbox.set_tags(conversation_id, (t.id for t in tags))
        self._inbox.changed()

    async def end_user_by_email(self, email: str) -> EndUser:
        """The end user with this email address."""
        email = email.strip()
        try:
            page = await self._hub.client.endusers.list_page(
                email=email, page_size=5, priority=Priority.INTERACTIVE)
        except ApiError as error:
            raise Refused(f"Could not look up {email}: {error.message}", error=error) from error
        if not page.items:
            raise Refused(f"No end user has the email address {email}.",
                          kind=Refusal.UNKNOWN_ADDRESS)
        user = page.items[0]
        self._directory.names.setdefault(
            user.id, user.display_name or user.email or user.phone_number or "customer")
        return user

    async def requester(self, given: str, *, create: bool = False) -> EndUser:
        """The end user meant by ``given`` (an email address or an id). An address nobody
        has is refused as :attr:`Refusal.UNKNOWN_ADDRESS`, or, with ``create``, becomes a
        new end user with that address (a first conversation with a new customer)."""
        given = given.strip()
        if not given:
            raise Refused("Name the requester: an email address or an end user id.")
        if "@" in given:
            try:
                return await self.end_user_by_email(given)
            except Refused as refused:
                if not create or refused.kind is not Refusal.UNKNOWN_ADDRESS:
                    raise
            return await self._new_end_user(given)
        try:
            return await self._hub.client.endusers.get(given, priority=Priority.INTERACTIVE)
        except NotFound as error:
            raise Refused(f"There is no end user {given}.", error=error) from error
        except ApiError as error:
            raise Refused(f"Could not look up the end user: {error.message}",
                          error=error) from error

    async def _new_end_user(self, email: str) -> EndUser:
        """A new end user known by this address alone (named by it until someone names
        them)."""
        check_email(email)
        try:
            user = await self._hub.client.endusers.create(email=email,
                                                          priority=Priority.INTERACTIVE)
        except ApiError as error:
            raise Refused(f"Could not create the end user {email}: {error.message}",
                          error=error) from error
        self._directory.names.setdefault(user.id, user.display_name or user.email or email)
        return user

    async def contact_endpoints(self, kind: str) -> list[ContactEndpoint]:
        """The organisation's ``EmailEndpoint`` or ``TelephonyEndpoint`` endpoints (cached)."""
        known = self._endpoints.get(kind)
        if known is not None:
            return known
        try:
            endpoints = await self._hub.client.contact_endpoints.list(
                type=kind,  # type: ignore[arg-type]
                priority=Priority.INTERACTIVE)
        except ApiError as error:
            raise Refused(f"Could not list the contact endpoints: {error.message}",
                          error=error) from error
        self._endpoints[kind] = endpoints
        return endpoints

    async def last_messages(self, conversation_id: int, count: int = 5) -> list[Message]:
        """The newest ``count`` messages of a conversation, oldest first (for a preview).

        The service lists a thread whole, so this costs one request; only the tail is kept.
        """
        try:
            messages = await self._hub.client.messages.list(
                conversation_id, priority=Priority.VISIBLE)
        except ApiError as error:
            raise Refused(f"Could not read the messages: {error.message}",
                          error=error) from error
        if messages:
            body = messages[-1].attributes.body
            inbox = self._inbox
            if body is not None and body.value and inbox.previews.get(conversation_id) \
                    != body.value[:200]:
                inbox.set_preview(conversation_id, body.value[:200])
                self._inbox.changed()
        return messages[-count:] if count > 0 else []

    # ------------------------------------------------------------------ starting

    async def create_conversation(self, body: Mapping[str, Any]) -> int:
        """Create a conversation from its input in wire form (``_type`` Email, ContactForm,
        Chat, Sms or Callback); returns its id, kept in the working set."""
        try:
            created = await self._hub.client.conversations.create(
                body, priority=Priority.INTERACTIVE)
        except ApiError as error:
            raise _refusal("The service refused the conversation", error) from error
        await self._keep(created.id)
        return created.id

    async def import_conversation(self, body: Mapping[str, Any]) -> tuple[int, list[str]]:
        """Import a conversation with its history; returns its id and what was not kept."""
        problem = import_problem(body)
        if problem is not None:
            raise Refused(problem)
        try:
            imported = await self._hub.client.conversations.import_conversation(
                body, priority=Priority.INTERACTIVE)
        except ApiError as error:
            raise _refusal("The service refused the import", error) from error
        await self._keep(imported.id)
        return imported.id, [p.message for p in imported.partial_errors or []]

    async def _keep(self, conversation_id: int) -> None:
        """Put a conversation just made in the working set (now, or at the next poll)."""
        inbox = self._inbox
        try:
            conversation = await self._hub.client.conversations.get(
                conversation_id, priority=Priority.INTERACTIVE)
        except ApiError:
            inbox.want([conversation_id], Priority.INTERACTIVE)
            self._hub.live.poke(INBOX)
            return
        inbox.upsert([conversation], "created")
        self._inbox.changed()


def _refusal(what: str, error: ApiError) -> Refused:
    """The service's refusal, or the client's when nothing was sent."""
    if isinstance(error, InvalidRequest) and error.status is None:
        return Refused(f"Not sent: {error.message}", kind=Refusal.RULE, error=error)
    return Refused(f"{what}: {error.message}", error=error)


def import_problem(body: Mapping[str, Any]) -> str | None:
    """Why ``body`` is not a valid import input, or None (checked before sending)."""
    from pydantic import ValidationError

    from ..api.models.conversations import ImportConversationInput

    try:
        ImportConversationInput.model_validate(dict(body), extra="forbid")
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        more = error.error_count() - 1
        tail = f" (and {more} more)" if more > 0 else ""
        return f"The import is not valid: {where}: {first.get('msg', 'invalid')}{tail}"
    return None
