"""Mode 1: the inbox, the agent's day.

Views (Mine, Queue, Pending, Closed, All, and a temporary "Search: …" after ``s``) over the
inbox store, in a virtual list; ``tab``/``shift+tab`` or a click on the view bar switch views.
``/`` filters as you type, ``esc`` clears; ``s`` searches the service, ``o`` opens an id,
``n`` starts a conversation; ``enter`` opens the highlighted one in the thread. The keys of
:class:`~frontdesk.tui.conversation_actions.ConversationActions` act on the highlighted row,
or, when rows are marked (``space`` one, ``*`` every row shown, ``esc`` clears), on every
marked conversation: one question, then a report of each one's outcome
(:mod:`~frontdesk.tui.screens.inbox.bulk_report`). Marks are kept by conversation id: a
refresh, a filter or another view keeps them, and a marked row that left the view stays
marked (the count says how many in all).

The list changes only when the inbox's version changed (a poll that changes nothing costs
no repaint), keeping the cursor on the same conversation: a poll that changes a few
conversations moves only their lines and adjusts the view counts by them; anything larger
(or a change that may touch every row) rebuilds the view. When the terminal is wide, a preview
of the highlighted conversation sits beside the list.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches

from ....store.errors import Refused
from ....store.inbox import NAMES_CHANGED, VIEW_TITLES, VIEWS
from ....store.topics import CONNECTION, INBOX
from ....text import one_line
from ...answers import Returned, answer_of
from ...clock import ago
from ...conversation_actions import ConversationActions
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.conversation_list import ConversationList, RowLookups
from ...widgets.safe import Label
from ...widgets.view_tabs import ViewTabs
from ..shared.base import ModeScreen
from ..shared.palette import PaletteEntry, palette_of

if TYPE_CHECKING:
    from textual.widget import AwaitMount

    from ....api.models import Conversation, Message
    from ....store.actions import Outcome
    from ....store.finder import Finder
    from ....store.rows import InboxRow
    from ....store.session import Session
    from ...widgets.preview_pane import PreviewPane
    from ...widgets.safe import Input
    from .bulk_report import Act

__all__ = ["InboxScreen", "session_lookups"]

#: the terminal width from which the preview pane is shown
PREVIEW_MIN_WIDTH = 140
SEARCH = "search"
#: what an empty view says until the inbox's first fill is done
LOADING = "Loading…"
EMPTY_TEXTS = {
    "mine": "No open conversations are assigned to you.",
    "queue": "Nothing is waiting in your queues.",
    "pending": "No conversations are pending.",
    "closed": "None of your conversations closed in the last 7 days.",
    "all": "No conversations known yet: s searches the service, o opens one by id.",
    SEARCH: "The search found nothing.",
}

#: conversations changed at once up to which the list is updated in place, not rebuilt
IN_PLACE_MAX = 64

#: columns a view does not need: Mine is assigned to me and queued nowhere, Queue unassigned
HIDDEN_COLUMNS = {"mine": frozenset({"queue", "assignee"}), "queue": frozenset({"assignee"})}
#: the last column of each view (the others: the age)
LAST_COLUMNS = {"pending": "followup"}


def session_lookups(session: Session | None) -> RowLookups:
    """How the list and the preview name things, from the session's directory and inbox."""
    if session is None:
        return RowLookups(name=lambda _u: "—", queue_name=lambda _q: "—",
                          tag_ids=lambda _c: (), tag_names=lambda _c: (),
                          preview=lambda _c: "", when=lambda row: row.when, ago=ago,
                          generation=lambda: 0)
    directory = session.directory
    inbox = session.inbox

    def tag_names(conversation_id: int) -> Sequence[str]:
        return [directory.tag_name(t) for t in inbox.tags.get(conversation_id, ())]

    def tag_colors(conversation_id: int) -> Sequence[str | None]:
        return [directory.tag_color(t) for t in inbox.tags.get(conversation_id, ())]

    def when(row: InboxRow) -> datetime:
        return inbox.activity.get(row.id) or row.when

    return RowLookups(
        name=directory.name,
        queue_name=directory.queue_name,
        tag_ids=lambda cid: inbox.tags.get(cid, ()),
        tag_names=tag_names,
        preview=inbox.preview_of,
        when=when,
        ago=ago,
        generation=directory.known_counts,
        followup=inbox.followups.get,
        has_draft=lambda cid: cid in inbox.drafts,
        tag_colors=tag_colors,
        turn=inbox.turns.get,
        unread=inbox.unread,
        waited=inbox.waited,
    )


