"""What a conversation list's row says and how wide each column is.

The marks and labels of a row (the mark of a row marked for an action on many, state glyph,
channel label, the draft mark, the text of a row with neither subject nor messages, a
follow-up time), which columns a width has room for
(:func:`layout_for`), and :func:`fit`, which makes any text exactly so many cells wide. Every
string passes through :func:`frontdesk.text.one_line` first. The preview pane and the help
use the same marks.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Final, NamedTuple

from rich.cells import cell_len, set_cell_size

from ...channels import channel_icon, channel_name
from ...text import one_line

__all__ = ["AGENT_MARK", "CUSTOMER_MARK", "DRAFT_MARK", "LAST_WIDTHS", "MARKED", "STATE_GLYPHS",
           "TURN_WIDTH", "UNREAD_MARK", "Layout", "channel_label", "fit", "followup_text",
           "layout_for", "mark_cell", "plain_wait", "silent_text", "state_glyph", "turn_text"]

STATE_GLYPHS: Final = {"Open": "●", "Pending": "◐", "AwaitingPending": "◑", "Closed": "○"}
#: what marks a row whose conversation has a draft (after its id)
DRAFT_MARK: Final = "✎"
#: what marks a row marked for an action on many (in the row's leading cell)
MARKED: Final = "✓"
#: what marks a row with a message newer than the newest one read (the turn cell's first cell)
UNREAD_MARK: Final = "•"
#: the customer wrote last (their turn to be answered), an agent did (waiting on the customer)
CUSTOMER_MARK: Final = "←"
AGENT_MARK: Final = "→"
#: width of the whose-turn cell: the unread mark, the turn's arrow, how long the customer waits
TURN_WIDTH: Final = 6
#: a customer's wait (seconds) from which it is shown as late, then as very late
TURN_LATE: Final = (3600, 4 * 3600)
#: width of the last column: the age, or (in the Pending view) the follow-up time
LAST_WIDTHS: Final = {"age": 6, "followup": 11}


def mark_cell(marked: bool) -> str:
    """The row's leading cell: ``✓`` when it is marked for an action on many, else blank."""
    return MARKED if marked else " "


def state_glyph(state: str | None) -> str:
    """``●`` Open, ``◐`` Pending, ``◑`` AwaitingPending, ``○`` Closed, ``·`` unknown."""
    return STATE_GLYPHS.get(state or "", "·")


@lru_cache(maxsize=64)
def channel_label(channel: str) -> str:
    """A channel's display name with its mark (unknown ones cleaned and cut)."""
    name = channel_name(channel)
    if name is None:
        return one_line(channel, 9)
    icon = channel_icon(name)
    return f"{icon} {name}" if icon else name


def silent_text(channel: str) -> str:
    """What a row without subject or messages says: ``Phone call, no messages``."""
    name = channel_name(channel) or channel
    return f"{name} call, no messages" if channel == "PstnPhone" else f"{name}, no messages"


def followup_text(until: datetime | None, reference: datetime) -> str:
    """``14:00`` today, ``Tue 14:00`` within a week, ``12 Mar`` later, ``due`` once passed,
    ``—`` when not known (local time)."""
    if until is None:
        return "—"
    if until <= reference:
        return "due"
    local, here = until.astimezone(), reference.astimezone()
    if local.date() == here.date():
        return local.strftime("%H:%M")
    if (local.date() - here.date()).days < 7:
        return local.strftime("%a %H:%M")
    return local.strftime("%d %b")


def plain_wait(since: datetime, until: datetime) -> float:
    """Seconds from ``since`` to ``until`` (none when it is later): the wait without a
    schedule's open hours."""
    return max(0.0, (until - since).total_seconds())


def turn_text(turn: tuple[str, datetime] | None, unread: bool, reference: datetime,
              waited: Callable[[datetime, datetime], float] = plain_wait) -> tuple[str, int]:
    """The whose-turn cell (``•← 12m``: unread, the customer wrote last and has waited 12
    minutes; `` →``: an agent wrote last) and how late the customer's wait is: 0, 1 (an
    hour), 2 (four). ``waited`` counts the wait (the organisation's open hours, or plain
    time)."""
    mark = UNREAD_MARK if unread else " "
    if turn is None:
        return mark, 0
    who, when = turn
    if who != "customer":
        return f"{mark}{AGENT_MARK}", 0
    seconds = max(0, int(waited(when, reference)))
    late = sum(1 for limit in TURN_LATE if seconds >= limit)
    return f"{mark}{CUSTOMER_MARK}{_short_wait(seconds):>4}", late


def _short_wait(seconds: int) -> str:
    """``now``, ``12m``, ``3h``, ``5d``: at most four cells."""
    if seconds < 60:
        return "now"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 86_400:
        return f"{seconds // 3600}h"
    return f"{min(seconds // 86_400, 999)}d"


class Layout(NamedTuple):
    """Which columns a width has room for, and how wide each is."""

    width: int
    columns: tuple[tuple[str, int], ...]


#: optional columns, in the order they are given room
_OPTIONAL: Final = (("queue", 12, 18), ("assignee", 12, 18), ("tags", 14, 30))
_SUBJECT_MIN: Final = 20
_SUBJECT_COMFORT: Final = 48


def layout_for(width: int, id_width: int, hidden: frozenset[str] = frozenset(),
               last: str = "age") -> Layout:
    """Columns for a list ``width`` cells wide: the essentials always, then queue, assignee
    and tags (unless ``hidden``) while the subject keeps room, then the spare cells shared
    out; ``last`` is the age, or the follow-up time."""
    fixed = [("state", 1), ("turn", TURN_WIDTH), ("channel", 9), ("id", id_width),
             ("requester", 16)]
    widths = dict(fixed)
    age = LAST_WIDTHS[last]

    def used(cols: dict[str, int]) -> int:
        # one leading blank, one blank between columns, then subject and age
        return 1 + sum(cols.values()) + len(cols) + 1 + age

    optional: list[tuple[str, int, int]] = []
    for key, least, most in _OPTIONAL:
        if key in hidden:
            continue
        trial = {**widths, key: least}
        if width - used(trial) >= _SUBJECT_MIN:
            widths = trial
            optional.append((key, least, most))
    subject = max(5, width - used(widths))
    spare = subject - _SUBJECT_COMFORT
    if spare > 0:
        for key, least, most in [("requester", 16, 24), *optional]:
            grow = min(spare, most - least)
            widths[key] += grow
            spare -= grow
        subject = max(5, width - used(widths))
    order = ["state", "turn", "channel", "id", "requester", "subject", "queue", "assignee", "tags",
             last]
    columns = {**widths, "subject": subject, last: age}
    return Layout(width, tuple((key, columns[key]) for key in order if key in columns))


@lru_cache(maxsize=8192)
def fit(text: str, width: int) -> str:
    """``text`` on one line, exactly ``width`` cells as the terminal renders it: cut (with an
    ellipsis) or padded. Remembered, as names, queues and channels repeat from row to row."""
    shown = one_line(text, width)
    if shown.isascii():
        return shown.ljust(width)
    cells = cell_len(shown)
    if cells > width:  # a character measured differently: cut by Rich's measure
        shown = set_cell_size(shown, width)
        cells = cell_len(shown)
    return shown + " " * (width - cells)

