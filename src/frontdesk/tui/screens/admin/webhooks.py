"""Admin → Webhooks: every subscription (name, on or off, URL, how many events); below it the
highlighted one's last delivery of each event (the URL and the receiver's answer take the
width there is, so the section reads at 100 columns). ``n`` creates one (a form, then the
events to send), ``e`` edits its name, URL and token, ``v`` chooses its events, ``s`` shows
its secret key (shown once when it is created, to copy into the receiver; hidden afterwards
until asked for), ``space`` turns it on or off, ``d`` deletes it
(asked; ``D`` without asking), ``l`` (or ``enter`` on an event) shows that event's delivery
log with what was sent. The last deliveries stay current while the section is in front (the
store's ``webhooks:status`` topic, a request every 15 s; none while it is hidden)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from ....api.models import EventDeliveryLog, EventDeliveryStatus, WebhookSubscription
from ....store.errors import Refused
from ....store.webhooks import EVENTS, STATUS_TOPIC, Deliveries
from ....text import one_line, safe
from ...answers import Regarding, Returned, answer_of, refusal_of
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.safe import DataTable, Label
from ..shared.common import cell, highlighted_key, move_to, session_of
from ..shared.confirm import ConfirmScreen
from ..shared.form import FormField, FormScreen, Values
from .delivery_log import DeliveryLogScreen
from .members import MembersScreen
from .pane import AdminPane
from .webhook_cells import event_name, refill, status_cells

#: Columns besides the URL (name, on, events) and their gaps, and the narrowest URL shown.
_FIXED, _MIN_URL = 3 + 6 + 8, 16
#: The widest event name shown, the "last" column's width, the gaps between the status
#: table's four columns, and the narrowest answer.
_EVENT, _LAST, _STATUS_GAPS, _MIN_ANSWER = 22, 16, 8, 12


#: The subscriptions' columns (label, key) and the last deliveries' columns.
_HOOK_COLUMNS = (("Webhook", "name"), ("On", "on"), ("Events", "events"), ("URL", "url"))
_STATUS_COLUMNS = (("Event", "event"), ("Last", "last"), ("Result", "result"),
                   ("Answer", "answer"))


class WebhooksPane(AdminPane):
    """The webhooks section."""

    TITLE = "Webhooks"
    TOPICS = (STATUS_TOPIC,)

    def __init__(self) -> None:
        super().__init__("webhooks")
        self.hooks: dict[str, WebhookSubscription] = {}
        self.statuses: list[EventDeliveryStatus] = []
        self._filled_at = 0
        #: the subscription whose secret key is shown (``s``, or just created), None: every
        #: secret hidden; hidden again once its deliveries were shown and another's are
        self.secret_shown: str | None = None
        self._secret_seen = False

    def _name_width(self) -> int:
        return min(30, max(16, self.size.width // 3))

    def _url_width(self) -> int:
        """What is left of the section's width for the URL."""
        width = self.size.width or 100
        return max(_MIN_URL, width - self._name_width() - _FIXED - 2)

    def _answer_width(self, rows: list[tuple[Text, Text]]) -> int:
        """What is left of the section's width for the receiver's answer, beside the event
        names and results of ``rows``."""
        width = self.size.width or 100
        event = max((r[0].cell_len for r in rows), default=0)
        result = max((r[1].cell_len for r in rows), default=0)
        taken = max(event, len("Event")) + _LAST + max(result, len("Result")) + _STATUS_GAPS
        return max(_MIN_ANSWER, width - taken - 2)

    def on_resize(self) -> None:
        """The cells are cut to the width: cut them again when it changes."""
        if self.size.width != self._filled_at and self.hooks:
            self._fill()
            self._fill_status()

    def compose(self) -> ComposeResult:
        yield self.caption()
        with Horizontal(classes="admin-split"):
            table: DataTable[Any] = DataTable(id="webhooks-table", cursor_type="row",
                                              zebra_stripes=True, classes="admin-main")
            refill(table, _HOOK_COLUMNS, [])
            yield table
            with Vertical(classes="admin-side"):
                yield Label("Last deliveries", id="webhook-status-title",
                            classes="section-title")
                status: DataTable[Any] = DataTable(id="webhook-status", cursor_type="row")
                refill(status, _STATUS_COLUMNS, [])
                yield status

    @property
    def table(self) -> DataTable[Any]:
        """The subscriptions."""
        return self.query_one("#webhooks-table", DataTable)

    @property
    def current(self) -> WebhookSubscription | None:
        """The highlighted subscription."""
        key = highlighted_key(self.table)
        return self.hooks.get(key) if key else None

    def reload(self, select: str | None = None) -> None:
        """Read the subscriptions again."""
        self._load(select)

    class Loaded(Regarding[str | None, list[WebhookSubscription]]):
        """The subscriptions were read (``about``: the one to highlight then)."""

    @work(exclusive=True, group="webhooks-load", exit_on_error=False)
    async def _load(self, select: str | None = None) -> None:
        self.post_message(self.Loaded(
            select, *await answer_of(session_of(self).webhooks.subscriptions())))

    def on_webhooks_pane_loaded(self, message: Loaded) -> None:
        """The list, or why it could not be read on the caption."""
        if message.refusal is not None:
            self.set_caption(message.refusal.reason)
            return
        hooks = message.value
        self.hooks = {h.id: h for h in hooks}
        self._fill(message.about)
        on_count = sum(1 for h in hooks if h.enabled)
        self.set_caption(f"{len(hooks)} webhook{'s' * (len(hooks) != 1)}, {on_count} on"
                         if hooks else
                         "No webhooks yet: n subscribes a receiver to events")
        self.show_status()

    def _fill(self, select: str | None = None) -> None:
        """The subscriptions' rows, cut to the section's width."""
        before = select or highlighted_key(self.table)
        self._filled_at = self.size.width
        name_width, url_width = self._name_width(), self._url_width()
        refill(self.table, _HOOK_COLUMNS, [
            (hook.id, (cell(hook.name, name_width),
                       Text("on", style="green") if hook.enabled else Text("off", style="dim"),
                       Text(str(len(hook.subscribed_events))), cell(hook.url, url_width)))
            for hook in self.hooks.values()])
        move_to(self.table, before)

    @on(DataTable.RowHighlighted, "#webhooks-table")
    def _highlighted(self) -> None:
        self.show_status()

    def show_status(self) -> None:
        """Read the highlighted subscription's last deliveries."""
        hook = self.current
        session_of(self).webhooks.followed = hook.id if hook is not None else None
        if hook is None:
            self.statuses = []
            self.query_one("#webhook-status", DataTable).clear()
            return
        self._status(hook)

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """The followed subscription's deliveries changed: shown without a request."""
        hook, deliveries = self.current, message.of(STATUS_TOPIC)
        if isinstance(deliveries, Deliveries) and hook is not None \
                and deliveries.webhook_id == hook.id:
            self.post_message(self.StatusRead(hook, list(deliveries.statuses)))

    class StatusRead(Regarding[WebhookSubscription, list[EventDeliveryStatus]]):
        """The last delivery of each of a subscription's events was read."""

    @work(exclusive=True, group="webhooks-status", exit_on_error=False)
    async def _status(self, hook: WebhookSubscription) -> None:
        self.post_message(self.StatusRead(
            hook, *await answer_of(session_of(self).webhooks.status(hook.id))))

    def on_webhooks_pane_status_read(self, message: StatusRead) -> None:
        """The deliveries beside the list, or why they could not be read above them."""
        title = self.query_one("#webhook-status-title", Label)
        if message.refusal is not None:
            title.update(safe(message.refusal.reason))
            return
        hook, statuses = message.about, message.value
        if hook.id == self.secret_shown:
            self._secret_seen = True
        elif self._secret_seen:  # the highlight left it: masked again
            self.secret_shown, self._secret_seen = None, False
        failed = sum(1 for s in statuses if s.delivery_status.success is False)
        title.update(safe(f"Deliveries to {one_line(hook.name, self._name_width())}: "
                          f"{len(statuses)} event{'s' * (len(statuses) != 1)}"
                          + (f", {failed} failing" if failed else "")
                          + " (l: log)" + self._secret_line(hook)))
        self.statuses = statuses
        self._fill_status()

    def _fill_status(self) -> None:
        """The last delivery of each event, the answers cut to the section's width."""
        table = self.query_one("#webhook-status", DataTable)
        before = highlighted_key(table)
        rows = [(cell(event_name(s.event), _EVENT), status_cells(s)[1]) for s in self.statuses]
        width = self._answer_width(rows)
        refill(table, _STATUS_COLUMNS, [
            (status.event, (cell(event_name(status.event), _EVENT), *status_cells(status, width)))
            for status in self.statuses])
        move_to(table, before)

    # ------------------------------------------------------------------ actions

    def new(self) -> None:
        """A form (name, URL, token), then the events to send."""
        typed: Values = {}

        def chosen(ok: bool | None) -> None:
            if not ok or not typed:
                return
            values = dict(typed)

            async def create(add: set[str], remove: set[str]) -> None:
                hook = await session_of(self).webhooks.create(
                    str(values.get("name", "")), str(values.get("url", "")), add,
                    str(values.get("token", "")), bool(values.get("enabled", True)))
                self.notify(f"Webhook {one_line(hook.name, 40)} created with "
                            f"{len(hook.subscribed_events)} events: its secret key shows "
                            "below this once, to copy into the receiver (s hides it).",
                            markup=False)
                self.secret_shown, self._secret_seen = hook.id, False
                self.reload(select=hook.id)

            self.app.push_screen(MembersScreen(
                f"Events to send to {values.get('name', '')}", [(e, event_name(e)) for e in EVENTS],
                set(), create))

        async def submit(values: Values) -> None:
            if not str(values.get("name", "")).strip():
                raise Refused("A webhook needs a name")
            from ....store.webhooks import check_url

            check_url(str(values.get("url", "")))
            typed.update(values)

        self.app.push_screen(FormScreen(
            "New webhook",
            [FormField("name", "Name", placeholder="Billing integration"),
             FormField("url", "URL", placeholder="http://127.0.0.1:8766/hook"),
             FormField("token", "Bearer token", placeholder="(optional)"),
             FormField("enabled", "On", kind="bool", value=True)],
            submit, send_label="next: events", form_id="new-webhook",
            intro="Every event is signed with the webhook's secret key."), chosen)

    def edit(self) -> None:
        """Change the highlighted subscription's name, URL or token."""
        hook = self.current
        if hook is None:
            return

        async def submit(values: Values) -> None:
            changes = {k: values.get(k, "") for k in ("name", "url", "token")}
            updated = await session_of(self).webhooks.update(hook.id, **changes)
            self.notify(f"Webhook {one_line(updated.name, 40)} saved.", markup=False)
            self.reload(select=hook.id)

        self.app.push_screen(FormScreen(
            f"Edit {hook.name}",
            [FormField("name", "Name", value=hook.name), FormField("url", "URL", value=hook.url),
             FormField("token", "Bearer token", placeholder="(blank: keep as it is)")],
            submit, send_label="save", form_id="edit-webhook"))

    def events(self) -> None:
        """Tick the events the highlighted subscription sends."""
        hook = self.current
        if hook is None:
            return

        async def apply(add: set[str], remove: set[str]) -> None:
            events = (set(hook.subscribed_events) | add) - remove
            updated = await session_of(self).webhooks.update(hook.id, events=events)
            self.notify(f"{one_line(updated.name, 40)} sends "
                        f"{len(updated.subscribed_events)} events.", markup=False)
            self.reload(select=hook.id)

        self.app.push_screen(MembersScreen(f"Events of {hook.name}",
                                           [(e, event_name(e)) for e in EVENTS],
                                           set(hook.subscribed_events), apply))

    def toggle(self) -> None:
        """Turn the highlighted subscription on or off."""
        hook = self.current
        if hook is not None:
            self._toggle(hook)

    class Toggled(Returned[WebhookSubscription]):
        """A subscription was switched on or off: as the service holds it now."""

    @work(exclusive=True, group="webhooks-act", exit_on_error=False)
    async def _toggle(self, hook: WebhookSubscription) -> None:
        self.post_message(self.Toggled(*await answer_of(
            session_of(self).webhooks.update(hook.id, enabled=not hook.enabled))))

    def on_webhooks_pane_toggled(self, message: Toggled) -> None:
        """Said in a toast; the list is read again."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        updated = message.value
        self.notify(f"Webhook {one_line(updated.name, 40)} is "
                    f"{'on' if updated.enabled else 'off'}.", markup=False)
        self.reload(select=updated.id)

    def delete(self, *, ask: bool) -> None:
        """Delete the highlighted subscription."""
        hook = self.current
        if hook is None:
            return
        if not ask:
            self._delete(hook)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._delete(hook)

        self.app.push_screen(ConfirmScreen(f"Delete the webhook {hook.name}?",
                                           "Nothing more is sent to it; its delivery log "
                                           "goes too."), answered)

    class Deleted(Regarding[WebhookSubscription, None]):
        """A subscription was deleted (or refused)."""

    @work(exclusive=True, group="webhooks-act", exit_on_error=False)
    async def _delete(self, hook: WebhookSubscription) -> None:
        self.post_message(self.Deleted(
            hook, refusal=await refusal_of(session_of(self).webhooks.delete(hook.id))))

    def on_webhooks_pane_deleted(self, message: Deleted) -> None:
        """Said in a toast; the list is read again."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        hook = message.about
        self.notify(f"Deleted the webhook {one_line(hook.name, 40)}.", markup=False)
        self.reload()

    def _secret_line(self, hook: WebhookSubscription) -> str:
        """The secret key receivers check signatures with, when shown for this one."""
        if self.secret_shown != hook.id:
            return " · s: secret key"
        return f"\nSecret key (s hides it):\n{one_line(hook.secret_key, 200)}"

    def toggle_secret(self) -> None:
        """Show the highlighted subscription's secret key under its name (it signs every
        delivery: a receiver needs it to check them), or hide it again."""
        hook = self.current
        if hook is None:
            return
        self.secret_shown = None if self.secret_shown == hook.id else hook.id
        self._secret_seen = False
        self.show_status()

    def open_log(self) -> None:
        """The delivery log of the highlighted event."""
        hook = self.current
        event = highlighted_key(self.query_one("#webhook-status", DataTable))
        if hook is not None and event is not None:
            self._open_log(hook, event)

    class LogRead(Returned[list[EventDeliveryLog]]):
        """The latest attempts to deliver one event were read."""

        def __init__(self, hook: WebhookSubscription, event: str,
                     entries: list[EventDeliveryLog] | None, refusal: Refused | None) -> None:
            super().__init__(entries, refusal)
            self.hook, self.event = hook, event

    @work(exclusive=True, group="webhooks-act", exit_on_error=False)
    async def _open_log(self, hook: WebhookSubscription, event: str) -> None:
        self.post_message(self.LogRead(
            hook, event, *await answer_of(session_of(self).webhooks.log(hook.id, event))))

    def on_webhooks_pane_log_read(self, message: LogRead) -> None:
        """The log opens, or a toast says why it cannot."""
        if message.refusal is not None:
            self.notify(message.refusal.reason, severity="error", markup=False)
            return
        self.app.push_screen(DeliveryLogScreen(message.hook.name, message.event, message.value))
