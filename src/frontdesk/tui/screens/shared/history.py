"""History: what happened to a conversation (``h`` in the thread), and the organisation's recent
activity (for supervisors: ``A`` in Team mode, or the palette), from the activity log.

Each entry is one row: when (local time), who, and what in words ("closed the conversation",
"added the tag Billing"). The organisation's activity is filtered as you type: by kind
("closed", "tag", "note"…), by who did it, or by conversation number.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, ClassVar, Final

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from ....api.models import ActivityLogEntry
from ....store.activity import RECENT_HOURS, conversation_history, recent_activity
from ....text import one_line
from ... import clock
from ...answers import Returned, answer_of
from ...registry import owns_bindings
from ...widgets.safe import DataTable, Input, Label, Static
from ...worker_failures import ReportsFailedWorkers

__all__ = ["ActivityScreen", "HistoryScreen", "describe", "followups_until", "who"]

#: What each kind of entry says, in words (``{tag}``-style fields come from its attributes).
_WORDS: Final[dict[str, str]] = {
    "ConversationCreatedByCustomer": "started the conversation",
    "ConversationCreatedByAgent": "started the conversation",
    "ConversationImported": "imported the conversation",
    "MessageAddedByAgent": "replied",
    "MessageAddedByCustomer": "wrote",
    "NoteAdded": "added an internal note",
    "ConversationClaimed": "claimed the conversation",
    "TransferSuccessful": "transferred the conversation{destination}",
    "TagAdded": "added the tag {tag}",
    "TagRemoved": "removed the tag {tag}",
    "FollowupAdded": "set a follow-up{until}",
    "FollowupRemoved": "ended the follow-up",
    "FollowupExpired": "follow-up time came",
    "ConversationClosed": "closed the conversation",
    "ConversationReopened": "reopened the conversation",
    "ConversationRated": "rated the conversation",
    "ConversationRatingOffered": "offered a rating",
    "ConversationCustomAttributesUpdated": "changed the custom attributes",
    "ConversationMessageRedacted": "anonymized a message",
    "ConversationLinkedToParent": "linked it under #{parent}",
    "ConversationLinkedFromChild": "linked #{child} under it",
}

#: Kinds the service does by itself: one of these without an author is the system's. Any
#: other kind was done by someone the service did not name (a tag added through the API says
#: nobody), which the history says as such rather than blaming the system.
_SYSTEM_KINDS: Final = frozenset({
    "FollowupExpired", "ConversationAutoreplySent", "ConversationOffered",
    "ConversationOfferTimeout", "ConversationRatingScheduled", "ConversationRatingUnscheduled",
    "ConversationAssigned", "ConversationUnassigned", "ConversationTranscriptionStarted",
    "ConversationTranscriptionEnded",
})
#: Kinds after which a conversation's follow-up is over.
_FOLLOWUP_ENDS: Final = frozenset({"FollowupRemoved", "FollowupExpired", "ConversationClosed"})


def describe(entry: ActivityLogEntry, until: datetime | None = None) -> str:
    """What an entry says, in words (an unknown kind: its name, spaced): where a transfer
    went; ``until``, when known, the time a follow-up was set for."""
    template = _WORDS.get(entry.type)
    attributes = entry.attributes
    if template is None:
        words = "".join(f" {c.lower()}" if c.isupper() else c for c in entry.type).strip()
        return one_line(words or "something happened", 80)

    def field(name: str) -> str:
        value = getattr(attributes, name, None)
        return one_line(str(value), 60) if value not in (None, "") else "?"

    text = template
    for name in ("tag", "parent", "child"):
        if "{" + name + "}" in text:
            text = text.replace("{" + name + "}", field(name))
    label = getattr(attributes, "destination_label", None)
    kind = getattr(attributes, "destination_type", None)
    destination = ""
    if label:
        destination = f" to the {kind.lower()} {one_line(label, 40)}" if kind in (
            "Queue", "Agent", "Team") else f" to {one_line(label, 40)}"
    text = text.replace("{destination}", destination)
    return text.replace("{until}", f" until {clock.shown(until, 'day')}" if until else "")


def followups_until(entries: list[ActivityLogEntry], known: Mapping[int, datetime]
                    ) -> dict[str, datetime]:
    """The time each conversation's follow-up was set for, by the id of the entry that set
    it: the log does not say, so only the newest ``FollowupAdded`` of a conversation whose
    follow-up time the console knows (one it set) and that has not ended since."""
    found: dict[str, datetime] = {}
    ended: set[int] = set()
    seen: set[int] = set()
    for entry in sorted(entries, key=lambda e: e.activity_timestamp, reverse=True):
        conversation = entry.conversation_id
        if entry.type in _FOLLOWUP_ENDS:
            ended.add(conversation)
        elif entry.type == "FollowupAdded" and conversation not in seen:
            seen.add(conversation)
            if conversation not in ended and conversation in known:
                found[entry.id] = known[conversation]
    return found


def who(entry: ActivityLogEntry, names: Callable[[str], str] | None = None) -> str:
    """Who did it: the log's name, else the directory's, else an email, a phone, the system."""
    author = entry.author
    if author is None:
        return "system" if entry.type in _SYSTEM_KINDS else "not recorded"
    name = author.name or ""
    if not name and names is not None:
        looked_up = names(author.id)
        name = looked_up if looked_up and looked_up != "—" else ""
    return one_line(name or author.email or author.phone_number or "…" + author.id[-6:], 40)


class _LogScreen(ModalScreen[None], ReportsFailedWorkers):
    """A table of activity entries over the screen, with a line saying what is shown."""

    TITLE_TEXT = ""

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[ActivityLogEntry] = []

    def _table(self) -> DataTable[Any]:
        return self.query_one("#history-table", DataTable)

    def _names(self) -> Callable[[str], str] | None:
        session = getattr(self.app, "session", None)
        return session.directory.name if session is not None else None

    def _say(self, text: str, *, error: bool = False) -> None:
        line = self.query_one("#history-status", Static)
        line.update(Text(one_line(text, 200)))
        line.set_class(error, "-error")

    def _paint(self, entries: list[ActivityLogEntry], *, numbers: bool) -> None:
        table = self._table()
        table.clear()
        names = self._names()
        session = getattr(self.app, "session", None)
        until = followups_until(entries, session.inbox.followups if session is not None
                                else {})
        for index, entry in enumerate(entries):
            cells = [Text(clock.shown(entry.activity_timestamp, "day"))]
            if numbers:
                cells.append(Text(f"#{entry.conversation_id}"))
            cells += [Text(who(entry, names)), Text(describe(entry, until.get(entry.id)))]
            table.add_row(*cells, key=f"{index}:{entry.id}")

    def action_close(self) -> None:
        """Back to where it was opened."""
        self.dismiss(None)

    class Read(Returned[list[ActivityLogEntry]], namespace="log"):
        """The entries were read (or why not)."""

    async def _read(self, entries: Awaitable[list[ActivityLogEntry]]) -> None:
        """Await the store's read of the log and post what came of it."""
        self.post_message(self.Read(*await answer_of(entries)))

    def on_log_read(self, message: Read) -> None:
        """The entries, or why they could not be read on the status line."""
        if message.refusal is not None:
            self._say(message.refusal.reason, error=True)
            return
        self.entries = message.value
        self._show()

    def _show(self) -> None:
        """Paint the entries and say what is shown."""
        raise NotImplementedError


