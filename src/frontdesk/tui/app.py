"""The console: six modes on number keys, a status bar, the footer, help and the palette.

The app is handed a ``Session`` (the store) and paints from its local snapshot at once; the
session signs in and starts polling in a worker, so the first frame never waits on the
network. Store changes arrive as plain callbacks on the app's loop: the app keeps the status
bar up to date and posts each change to the screen in front as a ``StoreChanged`` message
(``tui/store_changed.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable, Iterable
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual import events, work
from textual.app import SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.worker import Worker, WorkerCancelled, WorkerFailed

from ..startup import driver_from_environment, release_gc
from ..store.connection import Link
from ..store.session import describe_presence
from ..store.topics import CONNECTION, DISK, HOURS, INBOX, MEMBER, MY_PRESENCE
from ..text import clean
from .commands import once_each, screen_commands
from .css_cache import SharedStylesheet, parsed_file, read_parsed, write_parsed
from .key_order import OrderedKeysApp
from .offered import may, offered
from .registry import BINDING_OWNERS, owns_bindings
from .screens.inbox.inbox import InboxScreen
from .screens.shared.base import FittedFooter, LiveModal, ModeScreen
from .store_changed import StoreChanged
from .styles import first_frame_stylesheets, later_stylesheets
from .widgets.safe import typed_block
from .widgets.status_bar import StatusBar, describe_hours
from .worker_failures import ReportsFailedWorkers, failure_line, log_failure

if TYPE_CHECKING:
    from textual.driver import Driver

    from ..settings import AlertSettings
    from ..store.session import Session
    from .alerts import AlertCenter

log = logging.getLogger("frontdesk.tui")

MODE_KEYS = {"1": "inbox", "2": "queues", "3": "team", "4": "people", "5": "admin",
             "6": "stats"}
#: The operation a mode shows at all: through a team gateway, a mode the member's role may
#: not read is not offered (Stats is analytics: a supervisor's).
MODE_NEEDS: dict[str, str] = {"stats": "analytics.records"}
#: The operation each of the app's restricted actions performs (``tui/offered.py``).
APP_NEEDS: dict[str, str] = {"activity": "activity_log.list"}


class SandboxAccess(Protocol):
    """How to reach the demo's own sandbox from other programs (``demo_access.DemoAccess``)."""

    @property
    def base_url(self) -> str:
        """The sandbox's base URL."""
        ...

    @property
    def key(self) -> str:
        """Its API key."""
        ...

    def describe(self) -> str:
        """Lines for people: the URLs, the key and a command to try."""
        ...


