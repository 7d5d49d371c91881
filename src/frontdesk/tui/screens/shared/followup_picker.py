"""The follow-up picker: a time to follow a conversation up (presets, or typed in the
grammar of :func:`~frontdesk.store.typed_time.parse_typed_time`), or ending the follow-up."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

from rich.text import Text

from ....store.errors import Refused
from ....store.typed_time import parse_typed_time
from ....text import safe
from ... import clock
from ...clock import now
from ...registry import owns_bindings
from ...widgets.safe import Label, Option
from .pickers import FilterPicker

__all__ = ["END_FOLLOWUP", "FOLLOWUP_LIMIT", "FollowupPicker", "followup_presets",
           "parse_followup"]


#: the follow-up picker's answer for "end the follow-up now"
END_FOLLOWUP = "end"
#: how far ahead a follow-up may be set
FOLLOWUP_LIMIT = timedelta(days=366)


def _local_zone(moment: datetime) -> tzinfo:
    zone = moment.astimezone().tzinfo
    assert zone is not None
    return zone


def parse_followup(typed: str, reference: datetime | None = None) -> datetime | str:
    """A follow-up time from what the user typed, or why it is not one.

    The grammar of :func:`~frontdesk.store.typed_time.parse_typed_time`, in local time; a
    bare ``HH:MM`` is the next such time. The result is aware and in the future.
    """
    base = reference or now()
    try:
        moment = parse_typed_time(typed, None, base, next_clock=True)
    except Refused as refusal:
        return refusal.reason
    if moment <= base:
        return "That time has passed: pick a time in the future."
    if moment - base > FOLLOWUP_LIMIT:
        return "That is more than a year away."
    return moment


def followup_presets(reference: datetime | None = None) -> list[tuple[str, str, datetime]]:
    """(id, label, time) of the ready-made choices: in 1 h, in 4 h, tomorrow 09:00 local."""
    base = reference or now()
    local = base.astimezone(_local_zone(base))
    tomorrow = (local + timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)
    return [("1h", "In 1 hour", base + timedelta(hours=1)),
            ("4h", "In 4 hours", base + timedelta(hours=4)),
            ("tomorrow", "Tomorrow at 09:00", tomorrow)]


@owns_bindings
class FollowupPicker(FilterPicker[datetime | str | None]):
    """Pending until a time: in 1 hour, in 4 hours, tomorrow 09:00, or a typed time; for a
    Pending conversation also "end the follow-up now" (answered as :data:`END_FOLLOWUP`)."""

    HELP_NAME = "Follow-up picker"
    HINT = "↑/↓ and enter, or type +2h, +30m, YYYY-MM-DD HH:MM · esc cancels"
    PLACEHOLDER = "or type a time: +2h, +30m, 2026-01-06 14:00"

    def __init__(self, *, conversation_id: int | None = None, pending: bool = False,
                 until: datetime | None = None) -> None:
        super().__init__()
        self.conversation_id = conversation_id
        self.presets = followup_presets()
        #: the conversation is Pending now (the list then offers to end the follow-up)
        self.pending = pending
        self.until = until

    def title_text(self) -> str:
        where = f" #{self.conversation_id}" if self.conversation_id is not None else ""
        if self.pending:
            now_until = ""
            if self.until is not None:
                local = self.until.astimezone(_local_zone(self.until))
                now_until = f" (now until {local:%a %d %b %H:%M})"
            return f"Follow up{where}{now_until}: pending until…"
        return f"Follow up{where}: pending until…"

    def refill(self, typed: str) -> None:
        hint = self.query_one("#picker-hint", Label)
        if not typed.strip():
            options = [Option(label, id=key) for key, label, _ in self.presets]
            if self.pending:
                options.insert(0, Option("End the follow-up now (opens it again)",
                                         id=END_FOLLOWUP))
            self.set_options(options)
            hint.update(safe(self.HINT))
            hint.remove_class("-error")
            return
        result = parse_followup(typed)
        if isinstance(result, str):
            hint.update(Text(result))
            hint.add_class("-error")
        else:
            hint.update(Text("enter: pending until " + clock.shown(result, "full")))
            hint.remove_class("-error")

    def choose(self) -> None:
        typed = self.typed
        if typed.strip():
            result = parse_followup(typed)
            if isinstance(result, str):
                self.app.notify(result, severity="warning", markup=False)
                return
            self.dismiss(result)
            return
        key = self.highlighted_id()
        if key == END_FOLLOWUP:
            self.dismiss(END_FOLLOWUP)
            return
        for preset, _label, moment in followup_presets():
            if preset == key:
                self.dismiss(moment)
                return
