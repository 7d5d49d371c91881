"""My presence (``p``, anywhere): toggles for the four working channels, sent at once; the
switches follow what the service reports (the ``presence:me`` topic, a ``StoreChanged``
message while the screen is in front)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Switch

from ....channels import channel_name
from ....store.presence import CHANNELS
from ....store.session import describe_presence
from ....store.topics import MY_PRESENCE
from ...answers import Answered, refusal_of
from ...registry import owns_bindings
from ...store_changed import StoreChanged, store_change_handler
from ...widgets.safe import Label
from ...worker_failures import ReportsFailedWorkers
from .base import LiveModal

if TYPE_CHECKING:
    from ....store.errors import Refused
    from ....store.session import Session


@owns_bindings
class PresenceScreen(LiveModal, ModalScreen[None], ReportsFailedWorkers):
    """Switches for Email, InteractiveChat, Messaging and Speak; each change goes to the
    service at once and the switch shows what the service confirmed."""

    HELP_NAME = "My presence"
    BINDINGS = [
        Binding("escape,p", "dismiss", "Close", id="presence.close"),
        Binding("1", "flip(0)", "Email", id="presence.email"),
        Binding("2", "flip(1)", "Chat", id="presence.chat"),
        Binding("3", "flip(2)", "Messaging", id="presence.messaging"),
        Binding("4", "flip(3)", "Speak", id="presence.speak"),
    ]
    DEFAULT_CSS = """
    PresenceScreen { align: center middle; }
    PresenceScreen > Vertical { width: 52; height: auto; border: thick $accent;
        background: $surface; padding: 1 2; }
    PresenceScreen .row { height: 3; }
    PresenceScreen Label.name { width: 22; padding: 1 0; }
    PresenceScreen #summary { color: $text-muted; margin-bottom: 1; }
    """

    class ChannelAnswered(Answered):
        """The service's answer to one flip of a working channel."""

        def __init__(self, channel: str, refusal: Refused | None) -> None:
            super().__init__(refusal)
            self.channel = channel

    def __init__(self) -> None:
        super().__init__()
        #: per channel, the person's flips not yet answered by the service: while a channel
        #: has one, no poll overwrites its switch (the person's change wins until confirmed
        #: or refused)
        self._pending: dict[str, int] = {}
        #: why the service refused the last change, shown until the next answer
        self._refusal: str | None = None

    @property
    def session(self) -> Session:
        """The app's session."""
        session = getattr(self.app, "session", None)
        assert session is not None
        return session  # type: ignore[no-any-return]

    def compose(self) -> ComposeResult:
        from textual.containers import Horizontal

        with Vertical():
            yield Label("My working channels", classes="title")
            yield Label("", id="summary")
            for index, channel in enumerate(CHANNELS):
                with Horizontal(classes="row"):
                    yield Label(f"{index + 1}  {channel_name(channel) or channel}",
                                classes="name")
                    yield Switch(id=f"channel-{channel}")

    def on_mount(self) -> None:
        self.sync()

    def on_screen_resume(self) -> None:
        """Back in front (the help or the palette was over it): catch up with what the
        service reported meanwhile (the store's changes reach only the screen in front)."""
        self.sync()

    @store_change_handler
    def on_store_changed(self, message: StoreChanged) -> None:
        """The service reported my presence: show it."""
        if message.topic == MY_PRESENCE:
            self.sync()

    def sync(self) -> None:
        """Show what the service last reported, except on a switch whose change is still on
        its way. The switches are set without a Changed message: only the person's flips are
        sent."""
        presence = self.session.presence
        for channel in CHANNELS:
            if self._pending.get(channel):
                continue
            switch = self.query_one(f"#channel-{channel}", Switch)
            working = presence.working(channel)
            if switch.value != working:
                with switch.prevent(Switch.Changed):
                    switch.value = working
        summary = describe_presence(presence.current) or "presence not known yet"
        self.query_one("#summary", Label).update(self._refusal or summary)

    def action_flip(self, index: int) -> None:
        """Flip one channel by its number."""
        channel = CHANNELS[index]
        switch = self.query_one(f"#channel-{channel}", Switch)
        with switch.prevent(Switch.Changed):
            switch.value = not switch.value
        self._flipped(channel, switch.value)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        """The person toggled a switch itself (a click, space on the focused switch)."""
        if event.switch.id is not None:
            self._flipped(event.switch.id.removeprefix("channel-"), event.value)

    def _flipped(self, channel: str, working: bool) -> None:
        """Send one flip of the person's; the switch keeps it until the service answers."""
        self._pending[channel] = self._pending.get(channel, 0) + 1
        self.send(channel, working)

    @work(group="presence", exit_on_error=False)
    async def send(self, channel: str, working: bool) -> None:
        """Change one working channel on the service (the store sends the changes one at a
        time, in the order they were asked for); the answer comes back as a message."""
        try:
            refusal = await refusal_of(self.session.presence.set_channel(channel, working))
        finally:
            self._pending[channel] -= 1
        self.post_message(self.ChannelAnswered(channel, refusal))

    def on_presence_screen_channel_answered(self, message: ChannelAnswered) -> None:
        """Show what the service said: its state on every switch, and why a change was
        refused (until the next answer)."""
        self._refusal = message.reason
        if message.reason is not None:
            self.notify(message.reason, severity="error", markup=False)
        self.sync()
