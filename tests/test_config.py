"""Tests of frontdesk.settings and frontdesk.config.api_key: locations, settings files, the
TOML writer, keys and the keyring.

Nothing here touches the user's keyring or home: every test runs with ``FRONTDESK_HOME`` under
``tmp_path`` and an in-memory keyring backend installed with ``keyring.set_keyring``.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import os
import stat
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import keyring
import keyring.core
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail, null
from keyring.errors import KeyringError, PasswordDeleteError

from frontdesk.config.api_key import resolve_key
from frontdesk.settings import (
    ConfigError,
    KeyFileError,
    KeyNotFound,
    KeyringUnavailable,
    PollSettings,
    Profile,
    RateSettings,
    SecretStore,
    Settings,
    SettingsError,
    UISettings,
    cache_dir,
    config_dir,
    data_dir,
    dumps_toml,
    load_settings,
    locations,
    log_dir,
    read_key_file,
    save_settings,
    schema,
    settings_path,
    write_key_file,
)

SECRET = "sk-live-7f3c9a1e5b2d4f60-do-not-leak"
AGENT_ID = "3F2B6C1E-8A4D-4E59-9D0A-2C7E5B1F4A93"


# --------------------------------------------------------------------------- test keyrings


class MemoryKeyring(KeyringBackend):
    """A keyring that keeps passwords in a dict; priority 1 makes it a "secure" backend."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # keyring's constructor is unannotated
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        try:
            del self.passwords[(service, username)]
        except KeyError:
            raise PasswordDeleteError("Password not found") from None