@owns_bindings
class HistoryScreen(_LogScreen):
    """One conversation's activity log, newest first."""

    HELP_NAME = "History"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h", "close", "Close", id="history.close"),
        Binding("r", "refresh", "Refresh", id="history.refresh"),
    ]

    def __init__(self, conversation_id: int) -> None:
        super().__init__()
        self.conversation_id = int(conversation_id)

    def compose(self) -> ComposeResult:
        with Vertical(id="history-box"):
            yield Label(f"History of #{self.conversation_id}", id="history-title")
            table: DataTable[Any] = DataTable(id="history-table", cursor_type="row")
            table.add_columns("When", "Who", "What")
            yield table
            yield Static("Loading…", id="history-status")
            yield Label("r: refresh    esc: close", id="history-hint")

    def on_mount(self) -> None:
        self.load()

    def action_refresh(self) -> None:
        """Read the log again."""
        self.load()

    @work(exclusive=True, group="history-load", exit_on_error=False)
    async def load(self) -> None:
        """Read the conversation's log."""
        session = getattr(self.app, "session", None)
        if session is None:
            return
        await self._read(conversation_history(session, self.conversation_id))

    def _show(self) -> None:
        entries = self.entries
        self._paint(entries, numbers=False)
        count = len(entries)
        self._say(f"{count} entr{'ies' if count != 1 else 'y'}, newest first" if count
                  else "Nothing recorded for this conversation yet.")


@owns_bindings
class ActivityScreen(_LogScreen):
    """The organisation's recent activity, newest first, filtered as you type."""

    HELP_NAME = "Activity"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="activity.close"),
        Binding("ctrl+r", "refresh", "Refresh", id="activity.refresh"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="history-box"):
            yield Label(f"Activity of the last {RECENT_HOURS} hours", id="history-title")
            yield Input(placeholder="filter: a kind (closed, tag, note…), who, or #id",
                        id="history-filter")
            table: DataTable[Any] = DataTable(id="history-table", cursor_type="row")
            table.add_columns("When", "Conv.", "Who", "What")
            yield table
            yield Static("Loading…", id="history-status")
            yield Label("type to filter    ctrl+r: refresh    esc: close", id="history-hint")

    def on_mount(self) -> None:
        self.load()

    def action_refresh(self) -> None:
        """Read the activity again."""
        self.load()

    @work(exclusive=True, group="activity-load", exit_on_error=False)
    async def load(self) -> None:
        """Read the organisation's recent activity."""
        session = getattr(self.app, "session", None)
        if session is None:
            return
        await self._read(recent_activity(session))

    def matching(self, query: str) -> list[ActivityLogEntry]:
        """The entries a filter keeps: every word must be in the entry's kind, its words,
        who did it or its conversation number."""
        words = query.casefold().split()
        if not words:
            return list(self.entries)
        names = self._names()
        kept = []
        for entry in self.entries:
            haystack = " ".join((entry.type, describe(entry), who(entry, names),
                                 f"#{entry.conversation_id}")).casefold()
            if all(word in haystack for word in words):
                kept.append(entry)
        return kept

    def _show(self) -> None:
        query = self.query_one("#history-filter", Input).value
        shown = self.matching(query)
        self._paint(shown, numbers=True)
        total = len(self.entries)
        if not total:
            self._say(f"Nothing happened in the last {RECENT_HOURS} hours.")
        elif query.strip():
            self._say(f"{len(shown)} of {total} entries match")
        else:
            self._say(f"{total} entries, newest first")

    @on(Input.Changed, "#history-filter")
    def _filter(self, event: Input.Changed) -> None:
        event.stop()
        self._show()