@owns_bindings
class FrontdeskApp(OrderedKeysApp[None], ReportsFailedWorkers):
    """frontdesk, the console."""

    TITLE = "frontdesk"
    HELP_NAME = "Everywhere"
    #: the inbox's styles; the other screens' follow right after the first frame
    CSS_PATH: ClassVar[list[str | PurePath]] = list(first_frame_stylesheets())
    #: the inbox is built at start; the other modes on first use (a faster first frame)
    MODES: ClassVar[dict[str, Any]] = {
        "inbox": InboxScreen,
        "queues": lambda: _screen("queues.queues", "QueuesScreen"),
        "team": lambda: _screen("team.team", "TeamScreen"),
        "people": lambda: _screen("people.people", "PeopleScreen"),
        "admin": lambda: _screen("admin.admin", "AdminScreen"),
        "stats": lambda: _screen("stats.stats", "StatsScreen"),
    }
    DEFAULT_MODE = "inbox"
    #: every screen is ``-narrow`` below 100 columns (down to 80, the least supported size),
    #: where stylesheets pack things closer
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-roomy")]
    BINDINGS: ClassVar[list[Any]] = [
        # the footer shows the focused context's keys: the modes are in the help and palette
        Binding("1", "mode('inbox')", "Inbox", id="app.mode.inbox", show=False),
        Binding("2", "mode('queues')", "Queues", id="app.mode.queues", show=False),
        Binding("3", "mode('team')", "Team", id="app.mode.team", show=False),
        Binding("4", "mode('people')", "People", id="app.mode.people", show=False),
        Binding("5", "mode('admin')", "Admin", id="app.mode.admin", show=False),
        Binding("6", "mode('stats')", "Stats", id="app.mode.stats", show=False),
        Binding("question_mark,f1", "help", "Help", id="app.help"),
        Binding("p", "presence", "My presence", id="app.presence", show=False),
        Binding("O", "outbox", "Outbox", id="app.outbox", show=False),
        Binding("f2", "alert_settings", "Alerts settings", id="app.alert_settings", show=False),
        Binding("ctrl+q", "quit_safely", "Quit", id="app.quit", priority=True),
    ]

    def __init__(self, session: Session | None, *, keys: dict[str, str] | None = None,
                 start_session: bool = True, sandbox_access: SandboxAccess | None = None,
                 key_check: Callable[[], str | None] | None = None,
                 alerts: AlertSettings | None = None) -> None:
        super().__init__(driver_class=_terminal_driver())
        # each piece of CSS parsed once, not again at every refresh of the styles, nor at
        # every start: the rules the last run parsed are read from its file
        self.stylesheet = SharedStylesheet(variables=self.stylesheet._variables)
        read_parsed(parsed_file())
        self.session = session
        #: the demo's own sandbox: the palette shows its URL and key (for curl)
        self.sandbox_access = sandbox_access
        self._keys = keys or {}
        self._start_session = start_session
        self._unsubscribe: Any = None
        self.status_presence = ""
        self.status_hours = ""
        self.status_connection = "connecting"
        self.status_disk = ""
        self.renders: dict[str, int] = {}
        self._all_styles = False
        #: the work that waited for the first frame has begun (after_first_frame)
        self._after_first_frame = False
        #: asks the service whether it takes the key (once the first frame is on screen)
        self._key_check = key_check
        #: what the service said when it refused the key (the console ended on it)
        self.key_refusal: str | None = None
        #: alerts when work arrives (:mod:`frontdesk.tui.alerts`), once there is a session
        self.alerts: AlertCenter | None = None
        self._alert_settings = alerts
        #: conversations alerted and not opened yet (the header's "N new")
        self.status_new = 0

    # ------------------------------------------------------------------ start and stop

    def on_mount(self) -> None:
        # the first mode screen calls first_frame_painted; this is the safety net
        self.set_timer(1.0, self.first_frame_painted)
        if self._keys:  # the key map's module loads only for remaps to apply
            from . import keymap

            problems = keymap.apply_remaps(self, self._keys)
            if problems:
                self.notify("Key remaps not applied ([keys] in config.toml): "
                            + "; ".join(problems), severity="warning", markup=False,
                            timeout=20)
        session = self.session
        if session is not None:
            session.on_notice = self._notice
            self._unsubscribe = session.live.subscribe(self._store_changed)
            if session.local.recovery:
                self.notify(clean(session.local.recovery), title="Local database recovered",
                            severity="warning", markup=False, timeout=30)
            self.status_disk = session.local.disk_problem or ""
            if session.live.connection.link is not Link.CONNECTING:
                # the session may have got this far before the app listened (a key that
                # is missing is known at once): show what it already knows
                self._store_changed(CONNECTION, session.live.connection)

    def _start_alerts(self) -> AlertCenter | None:
        """Alerts for this session, said through this app (its toasts, bell and, where the
        terminal shows them, desktop notifications); None without a session. Begun once the
        first frame is on screen (nothing arrives before: the session starts then), or
        before by the alerts' settings."""
        session = self.session
        if session is None or self.alerts is not None:
            return self.alerts
        from ..settings import AlertSettings
        from .alerts import AlertCenter
        from .terminal_keys import terminal_writer

        self.alerts = AlertCenter(self, session, self._alert_settings or AlertSettings(),
                                  write=terminal_writer(self))

        def new_count(count: int) -> None:
            self.status_new = count
            self._paint_statuses()

        self.alerts.on_new = new_count
        return self.alerts

    @work(exclusive=True, group="session", exit_on_error=False, description="sign in")
    async def _start(self) -> None:
        assert self.session is not None
        await self.session.start()

    async def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self.session is not None:
            await self.session.close()

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification of every screen comes here: its text is cleaned, so a message
        that quotes the service (or a customer through it) is inert even where the caller
        forgot. Markup stays the caller's to escape."""
        super().notify(clean(message), title=clean(title, multiline=False), severity=severity,
                       timeout=timeout, markup=markup)

    async def on_event(self, event: events.Event) -> None:
        """A paste is made inert before any widget sees it, Textual's own included (the
        command palette's input), so pasted escapes never reach the terminal."""
        if isinstance(event, events.Paste) and not event.is_forwarded:
            event.text = typed_block(event.text)
        await super().on_event(event)

    def validate_title(self, title: Any) -> str:
        return clean(str(title), multiline=False)

    def validate_sub_title(self, sub_title: Any) -> str:
        return clean(str(sub_title), multiline=False)

    def worker_failed(self, worker: Worker[Any]) -> None:
        """A worker of any screen or widget ended with an error it did not handle: the
        traceback goes to the log file, one line naming what failed to the screen."""
        log_failure(worker)
        self.notify(failure_line(worker), severity="error", markup=False, timeout=15)

    def _notice(self, severity: str, text: str) -> None:
        level = severity if severity in ("information", "warning", "error") else "information"
        # Notices can quote the service (or a customer through it): cleaned like all such text.
        self.notify(clean(text), severity=level, markup=False)  # type: ignore[arg-type]

    def first_frame_painted(self) -> None:
        """The first mode screen has painted (it calls this after its first refresh).

        Without a terminal of ours (headless, a browser tab) the work that waited for the
        first frame begins now (:meth:`after_first_frame`). On a terminal that frame was
        painted while Textual was still starting the app, and Textual sends no frame to the
        terminal before it has (a batch of updates): it never reached the terminal, so
        :meth:`on_ready` paints it again and the work waits for that one."""
        from .terminal_keys import on_our_terminal

        if not on_our_terminal(self):
            self.after_first_frame()

    def on_ready(self) -> None:
        """Textual has started the app: on a terminal of ours, the whole first screen is
        sent now, as it was composed (later frames send only what changed since the frame
        that was never sent), and :meth:`_first_frame_sent` follows.

        Textual's public way (``refresh``) would paint it at the screen's next update, tens
        of milliseconds later, after whatever else is queued by then: the screen's
        compositor renders the whole frame at once instead."""
        from .terminal_keys import on_our_terminal

        if on_our_terminal(self):
            screen = self.screen
            self._display(screen, screen._compositor.render_update(
                full=True, screen_stack=self._background_screens))
            self._first_frame_sent()

    def _first_frame_sent(self) -> None:
        """The first whole frame is queued for the terminal: the work that waited for it
        begins once its bytes have been handed to the terminal. Textual writes frames on a
        thread of its own; work begun as soon as the frame is painted would hold the
        interpreter while that thread waits to write, and the frame would reach the terminal
        only after it."""
        from .terminal_keys import when_written

        loop = asyncio.get_running_loop()

        def written() -> None:  # on the writer thread
            with contextlib.suppress(RuntimeError):  # the loop closed: the console ended
                loop.call_soon_threadsafe(self.after_first_frame)

        if not when_written(self, written):
            self.after_first_frame()

    def after_first_frame(self) -> None:
        """The first frame is on screen: now begin the alerts, build the footer's keys (the
        frame was sent as composed, before keys built then could show in it), connect the
        session, let the garbage collector run again and, in a later slice of the loop, add
        the other stylesheets and keep the rules the first frame used for the next start.
        Connecting imports the HTTP stack and the models on a worker thread; started any
        earlier, it would compete with the first frame for the interpreter."""
        if self._after_first_frame:
            return
        self._after_first_frame = True
        release_gc()
        self._start_alerts()
        for screen in self.screen_stack[-1:]:
            for footer in screen.query(FittedFooter):  # its keys waited for the frame
                footer.call_later(footer.recompose)
            if isinstance(screen, ModeScreen):
                screen.call_later(screen.after_first_frame)
        if self.session is not None and self._start_session:
            self._start()
        if self._key_check is not None:
            self._check_key(self._key_check)
        first_rules = SharedStylesheet.first_frame_shown()
        self.call_later(self.load_all_styles)
        # the rules the first frame used, for the next start (when some had to be parsed)
        self.call_later(write_parsed, parsed_file(), first_rules)

    @property
    def first_frame_shown(self) -> bool:
        """Whether the first frame is on screen (the work that waited for it has begun)."""
        return self._after_first_frame

    @work(thread=True, exit_on_error=False, group="key-check", description="check the key")
    def _check_key(self, check: Callable[[], str | None]) -> None:
        """Ask the service about the key given (a file, the environment) off the loop; a
        refusal ends the console, and the command says it in one line."""
        said = check()
        if said is not None:
            self.call_from_thread(self._key_refused, said)

    def _key_refused(self, said: str) -> None:
        self.key_refusal = said
        self.exit(return_code=1)

    def load_all_styles(self) -> None:
        """Add the stylesheets the first frame did not need (once; any screen pushed or mode
        switched to before then loads them first)."""
        if self._all_styles:
            return
        self._all_styles = True
        stylesheet = self.stylesheet
        for path in later_stylesheets():
            if not stylesheet.has_source(str(path), ""):
                stylesheet.read(path)
        if self.css_monitor is not None:
            self.css_monitor.add_paths(later_stylesheets())
        if self.is_running:
            self.refresh_css(animate=False)

    def push_screen(self, *args: Any, **kwargs: Any) -> Any:
        """Textual's ``push_screen``, with every stylesheet loaded first."""
        self.load_all_styles()
        return super().push_screen(*args, **kwargs)

    def switch_mode(self, mode: str) -> Any:
        """Textual's ``switch_mode``, with every stylesheet loaded first."""
        self.load_all_styles()
        return super().switch_mode(mode)

    # ------------------------------------------------------------------ live changes

    def _store_changed(self, topic: str, value: Any) -> None:
        if (state := CONNECTION.of(topic, value)) is not None:
            self.status_connection = state.describe(_monotonic())
            if state.problem and state.link is not Link.LIVE:
                log.info("connection: %s", state.problem)
        elif topic == MY_PRESENCE:
            presence = MY_PRESENCE.of(topic, value)
            self.status_presence = describe_presence(presence)
            if self.alerts is not None:
                self.alerts.presence(presence)
        elif topic == INBOX and self.alerts is not None:
            self.alerts.inbox_changed(self._reading())
        elif topic == HOURS:
            self.status_hours = describe_hours(HOURS.of(topic, value))
        elif topic == DISK:
            self.status_disk = DISK.of(topic, value) or ""
        elif topic == MEMBER:  # the role is known: offer what it allows, everywhere
            if not self.mode_offered(self.current_mode):
                self.switch_mode(self.DEFAULT_MODE)
            for shown in self.screen_stack:
                shown.refresh_bindings()
        self._paint_statuses()
        if not self.screen_stack:  # the console is closing: no screen to tell
            return
        screen = self.screen
        if _shows_live_topics(screen):
            # queued: the screen handles the changes in the order they came, each with its own
            # handler's boundary (a bug there is said, and the store's listeners go on)
            screen.post_message(StoreChanged(topic, value))

    def _paint_statuses(self) -> None:
        for screen in self.screen_stack:
            for bar in screen.query(StatusBar):
                self.paint_status(bar)

    def paint_status(self, bar: StatusBar) -> None:
        """Bring a status bar up to date with the session."""
        session = self.session
        bar.profile = session.profile if session is not None else ""
        bar.via = _via(session)
        bar.presence = self.status_presence
        bar.hours = self.status_hours
        bar.connection = self.status_connection
        bar.disk = self.status_disk
        bar.outbox = session.local.unsent_count() if session is not None else 0
        bar.new = self.status_new

    def action_alert_settings(self) -> None:
        """The settings screen of alerts (saved to config.toml)."""
        alerts = self._start_alerts()
        if alerts is None:
            return
        from .alerts import alert_settings_form

        self.push_screen(alert_settings_form(alerts))

    def _reading(self) -> int | None:
        """The conversation whose thread is in front, if one is."""
        if not self.screen_stack:
            return None
        reading = getattr(self.screen, "conversation_id", None)
        return reading if isinstance(reading, int) else None

    # ------------------------------------------------------------------ actions

    def mode_offered(self, mode: str) -> bool:
        """Whether the member's role may use ``mode`` at all (every mode without a team
        gateway)."""
        operation = MODE_NEEDS.get(mode)
        return operation is None or may(self, operation)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A mode or an action the member's role may not use is not offered (its key does
        nothing)."""
        if action == "mode" and parameters and not self.mode_offered(str(parameters[0])):
            return False
        return offered(self, APP_NEEDS, action)

    def action_mode(self, mode: str) -> None:
        """Switch to one of the modes."""
        if mode in self.MODES and self.current_mode != mode and self.mode_offered(mode):
            self.switch_mode(mode)

    def action_help(self) -> None:
        """Show the keys of the focused context and of the app."""
        screen = self.screen
        rows: list[tuple[str, str, str]] = []
        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            key_id = binding.id or ""
            marker = key_id or binding.action
            if marker in seen or not binding.description:
                continue
            seen.add(marker)
            rows.append((self.get_key_display(binding), binding.description, key_id))
        context = getattr(screen, "MODE_NAME", "") or type(screen).__name__
        from .screens.shared.help import HelpScreen

        self.push_screen(HelpScreen(context, rows))

    def action_presence(self) -> None:
        """Open my presence toggles."""
        import importlib

        try:
            module = importlib.import_module("frontdesk.tui.screens.shared.presence")
        except ImportError:
            self.notify("Presence toggles are not available yet.")
            return
        self.push_screen(module.PresenceScreen())

    def action_outbox(self) -> None:
        """Open the outbox: the replies waiting to be sent (retry, edit, discard)."""
        from .screens.inbox.outbox import OutboxScreen

        if not isinstance(self.screen, OutboxScreen):
            self.push_screen(OutboxScreen())

    def action_activity(self) -> None:
        """Open the organisation's recent activity (who did what, filtered as you type)."""
        from .screens.shared.history import ActivityScreen

        if not isinstance(self.screen, ActivityScreen):
            self.push_screen(ActivityScreen())

    def on_status_bar_outbox_clicked(self) -> None:
        """A click on the header's outbox count opens the outbox."""
        self.action_outbox()

    async def action_quit_safely(self) -> None:
        """Quit; asks first when replies are still waiting in the outbox (held for undo:
        send now, undo or wait), or when a draft could not be saved (it would be lost). A
        reply being queued (its ctrl+s came just before) is waited for, and counted."""
        from .compose_link import SENDING_GROUP

        for worker in [w for w in self.workers if w.group == SENDING_GROUP and w.is_running]:
            with contextlib.suppress(WorkerCancelled, WorkerFailed):  # said by their handler
                await worker.wait()
        session = self.session
        waiting = session.local.unsent_count() if session is not None else 0
        unsaved = len(session.local.unsaved_drafts) if session is not None else 0
        held = session.outbox.held() if session is not None and waiting else []
        if not waiting and not unsaved:
            self.exit()
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.exit()

        from .screens.shared.confirm import ConfirmScreen

        if unsaved:
            problem = (session.local.disk_problem if session is not None else None) \
                or "the disk cannot be written"
            self.push_screen(ConfirmScreen(
                f"{unsaved} draft{' was' if unsaved == 1 else 's were'} not saved ({problem}).",
                "Quit anyway? What you typed since the last save is lost."), answer)
            return
        if held and session is not None:
            from .screens.shared.quit_question import QuitQuestion

            self.push_screen(QuitQuestion(session, held, waiting - len(held)))
            return
        drafts = len(session.local.drafts()) if session is not None else 0
        kept = (f" Your {drafts} draft{'' if drafts == 1 else 's'} "
                f"{'is' if drafts == 1 else 'are'} kept too." if drafts else "")
        self.push_screen(ConfirmScreen(
            f"{waiting} repl{'y is' if waiting == 1 else 'ies are'} still waiting to be sent.",
            "Quit anyway? They are kept and sent the next time frontdesk starts." + kept),
            answer)

    def show_sandbox_access(self) -> None:
        """Show how to reach the demo's sandbox (URLs, key, a curl command) for a while."""
        if self.sandbox_access is not None:
            self.notify(self.sandbox_access.describe(), title="The demo's sandbox",
                        markup=False, timeout=60)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette: the screen's actions first, then the app's, each once (Textual's own
        quit and keys panel are left out: quitting asks first here, and help is ``?``)."""
        yield from once_each(self._palette(screen))

    def _palette(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from screen_commands(self, screen)
        yield from self.app_commands()
        for command in super().get_system_commands(screen):
            if command.title not in ("Quit", "Keys"):
                yield command

    def app_commands(self) -> Iterable[SystemCommand]:
        """The palette's commands of the app itself (modes, presence, help, quit, …)."""
        for mode_key, mode in MODE_KEYS.items():
            if self.mode_offered(mode):
                yield SystemCommand(f"Go to {mode.capitalize()}", f"key: {mode_key}",
                                    lambda mode=mode: self.action_mode(mode))
        yield SystemCommand("My presence and working channels", "key: p", self.action_presence)
        yield SystemCommand("Outbox: replies waiting to be sent", "key: O",
                            self.action_outbox)
        if offered(self, APP_NEEDS, "activity"):
            yield SystemCommand("Activity of the organisation (last 24 hours)",
                                "who did what to which conversation (key: a in Team)",
                                self.action_activity)
        if self.session is not None:  # the alerts' (begun by then, or by the command)
            yield SystemCommand("Alerts: settings", "which arrivals alert, bell, desktop "
                                "notifications (key: f2)", self.action_alert_settings)
        yield SystemCommand("Help", "key: ? or f1", self.action_help)
        if self.sandbox_access is not None:
            yield SystemCommand("Sandbox: URL and key",
                                "reach the demo's sandbox from curl or a script",
                                self.show_sandbox_access)
        yield SystemCommand("Quit", "key: ctrl+q", self.action_quit_safely)


