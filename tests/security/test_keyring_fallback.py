"""No secure keyring, a refusing keyring, a hanging keyring (docs/quality.md, checks 4 and 5).

* No secure backend → ``login`` says so plainly and offers the environment variable or a 0600
  key file; only ``--key-file``, ``--yes`` or an explicit answer writes a file, never silently.
* A keyring whose calls hang → the console's start gives up within about the timeout, and the
  first-run screen keeps answering key presses while the keyring call is stuck.
* The key never appears in logs, stdout/stderr, the config file, or the reprs involved.
"""

from __future__ import annotations

import asyncio
import builtins
import io
import logging
import stat
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail
from keyring.errors import KeyringLocked, PasswordSetError
from textual.widgets import Input, OptionList, Static

from frontdesk import cli, launch
from frontdesk.api.client import ApiClient
from frontdesk.api.secrets import ApiKey
from frontdesk.config.api_key import resolve_key
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import (
    API_KEY_ENV,
    KeyringUnavailable,
    Profile,
    SecretStore,
    Settings,
    config_dir,
    load_settings,
    log_dir,
    save_settings,
    settings_path,
)
from frontdesk.store import signin
from frontdesk.tui.screens.first_run import (
    ConnectScreen,
    FirstRunApp,
    FirstRunResult,
    KeyPlaceScreen,
)

SIZE = (110, 40)


