"""An end user's profile: who they are (``u`` changes their details), their custom attributes
(``e`` edits them by definition), their conversations newest first (``enter`` opens one,
``m`` loads more), and ``a`` to anonymise them (asked, with the id typed back; followed live)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer

from ....api.models import AnonymizationRequestStatus, Conversation, EndUser
from ....store.people import Profile
from ....store.topics import anonymization_topic
from ....text import one_line, safe
from ... import clock
from ...answers import Returned, answer_of
from ...offered import offered, offered_entries
from ...registry import owns_bindings
from ...widgets.attribute_editor import describe_value
from ...widgets.safe import DataTable, Label, Static
from ...widgets.status_bar import StatusBar
from ...worker_failures import ReportsFailedWorkers
from ..shared.common import Column, FittedTable, highlighted_key, people_store, session_of
from ..shared.palette import PaletteCommands, PaletteEntry, palette_of
from .anonymize import Anonymized, ask_and_anonymize, describe_request, requested

CONVERSATION_COLUMNS = (Column("#", 6), Column("Channel", 11), Column("State", 8),
                        Column("Subject", 20, 1), Column("Started", 16))


@owns_bindings
class EndUserProfileScreen(Screen[None], ReportsFailedWorkers):
    """One end user."""

    HELP_NAME = "End user"
    BINDINGS = [
        Binding("escape", "back", "Back", id="profile.back"),
        Binding("e", "attributes", "Edit attributes", id="profile.attributes"),
        Binding("u", "edit", "Edit details", id="profile.edit"),
        Binding("enter", "open", "Open conversation", id="profile.open"),
        Binding("m", "more", "More conversations", id="profile.more"),
        Binding("a", "anonymize", "Anonymize", id="profile.anonymize"),
        Binding("r", "refresh", "Refresh", id="profile.refresh"),
    ]
    PALETTE: ClassVar[tuple[PaletteEntry, ...]] = (
        PaletteEntry("End user: edit custom attributes", "key: e", "attributes"),
        PaletteEntry("End user: change name, email, phone or external id", "key: u", "edit"),
        PaletteEntry("End user: open the highlighted conversation", "key: enter", "open"),
        PaletteEntry("End user: load more conversations", "key: m", "more"),
        PaletteEntry("End user: anonymize (asks, with the id typed back)", "key: a",
                     "anonymize"),
    )

    def __init__(self, user_id: str) -> None:
        super().__init__()
        self.user_id = user_id
        self.profile: Profile | None = None
        self.conversations: list[Conversation] = []
        self.next_key: str | None = None
        self.request: AnonymizationRequestStatus | None = None
        self._unsubscribe: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Vertical(id="profile-body"):
            yield Label("Loading…", id="profile-title")
            yield Static("", id="profile-facts")
            yield Label("Custom attributes  (e edits)", classes="section-title")
            yield Static("", id="profile-attributes")
            yield Label("Conversations  (enter opens)", classes="section-title",
                        id="profile-conversations-title")
            yield FittedTable(CONVERSATION_COLUMNS, id="profile-conversations")
            yield Label("", id="profile-anonymization", classes="pane-status")
        yield Footer()

    def on_mount(self) -> None:
        status = self.query_one(StatusBar)
        status.mode = "People / end user"
        paint = getattr(self.app, "paint_status", None)
        if callable(paint):
            paint(status)
        self._unsubscribe = session_of(self).live.subscribe(self._store_changed)
        self.load()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    #: through a team gateway, anonymising is an admin's (``tui/offered.py``)
    NEEDS: ClassVar[dict[str, str]] = {"anonymize": "anonymization.anonymize_enduser"}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """An action the member's role may not perform is not offered (nor its key)."""
        return offered(self, self.NEEDS, action)

    def palette_commands(self) -> PaletteCommands:
        """The profile's palette commands (those the role may use)."""
        return palette_of(self, offered_entries(self, self.NEEDS, self.PALETTE))

    # ------------------------------------------------------------------ loading

    class Loaded(Returned[Profile]):
        """The end user, the definitions and the first page of conversations were read."""

    @work(exclusive=True, group="profile", exit_on_error=False)
    async def load(self) -> None:
        """Read the end user, the definitions and the first page of conversations."""
        self.post_message(self.Loaded(*await answer_of(people_store(self).profile(self.user_id))))

    def on_end_user_profile_screen_loaded(self, message: Loaded) -> None:
        """The profile, or why it could not be read in the title."""
        if message.refusal is not None:
            self.query_one("#profile-title", Label).update(safe(message.refusal.reason))
            return
        profile = message.value
        self.profile = profile
        self.conversations = list(profile.conversations)
        self.next_key = profile.next_key
        self._paint()

    def _paint(self) -> None:
        profile = self.profile
        if profile is None:
            return
        user = profile.user
        name = user.display_name or user.email or user.phone_number or "(no name)"
        anonymized = " · anonymized" if getattr(user, "anonymized_at", None) else ""
        self.query_one("#profile-title", Label).update(safe(one_line(name, 60)) + anonymized)
        facts = [("Email", user.email or "—"), ("Phone", user.phone_number or "—"),
                 ("External id", user.external_id or "—"),
                 ("Since", clock.shown(user.created_at, "date")), ("Id", user.id)]
        self.query_one("#profile-facts", Static).update(
            "\n".join(f"[b]{label:<12}[/b] {safe(one_line(value, 70))}"
                      for label, value in facts))
        values = {v.id: v.value for v in user.custom_attributes or []}
        lines = [f"[b]{safe(one_line(d.label, 24)):<24}[/b] "
                 f"{safe(one_line(describe_value(d, values.get(d.id)), 60))}"
                 for d in profile.definitions if not d.is_archived or d.id in values]
        self.query_one("#profile-attributes", Static).update("\n".join(lines) or "—")
        self._paint_conversations()
        self._paint_request()

    def _paint_conversations(self) -> None:
        self.query_one("#profile-conversations", FittedTable).fill(
            (str(c.id), [str(c.id), c.channel, c.state or "", c.subject or "",
                         clock.shown(c.created_at, "minute")])
            for c in self.conversations)
        more = "; m loads more" if self.next_key else ""
        self.query_one("#profile-conversations-title", Label).update(
            f"Conversations ({len(self.conversations)}{more})  enter opens")

    # ------------------------------------------------------------------ anonymisation status

    def _store_changed(self, topic: str, value: Any) -> None:
        if self.request is not None and topic == anonymization_topic(self.request.id) \
                and isinstance(value, AnonymizationRequestStatus):
            self.request = value
            self._paint_request()

    def _paint_request(self) -> None:
        text = ""
        if self.request is not None:
            text = "Anonymisation: " + describe_request(self.request)
        self.query_one("#profile-anonymization", Label).update(safe(text))

    # ------------------------------------------------------------------ actions

    def action_back(self) -> None:
        """Back to the list."""
        self.dismiss(None)

    def action_refresh(self) -> None:
        """Read the end user again."""
        self.load()

    def action_attributes(self) -> None:
        """Edit the end user's custom attributes by their definitions."""
        from ..shared.attributes_panel import AttributesPanel

        def saved(changed: bool | None) -> None:
            if changed:
                self.load()

        self.app.push_screen(AttributesPanel("Contact", self.user_id), saved)

    def action_edit(self) -> None:
        """Change the end user's details (only the edited fields are sent)."""
        if self.profile is None:
            return
        from .enduser_edit import edit_enduser

        def saved(updated: EndUser) -> None:
            if self.profile is not None:
                self.profile = replace(self.profile, user=updated)
                self._paint()

        edit_enduser(self, self.profile.user, full=False, saved=saved)

    def action_open(self) -> None:
        """Open the highlighted conversation's thread."""
        key = highlighted_key(self.query_one("#profile-conversations", DataTable))
        if key is None:
            return
        try:
            thread = importlib.import_module("frontdesk.tui.screens.inbox.thread")
        except ImportError:
            self.notify("The thread view is not available in this build.", severity="warning")
            return
        self.app.push_screen(thread.ThreadScreen(int(key)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """``enter`` (or a click) on a conversation opens it."""
        event.stop()
        self.action_open()

    def action_more(self) -> None:
        """The next page of conversations."""
        if self.next_key:
            self._more(self.next_key)
        else:
            self.notify("That is every conversation of this end user.")

    class MoreRead(Returned[tuple[list[Conversation], str | None]]):
        """The next page of conversations was read (and the key of the one after)."""

    @work(exclusive=True, group="profile-more", exit_on_error=False)
    async def _more(self, key: str) -> None:
        store = people_store(self)

        async def read() -> tuple[list[Conversation], str | None]:
            page = await store.conversations_page(self.user_id, key)
            return page.items, page.next_key

        self.post_message(self.MoreRead(*await answer_of(read())))

    def on_end_user_profile_screen_more_read(self, message: MoreRead) -> None:
        """The conversations go below the ones listed, or a toast says why not."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        items, self.next_key = message.value
        self.conversations.extend(items)
        self._paint_conversations()

    def action_anonymize(self) -> None:
        """Anonymise this end user (asked, with the id typed back)."""
        profile = self.profile
        name = (profile.user.display_name or profile.user.email or self.user_id) \
            if profile is not None else self.user_id
        ask_and_anonymize(self, self.user_id, name)

    def on_anonymized(self, message: Anonymized) -> None:
        """The request made here is followed below the profile."""
        status = requested(self, message)
        if status is not None:
            self.request = status
            self._paint_request()
