"""What every part of the thread screen reaches: the session, the head, the messages and the
composer, and the conversation shown.

:class:`ThreadParts` is the base of the thread screen's parts (its echoes, its message keys,
its composer's asks, the panels it opens, its head's facts) and of
:class:`~.thread.ThreadScreen` itself, which holds the state they share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...widgets.composer import Composer
from ...widgets.thread_head import ThreadHead
from ...widgets.thread_view import ThreadView
from ..shared.base import ModeScreen

if TYPE_CHECKING:
    from textual.timer import Timer

    from ....api.models import Conversation
    from ....store.outbox import OutboxItem
    from ....store.session import Session
    from ....store.threads import ThreadState

__all__ = ["ThreadParts"]


class ThreadParts(ModeScreen):
    """The thread screen's widgets and session (the screen holds the state)."""

    if TYPE_CHECKING:
        conversation_id: int
        _state: ThreadState | None
        _echoes: dict[str, OutboxItem]
        _settling: dict[str, float]
        _dropped: set[str]
        _held: dict[str, OutboxItem]
        _countdown: Timer | None
        _undo_asked: bool

        def _apply(self, state: ThreadState) -> None: ...
        def _conversation(self) -> Conversation | None: ...
        def _open(self, conversation_id: int) -> None: ...
        def _show_head(self, state: ThreadState) -> None: ...
        def _sync_now(self) -> None: ...

    @property
    def session(self) -> Session:
        """The signed-in session (a thread needs one)."""
        session = self.fd.session
        assert session is not None, "the thread screen needs a session"
        return session

    @property
    def thread_view(self) -> ThreadView:
        """The messages."""
        return self.query_one(ThreadView)

    @property
    def head(self) -> ThreadHead:
        """The head."""
        return self.query_one(ThreadHead)

    @property
    def composer(self) -> Composer:
        """The reply box."""
        return self.query_one(Composer)