class LockedKeyring(KeyringBackend):
    """A real-looking keyring (priority 1) that refuses every call, like a locked one."""

    priority = 1

    def get_password(self, service: str, username: str) -> str | None:
        raise KeyringLocked("the collection is locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise PasswordSetError(f"cannot store {password}")

    def delete_password(self, service: str, username: str) -> None:
        raise KeyringLocked("the collection is locked")


class HangingKeyring(KeyringBackend):
    """A keyring whose every call blocks (up to 10 s) until the test releases it."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # keyring's constructor is unannotated
        self.release = threading.Event()
        self.calls = 0

    def _hang(self) -> None:
        self.calls += 1
        self.release.wait(10)

    def get_password(self, service: str, username: str) -> str | None:
        self._hang()
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        self._hang()

    def delete_password(self, service: str, username: str) -> None:
        self._hang()


@pytest.fixture
def no_keyring() -> None:
    """No secure backend at all (keyring's own "fail" backend)."""
    keyring.set_keyring(fail.Keyring())


@pytest.fixture
def hanging(monkeypatch: pytest.MonkeyPatch) -> Iterator[HangingKeyring]:
    """A hanging keyring and a short keyring timeout for the command line."""
    backend = HangingKeyring()
    keyring.set_keyring(backend)
    monkeypatch.setattr(cli.common, "KEYRING_TIMEOUT", 0.5)
    yield backend
    backend.release.set()


@pytest.fixture
def record_console(monkeypatch: pytest.MonkeyPatch) -> list[launch.Target]:
    seen: list[launch.Target] = []

    def fake(target: launch.Target, settings: Settings) -> int:
        seen.append(target)
        return 0

    monkeypatch.setattr(launch, "run_console", fake)
    return seen


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def home() -> Path:
    return config_dir().parent


def files_holding(secret: str, root: Path) -> list[Path]:
    """Files under ``root`` whose bytes contain ``secret``."""
    return [p for p in root.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]


def login_args(sandbox: SandboxServer, *extra: str) -> list[str]:
    return ["login", "--base-url", sandbox.base_url, "--as", DEMO_AGENT_EMAIL, *extra]


def a_profile() -> Settings:
    settings = Settings(default_profile="work", profiles={"work": Profile(
        name="work", base_url="https://support.example.com", agent_email="me@example.com")})
    save_settings(settings)
    return settings


# --------------------------------------------------------------------------- no secure keyring


@pytest.mark.usefixtures("no_keyring")
def test_login_says_so_and_offers_the_choices(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    code, out, err = run(capsys, *login_args(sandbox))
    assert code == 1
    assert "No secure system keyring" in err
    assert API_KEY_ENV in err and "--key-file" in err
    assert "Traceback" not in err
    assert load_settings().profiles == {}  # nothing half-saved
    assert files_holding(sandbox.key, tmp_path) == []  # and no silent plaintext file
    assert sandbox.key not in out + err


@pytest.mark.usefixtures("no_keyring")
def test_login_with_key_file_writes_a_0600_file(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        record_console: list[launch.Target]) -> None:
    key_file = tmp_path / "secrets" / "frontdesk.key"
    key_file.parent.mkdir(mode=0o700)
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    code, out, err = run(capsys, *login_args(sandbox, "--key-file", str(key_file)))
    assert code == 0, err
    assert str(key_file) in out
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.read_text().strip() == sandbox.key
    profile = load_settings().profiles["default"]
    assert (profile.key_source, profile.key_file) == ("file", str(key_file))
    assert sandbox.key not in settings_path().read_text()
    assert files_holding(sandbox.key, tmp_path) == [key_file]
    # the console then reads the key from that file, without the keyring
    monkeypatch.delenv(API_KEY_ENV)
    assert run(capsys)[0] == 0
    assert record_console[0].key == sandbox.key
    # logout asks before deleting a file it made: no terminal, no --yes → kept
    code, out, _ = run(capsys, "logout")
    assert code == 0
    assert key_file.exists() and "kept" in out
    assert load_settings().profiles == {}


@pytest.mark.usefixtures("no_keyring")
def test_login_yes_writes_the_offered_file_and_says_where(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    code, out, err = run(capsys, *login_args(sandbox, "--yes"))
    assert code == 0, err
    path = signin.default_key_file("default")
    assert str(path) in err  # said plainly, not silent
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_settings().profiles["default"].key_source == "file"
    code, out, _ = run(capsys, "logout", "--yes")
    assert code == 0
    assert not path.exists() and "deleted" in out


@pytest.mark.usefixtures("no_keyring")
@pytest.mark.parametrize(("answer", "source"), [("1", "env"), ("2", "file"), ("q", None)])
def test_login_asks_at_a_terminal(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], answer: str, source: str | None) -> None:
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    monkeypatch.setattr(sys, "stdin", _Tty())
    monkeypatch.setattr(builtins, "input", lambda prompt="": answer)
    code, _out, err = run(capsys, *login_args(sandbox))
    assert "1)" in err and "2)" in err and API_KEY_ENV in err
    path = signin.default_key_file("default")
    if source is None:
        assert code == 1 and "nothing was saved" in err
        assert load_settings().profiles == {} and not path.exists()
        return
    assert code == 0, err
    assert load_settings().profiles["default"].key_source == source
    assert path.exists() == (source == "file")


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.usefixtures("no_keyring")
def test_console_without_a_keyring_names_the_fixes(
        capsys: pytest.CaptureFixture[str], record_console: list[launch.Target]) -> None:
    a_profile()
    code, _, err = run(capsys)
    assert code == 0 and err == ""  # the console opens on its cached data …
    [target] = record_console
    with pytest.raises(KeyringUnavailable) as caught:  # … and says, when connecting, why not
        target.api_key()
    said = str(caught.value)
    assert len(said.strip().splitlines()) == 1
    assert "keyring" in said and API_KEY_ENV in said and "--key-file" in said
    assert "frontdesk login" in said


def test_a_refusing_keyring_is_explained_without_the_key(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    keyring.set_keyring(LockedKeyring())  # type: ignore[no-untyped-call]
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    code, out, err = run(capsys, *login_args(sandbox))
    assert code == 1
    assert "could not store" in err and "--key-file" in err
    assert sandbox.key not in out + err  # the backend's error quoted the key; it was masked


async def test_first_run_offers_the_choices_when_the_keyring_is_missing(
        sandbox: SandboxServer) -> None:
    keyring.set_keyring(fail.Keyring())
    app = FirstRunApp()
    async with app.run_test(size=SIZE) as pilot:
        await _submit_connect(pilot, sandbox)
        await _wait_for(pilot, lambda: isinstance(app.screen, KeyPlaceScreen))
        why = str(app.screen.query_one("#key-place-why", Static).render())
        assert "No secure system keyring" in why
        choices = app.screen.query_one("#key-place-choices", OptionList)
        texts = [str(choices.get_option_at_index(i).prompt) for i in range(3)]
        assert API_KEY_ENV in texts[0]
        assert "0600" in texts[1] and str(signin.default_key_file("default")) in texts[1]
        await pilot.press("down", "enter")  # the key file
        await _wait_for(pilot, lambda: app.return_value is not None)
    result = app.return_value
    assert isinstance(result, FirstRunResult) and result.profile is not None
    assert result.profile.key_source == "file"
    path = signin.default_key_file("default")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sandbox.key not in settings_path().read_text()


async def test_first_run_cancel_saves_nothing(sandbox: SandboxServer, tmp_path: Path) -> None:
    keyring.set_keyring(fail.Keyring())
    app = FirstRunApp()
    async with app.run_test(size=SIZE) as pilot:
        await _submit_connect(pilot, sandbox)
        await _wait_for(pilot, lambda: isinstance(app.screen, KeyPlaceScreen))
        await pilot.press("escape")
        await _wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        await _wait_for(pilot, lambda: "nothing was saved" in _status(app))
    assert app.return_value is None
    assert load_settings().profiles == {}
    assert files_holding(sandbox.key, tmp_path / "home") == []


# --------------------------------------------------------------------------- hanging keyring


def test_resolve_key_gives_up_within_the_timeout(hanging: HangingKeyring) -> None:
    profile = Profile(name="work", base_url="https://support.example.com",
                      agent_email="me@example.com")
    with pytest.raises(KeyringUnavailable, match="did not answer"):  # the keyring still hangs
        resolve_key(profile, {}, store=SecretStore(timeout=0.3))
    assert hanging.calls == 1 and not hanging.release.is_set()


def test_console_start_does_not_freeze(hanging: HangingKeyring,
                                       capsys: pytest.CaptureFixture[str],
                                       record_console: list[launch.Target]) -> None:
    a_profile()
    code, _, err = run(capsys)
    assert err == ""
    assert hanging.calls == 0  # the console opens without asking the keyring
    assert code == 0
    [target] = record_console
    with pytest.raises(KeyringUnavailable) as caught:  # the session's worker thread asks it
        target.api_key()
    assert "did not answer" in str(caught.value) and API_KEY_ENV in str(caught.value)


class GivingUpStore(SecretStore):
    """A secret store that gives up a hanging keyring call when the test says so (not after a
    number of seconds that a busy machine may spend on the steps before)."""

    def __init__(self) -> None:
        super().__init__(timeout=3.0)
        self.give_up = threading.Event()

    def _wait(self, future: Future[Any]) -> Any:
        self.give_up.wait(30)
        if not future.done():
            raise FutureTimeout
        return future.result()


async def test_first_run_stays_responsive_while_the_keyring_hangs(
        sandbox: SandboxServer) -> None:
    backend = HangingKeyring()
    keyring.set_keyring(backend)
    store = GivingUpStore()
    app = FirstRunApp(secret_store=store)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await _submit_connect(pilot, sandbox)
            await _wait_for(pilot, lambda: backend.calls == 1)  # the keyring call is stuck
            screen = app.screen
            assert isinstance(screen, ConnectScreen) and screen.busy
            box = screen.query_one("#name", Input)
            box.focus()
            await pilot.press("end", "x", "y")
            await pilot.pause()
            assert box.value == "defaultxy"  # handled while the keyring call still hangs
            assert backend.calls == 1 and not backend.release.is_set()
            # then the store gives up and the screen offers the alternatives
            store.give_up.set()
            await _wait_for(pilot, lambda: isinstance(app.screen, KeyPlaceScreen), 10)
            why = str(app.screen.query_one("#key-place-why", Static).render())
            assert "did not answer" in why
            await pilot.press("enter")  # the environment variable
            await _wait_for(pilot, lambda: app.return_value is not None)
    finally:
        store.give_up.set()
        backend.release.set()
    result = app.return_value
    assert result is not None and result.profile is not None
    assert result.profile.key_source == "env"
    assert result.profile.name == "default"  # what was connected, not the later typing


# --------------------------------------------------------------------------- the key stays hidden


def test_the_key_never_shows(sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
                             capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
                             tmp_path: Path, record_console: list[launch.Target]) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv(cli.LOG_ENV, "DEBUG")
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    assert cli.main(login_args(sandbox)) == 0
    monkeypatch.delenv(API_KEY_ENV)
    assert cli.main([]) == 0
    assert cli.main(["profiles"]) == 0
    assert cli.main(["logout"]) == 0
    out, err = capfd.readouterr()
    secret = sandbox.key
    assert secret not in out + err
    assert secret not in caplog.text
    assert files_holding(secret, tmp_path / "home") == []  # config file, logs, data
    assert "GET /v1/agents" in (log_dir() / "frontdesk.log").read_text()
    api_key = ApiKey(secret)
    profile = Profile(name="work", base_url=sandbox.base_url, agent_email=DEMO_AGENT_EMAIL)
    things: list[Any] = [api_key, FirstRunResult("connected", profile, api_key),
                         SecretStore(), Settings(profiles={"work": profile}), profile,
                         ApiClient(sandbox.base_url, api_key)]
    for thing in things:
        assert secret not in repr(thing) and secret not in str(thing)
    asyncio.run(things[-1].aclose())


# --------------------------------------------------------------------------- helpers


async def _submit_connect(pilot: Any, sandbox: SandboxServer) -> None:
    await pilot.pause()
    await pilot.press("enter")  # "Connect to a service"
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ConnectScreen)
    for field, value in (("base-url", sandbox.base_url), ("key", sandbox.key),
                         ("identity", DEMO_AGENT_EMAIL)):
        screen.query_one(f"#{field}", Input).value = value
    screen.query_one("#identity", Input).focus()
    await pilot.pause()
    await pilot.press("enter")


def _status(app: FirstRunApp) -> str:
    return str(app.screen.query_one("#connect-status", Static).render())


async def _wait_for(pilot: Any, condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        await pilot.pause(0.05)