class RaisingKeyring(MemoryKeyring):
    """A keyring that refuses every operation, like a locked collection."""

    def get_password(self, service: str, username: str) -> str | None:
        raise KeyringError("the collection is locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringError(f"cannot store {password}")

    def delete_password(self, service: str, username: str) -> None:
        raise KeyringError("the collection is locked")


class CrashingKeyring(MemoryKeyring):
    """A keyring whose backend fails with a non-keyring exception (a D-Bus error, say)."""

    def get_password(self, service: str, username: str) -> str | None:
        raise RuntimeError("org.freedesktop.DBus.Error.ServiceUnknown")


class HangingKeyring(MemoryKeyring):
    """A keyring whose get_password blocks for 10 s (until released), like a locked Secret
    Service waiting on a prompt nobody sees."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.calls = 0

    def get_password(self, service: str, username: str) -> str | None:
        self.calls += 1
        self.release.wait(10)
        return None


class LowPriorityKeyring(MemoryKeyring):
    """A plaintext-grade backend: usable but not recommended (priority below 1)."""

    priority = 0.5  # type: ignore[assignment]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point FRONTDESK_HOME at a temporary directory and clear FRONTDESK_API_KEY."""
    home = tmp_path / "home"
    monkeypatch.setenv("FRONTDESK_HOME", str(home))
    monkeypatch.delenv("FRONTDESK_API_KEY", raising=False)
    return home


@pytest.fixture(autouse=True)
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> MemoryKeyring:
    """Install an in-memory keyring for every test; the previous backend is restored after."""
    monkeypatch.setattr(keyring.core, "_keyring_backend", None)
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    return backend


@pytest.fixture
def hanging_keyring() -> Iterator[HangingKeyring]:
    """Install a keyring that hangs; release its thread at the end so nothing lingers."""
    backend = HangingKeyring()
    keyring.set_keyring(backend)
    yield backend
    backend.release.set()


def full_settings() -> Settings:
    """Settings with every section filled in, including names that need quoting."""
    return Settings(
        default_profile="work",
        profiles={
            "work": Profile(
                name="work",
                base_url="https://support.example.com/api/v1/",
                integrations_url="https://integrations.example.com",
                agent_email="ana@example.com",
                agent_id=AGENT_ID,
            ),
            "ci.bot": Profile(
                name="ci.bot",
                base_url="http://127.0.0.1:8765",
                key_source="file",
                key_file='~/keys/ci key "quoted".txt',
            ),
            "env-only": Profile(name="env-only", base_url="http://localhost", key_source="env"),
        },
        poll=PollSettings(thread=1.5, conversations=4, presence=7.25, queues=12, business_hours=90),
        rate=RateSettings(rate=8.5, burst=2),
        keys={"inbox.claim": "c", "thread.reply": "ctrl+r", "app.quit": "ctrl+q"},
        ui=UISettings(theme="nord", business_hours_schedule='Europe \\ Lisbon "main"\nß✓'),
    )


def mode_of(path: Path) -> int:
    """Permission bits of ``path``."""
    return stat.S_IMODE(path.stat().st_mode)


# --------------------------------------------------------------------------- locations


def test_locations_live_under_frontdesk_home(home: Path) -> None:
    places = locations()
    assert places == {
        "config": home / "config",
        "settings": home / "config" / "config.toml",
        "data": home / "data",
        "logs": home / "logs",
        "cache": home / "cache",
    }
    assert config_dir() == home / "config"
    assert data_dir() == home / "data"
    assert log_dir() == home / "logs"
    assert cache_dir() == home / "cache"
    assert not home.exists(), "locating must not create anything"


def test_locations_without_frontdesk_home_use_platform_dirs() -> None:
    places = locations(env={})
    for key in ("config", "data", "logs", "cache"):
        assert "frontdesk" in places[key].parts
    assert places["settings"].name == "config.toml"
    assert locations(env={"FRONTDESK_HOME": ""}) == places


# --------------------------------------------------------------------------- settings files


def test_missing_file_gives_defaults(home: Path) -> None:
    settings = load_settings()
    assert settings == Settings()
    assert settings.default_profile is None
    assert settings.profiles == {}
    assert settings.poll == PollSettings(
        thread=3, conversations=5, presence=5, queues=10, business_hours=60
    )
    assert (settings.rate.rate, settings.rate.burst) == (10, 4)
    assert settings.keys == {}
    assert settings.ui.theme == "textual-dark"
    assert settings.ui.business_hours_schedule is None
    assert not home.exists()


def test_round_trip(home: Path) -> None:
    settings = full_settings()
    save_settings(settings)
    assert settings_path().exists()
    loaded = load_settings()
    assert loaded == settings
    assert loaded.profiles["work"].base_url == "https://support.example.com/api/v1"
    assert loaded.profiles["work"].agent_id == AGENT_ID.lower()
    assert loaded.keys["inbox.claim"] == "c"
    # Saving what was loaded writes the same bytes.
    text = settings_path().read_text(encoding="utf-8")
    save_settings(loaded)
    assert settings_path().read_text(encoding="utf-8") == text


def test_round_trip_to_an_explicit_path(tmp_path: Path) -> None:
    path = tmp_path / "elsewhere" / "my.toml"
    save_settings(full_settings(), path)
    assert load_settings(path) == full_settings()


def test_saved_file_has_mode_0600_and_no_leftovers(home: Path) -> None:
    save_settings(full_settings())
    path = settings_path()
    assert mode_of(path) == 0o600
    assert mode_of(path.parent) == 0o700
    # An existing file with loose permissions is replaced by a private one.
    path.chmod(0o644)
    save_settings(Settings())
    assert mode_of(path) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["config.toml"]


def test_profile_name_comes_from_the_table_key(home: Path) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(
        'default_profile = "work"\n\n[profiles.work]\nbase_url = "https://x.example/"\n\n'
        '[keys]\n"inbox.claim" = "c"\n',
        encoding="utf-8",
    )
    settings = load_settings()
    assert settings.profiles["work"].name == "work"
    assert settings.profiles["work"].base_url == "https://x.example"
    assert settings.profiles["work"].key_source == "keyring"
    assert settings.keys == {"inbox.claim": "c"}


def test_malformed_toml_names_file_and_line(home: Path) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("[poll]\nthread = 3\nconversations = = 5\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = str(caught.value)
    assert str(path) in message
    assert "line 3" in message
    assert "not valid TOML" in message


def test_non_utf8_file_is_a_config_error(home: Path) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b'[ui]\ntheme = "\xff"\n')
    with pytest.raises(ConfigError, match="UTF-8"):
        load_settings()


def test_invalid_values_name_file_and_field(home: Path) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(
        '[poll]\nthread = 0\n\n[profiles.work]\nbase_url = "ftp://example.com"\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as caught:
        load_settings()
    message = str(caught.value)
    assert str(path) in message
    assert "poll.thread" in message
    assert "profiles.work.base_url" in message


def test_a_key_written_into_the_config_file_is_refused_and_not_echoed(home: Path) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(
        f'[profiles.work]\nbase_url = "https://x.example"\napi_key = "{SECRET}"\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "api_key" in str(caught.value)
    assert SECRET not in str(caught.value)


def test_unknown_default_profile_is_refused() -> None:
    with pytest.raises(ValueError, match="default_profile"):
        Settings(default_profile="nope")


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("base_url", "https://example.com/", "https://example.com"),
        ("base_url", "  http://127.0.0.1:8000/api//  ", "http://127.0.0.1:8000/api"),
        ("agent_id", AGENT_ID, AGENT_ID.lower()),
        ("integrations_url", "https://i.example.com/", "https://i.example.com"),
    ],
)
def test_profile_normalises(field: str, value: str, expected: str) -> None:
    data = {"name": "p", "base_url": "https://example.com", field: value}
    assert getattr(Profile.from_mapping(data), field) == expected


@pytest.mark.parametrize(
    "data",
    [
        {"name": "p", "base_url": "ftp://example.com"},
        {"name": "p", "base_url": "example.com"},
        {"name": "p", "base_url": "https://"},
        {"name": "p", "base_url": "https://example.com:99999"},
        {"name": "p", "base_url": "https://example.com", "agent_id": "not-a-uuid"},
        {"name": "p", "base_url": "https://example.com", "agent_email": "nobody"},
        {"name": "p", "base_url": "https://example.com", "key_source": "file"},
        {"name": "p", "base_url": "https://example.com", "key_source": "plaintext"},
        {"name": "bad name", "base_url": "https://example.com"},
    ],
)
def test_profile_rejects(data: dict[str, Any]) -> None:
    with pytest.raises(SettingsError):
        Profile.from_mapping(data)
    with pytest.raises(ValueError):  # SettingsError is a ValueError for callers of the class
        Profile(**data)


SECTIONS = (Settings, Profile, PollSettings, RateSettings, UISettings)


def test_settings_fields_are_documented() -> None:
    """Every field has a docstring right below it (they are the settings' documentation)."""
    tree = ast.parse(Path(schema.__file__).read_text(encoding="utf-8"))
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    for model in SECTIONS:
        body = classes[model.__name__].body
        documented = {
            statement.target.id
            for statement, after in itertools.pairwise(body)
            if isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
            and after.value.value.strip()
        }
        for field in dataclasses.fields(model):
            assert field.name in documented, f"{model.__name__}.{field.name} has no docstring"


def test_every_field_has_a_check() -> None:
    for model in SECTIONS:
        assert set(model._CHECKS) == {f.name for f in dataclasses.fields(model)}, model


def test_settings_are_frozen_and_replace_checks_again() -> None:
    settings = full_settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.default_profile = "ci.bot"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.poll.thread = 1  # type: ignore[misc]
    moved = dataclasses.replace(settings, default_profile="ci.bot")
    assert moved.default_profile == "ci.bot" and settings.default_profile == "work"
    with pytest.raises(SettingsError, match="default_profile 'nope' is not a profile"):
        dataclasses.replace(settings, default_profile="nope")
    profile = settings.profiles["work"]
    with pytest.raises(SettingsError, match="needs key_file"):
        dataclasses.replace(profile, key_source="file")
    with pytest.raises(SettingsError, match="must start with http"):
        dataclasses.replace(profile, base_url="ftp://example.com")


def test_to_mapping_and_back() -> None:
    settings = full_settings()
    data = settings.to_mapping()
    assert data["profiles"]["work"]["name"] == "work"
    assert data["poll"]["thread"] == 1.5
    assert data["ui"]["business_hours_schedule"] == settings.ui.business_hours_schedule
    assert Settings.from_mapping(data) == settings
    data["profiles"]["work"]["base_url"] = "nope"  # a copy: the settings do not change
    assert settings.profiles["work"].base_url == "https://support.example.com/api/v1"


def test_saving_checks_dicts_changed_in_place(home: Path) -> None:
    settings = Settings()
    settings.keys["inbox.claim"] = " "
    with pytest.raises(ConfigError, match=r"Refusing to save invalid settings:\n  keys: binding"):
        save_settings(settings)
    assert not settings_path().exists()


@pytest.mark.parametrize(
    ("data", "problems"),
    [
        ({"poll": {"thread": 0}}, [("poll.thread", "Input should be greater than 0")]),
        ({"poll": {"queues": -1.5}}, [("poll.queues", "Input should be greater than 0")]),
        ({"poll": {"presence": float("inf")}},
         [("poll.presence", "Input should be a finite number")]),
        ({"poll": {"thread": float("nan")}}, [("poll.thread", "Input should be a finite number")]),
        ({"poll": {"thread": "soon"}}, [("poll.thread", "Input should be a valid number, "
                                         "unable to parse string as a number")]),
        ({"poll": {"thread": True}}, [("poll.thread", "Input should be a valid number")]),
        ({"poll": {"thread": [1]}}, [("poll.thread", "Input should be a valid number")]),
        ({"poll": {"every": 3}}, [("poll.every", "Extra inputs are not permitted")]),
        ({"poll": 3}, [("poll", "Input should be a valid dictionary or instance of PollSettings")]),
        ({"rate": {"rate": 0}}, [("rate.rate", "Input should be greater than 0")]),
        ({"rate": {"rate": float("inf")}}, [("rate.rate", "Input should be a finite number")]),
        ({"rate": {"burst": 0}}, [("rate.burst", "Input should be greater than or equal to 1")]),
        ({"rate": {"burst": 2.5}}, [("rate.burst", "Input should be a valid integer, got a "
                                     "number with a fractional part")]),
        ({"rate": {"burst": "many"}}, [("rate.burst", "Input should be a valid integer, "
                                        "unable to parse string as an integer")]),
        ({"ui": {"theme": 3}}, [("ui.theme", "Input should be a valid string")]),
        ({"ui": {"colour": "red"}}, [("ui.colour", "Extra inputs are not permitted")]),
        ({"keys": {"inbox.claim": ""}}, [("keys", "binding 'inbox.claim' needs a non-empty id "
                                          "and key")]),
        ({"keys": {" ": "c"}}, [("keys", "binding ' ' needs a non-empty id and key")]),
        ({"keys": {"inbox.claim": 1}}, [("keys.inbox.claim", "Input should be a valid string")]),
        ({"keys": ["c"]}, [("keys", "Input should be a valid dictionary")]),
        ({"default_profile": "nope"}, [("(top level)", "default_profile 'nope' is not a profile")]),
        ({"default_profile": 1}, [("default_profile", "Input should be a valid string")]),
        ({"profiles": []}, [("profiles", "Input should be a valid dictionary")]),
        ({"profiles": {"w": 1}}, [("profiles.w", "Input should be a valid dictionary or "
                                   "instance of Profile")]),
        ({"profiles": {"w": {}}}, [("profiles.w.base_url", "Field required")]),
        ({"profiles": {"w": {"name": "v", "base_url": "http://x"}}},
         [("(top level)", "profile [profiles.w] has name = 'v'")]),
        ({"profiles": {"w": {"base_url": "http://x", "key_source": "file"}}},
         [("profiles.w", "key_source = 'file' needs key_file = PATH")]),
        ({"profiles": {"w": {"base_url": "http://x", "key_source": "vault"}}},
         [("profiles.w.key_source", "Input should be 'keyring', 'env' or 'file'")]),
        ({"profiles": {"w": {"base_url": "http://x?a=1"}}},
         [("profiles.w.base_url", "must not contain a query or a fragment")]),
        ({"profiles": {"w": {"base_url": "https://"}}},
         [("profiles.w.base_url", "must name a host, e.g. https://support.example.com")]),
        ({"profiles": {"w": {"base_url": "http://x", "integrations_url": "x.example"}}},
         [("profiles.w.integrations_url", "must start with http:// or https://")]),
        ({"profiles": {"w": {"base_url": "http://x", "agent_email": "a b@c"}}},
         [("profiles.w.agent_email", "must be an email address like agent@example.com")]),
        ({"profiles": {"w": {"base_url": "http://x", "agent_id": "7"}}},
         [("profiles.w.agent_id", "must be a UUID like 3f2b6c1e-8a4d-4e59-9d0a-2c7e5b1f4a93")]),
        ({"profiles": {"-w": {"base_url": "http://x"}}},
         [("profiles.-w.name", "must be 1-64 letters, digits, '_', '-' or '.', starting with "
                               "a letter or digit")]),
        ({"profiles": {"w": {"base_url": "http://x", "key_file": 3}}},
         [("profiles.w.key_file", "Input should be a valid string")]),
        ({"theme": "nord"}, [("theme", "Extra inputs are not permitted")]),
        (
            {"poll": {"thread": 0, "queues": 0}, "profiles": {"w": {"base_url": "ftp://x",
                                                                   "password": "p"}}},
            [
                ("profiles.w.base_url", "must start with http:// or https://"),
                ("profiles.w.password", "Extra inputs are not permitted"),
                ("poll.thread", "Input should be greater than 0"),
                ("poll.queues", "Input should be greater than 0"),
            ],
        ),
    ],
)
def test_each_rule_names_the_setting(data: dict[str, object],
                                     problems: list[tuple[str, str]]) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_mapping(data)
    assert [(p.where, p.message) for p in caught.value.problems] == problems
    assert str(caught.value) == "\n".join(f"{where}: {what}" for where, what in problems)


def test_lenient_numbers_are_normalised() -> None:
    poll = PollSettings.from_mapping({"thread": 2, "queues": " 7.5 "})
    assert (poll.thread, poll.queues) == (2.0, 7.5)
    assert isinstance(poll.thread, float)
    rate = RateSettings.from_mapping({"rate": "8", "burst": 3.0})
    assert (rate.rate, rate.burst) == (8.0, 3)
    assert isinstance(rate.burst, int)
    assert RateSettings(burst="2").burst == 2  # type: ignore[arg-type]


def test_profile_constructor_checks_like_from_mapping() -> None:
    with pytest.raises(SettingsError) as caught:
        Profile(name="bad name", base_url="example.com", agent_email="nobody")
    assert [p.where for p in caught.value.problems] == ["name", "base_url", "agent_email"]
    with pytest.raises(TypeError):
        Profile(name="p", base_url="http://x", api_key=SECRET)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Profile("p", "http://x")  # type: ignore[call-arg]


def test_settings_constructor_takes_tables_too() -> None:
    settings = Settings(profiles={"w": {"base_url": "http://x/"}},  # type: ignore[dict-item]
                        poll={"thread": 1})  # type: ignore[arg-type]
    assert settings.profiles["w"] == Profile(name="w", base_url="http://x")
    assert settings.poll == PollSettings(thread=1)


# --------------------------------------------------------------------------- TOML writer


@pytest.mark.parametrize(
    "value",
    [
        "plain",
        "",
        'say "hi"',
        "back\\slash and \\n literal",
        "C:\\Users\\ana\\",
        "line one\nline two\r\nthree",
        "tab\there, bell\a, nul\x00, esc\x1b[2J, del\x7f, \b\f",
        "unicode: ß ✓ 日本語 🙂",
        "invisible: \u202e \u009b \u200b \U000e0001",
        '\'single\' and """triple"""',
    ],
)
def test_writer_escapes_strings(value: str) -> None:
    text = dumps_toml({"s": value, "list": [value, "x"], "t": {value: value}})
    parsed = tomllib.loads(text)
    assert parsed == {"s": value, "list": [value, "x"], "t": {value: value}}


def test_writer_keeps_invisible_characters_visible() -> None:
    text = dumps_toml({"s": "a\u202eb\u009bc\x1bd\U000e0001"})
    assert text == 's = "a\\u202Eb\\u009Bc\\u001Bd\\U000E0001"\n'
    assert all(ch.isprintable() for ch in text.strip())


def test_writer_handles_the_subset() -> None:
    data = {
        "top": "level",
        "n": 3,
        "f": 0.1,
        "big": 1e20,
        "small": 1e-7,
        "yes": True,
        "no": False,
        "skipped": None,
        "names": ["a", "b"],
        "empty": {},
        "outer": {"x": 1, "inner": {"y": "z"}, "only": {"deep": {"v": 2}}},
        "dotted.key": {"with space": "v"},
    }
    expected = {k: v for k, v in data.items() if v is not None}
    assert tomllib.loads(dumps_toml(data)) == expected


def test_writer_rejects_unsupported_values() -> None:
    with pytest.raises(TypeError):
        dumps_toml({"when": object()})


# --------------------------------------------------------------------------- secrets


def test_secret_goes_to_the_keyring_not_the_config_file(
    home: Path, memory_keyring: MemoryKeyring
) -> None:
    store = SecretStore()
    store.set_key("work", SECRET)
    save_settings(full_settings())
    assert memory_keyring.passwords == {("frontdesk", "work"): SECRET}
    assert store.get_key("work") == SECRET
    for path in home.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in repr(load_settings())


def test_get_and_delete_keys(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    assert store.get_key("work") is None
    store.set_key("work", SECRET)
    store.set_key("other", "k2")
    store.delete_key("work")
    assert store.get_key("work") is None
    assert store.get_key("other") == "k2"
    store.delete_key("work")  # already gone: not an error
    with pytest.raises(ConfigError):
        store.set_key("work", "   ")


def test_explicit_backend_is_used(memory_keyring: MemoryKeyring) -> None:
    mine = MemoryKeyring()
    SecretStore(mine).set_key("work", SECRET)
    assert mine.passwords == {("frontdesk", "work"): SECRET}
    assert memory_keyring.passwords == {}


def test_raising_keyring_is_unavailable_with_alternatives() -> None:
    keyring.set_keyring(RaisingKeyring())
    store = SecretStore()
    with pytest.raises(KeyringUnavailable) as caught:
        store.get_key("work")
    message = str(caught.value)
    assert "FRONTDESK_API_KEY" in message
    assert "--key-file" in message
    assert "chmod 600" in message
    assert "locked" in message
    with pytest.raises(KeyringUnavailable) as caught:
        store.set_key("work", SECRET)
    assert SECRET not in str(caught.value)
    assert caught.value.__cause__ is None
    with pytest.raises(KeyringUnavailable):
        store.delete_key("work")


def test_crashing_backend_is_unavailable() -> None:
    keyring.set_keyring(CrashingKeyring())
    with pytest.raises(KeyringUnavailable, match="FRONTDESK_API_KEY"):
        SecretStore().get_key("work")


@pytest.mark.parametrize("backend", [fail.Keyring(), null.Keyring(), LowPriorityKeyring()])
def test_insecure_backends_are_refused(backend: KeyringBackend) -> None:
    keyring.set_keyring(backend)
    store = SecretStore()
    calls: tuple[Callable[[], object], ...] = (lambda: store.get_key("w"),
                                               lambda: store.set_key("w", SECRET))
    for call in calls:
        with pytest.raises(KeyringUnavailable) as caught:
            call()
        message = str(caught.value)
        assert "FRONTDESK_API_KEY" in message
        assert "--key-file" in message
        assert SECRET not in message
    if isinstance(backend, LowPriorityKeyring):
        assert backend.passwords == {}, "never stored in a non-secure backend"


def test_hanging_keyring_times_out_quickly(hanging_keyring: HangingKeyring) -> None:
    store = SecretStore(timeout=0.2)
    started = time.monotonic()
    with pytest.raises(KeyringUnavailable) as caught:  # an answer (None) would raise nothing
        store.get_key("work")
    assert time.monotonic() - started >= 0.15  # it waited its timeout first
    assert not hanging_keyring.release.is_set()
    message = str(caught.value)
    assert "did not answer within 0.2 s" in message
    assert "FRONTDESK_API_KEY" in message
    assert "--key-file" in message
    # While the first call is stuck, the next one fails at once without a new thread.
    with pytest.raises(KeyringUnavailable, match="still not answering"):
        store.get_key("work")
    assert hanging_keyring.calls == 1


def test_keyring_threads_do_not_block_exit(hanging_keyring: HangingKeyring) -> None:
    with pytest.raises(KeyringUnavailable):
        SecretStore(timeout=0.05).get_key("work")
    workers = [t for t in threading.enumerate() if t.name == "frontdesk-keyring"]
    assert workers
    assert all(t.daemon for t in workers)


def test_store_recovers_after_a_stuck_call_finishes(hanging_keyring: HangingKeyring) -> None:
    store = SecretStore(timeout=0.1)
    with pytest.raises(KeyringUnavailable):
        store.get_key("work")
    hanging_keyring.release.set()
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            assert store.get_key("work") is None
            break
        except KeyringUnavailable:
            time.sleep(0.02)
    else:
        pytest.fail("the store never recovered")


# --------------------------------------------------------------------------- key files


def test_key_file_readable_by_others_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text(SECRET + "\n", encoding="utf-8")
    path.chmod(0o644)
    with pytest.raises(KeyFileError) as caught:
        read_key_file(path)
    message = str(caught.value)
    assert f"chmod 600 {path}" in message
    assert SECRET not in message
    path.chmod(0o640)
    with pytest.raises(KeyFileError, match="chmod 600"):
        read_key_file(path)


def test_key_file_0600_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text(f"  {SECRET}\n", encoding="utf-8")
    path.chmod(0o600)
    assert read_key_file(path) == SECRET
    assert read_key_file(str(path)) == SECRET


def test_key_file_problems(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError, match="does not exist"):
        read_key_file(tmp_path / "missing")
    empty = tmp_path / "empty"
    empty.touch(mode=0o600)
    empty.chmod(0o600)
    with pytest.raises(KeyFileError, match="empty"):
        read_key_file(empty)
    with pytest.raises(KeyFileError, match="regular file"):
        read_key_file(tmp_path)


def test_write_key_file_creates_0600(tmp_path: Path) -> None:
    path = tmp_path / "new-key"
    old_umask = os.umask(0)
    try:
        write_key_file(path, SECRET)
    finally:
        os.umask(old_umask)
    assert mode_of(path) == 0o600
    assert read_key_file(path) == SECRET


def test_write_key_file_replaces_existing_keeping_0600(tmp_path: Path) -> None:
    path = tmp_path / "key"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o644)
    write_key_file(path, SECRET)
    assert mode_of(path) == 0o600
    assert read_key_file(path) == SECRET
    assert [p.name for p in tmp_path.iterdir()] == ["key"]
    with pytest.raises(KeyFileError):
        write_key_file(path, "two\nlines")


# --------------------------------------------------------------------------- resolving the key


def keyring_profile() -> Profile:
    return Profile(name="work", base_url="https://support.example.com")


def test_env_var_wins_over_every_source(tmp_path: Path) -> None:
    SecretStore().set_key("work", "from-keyring")
    key_file = tmp_path / "key"
    write_key_file(key_file, "from-file")
    env = {"FRONTDESK_API_KEY": "from-env"}
    assert resolve_key(keyring_profile(), env) == "from-env"
    file_profile = Profile(
        name="work", base_url="http://x.example", key_source="file", key_file=str(key_file)
    )
    assert resolve_key(file_profile, env) == "from-env"
    assert resolve_key(file_profile, {}) == "from-file"


def test_env_var_from_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    SecretStore().set_key("work", "from-keyring")
    assert resolve_key(keyring_profile()) == "from-keyring"
    monkeypatch.setenv("FRONTDESK_API_KEY", "from-env")
    assert resolve_key(keyring_profile()) == "from-env"


def test_resolve_from_keyring_and_missing_keys() -> None:
    with pytest.raises(KeyNotFound, match="frontdesk login"):
        resolve_key(keyring_profile(), {})
    SecretStore().set_key("work", SECRET)
    assert resolve_key(keyring_profile(), {"FRONTDESK_API_KEY": ""}) == SECRET
    env_profile = Profile(name="ci", base_url="http://x.example", key_source="env")
    with pytest.raises(KeyNotFound, match="FRONTDESK_API_KEY"):
        resolve_key(env_profile, {})


def test_resolve_with_an_unavailable_keyring_says_what_to_do() -> None:
    keyring.set_keyring(fail.Keyring())
    with pytest.raises(KeyringUnavailable, match="FRONTDESK_API_KEY"):
        resolve_key(keyring_profile(), {})
    assert resolve_key(keyring_profile(), {"FRONTDESK_API_KEY": "k"}) == "k"


def test_resolve_uses_a_given_store() -> None:
    mine = MemoryKeyring()
    SecretStore(mine).set_key("work", "mine")
    assert resolve_key(keyring_profile(), {}, store=SecretStore(mine)) == "mine"


# --------------------------------------------------------------------------- hygiene


def test_settings_and_key_resolution_do_not_import_textual_or_pydantic() -> None:
    code = (
        "import sys, frontdesk.settings, frontdesk.config.api_key; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'keyring', 'pydantic', "
        "'pydantic_core', 'annotated_types')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