@owns_bindings
class InboxScreen(ModeScreen, ConversationActions):
    """The agent's inbox."""

    MODE_NAME = "Inbox"
    HELP_NAME = "Inbox"
    TOPICS = ("inbox",)
    PALETTE: ClassVar[tuple[PaletteEntry, ...]] = (
        PaletteEntry("Search by text via the deprecated path (deprecated)",
                     "GET /v1/search/conversations, replaced by the search of s",
                     "search_deprecated"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "next_view", "Next view", id="inbox.next_view"),
        Binding("shift+tab", "previous_view", "Previous view", id="inbox.previous_view",
                show=False),
        Binding("slash", "filter", "Filter", id="inbox.filter"),
        Binding("escape", "clear", "Clear marks / filter", id="inbox.clear", show=False),
        Binding("space", "mark", "Mark / unmark", id="inbox.mark", show=False),
        Binding("asterisk", "mark_all", "Mark every row shown", id="inbox.mark_all",
                show=False),
        Binding("s", "search", "Search", id="inbox.search"),
        Binding("o", "open_by_id", "Open #", id="inbox.open_by_id"),
        Binding("n", "new_conversation", "New", id="inbox.new"),
        Binding("r", "refresh", "Refresh", id="inbox.refresh", show=False),
        # priority: arrows move the list even while typing in the filter line
        Binding("down", "list_cursor(1)", "Next", id="inbox.filter_down", show=False,
                priority=True),
        Binding("up", "list_cursor(-1)", "Previous", id="inbox.filter_up", show=False,
                priority=True),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.view = "mine"
        self._shown_version: int | None = None
        self._search_ids: list[int] = []
        self._search_query = ""
        #: the text of a search the service has not answered yet (None: none running)
        self._searching: str | None = None
        #: the service has answered the search; the conversations it found are being read
        self._reading = False
        self._finder: Finder | None = None
        self._counts_due = False
        #: the views' counts as painted, and who "me" and "my queues" were for them
        self._counts: dict[str, int] | None = None
        self._basis: tuple[str | None, frozenset[str]] | None = None
        #: the conversations Needs reply counted (a turn is not in the row: an in-place
        #: update cannot tell from a row before whether it was counted)
        self._needing: set[int] = set()
        #: the filter line (None until mounted, right after the first frame)
        self._filter: Input | None = None
        self._filter_mounted: AwaitMount | None = None
        #: the preview pane (None until the terminal is wide enough to show it)
        self._preview: PreviewPane | None = None
        self._lookups = session_lookups(None)
        #: the conversations marked for an action on many, in the order marked
        self.marks: dict[int, None] = {}
        #: the list's scrollbar waits for the console's first frame (:meth:`_hold_scrollbar`)
        self._scrollbar_held = False

    # ------------------------------------------------------------------ building

    @property
    def session(self) -> Session | None:
        """The signed-in session (None when the console runs without one)."""
        return self.fd.session

    @property
    def finder(self) -> Finder | None:
        """Search, open and create (the session's, made on first use)."""
        session = self.session
        if session is None:
            return None
        if self._finder is None:
            self._finder = session.finder
        return self._finder

    @property
    def conversation_list(self) -> ConversationList:
        """The list widget."""
        return self.query_one("#inbox-list", ConversationList)

    @property
    def preview(self) -> PreviewPane | None:
        """The preview pane (None until the terminal has been wide enough to show it)."""
        return self._preview

    def compose(self) -> ComposeResult:
        lookups = session_lookups(self.fd.session)._replace(marked=self.marks.__contains__)
        self._lookups = lookups
        yield from super().compose()
        # after the footer: the pane is split off the right of what the status bar and the
        # footer leave (inbox.tcss), so no container is needed to put it beside the list;
        # made once the terminal is wide enough to show it (narrower, it is never built)
        if self._wide():
            yield self._new_preview()

    def _wide(self) -> bool:
        return self.app.size.width >= PREVIEW_MIN_WIDTH

    def _new_preview(self) -> PreviewPane:
        from ...widgets.preview_pane import PreviewPane

        self._preview = PreviewPane(self._lookups, self._load_preview, id="inbox-preview")
        return self._preview

    def compose_body(self) -> ComposeResult:
        # the views with their counts: clickable, never focused (the list keeps the keys)
        yield ViewTabs([(f"view-{name}", VIEW_TITLES[name]) for name in VIEWS],
                       id="inbox-views")
        marks = Label("", id="inbox-marks")
        marks.display = False  # shown while conversations are marked
        yield marks
        yield ConversationList(self._lookups, id="inbox-list")

    async def _load_preview(self, conversation_id: int) -> list[Message]:
        finder = self.finder
        if finder is None:
            raise Refused("Not connected.")
        return await finder.last_messages(conversation_id)

    def on_mount(self) -> None:
        first_frame = not self.fd.first_frame_shown
        if first_frame:
            self._hold_scrollbar()
        super().on_mount()
        self.conversation_list.focus()
        self._place_preview()
        self._paint_marks()
        self.rebuild()
        if first_frame and self.conversation_list.total_count <= self._list_lines():
            self._release_scrollbar()  # the rows fit: no scrollbar to wait for
        # the filter line is hidden until ``/``: built once the first frame is on screen
        # (the app says when: :meth:`after_first_frame`), or after this screen's first
        # refresh when the console's first frame was another's
        if not first_frame:
            self.call_after_refresh(lambda: self.filter_input)

    def after_first_frame(self) -> None:
        """The console's first frame is on the terminal: build the hidden filter line and
        the list's scrollbar."""
        self._release_scrollbar()
        self.call_after_refresh(lambda: self.filter_input)

    def _hold_scrollbar(self) -> None:
        """The console's first frame is this screen's: the list's column for the scrollbar
        is kept blank in that frame and the scrollbar comes with the next one
        (:meth:`_release_scrollbar`). Textual makes a scrollbar a widget of its own, styled,
        laid out and painted as soon as the rows are set: about a sixth of the work the
        console adds to a bare Textual app's start, for a thumb that can wait a frame. Held
        before the rows are set; released at once when they turn out to fit the list
        (:meth:`_list_lines`), before anything was laid out, so that no column moves when
        the scrollbar comes."""
        if self._scrollbar_held:
            return
        self._scrollbar_held = True
        styles = self.conversation_list.styles
        top, right, bottom, left = styles.padding
        # the scrollbar's column, kept (blank) beside whatever padding the stylesheet gives
        styles.padding = (top, right + styles.scrollbar_size_vertical, bottom, left)
        styles.overflow_y = "hidden"

    def _list_lines(self) -> int:
        """The rows the list will show at most once laid out (the lines the terminal leaves
        it under the other widgets, its column titles off): measured from the stylesheet,
        before the first layout. When another widget's height is not a plain number of
        lines, the terminal's height: only rows more than that surely overflow the list."""
        from textual.css.scalar import Unit

        listing = self.conversation_list
        lines = self.app.size.height - listing.styles.gutter.height \
            - listing.styles.margin.height - 1
        for child in self.children:
            styles = child.styles
            if child is listing or not child.display or styles.dock in ("left", "right"):
                continue
            height = styles.height
            if height is None or height.unit is not Unit.CELLS:
                return self.app.size.height
            lines -= int(height.value) + styles.margin.height
        return lines

    def _release_scrollbar(self) -> None:
        """The list as its stylesheet has it again, scrollbar included (idempotent)."""
        if not self._scrollbar_held:
            return
        self._scrollbar_held = False
        listing = self.conversation_list
        listing.styles.clear_rule("padding")
        listing.styles.clear_rule("overflow_y")
        listing.refresh(layout=True)

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        if self.fd.first_frame_shown:  # another screen was in front when the frame went out
            self._release_scrollbar()
        session = self.session
        if session is not None:
            session.inbox.refresh_drafts()  # written in a thread since the list was shown
        if session is not None and session.inbox.version != self._shown_version:
            self.rebuild()

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """A new inbox version: rebuild the list (an unchanged version repaints nothing);
        before the first fill, a change of connection may change what an empty view says."""
        session = self.session
        if session is None:
            return
        inbox = session.inbox
        if message.topic == INBOX and inbox.version != self._shown_version:
            if not self.update_in_place():
                self.rebuild()
        elif message.topic == CONNECTION and not inbox.filled:
            self.rebuild()

    def _at_top_while_filling(self) -> bool:
        """Whether the cursor has not left the top while the first fill brings rows."""
        return self.conversation_list.cursor <= 0 and self._loading()

    def _keep_at_top(self, at_top: bool) -> None:
        """While the first fill brings rows and the user has not moved, the cursor is on the
        newest row, not on whichever row came first."""
        if at_top:  # the first row shown (without listing every id: 100,000 of them)
            self.conversation_list.action_cursor_first()

    def _basis_now(self) -> tuple[str | None, frozenset[str]] | None:
        session = self.session
        if session is None:
            return None
        return session.me_id, frozenset(session.directory.my_queue_ids)

    def update_in_place(self) -> bool:
        """Show the inbox's new version by changing only the conversations that changed
        (their lines, their places, the view counts). False when that cannot be done — too
        many changes, a change of everything, another identity, the search view — and the
        view must be rebuilt."""
        session = self.session
        shown = self._shown_version
        if session is None or shown is None or self.view == SEARCH \
                or self._basis != self._basis_now():
            return False
        inbox = session.inbox
        changes = inbox.changes_since(shown)
        if changes is None or len(changes) > IN_PLACE_MAX:
            return False
        names = changes.pop(NAMES_CHANGED, False) is not False
        view = self.view
        moved: dict[int, InboxRow | None] = {}
        for conversation_id in changes:
            row = inbox.rows.get(conversation_id)
            moved[conversation_id] = (row if row is not None and view in inbox.views_of(row)
                                      else None)
        listing = self.conversation_list
        at_top = self._at_top_while_filling()
        listing.update_rows(moved, inbox.sort_key, names=names)
        self._keep_at_top(at_top)
        self._shown_version = inbox.version
        renders = self.fd.renders
        renders["inbox.update"] = renders.get("inbox.update", 0) + 1
        counts = self._counts
        if counts is not None and not self._counts_due:
            needing = self._needing
            for conversation_id, old in changes.items():
                if old is not None:
                    for name in inbox.views_of(old):
                        counts[name] -= 1
                row = inbox.rows.get(conversation_id)
                views = inbox.views_of(row) if row is not None else ()
                for name in views:
                    counts[name] += 1
                # whose turn is not in the row: Needs reply is counted by membership
                if "needs_reply" in views:
                    needing.add(conversation_id)
                else:
                    needing.discard(conversation_id)
            counts["needs_reply"] = len(needing)
            self._paint_tabs(counts)
        elif not self._counts_due:
            self._counts_due = True
            self.call_after_refresh(self._paint_counts)
        return True

    def _connected(self) -> bool:
        """Whether the service can be asked now (offline, the counts are what is known)."""
        session = self.session
        return session is not None and \
            session.live.connection.link.value not in ("offline", "signed out")

    def _loading(self) -> bool:
        """Whether the inbox is still being filled for the first time (and can be)."""
        session = self.session
        if session is None or session.inbox.filled:
            return False
        return session.live.connection.link.value not in ("offline", "signed out")

    def rows(self) -> Sequence[InboxRow]:
        """The conversations of the current view, newest activity first."""
        session = self.session
        if session is None:
            return []
        inbox = session.inbox
        if self.view == SEARCH:
            return [inbox.rows[cid] for cid in self._search_ids if cid in inbox.rows]
        return inbox.view(self.view)

    def rebuild(self) -> None:
        """Show the current view afresh (keeping the cursor on the same conversation)."""
        session = self.session
        listing = self.conversation_list
        listing.empty_text = LOADING if self._loading() else EMPTY_TEXTS.get(self.view, "")
        if self.view == SEARCH and self._searching is not None:
            listing.empty_text = (f"Searching the service for “{one_line(self._searching, 40)}”"
                                  "… (the results show here)")
        elif self.view == SEARCH and self._reading:
            listing.empty_text = f"Reading the {len(self._search_ids)} conversations found…"
        listing.hidden_columns = HIDDEN_COLUMNS.get(self.view, frozenset())
        listing.last_column = LAST_COLUMNS.get(self.view, "age")
        at_top = self._at_top_while_filling()
        listing.set_rows(self.rows())
        self._keep_at_top(at_top)
        self._shown_version = session.inbox.version if session is not None else None
        self._basis = self._basis_now()
        renders = self.fd.renders
        renders["inbox.list"] = renders.get("inbox.list", 0) + 1
        if not self._counts_due:
            # after the list's frame: counting every view walks the whole inbox
            self._counts_due = True
            self.call_after_refresh(self._paint_counts)

    def _paint_counts(self) -> None:
        self._counts_due = False
        session = self.session
        counts = session.inbox.counts() if session is not None else {}
        # counted for the version shown: in-place updates adjust them from there
        fresh = session is not None and session.inbox.version == self._shown_version \
            and self._basis == self._basis_now()
        self._counts = counts if fresh else None
        if fresh and session is not None:
            self._needing = session.inbox.needs_reply_ids()
        self._paint_tabs(counts)

    def _paint_tabs(self, counts: dict[str, int]) -> None:
        """The views' labels with their counts (a label that reads the same is left)."""
        # before the first fill a 0 is not known yet: "…" until the service has answered;
        # Needs reply's count, "…" until the turns of Mine's and Queue's rows are known;
        # Closed's until it was read from the service
        session = self.session
        loading = self._loading() or session is None
        unknown = "…" if loading else "0"
        connected = self._connected()
        unsure = {name for name, known in (
            ("needs_reply", session is not None and session.inbox.turns_known),
            ("closed", session is not None and session.inbox.closed_known))
            if loading or (not known and connected)}
        try:
            tabs = self.query_one(ViewTabs)
        except NoMatches:  # a store change before the screen is composed, or as it goes away:
            return  # its mount paints the counts
        for name in VIEWS:
            count = "…" if name in unsure else counts.get(name, 0) or unknown
            tabs.set_label(f"view-{name}", f"{VIEW_TITLES[name]} {count}")
        if tabs.label_of(f"view-{SEARCH}") is not None:
            if self._searching is not None:
                label = f"Search: {one_line(self._searching, 24)} searching…"
            else:
                label = f"Search: {one_line(self._search_query, 24)} {len(self._search_ids)}"
            tabs.set_label(f"view-{SEARCH}", label)

    def palette_commands(self) -> Iterable[tuple[str, str, Callable[[], Any]]]:
        """The views, for the command palette (besides the keys), and the search through
        the service's deprecated path."""
        for name in self._views():
            title = VIEW_TITLES.get(name, "Search results")
            yield (f"Inbox: show {title}", "tab / shift+tab cycle the views",
                   partial(self.show_view, name))
        yield from palette_of(self, self.PALETTE)

    # ------------------------------------------------------------------ views

    def _views(self) -> list[str]:
        searched = self._search_ids or self._search_query or self._searching is not None
        return [*VIEWS, SEARCH] if searched else list(VIEWS)

    def show_view(self, name: str) -> None:
        """Switch to a view (the filter stays)."""
        if name not in self._views():
            return
        tabs = self.query_one(ViewTabs)
        if tabs.active != f"view-{name}":
            tabs.active = f"view-{name}"
        if name != self.view:
            self.view = name
            self.rebuild()

    def on_view_tabs_clicked(self, event: ViewTabs.Clicked) -> None:
        """A click on a view: show it."""
        event.stop()
        if event.tab_id.startswith("view-"):
            self.show_view(event.tab_id[5:])

    def action_next_view(self) -> None:
        """Next view (Mine → Queue → Pending → Closed → All)."""
        views = self._views()
        self.show_view(views[(views.index(self.view) + 1) % len(views)])

    def action_previous_view(self) -> None:
        """Previous view."""
        views = self._views()
        self.show_view(views[(views.index(self.view) - 1) % len(views)])

    # ------------------------------------------------------------------ filter

    @property
    def filter_input(self) -> Input:
        """The filter line (hidden until ``/``: mounted on first use, right after the
        first frame or by a key that needs it before)."""
        box = self._filter
        if box is None:
            from ...widgets.safe import Input  # loaded after the first frame, with the line

            box = self._filter = Input(
                placeholder="filter: id, name, subject, tags, queue, assignee",
                id="inbox-filter")
            self._filter_mounted = self.mount(box, after=self.query_one(ViewTabs))
        return box

    async def action_filter(self) -> None:
        """Show the filter line and type in it."""
        box = self.filter_input
        if not box.is_mounted and self._filter_mounted is not None:
            await self._filter_mounted  # the keys after ``/`` go to it once it is there
        box.add_class("-shown")
        box.focus()
        self.conversation_list.prepare_search()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "inbox-filter":
            event.stop()
            self._sync_filter()

    def _sync_filter(self) -> None:
        """Filter by the line's text as it is now (a key of a burst may act before the
        line's change messages arrive; they then change nothing)."""
        self.conversation_list.set_filter(self.filter_input.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "inbox-filter":
            event.stop()
            self._sync_filter()
            if not self.filter_input.value.strip():
                self.filter_input.remove_class("-shown")
                self.conversation_list.drop_search()
            self.conversation_list.focus()

    def action_clear(self) -> None:
        """Clear the marks; with none, the filter; with no filter, leave the search
        results."""
        if self.marks:
            self._set_marks(())
            return
        box = self.filter_input
        if box.value or box.has_class("-shown"):
            box.value = ""
            box.remove_class("-shown")
            self.conversation_list.set_filter("")
            self.conversation_list.drop_search()
            self.conversation_list.focus()
        elif self.view == SEARCH:
            self._drop_search()

    def action_list_cursor(self, step: int) -> None:
        """Move the list's cursor while typing in the filter line."""
        self._sync_filter()
        listing = self.conversation_list
        if step > 0:
            listing.action_cursor_down()
        else:
            listing.action_cursor_up()

    # ------------------------------------------------------------------ marks

    def _set_marks(self, conversation_ids: Iterable[int]) -> None:
        """Mark exactly these conversations (repainting the rows whose mark changed)."""
        before = set(self.marks)
        wanted = dict.fromkeys(conversation_ids)
        self.marks.clear()
        self.marks.update(wanted)
        self.conversation_list.repaint_rows(before ^ set(self.marks))
        self._paint_marks()

    def _paint_marks(self) -> None:
        count = len(self.marks)
        label = self.query_one("#inbox-marks", Label)
        label.display = count > 0
        label.update(f"{count} marked · c x t T f B act on every marked one · esc clears"
                     if count else "")

    def action_mark(self) -> None:
        """Mark the highlighted conversation, or unmark it."""
        cid = self.conversation_list.highlighted_id
        if cid is None:
            return
        if cid in self.marks:
            self._set_marks(c for c in self.marks if c != cid)
        else:
            self._set_marks([*self.marks, cid])

    def action_mark_all(self) -> None:
        """Mark every conversation shown (after the filter), besides those marked."""
        self._set_marks([*self.marks, *self.conversation_list.shown_ids()])

    def _bulk(self, question: str, act: Act) -> None:
        """Ask once, then do ``act`` to every marked conversation and report each one."""
        session = self.session
        marked = list(self.marks)
        if session is None:
            self.notify("Not connected to a service.", severity="warning")
            return

        def reported(outcomes: list[Outcome] | None) -> None:
            done = {o.conversation_id for o in outcomes or () if o.done}
            self._set_marks(c for c in self.marks if c not in done)

        def answered(yes: bool | None) -> None:
            if yes:
                from .bulk_report import BulkReport  # loaded when first asked for

                self.app.push_screen(BulkReport(question.rstrip("?"), session, marked, act),
                                     reported)

        from ..shared.confirm import ConfirmScreen

        self.app.push_screen(ConfirmScreen(question), answered)

    def _count(self) -> str:
        count = len(self.marks)
        return f"{count} conversation{'s' if count != 1 else ''}"

    def action_conversation_claim(self) -> None:
        """Claim the highlighted conversation, or every marked one."""
        if not self.marks:
            super().action_conversation_claim()
            return

        async def claim(s: Session, cid: int) -> None:
            await s.actions.claim(cid)

        self._bulk(f"Claim {self._count()}?", claim)

    def action_conversation_close(self) -> None:
        """Close the highlighted conversation (asking), or every marked one."""
        if not self.marks:
            super().action_conversation_close()
            return

        async def close(s: Session, cid: int) -> None:
            await s.actions.close(cid)

        self._bulk(f"Close {self._count()}?", close)

    def action_conversation_transfer(self) -> None:
        """Move the highlighted conversation, or every marked one, to a queue."""
        session = self.session
        if not self.marks or session is None:
            super().action_conversation_transfer()
            return
        from ..shared.queue_picker import QueuePicker

        def picked(queue_id: str | None) -> None:
            if queue_id is None:
                return
            name = one_line(session.directory.queue_name(queue_id), 40)

            async def transfer(s: Session, cid: int) -> None:
                await s.actions.transfer(cid, queue_id)

            self._bulk(f"Transfer {self._count()} to {name}?", transfer)

        self.app.push_screen(QueuePicker(session.directory.queues, watch=session.queues),
                             picked)

    def action_conversation_followup(self) -> None:
        """Follow up the highlighted conversation, or every marked one."""
        if not self.marks:
            super().action_conversation_followup()
            return
        from ...clock import shown
        from ..shared.followup_picker import FollowupPicker

        def picked(until: datetime | str | None) -> None:
            if not isinstance(until, datetime):
                return

            async def followup(s: Session, cid: int) -> None:
                await s.actions.followup(cid, until)

            self._bulk(f"Follow up {self._count()} on {shown(until, 'day')}?", followup)

        self.app.push_screen(FollowupPicker(), picked)

    def action_conversation_tags(self) -> None:
        """Change the tags of the highlighted conversation, or add and remove tags on every
        marked one (names typed as new are created by tagging by names)."""
        session = self.session
        if not self.marks or session is None:
            super().action_conversation_tags()
            return
        from ..shared.tag_picker import TagChoice, TagPicker

        def picked(choice: TagChoice | None) -> None:
            if choice is None or choice.empty:
                return

            async def tag(s: Session, cid: int) -> None:
                await s.actions.set_tags(cid, choice.add, choice.remove)
                if choice.create:
                    await s.actions.bulk_tag(cid, list(choice.create))

            self._bulk(f"Change the tags of {self._count()}?", tag)

        self.app.push_screen(TagPicker((), session.directory.tags), picked)

    def action_conversation_bulk_tag(self) -> None:
        """Tag the highlighted conversation, or every marked one, by names."""
        if not self.marks:
            super().action_conversation_bulk_tag()
            return
        from ..shared.pickers import PromptScreen

        def typed(answer: str | None) -> None:
            names = [n.strip() for n in (answer or "").split(",") if n.strip()]
            if not names:
                return

            async def tag(s: Session, cid: int) -> None:
                await s.actions.bulk_tag(cid, names)

            self._bulk(f"Tag {self._count()} with {', '.join(names)}?", tag)

        self.app.push_screen(PromptScreen(f"Tag {self._count()} by names (comma-separated; "
                                          "new names are created)", placeholder="vip, refund"),
                             typed)

    # ------------------------------------------------------------------ search

    def action_search(self, deprecated: bool = False) -> None:
        """Search the service by text; the results show as a "Search: …" view
        (``deprecated``: through the service's deprecated search by text)."""
        from ..shared.pickers import PromptScreen

        def answered(query: str | None) -> None:
            if query:
                self._search(query, deprecated=deprecated)

        self.app.push_screen(PromptScreen("Search the service for…",
                                          placeholder="words in subjects and messages",
                                          value=self._search_query), answered)

    def action_search_deprecated(self) -> None:
        """Search by text through the service's deprecated path (``GET`` search)."""
        self.action_search(deprecated=True)

    @work(exclusive=True, exit_on_error=False, group="inbox-search")
    async def _search(self, query: str, *, deprecated: bool = False) -> None:
        finder = self.finder
        if finder is None:
            return
        # at once, and until the service answers: the Search view says the search runs
        before = (self.view, self._search_query, self._search_ids)
        self._searching = query
        self._search_ids = []
        tabs = self.query_one(ViewTabs)
        tabs.add_tab(f"view-{SEARCH}", "Search")
        self.view = SEARCH
        tabs.active = f"view-{SEARCH}"
        self.rebuild()

        def answered(ids: list[int]) -> None:  # the known ones are listed at once
            self._searching = None
            self._reading = True
            self._search_query, self._search_ids = query, ids
            self.rebuild()

        try:
            found, refusal = await answer_of(finder.search_text(query, answered,
                                                                deprecated=deprecated))
        finally:
            self._reading = False
            if self._searching == query:
                self._searching = None
        self.post_message(self.Searched(query, before, found, refusal))

    class Searched(Returned["list[Conversation]"]):  # the models load after the first frame
        """The service answered a search (``before``: the view and search it replaced)."""

        def __init__(self, query: str, before: tuple[str, str, list[int]],
                     found: list[Conversation] | None, refusal: Refused | None) -> None:
            super().__init__(found, refusal)
            self.query, self.before = query, before

    def on_inbox_screen_searched(self, message: Searched) -> None:
        """The results as the Search view; refused: why, and the view before comes back."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            view, self._search_query, self._search_ids = message.before
            if not (self._search_ids or self._search_query):
                self._drop_search(view if view != SEARCH else "mine")
            else:
                self.rebuild()
            return
        self._search_query = message.query
        self._search_ids = [c.id for c in message.value]
        self.rebuild()
        self.conversation_list.focus()

    def _drop_search(self, back_to: str = "mine") -> None:
        self._search_ids = []
        self._search_query = ""
        self._searching = None
        self.show_view(back_to)
        self.query_one(ViewTabs).remove_tab(f"view-{SEARCH}")

    # ------------------------------------------------------------------ open, new, refresh

    def current_conversation_id(self) -> int | None:
        """The highlighted conversation (the action keys act on it)."""
        return self.conversation_list.highlighted_id

    def on_conversation_actions_done(self, message: ConversationActions.Done) -> None:
        """Repaint at once when the store changed while a picker was in front."""
        session = self.session
        if session is not None and session.inbox.version != self._shown_version:
            self.rebuild()

    def on_conversation_list_selected(self, event: ConversationList.Selected) -> None:
        event.stop()
        self.open_thread(event.conversation_id)

    def on_conversation_list_shown(self, event: ConversationList.Shown) -> None:
        """Tell the inbox which rows are on screen (their tags and text are read first,
        the others' only once they are shown)."""
        session = self.session
        if session is not None:
            session.inbox.showing(event.conversation_ids)

    def on_conversation_list_highlighted(self, event: ConversationList.Highlighted) -> None:
        event.stop()
        self._preview_highlighted()

    def _preview_highlighted(self) -> None:
        pane = self._preview
        if pane is not None and pane.display and pane.is_mounted:
            pane.show(self.conversation_list.highlighted)

    def open_thread(self, conversation_id: int) -> None:
        """Open a conversation in the thread screen."""
        try:
            module = importlib.import_module("frontdesk.tui.screens.inbox.thread")
            screen_class: Callable[..., Any] = module.ThreadScreen
        except (ImportError, AttributeError):
            self.notify(f"The thread view is not available yet (#{conversation_id}).",
                        severity="warning")
            return
        siblings = self.conversation_list.shown_ids()
        if conversation_id not in siblings:
            siblings = [conversation_id]
        try:
            pane = self._preview
            known = pane.known_messages(conversation_id) if pane is not None else []
            screen = screen_class(conversation_id, siblings=siblings, known=known)
        except TypeError:  # a thread screen that does not walk siblings
            screen = screen_class(conversation_id)
        self.app.push_screen(screen)

    def _reveal(self, conversation_id: int) -> None:
        """Show a conversation just found or made: open it, and keep it highlighted."""
        if not self.conversation_list.move_to(conversation_id):
            self.show_view("all")
            self.conversation_list.move_to(conversation_id)
        self.open_thread(conversation_id)

    def action_open_by_id(self) -> None:
        """Open a conversation by its id."""
        finder = self.finder
        if finder is None:
            self.notify("Not connected to a service.", severity="warning")
            return
        from .open_conversation import OpenConversationScreen

        def opened(conversation_id: int | None) -> None:
            if conversation_id is not None:
                self._reveal(conversation_id)

        self.app.push_screen(OpenConversationScreen(finder), opened)

    def action_new_conversation(self) -> None:
        """Start a conversation (email, chat, SMS) or import one with its history."""
        finder = self.finder
        session = self.session
        if finder is None or session is None:
            self.notify("Not connected to a service.", severity="warning")
            return
        from .new_conversation import NewConversationScreen

        def made(conversation_id: int | None) -> None:
            if conversation_id is not None:
                self._reveal(conversation_id)

        self.app.push_screen(NewConversationScreen(finder, me_id=session.me_id), made)

    def action_refresh(self) -> None:
        """Ask the service for changes now."""
        session = self.session
        if session is not None:
            session.live.poke("inbox")
            self.notify("Refreshing…", timeout=1.5)

    # ------------------------------------------------------------------ layout

    def on_resize(self, _event: events.Resize) -> None:
        self._place_preview()

    def _place_preview(self) -> None:
        pane = self._preview
        wide = self._wide()
        if pane is None:
            if wide:  # first wide enough now: the pane is made, and shows once mounted
                self.mount(self._new_preview())
                self.call_after_refresh(self._preview_highlighted)
            return
        if pane.display != wide:
            pane.display = wide
            if wide:
                self._preview_highlighted()
