"""The first run: ``frontdesk`` with no profile offers "Connect to a service", "Connect through
my team's gateway" or "Try the demo".

A tiny app of its own (:class:`FirstRunApp`), run before the console: it ends with a
:class:`FirstRunResult` saying what was chosen, and the command line then opens the console on
the new profile or starts the demo. Four screens:

* :class:`WelcomeScreen` — the choices.
* :class:`ConnectScreen` — profile name, base URL, integrations URL (optional), API key
  (never shown), who you are. "Connect" checks them with the service through
  :func:`frontdesk.store.signin.verify`, keeps the key in the system keyring and saves the
  profile. Nothing is saved until the service has accepted the key and the identity.
* :class:`GatewayConnectScreen` — the same through a team's gateway: profile name, the
  gateway's URL and your personal key; the gateway says who you are and your role
  (:func:`frontdesk.store.signin.verify_member`), and the profile is saved as a gateway's.
* :class:`KeyPlaceScreen` — shown when the keyring cannot keep the key: its explanation and
  two explicit choices (the environment variable, or a 0600 key file at a shown path), or
  cancel. frontdesk never writes the key to a file unless this choice is made.

Keyring calls run on a worker thread with the store's timeout, so a locked or hanging keyring
never freezes the screen. The key is read from its input straight into an
:class:`~frontdesk.api.secrets.ApiKey` and the input is cleared once the profile is saved.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Literal

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen

from ...api.secrets import ApiKey
from ...settings import (
    API_KEY_ENV,
    ConfigError,
    KeyringUnavailable,
    Profile,
    SecretStore,
    SettingsError,
)
from ...store import signin
from ...text import safe
from ..answers import answer_of
from ..key_order import OrderedKeysApp
from ..widgets.safe import Button, Input, Label, Option, OptionList, Static
from ..worker_failures import ReportsFailedWorkers

log = logging.getLogger("frontdesk.tui.first_run")

__all__ = [
    "ConnectScreen",
    "FirstRunApp",
    "FirstRunResult",
    "GatewayConnectScreen",
    "KeyPlaceScreen",
    "WelcomeScreen",
]

_FIELD_LABELS = {
    "name": "Profile name",
    "base_url": "Base URL",
    "integrations_url": "Integrations URL",
    "agent_email": "Your agent email or id",
    "agent_id": "Your agent email or id",
}


@dataclass(frozen=True)
class FirstRunResult:
    """What the person chose: the demo, or a profile just connected (with its key, masked in
    every text form, so the console can open without reading the keyring again)."""

    choice: Literal["demo", "connected"]
    profile: Profile | None = None
    key: ApiKey | None = None


class WelcomeScreen(Screen[None]):
    """The two ways to start: connect to a service, or try the demo."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("escape,q", "app.quit_first_run", "Quit", id="first_run.quit"),
    ]
    DEFAULT_CSS = """
    WelcomeScreen { align: center middle; }
    WelcomeScreen #welcome-box { width: 70; height: auto; border: round $primary;
                                 padding: 1 2; }
    WelcomeScreen #welcome-title { text-style: bold; margin-bottom: 1; }
    WelcomeScreen #welcome-text { margin-bottom: 1; }
    WelcomeScreen #welcome-choices { height: auto; }
    WelcomeScreen #welcome-hint { color: $text-muted; margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="welcome-box"):
            yield Label("Welcome to frontdesk", id="welcome-title")
            yield Static("There is no profile yet. Connect to your Customer Conversation "
                         "Service, or look around a lively demo organisation that runs "
                         "on this computer.", id="welcome-text")
            yield OptionList(
                Option("Connect to a service", id="connect"),
                Option("Connect through my team's gateway", id="gateway"),
                Option("Try the demo", id="demo"),
                id="welcome-choices",
            )
            yield Label("↑↓ choose   enter: go   esc: quit", id="welcome-hint")

    def on_mount(self) -> None:
        choices = self.query_one("#welcome-choices", OptionList)
        choices.highlighted = 0
        choices.focus()

    @on(OptionList.OptionSelected, "#welcome-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option_id == "connect":
            self.app.push_screen(ConnectScreen())
        elif event.option_id == "gateway":
            self.app.push_screen(GatewayConnectScreen())
        elif event.option_id == "demo":
            self.app.exit(FirstRunResult("demo"))


class KeyPlaceScreen(ModalScreen[str | None]):
    """The keyring cannot keep the key: explain, and offer the environment variable or a 0600
    file at ``path``; dismissed with ``"env"``, ``"file"`` or None (cancel)."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("escape", "cancel", "Cancel", id="first_run.key_place.cancel"),
    ]
    DEFAULT_CSS = """
    KeyPlaceScreen { align: center middle; }
    KeyPlaceScreen #key-place-box { width: 90; height: auto; max-height: 90%;
                                    border: round $warning; padding: 1 2; }
    KeyPlaceScreen #key-place-title { text-style: bold; margin-bottom: 1; }
    KeyPlaceScreen #key-place-why { margin-bottom: 1; }
    KeyPlaceScreen #key-place-choices { height: auto; }
    """

    def __init__(self, explanation: str, path: Path) -> None:
        super().__init__()
        self.explanation = explanation
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(id="key-place-box"):
            yield Label("The system keyring cannot keep the API key", id="key-place-title")
            yield Static(safe(self.explanation), id="key-place-why")
            yield OptionList(
                Option(f"Use the environment variable {API_KEY_ENV} (nothing is stored; "
                       "set it each time you start frontdesk)", id="env"),
                Option(f"Save the key to a file only you can read (0600): "
                       f"{safe(str(self.path))}", id="file"),
                Option("Cancel (nothing is saved)", id="cancel"),
                id="key-place-choices",
            )

    def on_mount(self) -> None:
        choices = self.query_one("#key-place-choices", OptionList)
        choices.highlighted = 0
        choices.focus()

    @on(OptionList.OptionSelected, "#key-place-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        choice = event.option_id
        self.dismiss(choice if choice in ("env", "file") else None)

    def action_cancel(self) -> None:
        """Close without choosing: nothing is saved."""
        self.dismiss(None)


class ConnectScreen(Screen[None], ReportsFailedWorkers):
    """The form that connects a new profile: checked with the service before it is saved."""

    BINDINGS: ClassVar[list[Any]] = [
        Binding("escape", "back", "Back", id="first_run.connect.back"),
        Binding("ctrl+s", "connect", "Connect", id="first_run.connect.submit"),
    ]
    DEFAULT_CSS = """
    ConnectScreen { align: center middle; }
    ConnectScreen #connect-box { width: 80; height: auto; max-height: 100%;
                                 border: round $primary; padding: 0 2; }
    ConnectScreen #connect-title { text-style: bold; margin: 1 0; }
    ConnectScreen #connect-fields { height: auto; }
    ConnectScreen .field-label { margin-top: 1; }
    ConnectScreen #connect-status { margin-top: 1; height: auto; }
    ConnectScreen #connect-status.problem { color: $error; }
    ConnectScreen #connect-button { margin: 1 0; }
    ConnectScreen #connect-hint { color: $text-muted; margin-bottom: 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.busy = False

    def compose(self) -> ComposeResult:
        with Vertical(id="connect-box"):
            yield Label("Connect to a service", id="connect-title")
            with VerticalScroll(id="connect-fields"):
                yield Label("Profile name", classes="field-label")
                yield Input(value="default", id="name", placeholder="work")
                yield Label("Base URL of the service", classes="field-label")
                yield Input(id="base-url", placeholder="https://support.example.com")
                yield Label("Integrations URL (optional)", classes="field-label")
                yield Input(id="integrations-url",
                            placeholder="only when the integrations listing lives elsewhere")
                yield Label("API key (not shown; kept in the system keyring)",
                            classes="field-label")
                yield Input(id="key", password=True, placeholder="your API key")
                yield Label("Your agent email or agent id", classes="field-label")
                yield Input(id="identity", placeholder="you@example.com")
            yield Static("", id="connect-status")
            yield Button("Connect", id="connect-button", variant="primary")
            yield Label("enter / ctrl+s: connect   tab: next field   esc: back",
                        id="connect-hint")

    def on_mount(self) -> None:
        self.query_one("#base-url", Input).focus()

    # ------------------------------------------------------------------ helpers

    def _value(self, field: str) -> str:
        return self.query_one(f"#{field}", Input).value.strip()

    def show_status(self, text: str, *, problem: bool = False) -> None:
        """Say what is happening, or what is wrong (untrusted text is made inert)."""
        status = self.query_one("#connect-status", Static)
        status.update(safe(text))
        status.set_class(problem, "problem")

    def _profile(self) -> Profile | str:
        """The profile the form describes, or what is wrong with it."""
        try:
            email, agent_id = signin.identity_fields(self._value("identity"))
        except ValueError as error:
            return str(error)
        try:
            return Profile(name=self._value("name"), base_url=self._value("base-url"),
                           integrations_url=self._value("integrations-url") or None,
                           agent_email=email, agent_id=agent_id)
        except SettingsError as error:
            first = error.problems[0]
            where = _FIELD_LABELS.get(first.loc[0] if first.loc else "", "")
            return f"{where}: {first.message}" if where else first.message

    # ------------------------------------------------------------------ actions

    def action_back(self) -> None:
        """Back to the two choices (unless a check is running)."""
        if not self.busy:
            self.app.pop_screen()

    def action_connect(self) -> None:
        """Check the form, then the service, then keep the key and the profile."""
        if self.busy:
            return
        profile = self._profile()
        if isinstance(profile, str):
            self.show_status(profile, problem=True)
            return
        try:
            key = ApiKey(self.query_one("#key", Input).value.strip())
        except ValueError:
            self.query_one("#key", Input).focus()
            self.show_status("Give the API key.", problem=True)
            return
        self.busy = True
        self._connect(profile, key)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_connect()

    @on(Button.Pressed, "#connect-button")
    def _pressed(self) -> None:
        self.action_connect()

    @work(exclusive=True, group="connect", exit_on_error=False)
    async def _connect(self, profile: Profile, key: ApiKey) -> None:
        try:
            await self._sign_in(profile, key)
        except Exception as error:  # a boundary: this app has no console's handler for
            # failed workers; a bug is said on the form (nothing saved), details in the log
            log.exception("connecting the first profile failed")
            self.show_status(f"Unexpected problem ({type(error).__name__}); nothing was "
                             "saved. Details are in the log file.", problem=True)
        finally:
            self.busy = False

    async def _check(self, profile: Profile, key: ApiKey) -> tuple[Profile, str] | None:
        """Ask the service whether it takes the key and knows the identity: the profile to
        save and who signed in, or None (what is wrong is said on the form)."""
        agent, refusal = await answer_of(signin.verify(
            profile.base_url, profile.integrations_url, key,
            profile.agent_email or profile.agent_id or ""))
        if refusal is not None:
            self.show_status(refusal.reason, problem=True)
            return None
        assert agent is not None
        return profile, agent.display_name

    async def _sign_in(self, profile: Profile, key: ApiKey) -> None:
        app = self.app
        assert isinstance(app, FirstRunApp)
        self.show_status(f"Checking the key with {profile.base_url} …")
        checked = await self._check(profile, key)
        if checked is None:
            return
        profile, who = checked
        self.show_status(f"Signed in as {who}. Saving the key in the system keyring …")
        source: signin.KeySource = "keyring"
        key_file: Path | None = None
        try:
            await asyncio.to_thread(signin.keep_key, profile.name, key, "keyring",
                                    store=app.secret_store)
        except KeyringUnavailable as error:
            path = signin.default_key_file(profile.name)
            self.show_status("The system keyring cannot keep the key: choose what to do.")
            choice = await app.push_screen(KeyPlaceScreen(str(error), path),
                                           wait_for_dismiss=True)
            if choice == "env":
                source = "env"
            elif choice == "file":
                source, key_file = "file", path
            else:
                self.show_status("Cancelled: nothing was saved.", problem=True)
                return
        try:
            if source == "file":
                await asyncio.to_thread(signin.keep_key, profile.name, key, "file",
                                        key_file=key_file)
            saved = replace(profile, key_source=source,
                            key_file=str(key_file) if key_file else None)
            await asyncio.to_thread(signin.save_profile, saved, app.settings_path)
        except ConfigError as error:
            self.show_status(str(error), problem=True)
            return
        self.query_one("#key", Input).value = ""
        app.exit(FirstRunResult("connected", saved, key))


class GatewayConnectScreen(ConnectScreen):
    """Connecting through a team's gateway: its URL and a personal key; the gateway says who
    you are and your role, so the form does not ask."""

    def compose(self) -> ComposeResult:
        with Vertical(id="connect-box"):
            yield Label("Connect through my team's gateway", id="connect-title")
            with VerticalScroll(id="connect-fields"):
                yield Label("Profile name", classes="field-label")
                yield Input(value="team", id="name", placeholder="team")
                yield Label("Your team's gateway (its URL)", classes="field-label")
                yield Input(id="base-url", placeholder="https://gateway.example.com")
                yield Label("Your personal key (not shown; kept in the system keyring)",
                            classes="field-label")
                yield Input(id="key", password=True, placeholder="fdg_…")
            yield Static("", id="connect-status")
            yield Button("Connect", id="connect-button", variant="primary")
            yield Label("enter / ctrl+s: connect   tab: next field   esc: back",
                        id="connect-hint")

    def _profile(self) -> Profile | str:
        """The gateway's profile the form describes, or what is wrong with it."""
        try:
            return signin.gateway_profile(self._value("name"), self._value("base-url"))
        except SettingsError as error:
            first = error.problems[0]
            field = first.loc[0] if first.loc else ""
            where = "Gateway URL" if field == "base_url" else _FIELD_LABELS.get(field, "")
            return f"{where}: {first.message}" if where else first.message

    async def _check(self, profile: Profile, key: ApiKey) -> tuple[Profile, str] | None:
        """Ask the gateway whose key it is: the profile acting as the member's agent, and
        who signed in with their role; None when it refused (said on the form)."""
        member, refusal = await answer_of(signin.verify_member(profile.base_url, key))
        if refusal is not None:
            self.show_status(refusal.reason, problem=True)
            return None
        assert member is not None
        try:
            acting = signin.gateway_profile(profile.name, profile.base_url, member.agent_id)
        except SettingsError:
            self.show_status("The gateway named an agent id this console cannot use.",
                             problem=True)
            return None
        return acting, f"{member.email} ({member.role})"


class FirstRunApp(OrderedKeysApp[FirstRunResult]):
    """The first run on its own: ends with what was chosen (None when the person quit).

    Its keys are handled in order as the console's are: a burst (``abc`` tab ``def``) fills
    one field after another rather than landing whole in the field focused when it was read."""

    TITLE = "frontdesk"
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+q", "quit_first_run", "Quit", id="first_run.app.quit", priority=True),
    ]

    def __init__(self, *, secret_store: SecretStore | None = None,
                 settings_path: Path | None = None, theme: str | None = None) -> None:
        """``secret_store``: the keyring (with its timeout); ``settings_path``: where the
        profile is saved (default: the settings file); ``theme``: a Textual theme name."""
        super().__init__()
        self.secret_store = secret_store or SecretStore()
        self.settings_path = settings_path
        self._theme_name = theme

    def on_mount(self) -> None:
        if self._theme_name and self._theme_name in self.available_themes:
            self.theme = self._theme_name
        self.push_screen(WelcomeScreen())

    def action_quit_first_run(self) -> None:
        """Leave without connecting."""
        self.exit(None)
