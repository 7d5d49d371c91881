"""What every part of the screenshots shares: the frozen moment, the sizes, the demo's key
and profile, the conversations pictured, a step's type and the skip of a missing screen."""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from textual.pilot import Pilot

__all__ = ["KEY", "NOW", "PROFILE", "REPLY", "SEED", "SIZES", "THREAD_WHERE", "WHATSAPP_WHERE",
           "Skip", "Step", "project_module"]

#: the frozen moment of the pictures (the sandbox tests' moment)
NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
#: the least supported terminal (80x24), the usual one and a large one
SIZES: tuple[tuple[int, int], ...] = ((80, 24), (100, 30), (160, 45))
SEED = 7
KEY = "sbx_screenshots_key"
#: the profile name in the pictures' status bar
PROFILE = "demo"

#: an open chat of the demo agent, tagged, with a dozen messages and no stored files (whose
#: URLs would carry the sandbox's port)
THREAD_WHERE = (
    "channel = 'WidgetChat' AND state = 'Open' "
    "AND id IN (SELECT conversation_id FROM conversation_tags) "
    "AND id IN (SELECT conversation_id FROM messages GROUP BY conversation_id "
    "HAVING count(*) BETWEEN 6 AND 30 AND sum(attributes LIKE '%/files/%') = 0)"
)
WHATSAPP_WHERE = (
    "channel = 'WhatsApp' AND state = 'Open' AND id IN (SELECT conversation_id "
    "FROM messages GROUP BY conversation_id HAVING sum(attributes LIKE '%/files/%') = 0)"
)
REPLY = """Hi **Yara**, thanks for waiting.

Here is what to try:
- unplug the router for _30 seconds_
- press `reset` once
> it should blink green"""

Step = Callable[[Pilot[Any]], Awaitable[None]]


class Skip(Exception):
    """The screen is not there yet (its module, class or key): no picture, a note."""


def project_module(name: str) -> Any:
    """A module of the project, or :class:`Skip` when it does not exist yet."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise Skip(f"{name} is not there ({error})") from None
