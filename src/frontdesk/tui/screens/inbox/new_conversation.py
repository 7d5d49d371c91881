"""``n``: start a conversation by channel (Email, Chat, SMS) or import one with its history.

One tab per kind. What is typed is checked before anything is sent (required fields, the
shape of ids, the JSON of an import); the requester is named by email address or end user id
and looked up first (an address no end user has: the screen offers to create them, then goes
on); the service's own message is shown when it refuses. Nothing typed is
lost on an error: the form stays open as it was. ``ctrl+s`` sends, ``esc`` cancels.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen

from ....api.models.contact_endpoints import ContactEndpoint
from ....store.errors import Refusal, Refused
from ....store.finder import Finder, import_problem
from ....text import one_line
from ...answers import Regarding, Returned, answer_of
from ...clock import now
from ...registry import owns_bindings
from ...widgets.safe import Button, Input, Label, Select, TabbedContent, TabPane, TextArea
from ...worker_failures import ReportsFailedWorkers
from ..shared.confirm import ConfirmScreen

__all__ = ["NewConversationScreen"]

_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                   r"[0-9a-fA-F]{12}$")
KINDS = ("email", "chat", "sms", "import")
DIRECTIONS: list[tuple[Text, str]] = [
    (Text("I write first (outbound)"), "Outbound"),
    (Text("The customer wrote (inbound)"), "Inbound"),
]
IMPORT_CHANNELS: list[tuple[Text, str]] = [
    (Text("email"), "email"), (Text("messaging (genericapimessaging)"), "genericapimessaging"),
]


def _wire_time() -> str:
    """Now, as the service writes times."""
    return now().strftime("%Y-%m-%dT%H:%M:%S.") + f"{now().microsecond // 1000:03d}Z"


def _message(direction: str, body: str, me_id: str) -> dict[str, Any]:
    message: dict[str, Any] = {"_type": direction, "content": {"_type": "Text", "value": body}}
    if direction == "Outbound":
        message["agentId"] = me_id
    return message


@owns_bindings
class NewConversationScreen(ModalScreen[int | None], ReportsFailedWorkers):
    """A form to create or import a conversation; answers the new conversation's id."""

    HELP_NAME = "New conversation"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Create", id="new.send", priority=True),
        Binding("escape", "cancel", "Cancel", id="new.cancel"),
    ]

    def __init__(self, finder: Finder, *, me_id: str) -> None:
        super().__init__()
        self.finder = finder
        self.me_id = me_id
        self.sending = False

    def compose(self) -> ComposeResult:
        with Vertical(id="new-box"):
            yield Label("New conversation", classes="picker-title")
            with TabbedContent(id="new-kind"):
                with TabPane("Email", id="email"), VerticalScroll():
                    yield Input(placeholder="requester: email address or end user id",
                                id="email-requester")
                    yield Input(placeholder="subject", id="email-subject")
                    yield Select[str]([], prompt="our address (contact endpoint)",
                                      id="email-endpoint")
                    yield Select[str](DIRECTIONS, value="Outbound", allow_blank=False,
                                      id="email-direction")
                    yield TextArea(id="email-body", placeholder="the first message")
                with TabPane("Chat", id="chat"), VerticalScroll():
                    yield Input(placeholder="requester: email address or end user id",
                                id="chat-requester")
                    yield Input(placeholder="chat widget id (UUID)", id="chat-widget")
                    yield Select[str](DIRECTIONS, value="Outbound", allow_blank=False,
                                      id="chat-direction")
                    yield TextArea(id="chat-body", placeholder="the first message")
                with TabPane("SMS", id="sms"), VerticalScroll():
                    yield Input(placeholder="requester: email address or end user id",
                                id="sms-requester")
                    yield Select[str]([], prompt="our number (contact endpoint)",
                                      id="sms-endpoint")
                    yield TextArea(id="sms-body", placeholder="the first message (from me)")
                with TabPane("Import", id="import"), VerticalScroll():
                    yield Label("Paste the import's JSON, or leave it empty and fill in the "
                                "form below.", classes="picker-hint")
                    yield TextArea(id="import-json", language=None,
                                   placeholder='{"_type": "GenericConversationImport", …}')
                    yield Input(placeholder="requester: email address or end user id",
                                id="import-requester")
                    yield Select[str](IMPORT_CHANNELS, value="email", allow_blank=False,
                                      id="import-channel")
                    yield Input(placeholder="subject", id="import-subject")
                    yield Select[str]([], prompt="our address (email imports)",
                                      id="import-endpoint")
                    yield TextArea(id="import-message", placeholder="the customer's message")
            yield Label("", id="new-error", classes="picker-hint -error")
            with Horizontal(id="new-buttons"):
                yield Button("Create (ctrl+s)", id="new-send", variant="primary")
                yield Button("Cancel (esc)", id="new-cancel")

    def on_mount(self) -> None:
        self.query_one("#email-requester", Input).focus()
        self._load_endpoints()

    class EndpointsRead(Regarding[tuple[str, ...], list[ContactEndpoint]]):
        """One kind of contact endpoint was read (``about``: the choices they fill)."""

    @work(exclusive=True, exit_on_error=False, group="new-endpoints")
    async def _load_endpoints(self) -> None:
        """Fill the contact endpoint choices (addresses and numbers of the organisation)."""
        for kind, selects in (("EmailEndpoint", ("#email-endpoint", "#import-endpoint")),
                              ("TelephonyEndpoint", ("#sms-endpoint",))):
            self.post_message(self.EndpointsRead(
                selects, *await answer_of(self.finder.contact_endpoints(kind))))

    def on_new_conversation_screen_endpoints_read(self, message: EndpointsRead) -> None:
        """The endpoints as choices, or why not on the form's line."""
        if message.refusal is not None:
            self._error(message.refusal.reason)
            return
        options = [(self._endpoint_label(e), e.key) for e in message.value if e.key]
        for selector in message.about:
            select = self.query_one(selector, Select)
            select.set_options(options)
            if options:
                select.value = options[0][1]

    @staticmethod
    def _endpoint_label(endpoint: ContactEndpoint) -> Text:
        label = one_line(endpoint.key, 60)
        if endpoint.name:
            label += f"  ({one_line(endpoint.name, 30)})"
        return Text(label)

    def show_kind(self, kind: str) -> None:
        """Bring a kind's tab to the front, with the focus in its first field."""
        if kind in KINDS:
            self.query_one("#new-kind", TabbedContent).active = kind
            self._focus_first(kind)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        self._focus_first(self.kind)

    def _focus_first(self, kind: str) -> None:
        # the focus must follow: left in a hidden pane, it would bring that pane back
        first = "#import-json" if kind == "import" else f"#{kind}-requester"
        self.query_one(first).focus()

    # ------------------------------------------------------------------ reading the form

    def _value(self, selector: str) -> str:
        widget = self.query_one(selector)
        if isinstance(widget, Input):
            return widget.value.strip()
        if isinstance(widget, TextArea):
            return widget.text.strip()
        if isinstance(widget, Select):
            value = widget.value
            return value if isinstance(value, str) else ""
        return ""

    def _error(self, text: str) -> None:
        self.query_one("#new-error", Label).update(Text(one_line(text, 400)))

    @property
    def kind(self) -> str:
        """The tab in front: email, chat, sms or import."""
        active = self.query_one("#new-kind", TabbedContent).active
        return active if active in KINDS else "email"

    def problem(self) -> str | None:
        """What is missing or wrong in the form, before anything is sent."""
        kind = self.kind
        if kind == "import":
            raw = self._value("#import-json")
            if raw:
                try:
                    parsed = json.loads(raw)
                except json.JSONDecodeError as error:
                    return f"The JSON is not valid: {error.msg} (line {error.lineno})."
                if not isinstance(parsed, dict):
                    return "The JSON must be one object of the import's shape."
                return import_problem(parsed)
            if not self._value("#import-requester"):
                return "Name the requester: an email address or an end user id."
            if not self._value("#import-message"):
                return "Type the customer's message."
            if self._value("#import-channel") == "email" and not self._value(
                    "#import-endpoint"):
                return "Choose our address for the email import."
            return None
        if not self._value(f"#{kind}-requester"):
            return "Name the requester: an email address or an end user id."
        if kind == "email":
            if not self._value("#email-subject"):
                return "An email needs a subject."
            if not self._value("#email-endpoint"):
                return "Choose our address (the contact endpoint it goes through)."
        if kind == "chat" and not _UUID.match(self._value("#chat-widget")):
            return "The chat widget id must be a UUID."
        if kind == "sms" and not self._value("#sms-endpoint"):
            return "Choose our number (the contact endpoint it goes through)."
        if not self._value(f"#{kind}-body"):
            return "Type the first message."
        direction = self._value(f"#{kind}-direction") if kind != "sms" else "Outbound"
        if direction == "Outbound" and not self.me_id:
            return "Not signed in as an agent: an outbound message needs its author."
        return None

    # ------------------------------------------------------------------ sending

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "new-send":
            self.action_send()
        else:
            self.action_cancel()

    def action_send(self) -> None:
        """Check the form, then create (or import) the conversation."""
        if self.sending:
            return
        problem = self.problem()
        if problem is not None:
            self._error(problem)
            return
        self._error("Sending…")
        self.sending = True
        self._send(self.kind)

    def _offer_new_requester(self, refusal: Refused) -> None:
        """Nobody has the requester's address: ask whether to create them and go on."""
        kind = self.kind
        address = self._value(f"#{kind}-requester")
        self._error(refusal.reason)

        def answered(yes: bool | None) -> None:
            if not yes or self.sending:
                self._error(refusal.reason + " Nothing was created.")
                return
            self._error(f"Creating the end user {address}…")
            self.sending = True
            self._send(kind, create_requester=True)

        self.app.push_screen(ConfirmScreen(
            refusal.reason, f"Create an end user with the email address {address} and "
            "start the conversation with them?"), answered)

    class Created(Returned[int]):
        """The conversation was created (its number), or refused."""

    @work(exclusive=True, exit_on_error=False, group="new-send")
    async def _send(self, kind: str, create_requester: bool = False) -> None:
        try:
            self.post_message(self.Created(*await answer_of(
                self._create(kind, create_requester))))
        except BaseException:
            self.sending = False  # a failure is said by the console's one handler
            raise

    def on_new_conversation_screen_created(self, message: Created) -> None:
        """Created: the screen closes with its number; refused: why, and the form stays."""
        self.sending = False
        if message.refusal is not None:
            if message.refusal.kind is Refusal.UNKNOWN_ADDRESS:
                self._offer_new_requester(message.refusal)
                return
            self._error(message.refusal.reason)
            return
        self.dismiss(message.value)

    async def _create(self, kind: str, create_requester: bool = False) -> int:
        finder = self.finder
        if kind == "import" and self._value("#import-json"):
            body: dict[str, Any] = json.loads(self._value("#import-json"))
            return self._imported(await finder.import_conversation(body))
        requester = await finder.requester(self._value(f"#{kind}-requester"),
                                           create=create_requester)
        if kind == "import":
            return self._imported(await finder.import_conversation(
                self._import_body(requester.id)))
        direction = self._value(f"#{kind}-direction") if kind != "sms" else "Outbound"
        message = _message(direction, self._value(f"#{kind}-body"), self.me_id)
        if kind == "email":
            body = {"_type": "Email", "requesterId": requester.id,
                    "emailIntegrationId": self._value("#email-endpoint"),
                    "subject": self._value("#email-subject"), "message": message}
        elif kind == "chat":
            body = {"_type": "Chat", "requesterId": requester.id,
                    "widgetId": self._value("#chat-widget"), "message": message}
        else:
            body = {"_type": "Sms", "requesterId": requester.id,
                    "contactEndpointId": self._value("#sms-endpoint"), "message": message}
        return await finder.create_conversation(body)

    def _import_body(self, requester_id: str) -> dict[str, Any]:
        channel = self._value("#import-channel") or "email"
        at = _wire_time()
        body: dict[str, Any] = {
            "_type": "GenericConversationImport", "genericChannelName": channel,
            "requesterId": requester_id, "direction": "Inbound", "createdAt": at,
            "messages": [{"_type": "Inbound", "createdAt": at,
                          "content": {"_type": "Text",
                                      "value": self._value("#import-message")}}],
        }
        if self._value("#import-subject"):
            body["subject"] = self._value("#import-subject")
        if channel == "email":
            body["attributes"] = {"emailIntegrationId": self._value("#import-endpoint")}
        return body

    def _imported(self, result: tuple[int, list[str]]) -> int:
        conversation_id, partial = result
        if partial:
            self.app.notify(f"#{conversation_id} imported; not kept: " + "; ".join(partial),
                            severity="warning", markup=False)
        return conversation_id

    def action_cancel(self) -> None:
        """Close without creating anything."""
        self.dismiss(None)