def _via(session: Session | None) -> str:
    """The header's word on how the console is signed in: through a team gateway, and with
    which role once the gateway said it ("via gateway · agent"), and "polling" while the
    gateway's change stream is down; "" with the service's key."""
    if session is None or not session.membership.gateway:
        return ""
    role = session.membership.role_name
    said = f"via gateway · {role}" if role else "via gateway"
    # told what changes while the gateway's stream is up; polling by itself after it dropped
    return f"{said} · polling" if session.changes_dropped else said


def _shows_live_topics(screen: Screen[Any]) -> bool:
    """Whether the app posts ``screen`` the store's changes while it is in front."""
    return isinstance(screen, (ModeScreen, LiveModal))


def _screen(module: str, name: str) -> Screen[Any]:
    """A mode's screen, imported when the mode is first opened."""
    import importlib

    screen: Screen[Any] = getattr(importlib.import_module(f"frontdesk.tui.screens.{module}"),
                                  name)()
    return screen


def _monotonic() -> float:
    import time

    return time.monotonic()


__all__ = ["BINDING_OWNERS", "FrontdeskApp"]


def _terminal_driver() -> type[Driver] | None:
    """Textual's Linux driver reading Esc + key as two keys (``tui/terminal_keys.py``); on
    other systems, or when the environment chose a driver (the web driver of a browser tab),
    Textual's own choice."""
    if sys.platform == "win32" or driver_from_environment():
        return None
    from .terminal_keys import FrontdeskDriver

    return FrontdeskDriver
