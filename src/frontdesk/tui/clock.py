"""The console's sense of "now", for relative times ("5 min ago"); frozen in snapshot tests.

Also the one way a moment is shown on screen: in the user's local time zone (the service
speaks UTC), by :func:`shown`."""

from __future__ import annotations

from datetime import UTC, datetime

_frozen: datetime | None = None


def now() -> datetime:
    """The current time (aware, UTC), or the frozen one."""
    return _frozen if _frozen is not None else datetime.now(UTC)


def freeze(moment: datetime | None) -> None:
    """Freeze the console's clock at ``moment`` (None thaws it)."""
    global _frozen
    _frozen = moment


def local(moment: datetime) -> datetime:
    """``moment`` in the user's local time zone."""
    return moment.astimezone()


def shown(moment: datetime, style: str = "time") -> str:
    """A moment as the screens show it, in local time: ``time`` (``09:53``), ``weekday``
    (``Tue 09:53``), ``day`` (``Tue 24 Nov 09:53``), ``date`` (``2026-11-24``), ``minute``
    (``2026-11-24 09:53``) or ``full`` (``Tue 24 Nov 2026 09:53``)."""
    return local(moment).strftime(_STYLES[style])


_STYLES = {"time": "%H:%M", "weekday": "%a %H:%M", "day": "%a %d %b %H:%M", "date": "%Y-%m-%d",
           "minute": "%Y-%m-%d %H:%M", "full": "%a %d %b %Y %H:%M"}


def when(moment: datetime, *, reference: datetime | None = None) -> str:
    """A coming moment, short, in local time: ``17:00`` today, ``Mon 08:00`` on another day
    (within a week), ``Mon 12 Jan 08:00`` further off."""
    today = local(reference or now()).date()
    days = (local(moment).date() - today).days
    if days == 0:
        return shown(moment)
    return shown(moment, "weekday" if 0 < days < 7 else "day")


def ago(moment: datetime, *, reference: datetime | None = None, words: bool = False) -> str:
    """``now``, ``5 min``, ``3 h``, ``2 d``, ``7 w``: the age of ``moment``, short (a list's
    column); with ``words``, as a phrase (a message's header): ``just now``, ``5 min ago``."""
    seconds = ((reference or now()) - moment).total_seconds()
    if seconds < 60:
        return "just now" if words else "now"
    minutes = int(seconds // 60)
    hours = minutes // 60
    days = hours // 24
    if minutes < 60:
        age = f"{minutes} min"
    elif hours < 48:
        age = f"{hours} h"
    elif days < 14:
        age = f"{days} d"
    else:
        age = f"{days // 7} w"
    return f"{age} ago" if words else age
