"""Admin → Anonymisation: the requests made from this console with their status (``r`` asks
the service again about those still waiting), and ``g`` to look up any request by its id.
The deprecated way to request an anonymisation is in the palette, marked deprecated, and asks
with the id typed back like every anonymisation."""

from __future__ import annotations

from typing import Any, Literal, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult

from ....api.models import AnonymizationRequestStatus
from ....text import one_line, safe
from ... import clock
from ...answers import Regarding, answer_of
from ...widgets.safe import DataTable, Static
from ..people.anonymize import describe_request
from ..shared.common import admin_store, cell, session_of
from ..shared.confirm import TypeBackScreen
from ..shared.form import FormField, FormScreen, Values
from .pane import AdminPane

Kind = Literal["Conversation", "Message", "User"]


def describe_status(status: AnonymizationRequestStatus, target: str) -> str:
    """A request in full (markup-safe)."""
    rows = [("Request", status.id), ("Of", f"{status.type} {target}"),
            ("Requested by", status.requested_by),
            ("Requested", clock.shown(status.initiated_at, "minute")),
            ("Status", describe_request(status))]
    return "\n".join(f"[b]{name:<13}[/b] {safe(one_line(value, 70))}" for name, value in rows)


class AnonymizationPane(AdminPane):
    """The anonymisation requests section."""

    TITLE = "Anonymisation"

    def __init__(self) -> None:
        super().__init__("anonymization")

    def compose(self) -> ComposeResult:
        yield self.caption()
        table: DataTable[Any] = DataTable(id="anonymization-table", cursor_type="row",
                                          zebra_stripes=True, classes="admin-main")
        table.add_columns("Of", "Target", "Requested", "Status")
        yield table
        yield Static("", id="anonymization-detail")

    def target_name(self, status: AnonymizationRequestStatus) -> str:
        """Who or what a request is about, as a person reads it."""
        target = status.target_entity_id
        if status.type == "User":
            return session_of(self).directory.name(target)
        if status.type == "Message":
            conversation, _, message = target.partition("_")
            return f"#{conversation} message …{message[-6:]}"
        return f"#{target}"

    def show(self, requests: list[AnonymizationRequestStatus]) -> None:
        """Fill the list."""
        table = self.query_one("#anonymization-table", DataTable)
        table.clear()
        for status in requests:
            state = Text("processed", style="green") if status.processed else \
                Text("waiting", style="yellow")
            table.add_row(status.type, cell(self.target_name(status), 36),
                          clock.shown(status.initiated_at, "minute"), state, key=status.id)
        waiting = sum(1 for r in requests if not r.processed)
        self.set_caption(f"{len(requests)} requests made here, {waiting} waiting · "
                         "r asks again · g looks up any request by id")

    def reload(self) -> None:
        """Show the kept requests, then ask the service about those still waiting."""
        self.show(admin_store(self).requests_made_here())
        self._refresh()

    @work(exclusive=True, group="anonymization-load", exit_on_error=False)
    async def _refresh(self) -> None:
        self.show(await admin_store(self).refresh_requests())

    def lookup(self) -> None:
        """Look up any request by its id."""
        store = admin_store(self)

        async def submit(values: Values) -> None:
            status = await store.lookup_request(str(values.get("id", "")))
            self.query_one("#anonymization-detail", Static).update(
                describe_status(status, self.target_name(status)))
            self.show(store.requests_made_here())

        self.app.push_screen(FormScreen(
            "Look up an anonymisation request",
            [FormField("id", "Request id", placeholder="4c1b1b3e-2a65-4f33-9e55-0d1c55a9b1a2")],
            submit, send_label="look up", form_id="anonymization-lookup"))

    def request_deprecated(self) -> None:
        """Deprecated interface: ask for an anonymisation of a conversation, a message or a
        user; asked again with the id typed back before anything is sent."""
        store = admin_store(self)
        chosen: dict[str, Any] = {}

        async def submit(values: Values) -> None:
            store.check_target(str(values.get("kind", "")), str(values.get("entity", "")))
            chosen.update(values)

        def typed(yes: bool | None) -> None:
            if yes:
                self._deprecated(cast(Kind, chosen["kind"]), str(chosen["entity"]).strip(),
                                 bool(chosen.get("force")))

        def filled(ok: bool | None) -> None:
            if ok and chosen:
                entity = str(chosen["entity"]).strip()
                self.app.push_screen(TypeBackScreen(
                    f"Anonymize {chosen['kind'].lower()} {entity} through the deprecated "
                    "interface? This cannot be undone.", entity), typed)

        self.app.push_screen(FormScreen(
            "Anonymize (deprecated interface)",
            [FormField("kind", "What", "choice", "Conversation",
                       choices=(("a conversation", "Conversation"), ("a message", "Message"),
                                ("a user", "User"))),
             FormField("entity", "Id", placeholder="12 · 12_<message id> · <user id>"),
             FormField("force", "Close it first if it is open", "bool")],
            submit, send_label="continue", form_id="anonymize-deprecated",
            intro="Deprecated: prefer the anonymize keys of the thread (A) and of People (a)."),
            filled)

    def request_conversation(self) -> None:
        """Anonymise a conversation by its id (``force`` closes it first), asked with the id
        typed back."""
        store = admin_store(self)
        chosen: dict[str, Any] = {}

        async def submit(values: Values) -> None:
            store.check_target("Conversation", str(values.get("entity", "")))
            chosen.update(values)

        def typed(yes: bool | None) -> None:
            if yes:
                self._conversation(str(chosen["entity"]).strip(), bool(chosen.get("force")))

        def filled(ok: bool | None) -> None:
            if ok and chosen:
                entity = str(chosen["entity"]).strip()
                self.app.push_screen(TypeBackScreen(
                    f"Anonymize conversation #{entity}? Its messages and attachments are "
                    "scrubbed for good.", entity), typed)

        self.app.push_screen(FormScreen(
            "Anonymize a conversation",
            [FormField("entity", "Conversation", placeholder="its number, e.g. 1234"),
             FormField("force", "Close it first if it is open", "bool")],
            submit, send_label="continue", form_id="anonymize-conversation"), filled)

    class Requested(Regarding[str, AnonymizationRequestStatus]):
        """An anonymisation was requested (``about``: the toast when it was)."""

    @work(exclusive=True, group="anonymization-act", exit_on_error=False)
    async def _conversation(self, entity: str, force: bool) -> None:
        self.post_message(self.Requested(
            f"Anonymisation of #{entity} requested.",
            *await answer_of(admin_store(self).anonymize_conversation(entity, force))))

    @work(exclusive=True, group="anonymization-act", exit_on_error=False)
    async def _deprecated(self, kind: Kind, entity: str, force: bool) -> None:
        self.post_message(self.Requested(
            "Anonymisation requested (deprecated interface).",
            *await answer_of(admin_store(self).anonymize_deprecated(kind, entity, force))))

    def on_anonymization_pane_requested(self, message: Requested) -> None:
        """Said in a toast; the request's state below the list of requests made here."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        status = message.value
        self.notify(message.about, markup=False)
        self.query_one("#anonymization-detail", Static).update(
            describe_status(status, self.target_name(status)))
        self.show(admin_store(self).requests_made_here())
