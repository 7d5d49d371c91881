"""Alerts in the console: a toast naming what arrived, the terminal's bell, "N new" in the
header, and a desktop notification where the terminal shows one.

What alerts is decided in the store (:mod:`frontdesk.store.alerts`: the kinds, the console's
own actions and the thread being read left out, one alert per few seconds); this module says
it. Every text taken from the service (a subject, a customer's words) goes through the one
sanitiser before it is shown or written: a desktop notification is an escape sequence (OSC 9
or OSC 777), so a customer's ESC, BEL or C1 byte in a subject would otherwise end it and
write the rest to the terminal as commands. :func:`desktop_notification` makes sure none
can.

A conversation alerted stays "new" in the header until its thread is opened.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..store.alerts import Alert, AlertKind, AlertWatch, Coalescer, Summary
from ..text import one_line

if TYPE_CHECKING:
    from textual.app import App
    from textual.timer import Timer

    from ..api.models import UserPresence
    from ..settings import AlertSettings
    from ..store.session import Session
    from .screens.shared.form import FormScreen

__all__ = ["AlertCenter", "alert_settings_form", "desktop_notification", "desktop_protocol"]

#: the longest text a desktop notification carries (terminals and desktops cut it anyway)
DESKTOP_WIDTH = 200
#: terminals known to show OSC 9 (iTerm2, WezTerm, ghostty, kitty, foot) or OSC 777 (VTE
#: terminals such as GNOME Terminal, rxvt-unicode, foot), by what they say of themselves
_OSC9_PROGRAMS = ("iTerm.app", "WezTerm", "ghostty")
_OSC9_TERMS = ("xterm-kitty", "xterm-ghostty", "wezterm")
_OSC777_TERMS = ("rxvt-unicode", "foot")

_WHAT = {
    AlertKind.ASSIGNED: "Assigned to you",
    AlertKind.REPLY: "The customer replied",
    AlertKind.QUEUE: "New in your queue",
}
_MANY = {
    AlertKind.ASSIGNED: "assigned to you",
    AlertKind.REPLY: "replied to",
    AlertKind.QUEUE: "new in your queues",
}


def desktop_protocol(choice: str, environ: Mapping[str, str] = os.environ) -> str | None:
    """The escape sequence to notify with ("osc9", "osc777") for the setting ``choice``, or
    None. "auto" picks one only where the terminal says it is one known to show it; inside
    tmux or screen nothing is known of the terminal outside, so nothing is sent."""
    if choice in ("osc9", "osc777"):
        return choice
    if choice != "auto" or environ.get("TMUX") or environ.get("STY"):
        return None
    program = environ.get("TERM_PROGRAM", "")
    term = environ.get("TERM", "")
    if program in _OSC9_PROGRAMS or term.startswith(_OSC9_TERMS):
        return "osc9"
    if environ.get("VTE_VERSION") or term.startswith(_OSC777_TERMS):
        return "osc777"
    return None


def desktop_notification(protocol: str, title: str, body: str) -> str:
    """The bytes that ask the terminal for a desktop notification: ``ESC ] 9 ; body BEL`` or
    ``ESC ] 777 ; notify ; title ; body BEL``. Both texts are made inert by the sanitiser
    (no control character survives, so nothing can end the sequence early or start
    another), cut to :data:`DESKTOP_WIDTH` cells, and ``;`` is taken out of the title (it
    separates OSC 777's fields)."""
    clean_body = one_line(body, DESKTOP_WIDTH)
    if protocol == "osc777":
        clean_title = one_line(title, 60).replace(";", ",")
        return f"\x1b]777;notify;{clean_title};{clean_body}\x07"
    return f"\x1b]9;{clean_body}\x07"


class AlertCenter:
    """The console's alerts, owned by the app: fed each new inbox version and presence."""

    def __init__(self, app: App[Any], session: Session, settings: AlertSettings,
                 write: Callable[[str], None] | None = None) -> None:
        self._app = app
        self._session = session
        self.settings = settings
        self._watch = AlertWatch(session.inbox)
        self._coalescer = Coalescer(settings.every)
        #: where desktop notifications are written (the terminal; None: nowhere)
        self.write = write
        self._timer: Timer | None = None
        self._available = False
        #: conversations alerted whose thread has not been opened since
        self.new: set[int] = set()
        #: every alert told, newest last (what the tests and the log read)
        self.told: list[str] = []
        #: called when :attr:`new` changes (the app repaints the header)
        self.on_new: Callable[[int], None] | None = None

    def use(self, settings: AlertSettings) -> None:
        """New settings, in effect from the next arrival."""
        self.settings = settings
        self._coalescer.every = settings.every

    def say(self, text: str) -> None:
        """A line to the user (the app's toast)."""
        self._app.notify(text, markup=False)

    def presence(self, presence: UserPresence | None) -> None:
        """My presence: queue alerts only while I am online and Working."""
        self._available = (presence is not None and presence.connection_status == "Online"
                           and presence.presence_status == "Working")

    def inbox_changed(self, reading: int | None) -> None:
        """A new inbox version: find what arrived (``reading``: the thread on screen)."""
        session = self._session
        arrived = self._watch.check(me=session.me_id, queues=session.directory.my_queue_ids,
                                    available=self._available, reading=reading)
        wanted = [alert for alert in arrived if self.settings.wants(alert.kind.value)]
        if wanted:
            self._coalescer.add(wanted)
            self._tell()

    def opened(self, conversation_id: int) -> None:
        """Its thread is on screen: no longer new."""
        if conversation_id in self.new:
            self.new.discard(conversation_id)
            self._new_changed()

    def _tell(self) -> None:
        due = self._coalescer.due()
        if due is None:
            return
        if due > 0:
            if self._timer is None:
                self._timer = self._app.set_timer(due, self._later)
            return
        summary = self._coalescer.take()
        if summary is None:
            return
        text = self.describe(summary)
        self.told.append(text)
        self._app.notify(text, title="New work", markup=False, timeout=8)
        if self.settings.bell:
            self._app.bell()
        protocol = desktop_protocol(self.settings.desktop)
        if protocol is not None and self.write is not None:
            self.write(desktop_notification(protocol, "frontdesk", text))
        self.new.update(alert.conversation_id for alert in summary.alerts)
        self._new_changed()

    def _later(self) -> None:
        self._timer = None
        self._tell()

    def _new_changed(self) -> None:
        if self.on_new is not None:
            self.on_new(len(self.new))

    def describe(self, summary: Summary) -> str:
        """One line for the toast and the desktop: the conversation when one arrived, the
        counts by kind when several did (plain text: shown without markup, cleaned)."""
        if len(summary.alerts) == 1:
            alert = summary.alerts[0]
            return f"{_WHAT[alert.kind]}: {self._name(alert)}"
        parts = [f"{count} {_MANY[kind]}" for kind, count in summary.counts().items()]
        return f"{len(summary.alerts)} conversations: " + ", ".join(parts)

    def _name(self, alert: Alert) -> str:
        """``#123 · Subject`` (or the last message's first line), cleaned."""
        inbox = self._session.inbox
        row = inbox.rows.get(alert.conversation_id)
        words = (row.subject if row is not None else None) or inbox.previews.get(
            alert.conversation_id) or ""
        name = f"#{alert.conversation_id}"
        return one_line(f"{name} · {words}" if words else name, 80)


_DESKTOP_CHOICES = (("when the terminal is known to show them", "auto"),
                    ("OSC 9 (iTerm2, WezTerm, kitty, ghostty)", "osc9"),
                    ("OSC 777 (GNOME Terminal, rxvt-unicode, foot)", "osc777"),
                    ("never", "off"))


def alert_settings_form(center: AlertCenter) -> FormScreen:
    """The settings screen of alerts: each kind, the bell, the desktop notification and the
    window; saved to config.toml's ``[alerts]`` (the rest of the file kept) and in effect at
    once. A value the settings refuse is said in one line and nothing is saved."""
    import asyncio

    from ..settings import AlertSettings, SettingsError
    from ..store.errors import Refused
    from ..store.signin import save_alerts
    from .screens.shared.form import FormField, FormScreen

    now = center.settings
    fields = [
        FormField("assigned", "A conversation assigned to me", "bool", now.assigned),
        FormField("reply", "A customer's reply in one of mine", "bool", now.reply),
        FormField("queue", "A new conversation in my queues (while Working)", "bool", now.queue),
        FormField("bell", "Ring the terminal's bell", "bool", now.bell),
        FormField("desktop", "Desktop notification", "choice", now.desktop,
                  choices=_DESKTOP_CHOICES),
        FormField("every", "Window (s)", "text", f"{now.every:g}",
                  hint="seconds between two alerts at least; what arrives meanwhile joins"),
    ]

    async def submit(values: dict[str, Any]) -> None:
        try:
            every = float(str(values["every"]).strip())
            chosen = AlertSettings.from_mapping({**values, "every": every})
        except (ValueError, SettingsError) as error:
            raise Refused(f"Not saved: {error}") from error
        try:
            await asyncio.to_thread(save_alerts, chosen)
        except (OSError, SettingsError) as error:
            raise Refused(f"Could not save config.toml: {error}") from error
        center.use(chosen)
        center.say("Alerts saved to config.toml")

    return FormScreen("Alerts", fields, submit, send_label="Save", form_id="alert-settings",
                      intro="What tells you that work arrived (config.toml, [alerts]).")
