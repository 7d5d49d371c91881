"""My presence and working channels: read from the live topic, changed on the service."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api.errors import ApiError
from ..api.models import UserPresence, WorkingChannel

if TYPE_CHECKING:
    from .session import Session

#: The working channels an agent toggles, in the order the console shows them.
CHANNELS: tuple[str, ...] = tuple(channel.value for channel in WorkingChannel)


class MyPresence:
    """The signed-in agent's presence."""

    def __init__(self, session: Session) -> None:
        self._session = session

    @property
    def current(self) -> UserPresence | None:
        """The latest presence the service reported."""
        value = self._session.live.get("presence:me")
        return value if isinstance(value, UserPresence) else None

    def working(self, channel: str) -> bool:
        """Whether I am working on ``channel``."""
        current = self.current
        return current is not None and channel in current.active_channels

    async def set_channel(self, channel: str, working: bool) -> str | None:
        """Turn a working channel on or off; None when the service confirmed it, else why not."""
        me = self._session.me_id
        if not me:
            return "Not signed in as an agent yet"
        try:
            await self._session.client.agents.set_working_channel(me, channel, working)
        except ApiError as error:
            message = f"Could not change {channel}: {error.message}"
            self._session.notice("error", message)
            return message
        try:
            await self._session.live.refresh("presence:me")
        except ApiError:
            self._session.live.poke("presence:me")
        return None
