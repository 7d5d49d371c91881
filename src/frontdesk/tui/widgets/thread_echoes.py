"""Local echoes in a thread: replies still in the outbox, shown until the real ones arrive.

An echo is shown after the real messages, dimmed with its status ("sending…", "failed: …"),
and only while the window reaches the newest message. It is matched to the real message by
its ``external_id`` (its ``id`` when it has none): when that message arrives (see
``ThreadView.append``) it takes the echo's place, and an echo of a message the thread holds
already is not shown at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from textual.widget import AwaitMount

from frontdesk.api.models.messages import Message
from frontdesk.tui.widgets.message_view import MessageView

from .thread_window import ThreadWindow

__all__ = ["Echo", "ThreadEchoes"]


@dataclass
class Echo:
    """A local echo: a message still in the outbox, shown until the real one arrives."""

    key: str
    message: Message
    status: str
    failed: bool

    def view(self, names: Callable[[str], str] | None,
             clock: Callable[[], datetime] | None) -> MessageView:
        """A widget showing the echo, dimmed, with its status."""
        return MessageView(
            self.message,
            names=names,
            clock=clock,
            status=self.status,
            failed=self.failed,
        )


class ThreadEchoes(ThreadWindow):
    """The local echoes of a thread view: shown, updated, dropped."""

    def add_pending(
        self, local_echo: Message, status: str = "sending…", *, failed: bool = False
    ) -> AwaitMount:
        """Show a message still in the outbox at the bottom, dimmed, with its status.

        It is matched to the real message by ``external_id`` (its ``id`` when it has none).
        Adding an echo again only updates its status; an echo whose message already arrived
        is ignored.
        """
        key = local_echo.external_id or local_echo.id
        if local_echo.id in self._ids() or key in self._external_ids():
            return AwaitMount(self, [])
        for echo in self._echoes:
            if echo.key == key:
                self.set_pending_status(key, status, failed=failed)
                return AwaitMount(self, [])
        echo = Echo(key, local_echo, status, failed)
        self._echoes.append(echo)
        if not self.is_attached:
            self._deferred = True
            return AwaitMount(self, [])
        if self._hi != len(self._messages):
            return AwaitMount(self, [])
        view = echo.view(self._names, self._clock)
        self._echo_views.append(view)
        return self.mount(view)

    def set_pending_status(self, key: str, status: str, *, failed: bool = False) -> None:
        """Change the status shown for the local echo ``key`` ("sending…", "failed: …")."""
        for position, echo in enumerate(self._echoes):
            if echo.key == key:
                echo.status, echo.failed = status, failed
                if position < len(self._echo_views):
                    self._echo_views[position].set_status(status, failed=failed)
                return

    def remove_pending(self, key: str) -> None:
        """Stop showing the local echo ``key`` (the outbox item was dropped)."""
        position = self._echo_index(key)
        if position is None:
            return
        del self._echoes[position]
        if position < len(self._echo_views):
            self._unmount([self._echo_views.pop(position)])

    def _echo_index(self, key: str | None) -> int | None:
        """The position of the echo ``key`` among the echoes, if there is one."""
        if not key:
            return None
        for position, echo in enumerate(self._echoes):
            if echo.key == key:
                return position
        return None

    def _external_ids(self) -> dict[str, str]:
        """External ids of the real messages (built on first use: echoes are rare)."""
        if self._external is None:
            rows = self._messages
            self._external = {
                external: message_id
                for external, message_id in zip(rows.external_ids, rows.ids, strict=True)
                if external
            }
        return self._external
