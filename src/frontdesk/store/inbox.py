"""The inbox: every conversation the console knows, and the views an agent works from.

Sources: the service's conversation search where it has one, and always the local working set
(every conversation opened, created, claimed or seen). Polling costs one search per tick: it
asks which conversations had activity since the last tick, then fetches only those (and the
ones not known yet) in small batches. When the service has no search (404), the inbox lives on
the working set alone, refreshed conversation by conversation, and says so once.

Views are computed from compact rows (:class:`~frontdesk.store.rows.InboxRow`, kept by column:
:class:`~frontdesk.store.inbox_rows.RowTable`, a view their places there): Mine (assigned
to me, open), Needs reply, Queue (waiting unassigned in my queues), Pending, Closed (mine,
closed in the last :data:`CLOSED_DAYS` days: read whole from the service's search once the
first fill is done, not merely what closed while the console ran), All. Full records are
read on demand (:class:`Records`): the last hundred or so used stay in memory, the others are
read back from the local store. The store is built from the local working set's JSON alone,
so the console's first frame needs neither the models nor the HTTP stack.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..api.errors import ApiError, Forbidden, NotFound
from ..api.pacing import Priority
from .directory import NAMES_AT_ONCE
from .inbox_cursor import SINCE_PAGES, InboxCursor
from .inbox_rows import RowTable, RowView
from .rows import InboxRow, Kind, digest_of, micros_of, rows_from_compact
from .topics import INBOX

if TYPE_CHECKING:
    from ..api.models import ActivityLogEntry, Conversation, Message
    from .business_time import BusinessTime
    from .directory import Directory
    from .hub import Hub
    from .local import LocalStore

log = logging.getLogger("frontdesk.store")

VIEWS = ("mine", "needs_reply", "queue", "pending", "closed", "all")
VIEW_TITLES = {"mine": "Mine", "needs_reply": "Needs reply", "queue": "Queue",
               "pending": "Pending", "closed": "Closed 7d", "all": "All"}
#: the Closed view: my conversations closed within this many days
CLOSED_DAYS = 7
#: how often the Closed view is read whole again (its window slides with the service's time)
CLOSED_AGAIN = timedelta(hours=1)
#: how long after a failed reading the Closed view is read again
CLOSED_RETRY = timedelta(minutes=1)
#: waits in open hours kept (a few screenfuls of rows, each for the minute it was asked at)
WAITS_KEPT = 1024
#: ticks after the first fill that the service's time is waited for (the read floor and the
#: Closed view's window are set by it), before this machine's clock is taken instead
TIME_WAITED = 3
#: who wrote a conversation's last message (:attr:`InboxStore.turns`)
CUSTOMER = "customer"
AGENT = "agent"
OPEN_STATES = ("Open",)
PENDING_STATES = ("Pending", "AwaitingPending")
#: conversations read from the local working set at start (most recently seen first)
WORKING_SET_LIMIT = 20_000
#: of those, the ones read before the first frame (the rest follow once it is on screen)
FIRST_FRAME_ROWS = 200
#: full records kept in memory (the others are read back from the local store when needed,
#: a fraction of a millisecond each): a few screenfuls of rows, each record a few kilobytes
RECORDS_KEPT = 128
#: conversations fetched per poll at most (the rest follow at the next tick)
BATCH = 24
#: conversations whose tags are read per poll at most (after the records they belong to)
TAG_BATCH = 12
#: subjectless conversations whose last message is read per poll at most (after every
#: record waiting: a row is listed first, its text follows)
PREVIEW_BATCH = 24
#: what a subjectless row shows while its last message is still to be read
PREVIEW_COMING = "…"
#: the activity log's kinds of entry that change a conversation's tags alone
TAG_ACTIVITY = frozenset({"TagAdded", "TagRemoved"})
#: the log's kinds of entry that add a message, and that add an internal note
MESSAGE_ACTIVITY = frozenset({"MessageAddedByCustomer", "MessageAddedByAgent"})
NOTE_ACTIVITY = frozenset({"NoteAdded"})
#: how far back each "what changed" search reaches beyond the last one
SLACK = timedelta(seconds=10)
#: a tick the inbox asks for to read what waits (rows brought on screen, a batch left for the
#: next tick) searches for activity too only when the last search is older than this many
#: seconds: the poll's own pace (the settings' ``[poll] conversations``) asks the next one
READ_TICK_SEARCH_AFTER = 2.0
#: how far the service's time, as this console tells it, may be from the service's own: a
#: record read at a moment reflects every activity before that moment less this margin
CLOCK_MARGIN = timedelta(seconds=1)
#: changes remembered one by one, so a view can be updated in place rather than rebuilt
CHANGES_KEPT = 256
#: the change log's mark for "names read differently" (no row, no place changes)
NAMES_CHANGED = -1


class Records(Mapping[int, "Conversation"]):
    """The inbox's conversations as full records, by id: the keys are the inbox's rows; a
    record is served from memory (the ``keep`` most recently used, any optimistic edit not
    yet confirmed, and any record not yet written to the local store) or read back from the
    local store. A record leaves memory only once the local store holds it: one the disk
    refused (full, read-only) stays until a later write of it lands."""

    def __init__(self, rows: RowTable, local: LocalStore,
                 keep: int = RECORDS_KEPT) -> None:
        self._rows = rows
        self._local = local
        self._keep = keep
        self._recent: OrderedDict[int, Conversation] = OrderedDict()
        #: edits made here before the service confirmed them (never evicted)
        self._pinned: dict[int, Conversation] = {}
        #: records not (yet) written to the local store (never evicted)
        self._unsaved: dict[int, Conversation] = {}

    def __getitem__(self, conversation_id: int) -> Conversation:
        if conversation_id not in self._rows:
            raise KeyError(conversation_id)
        pinned = self._pinned.get(conversation_id)
        if pinned is not None:
            return pinned
        unsaved = self._unsaved.get(conversation_id)
        if unsaved is not None:
            return unsaved
        found = self._recent.get(conversation_id)
        if found is None:
            found = self._local.remembered(conversation_id)
            if found is None:
                raise KeyError(conversation_id)
            self.hold(found)
        else:
            self._recent.move_to_end(conversation_id)
        return found

    def __contains__(self, conversation_id: object) -> bool:
        return conversation_id in self._rows

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def hold(self, conversation: Conversation) -> None:
        """Keep a record in memory as the most recently used (a confirmed one unpins)."""
        self._pinned.pop(conversation.id, None)
        if conversation.id in self._unsaved:  # still not on disk: kept whole
            self._unsaved[conversation.id] = conversation
            return
        self._recent[conversation.id] = conversation
        self._recent.move_to_end(conversation.id)
        while len(self._recent) > self._keep:
            self._recent.popitem(last=False)

    def hold_unsaved(self, conversation: Conversation) -> None:
        """Keep a record about to be written to the local store: in memory until
        :meth:`saved` says the write landed (a confirmed one unpins)."""
        self._pinned.pop(conversation.id, None)
        self._recent.pop(conversation.id, None)
        self._unsaved[conversation.id] = conversation

    def saved(self, conversation_ids: Iterable[int]) -> None:
        """These records are in the local store now: they may leave memory, the least
        recently used first."""
        for conversation_id in conversation_ids:
            conversation = self._unsaved.pop(conversation_id, None)
            if conversation is not None:
                self.hold(conversation)

    def pin(self, conversation: Conversation) -> None:
        """Keep an optimistic edit until the service's record replaces it."""
        self._pinned[conversation.id] = conversation

    def drop(self, conversation_id: int) -> None:
        """Forget a record held in memory."""
        self._recent.pop(conversation_id, None)
        self._pinned.pop(conversation_id, None)
        self._unsaved.pop(conversation_id, None)


