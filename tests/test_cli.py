"""The ``frontdesk`` command line: help, locate, profiles, login/logout against a real sandbox,
the script flags, the console's start (with the Textual app replaced by a recorder), the demo,
and the log file. Every test has its own FRONTDESK_HOME and an in-memory keyring."""

from __future__ import annotations

import io
import logging
import os
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import keyring
import pytest

from frontdesk import cli, launch
from frontdesk.api.secrets import ApiKey
from frontdesk.sandbox.seed import DEMO_AGENT_EMAIL
from frontdesk.sandbox.server import SandboxServer
from frontdesk.settings import (
    API_KEY_ENV,
    KEYRING_SERVICE,
    ConfigError,
    Profile,
    SecretStore,
    Settings,
    data_dir,
    load_settings,
    log_dir,
    save_settings,
    settings_path,
    write_key_file,
)
from frontdesk.startup import FIRST_FRAME
from frontdesk.store import signin
from frontdesk.store.errors import Refusal, Refused
from frontdesk.tui.screens.first_run import FirstRunResult


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``frontdesk ARGS`` in this process: exit code, stdout, stderr."""
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def stored_key(profile: str) -> str | None:
    """The key the (in-memory) keyring holds for ``profile``."""
    return keyring.get_keyring().get_password(KEYRING_SERVICE, profile)


def every_file_text(root: Path) -> str:
    """Everything written under ``root`` (to prove the key is in none of it)."""
    return "\n".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


@pytest.fixture
def record_console(monkeypatch: pytest.MonkeyPatch) -> list[launch.Target]:
    """Replace the Textual console with a recorder of where it would connect."""
    seen: list[launch.Target] = []

    def fake(target: launch.Target, settings: Settings) -> int:
        seen.append(target)
        return 0

    monkeypatch.setattr(launch, "run_console", fake)
    return seen


def login(sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str], *extra: str,
          key: str | None = None) -> tuple[int, str, str]:
    """``frontdesk login`` against ``sandbox`` with the key in FRONTDESK_API_KEY."""
    monkeypatch.setenv(API_KEY_ENV, key or sandbox.key)
    try:
        return run(capsys, "login", "--base-url", sandbox.base_url,
                   "--as", DEMO_AGENT_EMAIL, *extra)
    finally:
        monkeypatch.delenv(API_KEY_ENV)


# --------------------------------------------------------------------------- help, locate


@pytest.mark.parametrize("command", [[], ["demo"], ["login"], ["logout"], ["profiles"],
                                     ["locate"], ["gateway"], ["gateway", "serve"],
                                     ["gateway", "add-member"], ["gateway", "audit"]])
def test_help_everywhere(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    code, out, err = run(capsys, *command, "--help")
    assert code == 0
    assert out.startswith("usage: frontdesk")
    assert err == ""


def test_top_level_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for word in ("demo", "login", "logout", "profiles", "locate", "sandbox", "gateway",
                 "FRONTDESK_API_KEY", "--base-url", "--as"):
        assert word in out


def test_usage_error_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--no-such-option")
    assert code == 2
    assert "usage:" in err
    code, _, err = run(capsys, "--as", "someone@example.com")
    assert code == 2
    assert "--base-url" in err


def test_sandbox_is_still_dispatched(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sandbox", "--help")
    assert code == 0
    assert "frontdesk sandbox" in out


def test_locate_prints_every_place(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "locate")
    assert code == 0
    home = tmp_path / "home"
    for name, folder in (("config", "config"), ("data", "data"), ("logs", "logs"),
                         ("cache", "cache")):
        assert f"{name}" in out
        assert str(home / folder) in out
    assert str(home / "config" / "config.toml") in out
    assert not home.exists()  # locate creates nothing


def test_a_reader_that_goes_away_ends_locate_quietly(tmp_path: Path) -> None:
    """``frontdesk locate | head -1``: the pipe's reader is gone before the output is written;
    the command ends as a shell expects (SIGPIPE's code), with nothing on standard error."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before a byte is written
    try:
        result = subprocess.run([sys.executable, "-m", "frontdesk", "locate"], stdout=write_end,
                                stderr=subprocess.PIPE, text=True, timeout=60,
                                env={**os.environ, "FRONTDESK_HOME": str(tmp_path / "home")})
    finally:
        os.close(write_end)
    assert result.returncode == 141
    assert result.stderr == ""


def test_module_entry_point_and_cheap_import() -> None:
    result = subprocess.run([sys.executable, "-m", "frontdesk", "--help"],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "FRONTDESK_HOME": "/nonexistent-frontdesk"})
    assert result.returncode == 0, result.stderr
    assert "frontdesk login" not in result.stderr
    code = ("import sys, frontdesk.cli\n"
            "print(','.join(m for m in ('textual', 'httpx2', 'fastapi', 'uvicorn', 'keyring')"
            " if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=60)
    assert loaded.stdout.strip() == ""


# --------------------------------------------------------------------------- profiles


def test_profiles_empty(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "profiles")
    assert code == 0
    assert "No profiles yet" in out
    assert "frontdesk login" in out


def test_profiles_lists_without_the_key(capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(default_profile="work", profiles={
        "work": Profile(name="work", base_url="https://support.example.com",
                        agent_email="me@example.com"),
        "ci": Profile(name="ci", base_url="http://127.0.0.1:9000",
                      agent_id="3f2b6c1e-8a4d-4e59-9d0a-2c7e5b1f4a93", key_source="env"),
    })
    save_settings(settings)
    SecretStore().set_key("work", "sekrit-work-key-123")
    code, out, _ = run(capsys, "profiles")
    assert code == 0
    lines = out.splitlines()
    work = next(line for line in lines if " work " in line)
    ci = next(line for line in lines if " ci " in line)
    assert work.startswith("*")
    assert not ci.startswith("*")
    assert "https://support.example.com" in work and "me@example.com" in work
    assert "keyring" in work
    assert "3f2b6c1e-8a4d-4e59-9d0a-2c7e5b1f4a93" in ci and "env" in ci
    assert "sekrit-work-key-123" not in out


# --------------------------------------------------------------------------- login, logout


def test_login_with_the_key_in_the_environment(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = login(sandbox, monkeypatch, capsys)
    assert code == 0, err
    assert "Signed in" in out and "default" in out
    settings = load_settings()
    assert settings.default_profile == "default"
    profile = settings.profiles["default"]
    assert profile.base_url == sandbox.base_url
    assert profile.agent_email == DEMO_AGENT_EMAIL
    assert profile.key_source == "keyring"
    assert stored_key("default") == sandbox.key
    text = settings_path().read_text()
    assert sandbox.key not in text
    assert sandbox.key not in out + err
    assert stat.S_IMODE(settings_path().stat().st_mode) == 0o600


def test_login_keeps_the_comments_and_layout_of_a_hand_edited_file(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    hand_written = (
        "# frontdesk settings, kept by hand\n"
        "\n"
        "[profiles.home]  # the one at home\n"
        "base_url = \"https://home.example.com\"  # behind the VPN\n"
        "agent_email = \"me@example.com\"\n"
        "\n"
        "[keys]\n"
        "# I claim with C\n"
        "\"inbox.claim\" = \"C\"\n"
    )
    path.write_text(hand_written)
    code, _, err = login(sandbox, monkeypatch, capsys, "--profile", "work")
    assert code == 0, err
    lines = path.read_text().splitlines()
    kept = [line for line in hand_written.splitlines() if line]
    assert [line for line in lines if line in kept] == kept  # every line, in its order
    settings = load_settings()
    assert settings.default_profile == "work"
    assert settings.profiles["work"].base_url == sandbox.base_url
    assert settings.profiles["home"].base_url == "https://home.example.com"
    assert settings.keys["inbox.claim"] == "C"
    code, _, err = run(capsys, "logout", "--profile", "work")
    assert code == 0, err
    assert "# the one at home" in path.read_text()


def test_login_with_the_key_piped(sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(sandbox.key + "\n"))
    code, out, err = run(capsys, "login", "--profile", "piped", "--base-url",
                         sandbox.base_url, "--integrations-url", sandbox.integrations_url,
                         "--as", DEMO_AGENT_EMAIL)
    assert code == 0, err
    assert stored_key("piped") == sandbox.key
    assert load_settings().profiles["piped"].integrations_url == sandbox.integrations_url
    assert sandbox.key not in out + err


def test_login_by_agent_id(sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    agent = asyncio.run(signin.verify(sandbox.base_url, None, sandbox.key, DEMO_AGENT_EMAIL))
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    code, _, err = run(capsys, "login", "--profile", "byid", "--base-url", sandbox.base_url,
                       "--as", agent.id.upper())
    assert code == 0, err
    assert load_settings().profiles["byid"].agent_id == agent.id


def test_login_with_a_wrong_key_is_refused(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = login(sandbox, monkeypatch, capsys, key="sbx_not-the-right-key")
    assert code == 1
    assert "refused" in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    assert "sbx_not-the-right-key" not in out + err
    assert load_settings().profiles == {}
    assert stored_key("default") is None


def test_login_with_an_unknown_email(sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    code, _, err = run(capsys, "login", "--base-url", sandbox.base_url,
                       "--as", "nobody@nowhere.example")
    assert code == 1
    assert "nobody@nowhere.example" in err
    assert load_settings().profiles == {}


def test_login_to_an_unreachable_service(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(API_KEY_ENV, "sbx_some-key")
    port = launch.free_port()
    code, _, err = run(capsys, "login", "--base-url", f"http://127.0.0.1:{port}",
                       "--as", "me@example.com")
    assert code == 1
    assert "Cannot reach" in err


def test_login_missing_options_without_a_terminal_is_a_usage_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(API_KEY_ENV, "sbx_some-key")
    code, _, err = run(capsys, "login", "--as", "me@example.com")
    assert code == 2
    assert "--base-url" in err
    code, _, err = run(capsys, "login", "--base-url", "ftp://example.com", "--as", "a@b.co")
    assert code == 2
    assert "--base-url" in err and "http" in err


def test_logout_removes_the_profile_and_the_key(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert login(sandbox, monkeypatch, capsys)[0] == 0
    assert stored_key("default") == sandbox.key
    code, out, err = run(capsys, "logout")
    assert code == 0, err
    assert "default" in out
    assert stored_key("default") is None
    settings = load_settings()
    assert settings.profiles == {}
    assert settings.default_profile is None


def test_second_login_keeps_the_first_default(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert login(sandbox, monkeypatch, capsys)[0] == 0
    assert login(sandbox, monkeypatch, capsys, "--profile", "second")[0] == 0
    settings = load_settings()
    assert settings.default_profile == "default"
    assert set(settings.profiles) == {"default", "second"}
    code, _, _ = run(capsys, "logout", "--profile", "default")
    assert code == 0
    settings = load_settings()
    assert settings.default_profile == "second"  # the only one left


# --------------------------------------------------------------------------- the console


def test_console_on_the_default_profile(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], record_console: list[launch.Target]) -> None:
    assert login(sandbox, monkeypatch, capsys)[0] == 0
    code, out, err = run(capsys)
    assert code == 0, err
    assert out == err == ""
    [target] = record_console
    assert target.profile == "default"
    assert target.base_url == sandbox.base_url
    assert target.key is None  # the keyring is read when the console connects …
    assert target.api_key() == sandbox.key  # … after its first frame
    assert target.identity == DEMO_AGENT_EMAIL


def test_console_prefers_the_environment_variable(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], record_console: list[launch.Target]) -> None:
    assert login(sandbox, monkeypatch, capsys)[0] == 0
    sandbox.set_keys([sandbox.key, "sbx_from-the-environment"])
    monkeypatch.setenv(API_KEY_ENV, "sbx_from-the-environment")
    assert run(capsys)[0] == 0
    assert record_console[0].key == "sbx_from-the-environment"


def test_console_on_an_unknown_profile(capsys: pytest.CaptureFixture[str],
                                       record_console: list[launch.Target]) -> None:
    code, _, err = run(capsys, "--profile", "nope")
    assert code == 2
    assert "nope" in err and "frontdesk login" in err
    assert record_console == []


def test_console_without_a_stored_key_names_the_fix(
        capsys: pytest.CaptureFixture[str], record_console: list[launch.Target]) -> None:
    save_settings(Settings(default_profile="work", profiles={"work": Profile(
        name="work", base_url="https://support.example.com", agent_email="me@example.com")}))
    code, _, err = run(capsys)
    assert code == 0 and err == ""  # the console opens on its cached data …
    [target] = record_console
    with pytest.raises(ConfigError) as caught:  # … and says why it cannot connect
        target.api_key()
    said = str(caught.value)
    assert len(said.strip().splitlines()) == 1
    assert "frontdesk login" in said and "FRONTDESK_API_KEY" in said and "--key-file" in said


def test_console_with_a_key_from_the_environment_source_fails_early(
        capsys: pytest.CaptureFixture[str], record_console: list[launch.Target]) -> None:
    save_settings(Settings(default_profile="work", profiles={"work": Profile(
        name="work", base_url="https://support.example.com", agent_email="me@example.com",
        key_source="env")}))
    code, _, err = run(capsys)
    assert code == 1  # nothing slow to wait for: a missing variable is said at once
    assert len(err.strip().splitlines()) == 1 and "FRONTDESK_API_KEY" in err
    assert record_console == []


def test_console_with_a_key_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 record_console: list[launch.Target]) -> None:
    save_settings(Settings(profiles={"work": Profile(
        name="work", base_url="http://127.0.0.1:9", agent_email="me@example.com")}))
    key_file = tmp_path / "key"
    write_key_file(key_file, "sbx_from-a-file")
    assert run(capsys, "--key-file", str(key_file))[0] == 0  # unreachable: opens, cached
    assert record_console[0].key == "sbx_from-a-file"
    assert record_console[0].profile == "work"  # the only profile


def test_a_refused_key_ends_the_console_in_one_line(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A key given in the environment or a file is checked with the service once the
    console's first frame is on screen: a refused key, or an identity the service does not
    know, ends the console and the command says so in one line (never the key)."""
    from frontdesk.tui.app import FrontdeskApp

    opened: list[FrontdeskApp] = []
    original = FrontdeskApp.run

    def headless(self: FrontdeskApp, *args: Any, **kwargs: Any) -> Any:
        opened.append(self)
        return original(self, headless=True, size=(100, 30))

    monkeypatch.setattr(FrontdeskApp, "run", headless)
    where = ("--base-url", sandbox.base_url, "--as", DEMO_AGENT_EMAIL)
    monkeypatch.setenv(API_KEY_ENV, "sbx_wrong-in-the-environment")
    code, out, err = run(capsys, *where)
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "refused" in err
    assert "sbx_wrong" not in err
    monkeypatch.delenv(API_KEY_ENV, raising=False)  # the console takes it out itself
    key_file = tmp_path / "key"
    write_key_file(key_file, "sbx_wrong-in-a-file")
    code, _, err = run(capsys, *where, "--key-file", str(key_file))
    assert code == 1 and "refused" in err and "sbx_wrong" not in err
    save_settings(Settings(profiles={"work": Profile(  # a profile whose key is in a file
        name="work", base_url=sandbox.base_url, agent_email="nobody@example.com",
        key_source="file", key_file=str(key_file))}))
    write_key_file(key_file, sandbox.key)
    code, _, err = run(capsys)
    assert code == 1 and "No agent or admin has the email nobody@example.com" in err
    assert len(err.strip().splitlines()) == 1
    assert len(opened) == 3 and all(app.key_refusal for app in opened)
    # a key the service takes: the console goes on (recorded here rather than run)
    seen: list[launch.Target] = []

    def recorded(target: launch.Target, settings: Settings) -> int:
        seen.append(target)
        return 0

    monkeypatch.setattr(launch, "run_console", recorded)
    code, _, err = run(capsys, *where, "--key-file", str(key_file))
    assert code == 0, err
    [target] = seen
    assert target.key == sandbox.key
    assert target.check is not None and target.check() is None


def test_start_up_failures_end_in_one_line(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def one_line(err: str, *words: str) -> None:
        assert len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err
        for word in words:
            assert word in err, err

    where = ("--base-url", sandbox.base_url, "--as", DEMO_AGENT_EMAIL)
    # A key with a line break (it would inject headers) is refused without being shown.
    monkeypatch.setenv(API_KEY_ENV, "sbx_one\nX-Injected: yes")
    code, _, err = run(capsys, *where)
    assert code == 1
    one_line(err, "line break")
    assert "Injected" not in err
    monkeypatch.delenv(API_KEY_ENV)
    # A config.toml nested deeper than a parser can follow.
    settings_path().parent.mkdir(parents=True)
    settings_path().write_text("a = " + "[" * 100_000 + "]" * 100_000)
    for command in ((), ("profiles",), ("demo",)):
        code, _, err = run(capsys, *command)
        assert code == 1
        one_line(err, "too deeply", str(settings_path()))
    settings_path().unlink()
    # A data directory that cannot be used: the local store says so, the console never opens.
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    data_dir().parent.mkdir(parents=True, exist_ok=True)
    data_dir().write_text("a file where the data directory should be")
    code, _, err = run(capsys, *where)
    assert code == 1
    one_line(err, "data directory", str(data_dir()))
    data_dir().unlink()
    assert API_KEY_ENV not in os.environ  # read, then kept from child processes
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    # A bug: one line; it points to the log only when the log holds the details.
    def broken(target: launch.Target, settings: Settings) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(launch, "run_console", broken)
    log_file = log_dir() / cli.LOG_FILE
    import shutil

    shutil.rmtree(log_dir(), ignore_errors=True)
    log_dir().write_text("a file where the log directory should be")
    code, _, err = run(capsys, *where)
    assert code == 1, err
    one_line(err, "RuntimeError", "cannot be written")
    log_dir().unlink()
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    code, _, err = run(capsys, *where)
    assert code == 1
    one_line(err, "RuntimeError", f"details are in {log_file}")
    assert "a bug" in log_file.read_text() and "Traceback" in log_file.read_text()


def test_a_data_directory_the_database_cannot_be_written_in_is_one_line(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The data directory is there but the local store cannot write its database in it (as
    in a read-only directory): one line naming the database, and the console never opens.

    The database's place is taken by a directory, which no one can open for writing, root
    included (CI runs as root, whom a read-only mode does not bind): the store meets the
    same failure a read-only directory gives it, creating its file (``_private_file``),
    after the data directory itself was found (a data directory that cannot be made is
    ``test_start_up_failures_end_in_one_line``)."""
    database = launch.local_store_path(cli.console.script_profile_name(sandbox.base_url))
    database.mkdir(parents=True)
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)
    code, _, err = run(capsys, "--base-url", sandbox.base_url, "--as", DEMO_AGENT_EMAIL)
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and str(data_dir()) in err
    assert f"Cannot open {database}" in err, err
    assert database.is_dir() and list(database.iterdir()) == []  # nothing moved or written


def test_the_console_never_reads_keys_from_an_ended_stdin(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``frontdesk < /dev/null`` (or a pipe): a reader at the end of its input wakes without
    pause; the console reads keys from the terminal instead, or from nothing at all."""
    import select

    with open(os.devnull, encoding="utf-8") as ended:
        monkeypatch.setattr(sys, "__stdin__", ended)
        with launch.terminal_input():
            keys = sys.__stdin__
            assert keys is not None and keys is not ended
            readable, _, _ = select.select([keys.fileno()], [], [], 0)
            assert os.isatty(keys.fileno()) or readable == []  # never "readable" at its end
        assert sys.__stdin__ is ended and keys.closed


def test_script_flags_need_the_environment_variable(
        capsys: pytest.CaptureFixture[str], record_console: list[launch.Target]) -> None:
    code, _, err = run(capsys, "--base-url", "http://127.0.0.1:9", "--as", "me@example.com")
    assert code == 2
    assert "FRONTDESK_API_KEY" in err
    assert len(err.strip().splitlines()) == 1
    assert record_console == []


def test_script_flags_with_the_key(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str],
                                   record_console: list[launch.Target]) -> None:
    monkeypatch.setenv(API_KEY_ENV, "sbx_script-key")
    code, out, err = run(capsys, "--base-url", "http://127.0.0.1:9", "--integrations-url",
                         "http://127.0.0.1:9/integrations", "--as", "me@example.com")
    assert code == 0, err
    assert out == "" and "sbx_script-key" not in err
    [target] = record_console
    assert (target.base_url, target.integrations_url, target.identity, target.key) == (
        "http://127.0.0.1:9", "http://127.0.0.1:9/integrations", "me@example.com",
        "sbx_script-key")
    assert load_settings().profiles == {}  # nothing stored for scripts
    code, _, err = run(capsys, "--base-url", "http://127.0.0.1:9", "--as", "not-an-id")
    assert code == 2
    assert "--as" in err


def test_no_profile_without_a_terminal(capsys: pytest.CaptureFixture[str],
                                       record_console: list[launch.Target]) -> None:
    code, _, err = run(capsys)
    assert code == 1
    assert "frontdesk login" in err and "frontdesk demo" in err
    assert record_console == []


def test_no_profile_in_a_terminal_opens_the_first_run(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        record_console: list[launch.Target]) -> None:
    monkeypatch.setattr(cli.console, "interactive", lambda: True)
    demos: list[bool] = []
    monkeypatch.setattr(cli.console, "run_first_run", lambda settings: FirstRunResult("demo"))

    def run_demo(settings: Settings, logs: object) -> int:
        demos.append(True)
        return 0

    monkeypatch.setattr(cli.console, "run_demo", run_demo)
    assert run(capsys)[0] == 0
    assert demos == [True]

    profile = Profile(name="work", base_url="https://support.example.com",
                      agent_email="me@example.com")
    monkeypatch.setattr(cli.console, "run_first_run", lambda settings: FirstRunResult(
        "connected", profile, ApiKey("sbx_first-run-key")))
    assert run(capsys)[0] == 0
    [target] = record_console
    assert (target.profile, target.key) == ("work", "sbx_first-run-key")

    monkeypatch.setattr(cli.console, "run_first_run", lambda settings: None)  # quit
    assert run(capsys)[0] == 0


# --------------------------------------------------------------------------- demo, logging


def test_demo_runs_quietly_with_uvicorn_logging_to_the_file(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    seen: list[tuple[str, int]] = []

    def console(target: launch.Target, settings: Settings) -> int:
        # The demo sandbox starts in the background once the first frame is painted: paint
        # it, wait until the sandbox answers, as the console would, then make uvicorn
        # complain while "the console owns the terminal".
        import time

        FIRST_FRAME.set()
        deadline = time.monotonic() + 120
        while True:
            try:
                reply = httpx2.get(target.base_url + "/v1/tags",
                                  headers={"Authorization": target.key or ""}, timeout=5)
                break
            except httpx2.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        seen.append((target.identity, reply.status_code))
        logging.getLogger("uvicorn.error").warning("uvicorn says hello")
        logging.getLogger("frontdesk.sandbox").warning("the sandbox says hello")
        return 0

    monkeypatch.setattr(launch, "run_console", console)
    code = cli.main(["demo", "--seed", "3"])
    out, err = capfd.readouterr()
    assert code == 0
    assert seen == [(DEMO_AGENT_EMAIL, 200)]
    assert out == "" and err == ""
    log_text = (log_dir() / "frontdesk.log").read_text()
    assert "uvicorn says hello" in log_text and "the sandbox says hello" in log_text
    import uvicorn.config

    assert uvicorn.config.LOGGING_CONFIG["handlers"]  # put back afterwards


def test_the_demo_sandbox_can_be_found_and_keeps_its_key(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from frontdesk.tui.app import FrontdeskApp

    seen: list[tuple[str, str, list[str]]] = []

    def console(app: FrontdeskApp) -> None:
        """Inside the running demo: what locate and the palette say."""
        assert app.sandbox_access is not None
        access = app.sandbox_access
        FIRST_FRAME.set()  # the console's first frame: the sandbox may start
        deadline = time.monotonic() + 60
        while True:  # the sandbox starts beside the console
            try:
                reply = httpx2.get(access.base_url + "/v1/tags",
                                  headers={"Authorization": access.key}, timeout=5)
                break
            except httpx2.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert reply.status_code == 200
        capsys.readouterr()
        assert cli.main(["locate"]) == 0
        located = capsys.readouterr().out
        commands = [command.title for command in app.app_commands()]
        seen.append((access.key, located, commands))

    monkeypatch.setattr(FrontdeskApp, "run", console)
    assert cli.main(["demo", "--seed", "3"]) == 0
    assert cli.main(["demo"]) == 0  # again: the same sandbox database, the same key
    [(key, located, commands), (again, _, _)] = seen
    assert again == key
    base_url = next(line.split()[2] for line in located.splitlines()
                    if line.startswith("demo sandbox"))
    assert base_url.startswith("http://127.0.0.1:")
    assert any(line.startswith("demo API key") and line.endswith(key)
               for line in located.splitlines())
    assert "Sandbox: URL and key" in commands
    key_file = data_dir() / "demo" / "sandbox.db.key"
    assert key_file.read_text().strip() == key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key not in (log_dir() / cli.LOG_FILE).read_text()  # the log says where
    assert str(key_file) in (log_dir() / cli.LOG_FILE).read_text()
    capsys.readouterr()
    assert cli.main(["locate"]) == 0  # stopped: said so
    assert "not running" in capsys.readouterr().out


def test_demo_options(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                      record_console: list[launch.Target]) -> None:
    calls: list[Any] = []

    @contextmanager
    def fake_sandbox(*, chaos: bool = False, seed: int = 1) -> Iterator[launch.Target]:
        calls.append(("sandbox", chaos, seed))
        yield launch.Target("demo", "http://127.0.0.1:9", None, "sbx_demo", DEMO_AGENT_EMAIL)

    monkeypatch.setattr(launch, "demo_sandbox", fake_sandbox)
    monkeypatch.setattr(launch, "reset_demo", lambda: calls.append("reset"))
    code, out, err = run(capsys, "demo", "--reset", "--chaos", "--seed", "5")
    assert (code, out, err) == (0, "", "")
    assert calls == ["reset", ("sandbox", True, 5)]
    assert record_console[0].profile == "demo"
    code, _, err = run(capsys, "demo", "--seed", "many")
    assert code == 2
    assert "--seed" in err


def test_the_log_file_never_holds_the_key(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], record_console: list[launch.Target]) -> None:
    monkeypatch.setenv(cli.LOG_ENV, "DEBUG")
    assert login(sandbox, monkeypatch, capsys)[0] == 0

    def chatty(target: launch.Target, settings: Settings) -> int:
        logging.getLogger("frontdesk.test").debug("careless: %s", target.api_key())
        return 0

    monkeypatch.setattr(launch, "run_console", chatty)
    assert run(capsys)[0] == 0
    log_file = log_dir() / "frontdesk.log"
    text = log_file.read_text()
    assert "careless: ****" in text
    assert "GET /v1/agents" in text  # DEBUG shows the requests …
    assert sandbox.key not in every_file_text(log_dir().parent)  # … never the key
    assert stat.S_IMODE(log_file.stat().st_mode) == 0o600
    assert not any(isinstance(h.formatter, cli.logs.KeyMaskingFormatter)
                   for h in logging.getLogger().handlers)  # put back after the command


def test_the_log_file_never_holds_query_strings(
        sandbox: SandboxServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(cli.LOG_ENV, "DEBUG")
    monkeypatch.setenv(API_KEY_ENV, sandbox.key)

    def searching(target: launch.Target, settings: Settings) -> int:
        import asyncio

        from frontdesk.api.client import ApiClient

        async def search() -> None:
            async with ApiClient(target.base_url, target.api_key()) as client:
                await client.agents.list_page(email="searched.person@example.org")

        asyncio.run(search())
        return 0

    monkeypatch.setattr(launch, "run_console", searching)
    assert run(capsys, "--base-url", sandbox.base_url, "--as", DEMO_AGENT_EMAIL)[0] == 0
    text = (log_dir() / cli.LOG_FILE).read_text()
    assert "GET /v1/agents" in text  # our own line: the path template …
    assert "searched.person" not in text and "example.org" not in text  # … never the query


def test_signin_verify_messages(sandbox: SandboxServer) -> None:
    import asyncio

    agent = asyncio.run(signin.verify(sandbox.base_url, None, sandbox.key, DEMO_AGENT_EMAIL))
    assert agent.email == DEMO_AGENT_EMAIL
    again = asyncio.run(signin.verify(sandbox.base_url, None, sandbox.key, agent.id))
    assert again.id == agent.id

    def refusal(key: str, identity: str) -> Refused:
        with pytest.raises(Refused) as raised:
            asyncio.run(signin.verify(sandbox.base_url, None, key, identity))
        return raised.value

    missing = refusal(sandbox.key, "00000000-0000-4000-8000-000000000000")
    assert "No agent" in missing.reason and missing.kind is Refusal.SERVICE
    refused = refusal("sbx_wrong", DEMO_AGENT_EMAIL)
    assert "refused" in refused.reason and "sbx_wrong" not in refused.reason
    assert refused.kind is Refusal.SERVICE
    odd = refusal(sandbox.key, "just-a-name")
    assert "email" in odd.reason and odd.kind is Refusal.RULE
    sandbox.faults.garbage("html", count=None)
    try:
        garbled = refusal(sandbox.key, DEMO_AGENT_EMAIL)
    finally:
        sandbox.faults.clear()
    assert garbled.kind is Refusal.UNREACHABLE  # nothing was checked either way
