"""Times as the console shows them: exact, and durations (relative times: ``tui.clock.ago``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime


def exact_time(then: datetime, to_local: Callable[[datetime], datetime] | None = None) -> str:
    """The exact time, in the local zone (or as converted by ``to_local``)."""
    local = then.astimezone() if to_local is None else to_local(then)
    return local.strftime("%Y-%m-%d %H:%M:%S %Z").rstrip()


def format_duration(seconds: int) -> str:
    """``45 s``, ``3 min 20 s``, ``1 h 2 min``."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"
