"""What every sub-store of a session shares: the way to the service, who I am, the live
topics, a word for the user and the service's clock.

:class:`~frontdesk.store.session.Session` builds one ``Hub`` and hands it, with the other
collaborators each one needs (the local store, the directory, the inbox, …), to every
sub-store it composes. A sub-store never holds the session itself. The hub reads through
providers, so a client connected later (or a key picked up again) and a live store replaced
are what every sub-store sees.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import datetime

    from ..api.client import ApiClient
    from .live import LiveStore

#: ``notice(severity, text)``: tell the user something ("information", "warning", "error")
Notice = Callable[[str, str], None]


class Hub:
    """The collaborators every sub-store shares, each read when used."""

    def __init__(self, *, client: Callable[[], ApiClient], me_id: Callable[[], str],
                 live: Callable[[], LiveStore], notice: Notice,
                 server_now: Callable[[], datetime],
                 clock_known: Callable[[], bool] = lambda: True,
                 may: Callable[[str], bool] = lambda operation: True) -> None:
        self._client = client
        self._me_id = me_id
        self._live = live
        self.notice: Notice = notice
        #: the service's current time, as far as the console can tell
        self.server_now: Callable[[], datetime] = server_now
        #: whether :attr:`server_now` was measured against the service's clock (else it is
        #: this machine's clock alone)
        self.clock_known: Callable[[], bool] = clock_known
        #: whether I may perform an operation (``"activity_log.list"``): always with the
        #: service's key; through a team gateway, as my role allows
        self.may: Callable[[str], bool] = may

    @property
    def client(self) -> ApiClient:
        """The service's client (raises ``TransportError`` while not connected)."""
        return self._client()

    @property
    def me_id(self) -> str:
        """My agent id ('' until known)."""
        return self._me_id()

    @property
    def live(self) -> LiveStore:
        """The live topics."""
        return self._live()
