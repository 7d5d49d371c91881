"""My presence and working channels: read from the live topic, changed on the service."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ..api.errors import ApiError
from .errors import Refusal, Refused, refusals
from .topics import MY_PRESENCE

if TYPE_CHECKING:
    from ..api.models import UserPresence
    from .hub import Hub

    #: The working channels an agent toggles, in the order the console shows them.
    CHANNELS: tuple[str, ...]

#: Seconds between two reads of my own presence (the header's; ``[poll] presence`` when that
#: is longer). It changes by my own hand, here, and is read again at once then
#: (:meth:`MyPresence.set_channel`); by anyone else (a supervisor, the service's away after a
#: while) seldom: such a change is shown within this long. Every 5 s it was twelve requests a
#: minute of an idle console's budget of sixty.
MY_PRESENCE_EVERY = 30.0


def __getattr__(name: str) -> Any:
    """``CHANNELS``, read from the models when first asked for (the models are not loaded
    with the session, so that the first frame does not wait for them)."""
    if name == "CHANNELS":
        from ..api.models import WorkingChannel

        return tuple(channel.value for channel in WorkingChannel)
    raise AttributeError(name)


class MyPresence:
    """The signed-in agent's presence."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        #: changes go to the service one at a time, in the order they were asked for
        self._changing = asyncio.Lock()

    @property
    def current(self) -> UserPresence | None:
        """The latest presence the service reported."""
        from ..api.models import UserPresence

        value = self._hub.live.get(MY_PRESENCE)
        return value if isinstance(value, UserPresence) else None

    def working(self, channel: str) -> bool:
        """Whether I am working on ``channel``."""
        current = self.current
        return current is not None and channel in current.active_channels

    async def set_channel(self, channel: str, working: bool) -> None:
        """Turn a working channel on or off; returns once the service confirmed it, raises
        :class:`Refused` (``Could not change Speak: …``) when it did not."""
        me = self._hub.me_id
        if not me:
            raise Refused("Not signed in as an agent yet", kind=Refusal.NOT_SIGNED_IN)
        async with self._changing:
            with refusals(f"Could not change {channel}"):
                await self._hub.client.agents.set_working_channel(me, channel, working)
            try:
                await self._hub.live.refresh(MY_PRESENCE)
            except ApiError:
                self._hub.live.poke(MY_PRESENCE)