class InboxStore:
    """Conversation rows, their tags and previews, and the poll that keeps them current."""

    def __init__(self, hub: Hub, local: LocalStore, directory: Directory) -> None:
        self._hub = hub
        self._local = local
        self._directory = directory
        #: the rows by id, kept by column (a row is made when read: ``inbox_rows``)
        self.rows = RowTable()
        self.records = Records(self.rows, self._local)
        self.tags: dict[int, tuple[str, ...]] = {}
        self.previews: dict[int, str] = {}
        self.activity: dict[int, datetime] = {}
        #: who wrote each conversation's last message (CUSTOMER or AGENT) and when, learnt
        #: from the messages the inbox and the thread already read (never a request of its own)
        self.turns: dict[int, tuple[str, datetime]] = {}
        #: per conversation, when the newest message seen here was written (local store)
        self.read_marks: dict[int, datetime] = self._local.read_marks()
        #: the first start's moment (the service's clock): what was written before it counts
        #: as read, so a first start does not call the whole history unread (None: not yet
        #: known, and nothing is called unread)
        self.read_floor: datetime | None = self._local.read_floor()
        #: the open hours a customer's wait is counted in (None: no schedule, plain time)
        self.business_time: BusinessTime | None = None
        #: waits counted in open hours, by when the customer wrote and the minute asked at
        self._waits: dict[tuple[datetime, datetime], float] = {}
        #: the business hours were read (with a schedule, the service's clock with them)
        self._hours_read = False
        #: ticks since the first fill was done (how long the service's time is waited for)
        self._ticks_filled = 0
        #: until when Pending conversations wait, as far as this console set them (the
        #: service's record does not say)
        self.followups: dict[int, datetime] = {}
        #: when (the service's time) each follow-up in ``followups`` was set here
        self._followups_set: dict[int, datetime] = {}
        #: the conversations with a draft reply (marked in the list)
        self.drafts: set[int] = self._local.draft_ids()
        self.version = 0
        #: conversation → the version of the last change this console made to it itself (an
        #: optimistic action, a conversation it created): no alert for those
        self.own_changes: dict[int, int] = {}
        self.search_available: bool | None = None
        #: the first fill is done: what the views lack is not merely still on its way
        self.filled = False
        #: Mine's customers still to be named during the first fill (a screenful: each name
        #: is a request, and the rest of the first picture waits behind it)
        self._first_names_left = NAMES_AT_ONCE
        self._backlog: dict[int, Priority] = {}
        self._tag_backlog: set[int] = set()
        #: the rows on screen now (:meth:`showing`): their tags and text are read, the
        #: others' only once they are shown (or, for Mine's, their text as they change)
        self._showing: frozenset[int] = frozenset()
        #: conversations whose tags may have changed since they were read (or never were),
        #: read once shown
        self._tags_stale: set[int] = set()
        #: when (the service's time) the latest reading of each record began, while a search
        #: for activity may still find the activity that reading reflects (:meth:`_discover`)
        self._read_at: dict[int, datetime] = {}
        #: conversations a search found again within its overlap, whose record may or may not
        #: reflect that activity, with when it was read: a later search settles it
        self._doubtful: dict[int, datetime] = {}
        #: conversations whose last message changed since its text was read
        self._stale_previews: set[int] = set()
        #: subjectless conversations whose last message is to be read (after the records)
        self._preview_backlog: dict[int, Priority] = {}
        #: those whose last message is being read now (a row brought on screen meanwhile
        #: does not ask for it again)
        self._previews_asked: set[int] = set()
        self._since: datetime | None = None
        #: whether ``_since`` was read from the service's clock (only such a cursor is kept)
        self._since_known = False
        self._primed: set[str] = set()
        #: whether the organisation's activity log tells what changed (None: not read yet;
        #: False: not for this role, or not on this service: the search for activity does)
        self.log_available: bool | None = None
        #: the log's entries already acted on, with their times, while a later reading of
        #: the log may return them again (its overlap): an entry is news once
        self._logged: dict[str, datetime] = {}
        #: what the last search for activity found (found again within its overlap: no news)
        self._found: set[int] = set()
        #: the next tick was asked for to read what waits (:meth:`_read_soon`)
        self._reading_tick = False
        #: where that search began and when it was asked (the service's time, as told here;
        #: None when it was not read whole): a conversation it did not find, found by a later
        #: search that begins no earlier, had activity after it was asked
        self._found_since: datetime | None = None
        self._found_asked: datetime | None = None
        #: while a team gateway's change stream tells what changed: the seconds between two
        #: searches for activity of the inbox's own (None: it searches every tick)
        self.pushed: float | None = None
        self._searched_at = -float("inf")
        self._search_now = False
        #: where the Closed view begins (None: not read from the service yet), and the
        #: conversations its last reading found (their records are known once none waits)
        self._closed_from: datetime | None = None
        self._closed_found: set[int] = set()
        #: when the last reading of the Closed view failed (None: it did not)
        self._closed_refused: datetime | None = None
        #: the queues whose waiting conversations were read whole (the Queue view's priming)
        self._primed_queues: frozenset[str] = frozenset()
        #: where the last session's poll stood (adopted once who I am and my queues are known)
        self._restored = InboxCursor()
        #: (version, conversation id or None for "anything may have changed", its row before)
        self._changes: deque[tuple[int, int | None, InboxRow | None]] = deque(
            maxlen=CHANGES_KEPT)
        cached = self._local.snapshot("inbox")
        #: how many of the working set's newest rows were read (the rest: :meth:`read_the_rest`)
        self._read = self._read_first_view(cached if isinstance(cached, dict) else {})
        if isinstance(cached, dict):
            self.tags = {int(k): tuple(v) for k, v in cached.get("tags", {}).items()}
            self.previews = {int(k): str(v) for k, v in cached.get("previews", {}).items()}
            self.turns = _turns_of(cached.get("turns", {}))
            for key, value in cached.get("followups", {}).items():
                try:
                    self.followups[int(key)] = datetime.fromisoformat(value)
                except (TypeError, ValueError):
                    continue
            self._resume(InboxCursor.of(cached))

    def _read_rows(self, limit: int, offset: int = 0) -> int:
        """Add the working set's rows from ``offset`` on (at most ``limit``), keeping any
        row already here (newer); how many the local store gave."""
        kept = self._local.working_set_rows(limit=limit, offset=offset)
        compacts = rows_from_compact([compact for _, compact, _ in kept if compact is not None])
        compacts.reverse()
        rows = self.rows
        for conversation_id, compact, wire in kept:
            try:
                if compact is not None:
                    row = compacts.pop()
                    if row is None:
                        raise ValueError("not a row")
                else:  # kept before rows were
                    row = InboxRow.from_wire(json.loads(wire or ""), digest_of(wire or ""))
            except (ValueError, TypeError, KeyError, AttributeError, IndexError):
                log.warning("cached conversation %s does not parse", conversation_id)
                continue
            rows.add(row)  # a row already here is newer
        return len(kept)

    def _read_first_view(self, cached: dict[str, Any]) -> int:
        """Read the first view's rows (Mine: open, assigned to me) for the first frame,
        whole however long ago its conversations were last seen; the others follow once the
        frame is on screen. How many of the newest rows were read (all: the limit).

        The last save listed Mine's: read by id, with the rows seen after it (a row that
        changed hands since is one of those), when those are few; otherwise the newest rows,
        and Mine's found by a scan of every row."""
        me = self._hub.me_id
        kept, seen = cached.get("mine"), cached.get("mine_seen")
        if me and cached.get("mine_of") == me and isinstance(kept, list) \
                and isinstance(seen, (int, float)):
            newer = self._local.working_set_seen_after(seen)
            if newer <= FIRST_FRAME_ROWS:
                newer = self._read_rows(newer) if newer else 0
                self._add_mine(me, self._local.working_set_rows_of(
                    [cid for cid in kept if isinstance(cid, int)]))
                return newer
        first = min(FIRST_FRAME_ROWS, WORKING_SET_LIMIT)
        if self._read_rows(first) < first:
            return WORKING_SET_LIMIT
        if me:
            self._add_mine(me, self._local.working_set_rows_with(json.dumps(me)))
        return first

    def _add_mine(self, me: str, found: list[tuple[int, str]]) -> None:
        """Add the rows among ``found`` that are Mine's (open, assigned to me)."""
        rows = self.rows
        for row in rows_from_compact([text for cid, text in found if cid not in rows]):
            if row is not None and row.agent_id == me and row.state in OPEN_STATES:
                rows.add(row)

    def read_the_rest(self) -> bool:
        """Read the working set's rows the first frame did without (a large working set:
        the most recently seen are read before it, the others once it is on screen); True
        when rows were added (a new version: every view may have changed)."""
        if self._read >= WORKING_SET_LIMIT:
            return False
        before = len(self.rows)
        self._read_rows(WORKING_SET_LIMIT - self._read, offset=self._read)
        self._read = WORKING_SET_LIMIT
        if len(self.rows) == before:
            return False
        self._bump()
        return True

    # ------------------------------------------------------------------ views

    def view(self, name: str) -> RowView:
        """The conversations of a view, most recent activity first (its rows are made as
        they are read: the view is 4 bytes a row, however many there are)."""
        me = self._hub.me_id
        mine_queues = self._directory.my_queue_ids
        table = self.rows
        if name == "needs_reply":
            turns = self.turns
            # longest waiting first
            return table.view(table.slots_of(sorted(self.needs_reply_ids(),
                                                    key=lambda cid: turns[cid][1])))
        if name == "mine":
            slots = table.slots(lambda kind: _mine(kind, me))
        elif name == "queue":
            slots = table.slots(lambda kind: _waiting(kind, mine_queues))
        elif name == "pending":
            slots = table.slots(lambda kind: kind[0] in PENDING_STATES)
        elif name == "closed":
            slots = table.slots(lambda kind: _closed_mine(kind, me),
                                since=micros_of(self.closed_from))
        else:
            slots = table.slots()
        # the activity seen, in the rows' unit
        recent = {cid: micros_of(moment) for cid, moment in self.activity.items()}
        return table.ordered(slots, recent)

    def counts(self) -> dict[str, int]:
        """How many conversations each view has (one pass over the rows' kinds, no row
        made, no sorting)."""
        me = self._hub.me_id
        mine_queues = self._directory.my_queue_ids
        counts = dict.fromkeys(VIEWS, 0)
        closed: set[Kind] = set()
        for kind, count in self.rows.kind_counts().items():
            counts["all"] += count
            if _mine(kind, me):
                counts["mine"] += count
            elif _waiting(kind, mine_queues):
                counts["queue"] += count
            elif kind[0] in PENDING_STATES:
                counts["pending"] += count
            elif _closed_mine(kind, me):
                closed.add(kind)
        if closed:
            counts["closed"] = len(self.rows.slots(closed.__contains__,
                                                   since=micros_of(self.closed_from)))
        counts["needs_reply"] = len(self.needs_reply_ids())
        return counts

    @property
    def closed_from(self) -> datetime:
        """Where the Closed view begins: :data:`CLOSED_DAYS` days before the service's time
        when it was last read (before that, before now)."""
        if self._closed_from is not None:
            return self._closed_from
        return self._hub.server_now() - timedelta(days=CLOSED_DAYS)

    def needs_reply_ids(self) -> set[int]:
        """The conversations of the Needs reply view (read from the turns known, far
        fewer than the rows)."""
        me = self._hub.me_id
        mine_queues = self._directory.my_queue_ids
        rows = self.rows
        return {cid for cid, (who, _when) in self.turns.items()
                if who == CUSTOMER and (row := rows.get(cid)) is not None
                and self._mine_or_my_queues(row, me, mine_queues)}

    def _closed_mine(self, row: InboxRow, me: str | None) -> bool:
        """Closed, mine, and within the Closed view's days."""
        return row.state == "Closed" and row.agent_id is not None and row.agent_id == me \
            and row.when >= self.closed_from

    @property
    def closed_known(self) -> bool:
        """Whether the Closed view was read from the service and every record it found is
        in (its count is final until something closes)."""
        return self._closed_from is not None and not (self._closed_found
                                                      & self._backlog.keys())

    def _needs_reply(self, row: InboxRow, me: str | None, mine_queues: Iterable[str]) -> bool:
        """Open, mine or unassigned in my queues, and the customer wrote last."""
        turn = self.turns.get(row.id)
        if turn is None or turn[0] != CUSTOMER:
            return False
        return self._mine_or_my_queues(row, me, mine_queues)

    @staticmethod
    def _mine_or_my_queues(row: InboxRow, me: str | None, mine_queues: Iterable[str]) -> bool:
        """Open, and mine or unassigned in my queues (Mine's and Queue's rows)."""
        if row.state not in OPEN_STATES:
            return False
        if row.agent_id is not None:
            return bool(me) and row.agent_id == me
        return row.queue_id is not None and (not mine_queues or row.queue_id in mine_queues)

    @property
    def turns_known(self) -> bool:
        """Whether the Needs reply view is complete as far as the inbox can tell: the first
        fill is done and no row of Mine or Queue still waits for its first last-message
        read (where its turn comes from; it follows its record in the same tick). Derived
        from what is fetched anyway: a conversation with a subject, whose messages the inbox
        does not read, has a turn once its thread was opened."""
        if not self.filled:
            return False
        me = self._hub.me_id
        mine_queues = self._directory.my_queue_ids
        rows, turns = self.rows, self.turns
        for conversation_id in self._preview_backlog:
            row = rows.get(conversation_id)
            if conversation_id not in turns and row is not None \
                    and self._mine_or_my_queues(row, me, mine_queues):
                return False
        return True

    def views_of(self, row: InboxRow) -> tuple[str, ...]:
        """The views a row belongs to (the same rules as :meth:`view` and :meth:`counts`)."""
        state = row.state
        mine_queues = self._directory.my_queue_ids
        waiting = self._needs_reply(row, self._hub.me_id, mine_queues)
        if state in OPEN_STATES:
            if row.agent_id is not None:
                if row.agent_id == self._hub.me_id:
                    return ("mine", "needs_reply", "all") if waiting else ("mine", "all")
            elif row.queue_id is not None and (not mine_queues or row.queue_id in mine_queues):
                return ("queue", "needs_reply", "all") if waiting else ("queue", "all")
        elif state in PENDING_STATES:
            return ("pending", "all")
        elif self._closed_mine(row, self._hub.me_id):
            return ("closed", "all")
        return ("all",)

    def sort_key(self, row: InboxRow) -> datetime:
        """What a view is ordered by (descending): the last activity seen, else the row's
        latest moment."""
        return self.activity.get(row.id) or row.when

    def changes_since(self, version: int) -> dict[int, InboxRow | None] | None:
        """The conversations changed after ``version``, each with its row as it was then
        (None: it had none), so a view can be updated in place; :data:`NAMES_CHANGED` among
        them when names may read differently (lines repaint, nothing moves). None when that
        cannot be told — a change that may touch every row, or one too long ago: rebuild."""
        if version > self.version:
            return None
        changed: dict[int, InboxRow | None] = {}
        expected = self.version
        for number, conversation_id, old in reversed(self._changes):
            if expected == version:
                break
            if number != expected or conversation_id is None:
                return None
            changed[conversation_id] = old  # walking back: the earliest row wins
            expected -= 1
        return changed if expected == version else None

    # ------------------------------------------------------------------ changes

    def upsert(self, conversations: Iterable[Conversation], source: str = "seen") -> None:
        """Keep these records (and in the working set); bumps the version when any changed."""
        changed: list[tuple[int, str, str | None]] = []
        for conversation in conversations:
            wire = conversation.model_dump_json(exclude_none=True)
            digest = digest_of(wire)
            old = self.rows.get(conversation.id)
            if old is not None and old.digest == digest:
                self.records.hold(conversation)
                continue
            self.records.hold_unsaved(conversation)  # in memory until it is on disk
            row = self.rows[conversation.id] = InboxRow.of(conversation, digest)
            if row.state not in PENDING_STATES and self._followup_ended(row):
                self.followups.pop(row.id, None)
            changed.append((conversation.id, wire, row.compact()))
            self._bump(conversation.id, old)
            if source == "created":
                self.own_changes[conversation.id] = self.version
        if changed and self._local.remember_rows(changed, source):  # 0: not on disk
            self.records.saved(conversation_id for conversation_id, _wire, _row in changed)

    def replace(self, conversation: Conversation) -> Conversation | None:
        """Put an edited record in place (an optimistic action); returns the old one."""
        old = self.records.get(conversation.id)
        old_row = self.rows.get(conversation.id)
        self.rows[conversation.id] = InboxRow.of(
            conversation, digest_of(conversation.model_dump_json(exclude_none=True)))
        self.records.pin(conversation)
        self._bump(conversation.id, old_row)
        self.own_changes[conversation.id] = self.version
        return old

    def set_tags(self, conversation_id: int, tag_ids: Iterable[str]) -> None:
        """The tags shown for a conversation."""
        value = tuple(sorted(tag_ids))
        if self.tags.get(conversation_id) != value:
            self.tags[conversation_id] = value
            self._bump(conversation_id, self.rows.get(conversation_id))

    def preview_of(self, conversation_id: int) -> str:
        """The text a subjectless row shows: its last message's first line, "…" while that
        is still to be read (never "no messages" before it is known), else ""."""
        text = self.previews.get(conversation_id)
        if text is not None:
            return text
        return PREVIEW_COMING if conversation_id in self._preview_backlog else ""

    def set_preview(self, conversation_id: int, text: str) -> None:
        """The last message's first line, shown in the list."""
        if self.previews.get(conversation_id) != text:
            self.previews[conversation_id] = text
            self._bump(conversation_id, self.rows.get(conversation_id))

    def set_turn(self, conversation_id: int, last: Message,
                 requester_id: str | None = None) -> None:
        """Who wrote the last message: an inbound one (or, when the service does not say,
        one by the requester) is the customer's, and theirs is the turn to be answered."""
        row = self.rows.get(conversation_id)
        direction = (last.attributes.direction or "").lower()
        requester = requester_id or (row.requester_id if row is not None else None)
        customer = direction == "inbound" or (not direction and last.author_id == requester)
        who, when = (CUSTOMER if customer else AGENT), last.created_at
        if self.turns.get(conversation_id) != (who, when):
            self.turns[conversation_id] = (who, when)
            self._bump(conversation_id, row)

    def read_up_to(self, conversation_id: int) -> datetime | None:
        """Until when a conversation counts as read: its newest message seen here, or the
        read floor when that is later (None: neither is known)."""
        seen = self.read_marks.get(conversation_id)
        floor = self.read_floor
        if seen is None or (floor is not None and floor > seen):
            return floor
        return seen

    def unread(self, conversation_id: int) -> bool:
        """Whether the customer wrote last, after what was read here (an agent's message,
        mine or a colleague's, is never news to be read; before the read floor is known,
        nothing is called unread)."""
        turn = self.turns.get(conversation_id)
        if turn is None or turn[0] != CUSTOMER:
            return False
        read = self.read_up_to(conversation_id)
        return read is not None and turn[1] > read

    def waited(self, since: datetime, until: datetime) -> float:
        """How long a customer who wrote at ``since`` has waited at ``until``, in seconds:
        the organisation's open hours only when it has a schedule (counted to the minute
        and kept: a row repainted within the minute costs a lookup, where a wait of months
        costs a third of a millisecond), else plain time."""
        hours = self.business_time
        if hours is None:
            return max(0.0, (until - since).total_seconds())
        minute = until.replace(second=0, microsecond=0)
        key = (since, minute)
        found = self._waits.get(key)
        if found is None:
            if len(self._waits) >= WAITS_KEPT:
                self._waits.clear()
            found = self._waits[key] = hours.seconds_between(since, minute)
        return found

    def set_business_time(self, hours: BusinessTime | None) -> None:
        """Count waits in these open hours from now on (every row's wait may read
        differently: the screens are told); None: the organisation has no schedule."""
        self._hours_read = True
        if hours is self.business_time:
            return
        self.business_time = hours
        self._waits.clear()
        self._bump()
        self.changed()

    def _set_read_floor(self, when: datetime) -> None:
        """The first start (no floor kept yet): everything written until ``when`` counts as
        read, now and at every later start."""
        self.read_floor = when
        self._local.set_read_floor(when)
        self._bump()

    def mark_read(self, conversation_id: int, message_id: str, when: datetime) -> None:
        """The thread showed this message: it and every older one are read (kept locally,
        across restarts)."""
        seen = self.read_marks.get(conversation_id)
        if seen is not None and seen >= when:
            return
        self.read_marks[conversation_id] = when
        self._local.mark_read(conversation_id, message_id, when)
        self._bump(conversation_id, self.rows.get(conversation_id))

    def set_followup(self, conversation_id: int, until: datetime) -> None:
        """Remember until when a conversation set Pending here waits."""
        self._followups_set[conversation_id] = self._hub.server_now()
        if self.followups.get(conversation_id) != until:
            self.followups[conversation_id] = until
            self._bump()

    def _followup_ended(self, row: InboxRow) -> bool:
        """Whether a record that is not Pending says the follow-up set here is over: it
        tells of a moment after the follow-up was set. A record read just before the
        follow-up, arriving after it, is older news and leaves its time alone."""
        set_at = self._followups_set.get(row.id)
        if set_at is not None and row.when <= set_at:
            return False
        self._followups_set.pop(row.id, None)
        return True

    def refresh_drafts(self) -> bool:
        """Read again which conversations have drafts; True when that changed."""
        drafts = self._local.draft_ids()
        if drafts == self.drafts:
            return False
        self.drafts = drafts
        self._bump()
        return True

    def touch(self, conversation_id: int, when: datetime | None = None) -> None:
        """Mark activity (a new message) so the conversation sorts first."""
        self.activity[conversation_id] = when or datetime.now(UTC)
        self._bump(conversation_id, self.rows.get(conversation_id))

    def _bump(self, conversation_id: int | None = None, old: InboxRow | None = None) -> None:
        """A new version: of one conversation (with its row before), of the names shown
        (:data:`NAMES_CHANGED`), or of anything (None)."""
        self.version += 1
        self._changes.append((self.version, conversation_id, old))

    def changed(self) -> None:
        """The inbox changed outside a poll (an action): tell the screens."""
        self._hub.live.put(INBOX, self.version)

    def save(self) -> None:
        """Keep tags and previews for the next start, and Mine's conversations (open and
        assigned to me: the next start reads them by id, and only them, for its first
        frame)."""
        me = self._hub.me_id
        self._local.save_snapshot("inbox", {
            "mine_of": me,
            "mine": self.rows.view(self.rows.slots(lambda kind: _mine(kind, me))).ids()
                    if me else [],
            "mine_seen": self._local.working_set_last_seen(),
            "tags": {str(k): list(v) for k, v in self.tags.items()},
            "previews": {str(k): v for k, v in self.previews.items()},
            "turns": {str(k): [who, when.isoformat()] for k, (who, when) in self.turns.items()},
            "followups": {str(k): v.isoformat() for k, v in self.followups.items()},
            "cursor": self._cursor().snapshot(),
        })

    @property
    def on_screen_settled(self) -> bool:
        """Nothing the screen shows is left to read (its records, tags and text)."""
        shown = self._showing
        return not (shown & self._backlog.keys() or shown & self._tag_backlog
                    or shown & self._preview_backlog.keys())

    @property
    def shown(self) -> frozenset[int]:
        """The rows on screen, as last told (:meth:`showing`)."""
        return self._showing

    def showing(self, conversation_ids: Iterable[int]) -> None:
        """The rows on screen now (the inbox list tells as it scrolls or changes): those
        brought on screen get their tags and text read at the next tick, first among what
        waits, when they were never read or changed since; and their record when a search
        found activity it may not reflect (doubtful: what the agent sees and acts on does
        not wait for the searches' overlap to pass)."""
        shown = frozenset(conversation_ids)
        brought = shown - self._showing
        self._showing = shown
        queued = False
        for conversation_id in brought:
            row = self.rows.get(conversation_id)
            if row is None:
                continue
            if self._doubtful.pop(conversation_id, None) is not None:
                self.want([conversation_id], Priority.VISIBLE)
                queued = True
            self._directory.name(row.requester_id)
            if conversation_id not in self.tags or conversation_id in self._tags_stale:
                self._tag_backlog.add(conversation_id)
                queued = True
            if self._preview_wanted(row):
                self._preview_backlog[conversation_id] = Priority.VISIBLE
                queued = True
        if queued:
            self._read_soon()

    def _preview_wanted(self, row: InboxRow) -> bool:
        """Whether a row's last message is to be read: it has no subject, its text was
        never read or its conversation had activity since, and it is not being read now."""
        return not (row.subject or "").strip() and (
            row.id not in self.previews or row.id in self._stale_previews) \
            and row.id not in self._previews_asked

    def _mine_open(self, row: InboxRow) -> bool:
        """Mine's (open, assigned to me): whose turn it is must be known as it changes."""
        me = self._hub.me_id
        return bool(me) and row.agent_id == me and row.state in OPEN_STATES

    @property
    def settled(self) -> bool:
        """Nothing is left to fetch: no record and no tags waiting for a later tick."""
        return not self._backlog and not self._tag_backlog and not self._preview_backlog

    def want(self, conversation_ids: Iterable[int], priority: Priority = Priority.VISIBLE) -> None:
        """Fetch these conversations at the next poll."""
        for conversation_id in conversation_ids:
            current = self._backlog.get(conversation_id)
            if current is None or priority < current:
                self._backlog[conversation_id] = priority

    def want_tags(self, conversation_ids: Iterable[int]) -> None:
        """Read these conversations' tags again at the next poll."""
        self._tag_backlog.update(conversation_ids)

    # ------------------------------------------------------------------ polling

    async def poll(self) -> int:
        """One tick: find what changed, fetch it; returns the version (the topic's value).

        While the first fill still has records to fetch, a tick spends the budget on them
        alone: the search for activity, the subjectless rows' last messages, the requesters'
        names and the tags wait until every record of Mine and Queue is in (the views are
        complete at the pace the service allows, then filled in)."""
        started = self._hub.server_now()
        reading, self._reading_tick = self._reading_tick, False
        if self.filled:
            self._ticks_filled += 1
        if self.read_floor is None and self._time_known():
            self._set_read_floor(started)
        if self.search_available is not False:
            known = self._hub.clock_known()
            try:
                if await self._discover(reading):
                    self._advance(started - SLACK, known)
                self.search_available = True
            except NotFound:
                self.search_available = False
                self._hub.notice("information",
                                     "This service has no conversation search: the inbox "
                                     "shows the conversations you have opened or seen.")
        if self.search_available is False:
            self._advance(started - SLACK, self._hub.clock_known())
            if not self._backlog:
                self.want(list(self.rows)[:BATCH], Priority.BACKGROUND)
        await self._fetch_backlog()
        if not self._backlog and not self._preview_backlog and \
                await self._directory.resolve_pending():
            self._bump(NAMES_CHANGED)
        if not self.filled and not self._backlog and (
                ("mine" in self._primed and not self._priming_due())
                or self.search_available is False):
            self.filled = True
            self._bump()
        return self.version

    def _priming_due(self) -> bool:
        """Whether Mine or Queue can be asked for now and has not been (its identity, or
        my queues, became known during the tick)."""
        if self.search_available is False:
            return False
        self._adopt_priming()
        return bool(self._hub.me_id and "mine" not in self._primed) or bool(
            self._directory.my_queue_ids and "queue" not in self._primed)

    def _read_soon(self) -> None:
        """Ask for a tick now, to read what waits: one that comes within
        :data:`READ_TICK_SEARCH_AFTER` of a search for activity reads and does not search
        again (a row the last tick brought on screen was one more search, and the same
        activity found again within its overlap one more read of its last message)."""
        self._reading_tick = True
        self._hub.live.poke(INBOX)

    async def _discover(self, reading: bool = False) -> bool:
        """Find what to fetch: at first the members of Mine and Queue (each once its
        identity is known), then whatever had activity since the last tick — not while the
        first fill's records are still coming (the window then reaches back further), nor
        in a tick asked for to read what waits just after a search (``reading``). True
        when the service was asked."""
        client = self._hub.client
        me = self._hub.me_id
        queues = sorted(self._directory.my_queue_ids)
        self._adopt_priming()
        priming: list[tuple[str, dict[str, Any]]] = []
        if me and "mine" not in self._primed:
            priming.append(("mine", _filters(
                _field("AgentId", "IsOneOf", [me]),
                _field("Status", "IsOneOf", ["open", "pending"]))))
        if queues and "queue" not in self._primed:
            priming.append(("queue", _filters(
                _field("QueueId", "IsOneOf", queues),
                _field("AgentId", "IsEmpty"),
                _field("Status", "IsOneOf", ["open"]))))
        for view, body in priming:
            page = await client.search.conversations_page(
                filters=body, page_size=200, priority=Priority.VISIBLE)
            self.want((hit.id for hit in page.items), Priority.VISIBLE)
            self._primed.add(view)
            if view == "queue":
                self._primed_queues = frozenset(queues)
        if priming:
            return True
        if me and self.filled and self._time_known() and self._closed_due():
            await self._read_closed(me)  # and on: the cursor moves only past a search for
            # what changed
        if not self.filled and self._backlog:
            return False
        if self.pushed is not None and not self._search_now \
                and time.monotonic() - self._searched_at < self.pushed:
            return False  # told what changed: the cursor stays for the next safety search
        if reading and self.filled and not self._search_now \
                and time.monotonic() - self._searched_at < READ_TICK_SEARCH_AFTER:
            return False  # the cursor stays for the next tick's search
        self._search_now = False
        self._searched_at = time.monotonic()
        since = self._search_since()
        if self.log_available is not False and self._hub.may("activity_log.list"):
            try:
                return await self._discover_in_log(since)
            except (Forbidden, NotFound):  # not this role's, or not this service's: search
                self.log_available = False
        asked = self._hub.server_now()
        body = _filters(_field("LastActivity", "Since", timestamp=since))
        hits: list[int] = []
        key: str | None = None
        for _ in range(SINCE_PAGES):
            page = await client.search.conversations_page(
                filters=body, page_size=200, page_key=key, priority=Priority.BACKGROUND)
            hits += [hit.id for hit in page.items]
            key = page.next_key
            if key is None:  # the last page (or one the service links to without a key)
                break
        if page.has_more and self._prime_again():
            return await self._discover()
        found_before, self._found = self._found, set(hits)
        # a conversation the last search did not find had activity after it was asked,
        # when that search was read whole and began no later than this one
        before_since, before_asked = self._found_since, self._found_asked
        new_after = before_asked if before_since is not None and before_since <= since \
            else None
        self._found_since = None if page.has_more else since
        self._found_asked = asked
        self._settle_doubts(self._found)
        for conversation_id in hits:
            if self._read_again(conversation_id, since,
                                None if conversation_id in found_before else new_after):
                self.want([conversation_id], Priority.VISIBLE)
                self._stale_previews.add(conversation_id)
            self.activity[conversation_id] = self._hub.server_now()
            if conversation_id not in found_before:
                # a new message may leave the record as it was: the row still moves up (and
                # a preview of it reads its messages again), so its activity is a change of
                # its own; found again in the next search's overlap (SLACK), it is not
                self._bump(conversation_id, self.rows.get(conversation_id))
        self._forget_readings(self._since or since)
        return True

    async def _discover_in_log(self, since: datetime) -> bool:
        """Find what changed since ``since`` in the organisation's activity log: each entry
        says which conversation, what and when, and has an id. So an entry found again
        within the overlap is no news (the search, which says only that a conversation had
        activity, leaves that in doubt), and a change is read once: the record, and the
        last message of a subjectless row on screen or of Mine's, as for a search's find.
        An entry older than the record's latest reading (less the clock's margin) is in it
        already. What an entry's kind says changed is all that is read: a message in an
        open conversation, its last message alone (and only where its row shows it or
        whose turn it is counts: on screen, or Mine's); a tag added or taken off, its tags,
        once its row is shown (at once when it is on screen); an internal note, nothing.
        A row moves up for every entry but those two, which the service does not count as
        a conversation's activity either."""
        client = self._hub.client
        entries: list[ActivityLogEntry] = []
        key: str | None = None
        for _ in range(SINCE_PAGES):
            page = await client.activity_log.list_page(
                since=since, page_size=200, page_key=key, priority=Priority.BACKGROUND)
            entries += page.items
            key = page.next_key
            if key is None:  # the last page (or one the service links to without a key)
                break
        self.log_available = True
        if page.has_more and self._prime_again():
            return await self._discover()
        logged = self._logged
        for entry in entries:
            if entry.id in logged:
                continue
            at = entry.activity_timestamp.astimezone(UTC)
            logged[entry.id] = at
            conversation_id = entry.conversation_id
            row = self.rows.get(conversation_id)
            if entry.type in TAG_ACTIVITY:
                self._tags_stale.add(conversation_id)
                if conversation_id in self._showing:
                    self._tag_backlog.add(conversation_id)
                continue
            if entry.type in NOTE_ACTIVITY:
                continue  # neither the record nor the last message changed
            read_at = self._read_at.get(conversation_id)
            if entry.type in MESSAGE_ACTIVITY and row is not None \
                    and row.state in OPEN_STATES and conversation_id not in self._backlog:
                # a message in an open conversation changes its last message alone (a
                # message that reopens one is logged as that change too)
                self._stale_previews.add(conversation_id)
                if not (row.subject or "").strip() and self._preview_wanted(row) and (
                        conversation_id in self._showing or self._mine_open(row)):
                    self._preview_backlog[conversation_id] = Priority.VISIBLE
            elif read_at is None or at >= read_at - CLOCK_MARGIN \
                    or conversation_id in self._backlog:
                self.want([conversation_id], Priority.VISIBLE)
                self._stale_previews.add(conversation_id)
            known = self.activity.get(conversation_id)
            self.activity[conversation_id] = at if known is None else max(known, at)
            self._bump(conversation_id, row)
        for entry_id in [e for e, at in logged.items() if at < since - CLOCK_MARGIN]:
            del logged[entry_id]  # later readings begin no earlier: never returned again
        self._forget_readings(self._since or since)
        return True

    def _search_since(self) -> datetime:
        """Where this tick's search for activity begins: the cursor, or earlier, at the
        moment a doubtful conversation's record was read (less :data:`CLOCK_MARGIN`) once
        the cursor has gone past it: a search from there finds that conversation only for
        activity its record may not reflect."""
        since = self._since or self._hub.server_now() - SLACK
        if self._doubtful:
            since = min(since, min(self._doubtful.values()) - CLOCK_MARGIN)
        return since

    def _read_again(self, conversation_id: int, since: datetime,
                    new_after: datetime | None = None) -> bool:
        """Whether a conversation a search from ``since`` found is to be read again
        (``new_after``: the search before did not find it, though it would have found
        activity made by then; so this activity came after that search was asked, at this
        moment).

        The search says only that it had activity since then. Its record, read from a
        moment on, reflects every activity before that moment (less the clock's margin):
        found by a search that begins after that, the activity is newer (read it). So is
        activity the search before did not find, when the reading began before that
        search was asked (the inbox's requests go one tick after another). Found by a
        search that begins before the reading, and by the search before it too, it may be
        the very activity the record reflects, or another since. That one is not read again
        now (the same activity is found by two or three searches in a row, and read at
        each it was three requests for one change): it is doubtful until a search that
        begins at its reading's moment settles it (:meth:`_search_since`), so that a second
        change made within the overlap is still read, a tick after the overlap at most, and
        the first is read once. But for a waiting row on screen, which anyone may claim:
        read again at once, the agent must not claim from the Queue what a colleague took a
        moment ago (a row of their own, or another's, waits for the doubt like the rest).
        Of a subjectless row on screen or of Mine's, the last message is read again at once
        all the same (one request): what the agent sees and whose turn it is in their own
        work (Needs reply, unread marks, alerts: a customer's every message in Mine alerts)
        do not wait for the overlap to pass."""
        read_at = self._read_at.get(conversation_id)
        row = self.rows.get(conversation_id)
        if read_at is None or since >= read_at - CLOCK_MARGIN \
                or (new_after is not None and read_at <= new_after) \
                or conversation_id in self._backlog \
                or (conversation_id in self._showing and row is not None
                    and row.state in OPEN_STATES and row.agent_id is None):
            self._doubtful.pop(conversation_id, None)
            return True
        self._doubtful[conversation_id] = read_at
        if row is not None and not (row.subject or "").strip() and (
                conversation_id in self._showing or self._mine_open(row)):
            self._stale_previews.add(conversation_id)
            self._preview_backlog[conversation_id] = Priority.VISIBLE
        return False

    def _settle_doubts(self, found: set[int]) -> None:
        """After a search: a doubtful conversation it did not find had no activity its
        record could miss."""
        for conversation_id in [cid for cid in self._doubtful if cid not in found]:
            del self._doubtful[conversation_id]

    def _forget_readings(self, since: datetime) -> None:
        """Forget the moments of readings no later search can begin before (the cursor
        only moves on, and a doubt only moves a search back to a reading still kept): a
        search finding such a conversation again finds newer activity."""
        floor = min([since, *(at - CLOCK_MARGIN for at in self._doubtful.values())])
        floor += CLOCK_MARGIN
        for conversation_id in [cid for cid, at in self._read_at.items() if at <= floor
                                and cid not in self._doubtful]:
            del self._read_at[conversation_id]

    def heard(self, conversation_ids: Iterable[int]) -> None:
        """The team gateway said these conversations changed: each is read again, first
        among what waits, as a search finding it would have it read."""
        now = self._hub.server_now()
        for conversation_id in conversation_ids:
            self.want([conversation_id], Priority.VISIBLE)
            self.activity[conversation_id] = now
            self._stale_previews.add(conversation_id)
            self._bump(conversation_id, self.rows.get(conversation_id))

    def look_everywhere(self) -> None:
        """The next tick searches for what changed, whatever the stream said (it was told
        it missed something)."""
        self._search_now = True

    def _time_known(self) -> bool:
        """Whether :meth:`Hub.server_now` is as good as it gets: measured against the
        service's clock; or this machine's when the organisation has no schedule to read
        it from (or the hours could not be read a few ticks after the first fill)."""
        return self._hub.clock_known() or self._hours_read or self._ticks_filled > TIME_WAITED

    def _closed_due(self) -> bool:
        """Whether the Closed view is to be read (never yet, or its window has slid by
        :data:`CLOSED_AGAIN`; not within :data:`CLOSED_RETRY` of a reading refused)."""
        now = self._hub.server_now()
        refused = self._closed_refused
        if refused is not None and now - refused < CLOSED_RETRY:
            return False
        closed_from = self._closed_from
        return closed_from is None or now - timedelta(days=CLOSED_DAYS) - closed_from \
            >= CLOSED_AGAIN

    async def _read_closed(self, me: str) -> None:
        """Read the Closed view whole: my conversations closed in the last
        :data:`CLOSED_DAYS` days, a few pages of one search (the records not known closed
        here follow in the background, a batch a tick, after whatever is on screen)."""
        since = self._hub.server_now() - timedelta(days=CLOSED_DAYS)
        body = _filters(
            _field("AgentId", "IsOneOf", [me]),
            _field("Status", "IsOneOf", ["closed"]),
            _field("ClosedDate", "Since", timestamp=since))
        found: set[int] = set()
        key: str | None = None
        try:
            for _ in range(SINCE_PAGES):
                page = await self._hub.client.search.conversations_page(
                    filters=body, page_size=200, page_key=key, priority=Priority.BACKGROUND)
                found.update(hit.id for hit in page.items)
                key = page.next_key
                if key is None:
                    break
        except NotFound:
            raise  # no search at all: the poll says so and lives on the working set
        except ApiError as error:
            # the rest of the tick goes on; Closed stays unknown ("…") until a reading works
            log.warning("the Closed view could not be read: %s", error)
            self._closed_refused = self._hub.server_now()
            return
        self._closed_refused = None
        wanted = {cid for cid in found
                  if (row := self.rows.get(cid)) is None or row.state != "Closed"}
        self.want(sorted(wanted), Priority.BACKGROUND)
        self._closed_from, self._closed_found = since, wanted
        self._bump()  # the window moved: every row's place in Closed may have changed

    def _prime_again(self) -> bool:
        """More changed since the cursor than a few pages hold (a start after a long
        absence): read Mine and Queue whole again, as a first start does, and every row they
        show here (one that left them while the console was away is read and moves). False
        when neither can be read whole yet (who I am and my queues unknown): the pages read
        are then what this tick fetches."""
        if not (self._hub.me_id or self._directory.my_queue_ids):
            return False
        log.info("more conversations changed than %d pages hold: Mine and Queue read again",
                 SINCE_PAGES)
        shown = [row.id for view in ("mine", "queue") for row in self.view(view)]
        self.want(shown, Priority.BACKGROUND)
        self._stale_previews.update(shown)
        self._primed.difference_update(("mine", "queue"))
        self._primed_queues = frozenset()
        self._restored = InboxCursor()
        return True

    # ------------------------------------------------------------------ the cursor

    def _resume(self, cursor: InboxCursor) -> None:
        """Go on from where the last session's poll stood: its cursor, and what it had
        found but not read yet; the views it had read whole are adopted once who I am and
        my queues are known (:meth:`_adopt_priming`)."""
        if cursor.since is None:
            return
        self._restored = cursor
        self._since, self._since_known = cursor.since, True
        self.want(cursor.records, Priority.BACKGROUND)
        self._stale_previews.update(cursor.records)
        # read once shown (rows beyond the first frame's among them); Mine's text at once
        self._tags_stale.update(cursor.tags)
        self._stale_previews.update(cursor.previews)
        for conversation_id in cursor.previews:
            row = self.rows.get(conversation_id)
            if row is not None and self._mine_open(row):
                self._preview_backlog.setdefault(conversation_id, Priority.BACKGROUND)

    def _adopt_priming(self) -> None:
        """Count Mine and Queue as read whole when the last session read them for the same
        agent and for every queue of mine now (a queue joined since is read whole again)."""
        restored = self._restored
        if restored.since is None:
            return
        me = self._hub.me_id
        if me and "mine" not in self._primed and restored.mine_of == me:
            self._primed.add("mine")
        queues = self._directory.my_queue_ids
        if queues and "queue" not in self._primed and set(queues) <= restored.queues:
            self._primed.add("queue")
            self._primed_queues = frozenset(queues)

    def _advance(self, since: datetime, known: bool) -> None:
        """Move the cursor to ``since`` (a tick's start less the slack); a cursor read from
        the service's clock is never replaced by one from this machine's alone."""
        if known or not self._since_known:
            self._since, self._since_known = since, known

    def _cursor(self) -> InboxCursor:
        """Where the poll stands now, as the next start goes on from it (no position when
        the cursor was never read from the service's clock; the views the last session read
        whole while this one has not got as far as adopting them)."""
        if not self._since_known:
            return InboxCursor()
        restored = self._restored
        since = self._since
        if since is not None and self._doubtful:
            since = min(since, min(self._doubtful.values()) - CLOCK_MARGIN)
        return InboxCursor(
            since=since,
            mine_of=self._hub.me_id if "mine" in self._primed else restored.mine_of,
            queues=self._primed_queues if "queue" in self._primed else restored.queues,
            records=tuple(sorted(self._backlog)),
            tags=tuple(sorted(self._tag_backlog | self._tags_stale)),
            previews=tuple(sorted(self._preview_backlog.keys() | self._stale_previews)))

    async def _fetch_backlog(self) -> None:
        """Records first (a batch a tick); once none wait, the subjectless rows' last
        messages (a batch a tick), then tags still to read."""
        if not self._backlog:
            if self._preview_backlog:
                await self._fetch_previews()
                if self._preview_backlog:
                    return
            if self._tag_backlog:
                await self._fetch_tags()
            return
        ordered = sorted(self._backlog.items(), key=lambda item: item[1])[:BATCH]
        for conversation_id, _ in ordered:
            self._backlog.pop(conversation_id, None)
        begun = self._hub.server_now()  # every record below reflects what was before it
        results = await asyncio.gather(
            *(self._fetch_one(cid, priority) for cid, priority in ordered),
            return_exceptions=True)
        refused = [r for r in results if isinstance(r, ApiError)]
        if refused and len(refused) == len(results):
            # nothing came back (the service is down): the tick fails and the topic waits
            # before the next, rather than asking again at once for as long as it is down
            raise refused[0]
        fresh = [r for r in results if r is not None and not isinstance(r, BaseException)]
        self.upsert(fresh)
        self._after_reading(fresh, dict(ordered), begun)
        await self._name_my_requesters(fresh)
        if self._backlog or self._priming_due():  # records of the first picture go first
            self._read_soon()
            return
        if fresh:
            self.changed()  # the rows show now, before this tick reads their text and tags
        if self._preview_backlog:
            await self._fetch_previews()
            if self._preview_backlog:
                return
        await self._fetch_tags()

    def _after_reading(self, fresh: list[Conversation], priorities: dict[int, Priority],
                       begun: datetime) -> None:
        """What a record read brings in its wake: without a subject, its last message is
        read when its row is on screen or Mine's (whose turn it is drives Needs reply, unread
        marks and alerts), else once it is shown; its tags are read once it is brought on
        screen (activity never says tags changed: the service does not count a tag as
        activity), never per change. Its requester is named on screen alone (Mine's are
        named by :meth:`_name_my_requesters`)."""
        shown = self._showing
        for conversation in fresh:
            conversation_id = conversation.id
            self._read_at[conversation_id] = begun
            row = self.rows.get(conversation_id)
            if row is None:
                continue
            on_screen = conversation_id in shown
            if on_screen:
                self._directory.name(row.requester_id)
                if conversation_id not in self.tags:
                    self._tag_backlog.add(conversation_id)
            else:
                self._tags_stale.add(conversation_id)
            if (on_screen or self._mine_open(row)) and self._preview_wanted(row):
                priority = Priority.VISIBLE if on_screen else priorities.get(
                    conversation_id, Priority.BACKGROUND)
                current = self._preview_backlog.get(conversation_id)
                if current is None or priority < current:
                    self._preview_backlog[conversation_id] = priority

    async def _name_my_requesters(self, fresh: list[Conversation]) -> None:
        """The names of the customers in Mine, as soon as their records are in: Mine is the
        first view an agent sees, and a row there reads by its customer's name. During the
        first fill, a screenful of them; the other names wait until every record of the
        first picture is in."""
        me = self._hub.me_id
        if not me:
            return
        known = self._directory.names
        unnamed = list(dict.fromkeys(
            row.requester_id for c in fresh
            if (row := self.rows.get(c.id)) is not None and row.agent_id == me
            and row.state in OPEN_STATES  # Mine's rows: not my pending or closed ones
            and row.requester_id and row.requester_id not in known))
        if not self.filled:
            unnamed = unnamed[:self._first_names_left]
            self._first_names_left -= len(unnamed)
        if unnamed and await self._directory.resolve_pending(only=set(unnamed),
                                                             priority=Priority.VISIBLE):
            self._bump(NAMES_CHANGED)

    async def _fetch_previews(self) -> None:
        """The last messages of subjectless conversations, a batch a tick, after every
        record waiting (their rows are listed meanwhile, with their channel)."""
        ordered = sorted(self._preview_backlog.items(), key=lambda item: item[1])
        ordered = ordered[:PREVIEW_BATCH]
        known = self.turns_known
        asked = self._previews_asked
        for conversation_id, _ in ordered:
            self._preview_backlog.pop(conversation_id, None)
            asked.add(conversation_id)
        try:
            await asyncio.gather(*(self._fetch_preview(cid, priority)
                                   for cid, priority in ordered))
        finally:
            asked.difference_update(cid for cid, _ in ordered)
        if not known and self.turns_known:
            # Needs reply's count is known now, even where no turn changed: the view
            # counts repaint (nothing moves)
            self._bump(NAMES_CHANGED)
        if self._preview_backlog:
            self._read_soon()

    async def _fetch_tags(self) -> None:
        """Tags of recently fetched conversations, a few a tick, after their records."""
        shown = self._showing
        wanted = sorted(self._tag_backlog, key=lambda cid: (cid in shown, cid),
                        reverse=True)[:TAG_BATCH]
        self._tag_backlog.difference_update(wanted)
        client = self._hub.client

        async def one(conversation_id: int) -> None:
            priority = Priority.VISIBLE if conversation_id in shown else Priority.BACKGROUND
            try:
                tags = await client.tags.list_for_conversation(conversation_id,
                                                               priority=priority)
            except ApiError:
                return
            self._tags_stale.discard(conversation_id)
            self.set_tags(conversation_id, (t.id for t in tags))
            for tag in tags:
                self._directory.tags.setdefault(tag.id, tag)

        await asyncio.gather(*(one(cid) for cid in wanted))
        if self._tag_backlog:
            self._read_soon()

    async def _fetch_one(self, conversation_id: int, priority: Priority) -> Conversation | None:
        client = self._hub.client
        try:
            conversation = await client.conversations.get(conversation_id, priority=priority)
        except NotFound:
            self.records.drop(conversation_id)
            gone = self.rows.pop(conversation_id, None)
            if gone is not None:
                self._local.forget(conversation_id)
                self._bump(conversation_id, gone)
            return None
        except ApiError:
            self._backlog.setdefault(conversation_id, Priority.BACKGROUND)
            raise
        return conversation

    async def _fetch_preview(self, conversation_id: int, priority: Priority) -> None:
        """The last message's text of a conversation without a subject (chat, SMS, phone…):
        what its row shows, read in the tick that fetched the record once no other record
        waits. One request, only when the conversation is new here or had activity.

        The messages are read as their wire JSON, the last one alone made a model: a thread
        of ten thousand messages read as models would be some fifty megabytes at once, for
        one line of text, and the memory it left scattered would stay with the process."""
        try:
            wires, _etag = await self._hub.client.messages.list_wires_if_changed(
                conversation_id, None, priority=priority)
        except ApiError:
            return
        self._stale_previews.discard(conversation_id)
        if wires:
            from ..api.models import Message

            last = Message.model_validate_json(wires[-1].wire)
            del wires
            self.set_turn(conversation_id, last)
            body = last.attributes.body
            if body is not None and body.value:
                self.set_preview(conversation_id, body.value[:200])
                return
        if conversation_id not in self.previews:
            # read, and nothing to show (a call, an attachment alone): not asked again
            # each time its row is shown, only once its conversation has activity
            self.set_preview(conversation_id, "")


