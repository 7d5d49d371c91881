"""People → End users: the list (first page of every end user, or what a search found), find
by id / email / phone / external id, create, edit (full or only the edited fields), create and
update many from a CSV, open the profile, anonymise (followed live).

The screen (:mod:`.people`) owns the keys; this pane does the work.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical

from ....api.models import AnonymizationRequestStatus, EndUser
from ....store.errors import Refused
from ....store.people import FindKind
from ....store.topics import anonymization_topic
from ....text import one_line, safe
from ... import clock
from ...answers import Returned, answer_of
from ...widgets.safe import Label
from ...worker_failures import ReportsFailedWorkers
from ..shared.common import Column, FittedTable, highlighted_key, people_store, session_of
from ..shared.form import FormField, FormScreen, Values
from .anonymize import Anonymized, ask_and_anonymize, describe_request, requested

FIND_KINDS: tuple[tuple[str, str], ...] = (
    ("guess from what is typed", "auto"),
    ("id", "id"),
    ("email", "email"),
    ("phone number", "phone"),
    ("external id", "external_id"),
    ("name", "name"),
)

COLUMNS = (Column("Name", 16, 2), Column("Email", 24, 4), Column("Phone", 13, 1),
           Column("External id", 11, 1), Column("Since", 10))
_KIND_NAMES = {"auto": "anything", "id": "an id", "email": "an email address",
               "phone": "a phone number", "external_id": "an external id", "name": "a name"}


class EndUsersPane(Vertical, ReportsFailedWorkers):
    """The end users tab."""

    def __init__(self) -> None:
        super().__init__(id="users-pane")
        self.users: dict[str, EndUser] = {}
        self.followed: dict[str, str] = {}  # request id → the user's name
        self.caption = "Loading end users…"

    def compose(self) -> ComposeResult:
        yield Label(self.caption, id="users-caption", classes="pane-caption")
        yield FittedTable(COLUMNS, id="users-table")
        yield Label("", id="users-follow", classes="pane-status")

    @property
    def table(self) -> FittedTable:
        """The list."""
        return self.query_one("#users-table", FittedTable)

    def on_mount(self) -> None:
        self.load()

    # ------------------------------------------------------------------ the list

    class Loaded(Returned[tuple[list[EndUser], bool]]):
        """The first page of end users was read (and whether more exist)."""

    @work(exclusive=True, group="users-load", exit_on_error=False)
    async def load(self) -> None:
        """The first page of every end user (oldest first, as the service lists them)."""
        store = people_store(self)

        async def read() -> tuple[list[EndUser], bool]:
            page = await store.list_endusers()
            return page.items, page.has_more

        self.post_message(self.Loaded(*await answer_of(read())))

    def on_end_users_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        users, has_more = message.value
        more = " (more exist: / finds anyone)" if has_more else ""
        self.show(users, f"{len(users)} end users{more}")

    def show(self, users: list[EndUser], caption: str, *, select: str | None = None) -> None:
        """Fill the list with ``users``."""
        self.users = {u.id: u for u in users}
        self.table.fill(((user.id, [user.display_name or "—", user.email or "",
                                    user.phone_number or "", user.external_id or "",
                                    clock.shown(user.created_at, "date")])
                         for user in users), select)
        self.set_caption(caption)

    def set_caption(self, text: str) -> None:
        """The line above the list."""
        self.caption = text
        self.query_one("#users-caption", Label).update(safe(text))

    @property
    def current(self) -> EndUser | None:
        """The highlighted end user."""
        key = highlighted_key(self.table)
        return self.users.get(key) if key else None

    # ------------------------------------------------------------------ actions

    def find(self) -> None:
        """Ask what to look for, then show who matches (the form stays when nobody does)."""
        store = people_store(self)


        async def submit(values: Values) -> None:
            kind: FindKind = values.get("kind") or "auto"
            value = str(values.get("value", ""))
            users = await store.find_endusers(kind, value)
            if not users:
                raise Refused(f"No end user matches '{one_line(value, 60)}'" + (
                    f" as {_KIND_NAMES[kind]}" if kind != "auto" else ""))
            self.show(users, f"{len(users)} found for '{one_line(value, 60)}' "
                             "(r shows everyone again)", select=users[0].id)

        self.app.push_screen(FormScreen(
            "Find an end user",
            [FormField("kind", "Find by", "choice", "auto", choices=FIND_KINDS),
             FormField("value", "Value",
                       placeholder="a name, an id, email, phone or external id",
                       hint="Guessing: an id, an email or a phone number is looked up as "
                            "such; anything else as an external id and as a name.")],
            submit, send_label="find", form_id="find-enduser", focus="value"))

    def new(self) -> None:
        """A form for a new end user; the list shows them once created."""
        store = people_store(self)

        async def submit(values: Values) -> None:
            user = await store.create_enduser(values)
            users = [user, *self.users.values()]
            self.show(users, f"Created {one_line(user.display_name or user.id, 40)}",
                      select=user.id)

        self.app.push_screen(FormScreen(
            "New end user",
            [FormField("display_name", "Display name"),
             FormField("email", "Email", placeholder="name@example.com"),
             FormField("phone_number", "Phone", placeholder="+4512345678"),
             FormField("external_id", "External id", placeholder="the id in your CRM"),
             FormField("first_name", "First name"),
             FormField("last_name", "Last name")],
            submit, send_label="create", form_id="new-enduser"))

    def edit(self, *, full: bool) -> None:
        """Edit the highlighted end user: a full update or a change of the edited fields."""
        user = self.current
        if user is None:
            return
        from .enduser_edit import edit_enduser

        def saved(updated: EndUser) -> None:
            self.users[updated.id] = updated
            self.show(list(self.users.values()),
                      "Saved " + one_line(updated.display_name or updated.id, 40),
                      select=updated.id)

        edit_enduser(self.screen, user, full=full, saved=saved)

    def bulk(self) -> None:
        """Create and update end users from a CSV file (a report per line)."""
        from .enduser_edit import bulk_from_csv

        bulk_from_csv(self.screen, self.load)

    def open(self) -> None:
        """Open the highlighted end user's profile."""
        user = self.current
        if user is None:
            return
        from .profile import EndUserProfileScreen

        self.app.push_screen(EndUserProfileScreen(user.id))

    def anonymize(self) -> None:
        """Anonymise the highlighted end user (asked, with the id typed back)."""
        user = self.current
        if user is None:
            return
        ask_and_anonymize(self, user.id, user.display_name or user.email or user.id)

    # ------------------------------------------------------------------ following requests

    def on_anonymized(self, message: Anonymized) -> None:
        """A request made here is shown until the service has processed it."""
        message.stop()
        status = requested(self, message)
        if status is None:
            return
        self.followed[status.id] = session_of(self).directory.name(status.target_entity_id)
        self.render_followed()

    def render_followed(self) -> None:
        """One line per followed request, with its latest status."""
        live = session_of(self).live
        kept = {r.id: r for r in self._kept()}
        lines: list[str] = []
        for request_id, name in self.followed.items():
            status = live.get(anonymization_topic(request_id)) or kept.get(request_id)
            if isinstance(status, AnonymizationRequestStatus):
                lines.append(f"Anonymisation of {one_line(name, 40)}: {describe_request(status)}")
        self.query_one("#users-follow", Label).update(safe("\n".join(lines[-3:])))

    def _kept(self) -> list[AnonymizationRequestStatus]:
        from ..shared.common import admin_store

        return admin_store(self).requests_made_here()
