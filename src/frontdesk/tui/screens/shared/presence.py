"""My presence (``p``, anywhere): toggles for the four working channels, sent at once."""

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
from ...registry import owns_bindings
from ...widgets.safe import Label

if TYPE_CHECKING:
    from ....store.session import Session


@owns_bindings
class PresenceScreen(ModalScreen[None]):
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

    def __init__(self) -> None:
        super().__init__()
        #: per channel, changes this screen made to a switch whose message is still to come
        self._echoes: dict[str, int] = {}

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
        self._unsubscribe = self.session.live.subscribe(self._changed)

    def on_unmount(self) -> None:
        self._unsubscribe()

    def _changed(self, topic: str, _: object) -> None:
        if topic == "presence:me":
            self.sync()

    def sync(self) -> None:
        """Show what the service last reported."""
        presence = self.session.presence
        for channel in CHANNELS:
            switch = self.query_one(f"#channel-{channel}", Switch)
            working = presence.working(channel)
            if switch.value != working:
                # its Changed message comes later: it is this screen's, not the person's
                self._echoes[channel] = self._echoes.get(channel, 0) + 1
                switch.value = working
        self.query_one("#summary", Label).update(
            describe_presence(presence.current) or "presence not known yet")

    def action_flip(self, index: int) -> None:
        """Flip one channel by its number."""
        switch = self.query_one(f"#channel-{CHANNELS[index]}", Switch)
        switch.value = not switch.value

    def on_switch_changed(self, event: Switch.Changed) -> None:
        """Send the change; the switch follows the service's answer (a change this screen
        made to show that answer is not sent back)."""
        if event.switch.id is None:
            return
        channel = event.switch.id.removeprefix("channel-")
        if self._echoes.get(channel):
            self._echoes[channel] -= 1
            return
        self.send(channel, event.value)

    @work(group="presence", exit_on_error=False)
    async def send(self, channel: str, working: bool) -> None:
        """Change one working channel on the service."""
        await self.session.presence.set_channel(channel, working)
        self.sync()