def _mine(kind: Kind, me: str | None) -> bool:
    """A row of this kind (state, channel, queue, agent) is Mine's: open, assigned to me."""
    return kind[0] in OPEN_STATES and kind[3] is not None and kind[3] == me


def _waiting(kind: Kind, mine_queues: Iterable[str]) -> bool:
    """A row of this kind is the Queue view's: open, unassigned, in one of my queues (any
    queue when I have none)."""
    return kind[0] in OPEN_STATES and kind[3] is None and kind[2] is not None \
        and (not mine_queues or kind[2] in mine_queues)


def _closed_mine(kind: Kind, me: str | None) -> bool:
    """A row of this kind is closed and mine (the Closed view's, within its days)."""
    return kind[0] == "Closed" and kind[3] is not None and kind[3] == me


def _turns_of(saved: Any) -> dict[int, tuple[str, datetime]]:
    """The turns a snapshot kept (entries that do not parse are dropped)."""
    turns: dict[int, tuple[str, datetime]] = {}
    if not isinstance(saved, dict):
        return turns
    for key, value in saved.items():
        try:
            who, when = value
            moment = datetime.fromisoformat(when)
            if who in (CUSTOMER, AGENT) and moment.tzinfo is not None:
                turns[int(key)] = (who, moment)
        except (TypeError, ValueError):
            continue
    return turns


def _field(kind: str, operator: str, values: list[str] | None = None, *,
           timestamp: datetime | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"_type": operator}
    if values is not None:
        op["values"] = values
    if timestamp is not None:
        op["timestamp"] = timestamp.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    return {"field": {"_type": kind, "operator": op}}


def _filters(*conditions: dict[str, Any]) -> dict[str, Any]:
    return {"strategy": "All", "conditions": list(conditions)}

