"""Where frontdesk keeps its files, its settings, and how it finds the API key.

Three concerns, all without Textual so the CLI and tests can use them alone:

* **Locations** — config, data, logs and cache directories from platformdirs, or all under
  ``$FRONTDESK_HOME`` when that is set (tests and the demo use it to stay out of the user's home).
* **Settings** — ``config.toml`` read with :mod:`tomllib`, checked by frozen dataclasses, and
  written back atomically (mode 0600) by a small TOML writer for the subset we use.
* **Secrets** — the API key lives in the system keyring (never in the config file). Keyring calls
  run on a worker thread with a timeout because a locked Secret Service can hang forever. When no
  secure keyring exists we say so and offer ``FRONTDESK_API_KEY`` or a 0600 key file; we never
  fall back to plaintext on our own.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import re
import shlex
import stat
import tempfile
import threading
import tomllib
import unicodedata
import uuid
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, TypeVar
from urllib.parse import urlsplit

import platformdirs

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

__all__ = [
    "API_KEY_ENV",
    "APP_NAME",
    "HOME_ENV",
    "KEYRING_SERVICE",
    "ConfigError",
    "KeyFileError",
    "KeyNotFound",
    "KeyringUnavailable",
    "PollSettings",
    "Profile",
    "RateSettings",
    "SecretStore",
    "Settings",
    "SettingsError",
    "SettingsProblem",
    "UISettings",
    "cache_dir",
    "config_dir",
    "data_dir",
    "dumps_toml",
    "load_settings",
    "locations",
    "log_dir",
    "merge_toml",
    "read_key_file",
    "resolve_key",
    "save_settings",
    "scrub_secret_environment",
    "settings_path",
    "write_key_file",
]

APP_NAME = "frontdesk"
HOME_ENV = "FRONTDESK_HOME"
API_KEY_ENV = "FRONTDESK_API_KEY"
SANDBOX_KEYS_ENV = "FRONTDESK_SANDBOX_KEYS"
#: Environment variables that hold secrets: read once, then taken out of the environment so
#: that no process the console starts (a browser, an editor, a clipboard helper) inherits them.
SECRET_ENV = (API_KEY_ENV, SANDBOX_KEYS_ENV)
KEYRING_SERVICE = "frontdesk"
SETTINGS_FILE = "config.toml"
DEFAULT_KEYRING_TIMEOUT = 3.0

_T = TypeVar("_T")
_S = TypeVar("_S", bound="_Section")


# --------------------------------------------------------------------------- errors


class ConfigError(Exception):
    """The configuration or the key could not be used; the message is meant for people."""


class KeyringUnavailable(ConfigError):
    """No secure system keyring can be used right now (absent, refusing, or not answering)."""


class KeyFileError(ConfigError):
    """A key file is missing, unreadable, empty, or readable by other users."""


class KeyNotFound(ConfigError):
    """The configured place for the API key holds no key for this profile."""


_ALTERNATIVES = (
    "frontdesk stores API keys only in a secure store and will not write them to a plain "
    "file on its own. Instead you can:\n"
    f"  - set the environment variable {API_KEY_ENV} to the key, or\n"
    "  - keep the key in a file only you can read (chmod 600 PATH) and pass --key-file PATH."
)


# --------------------------------------------------------------------------- locations


def _home(env: Mapping[str, str] | None) -> Path | None:
    """Return ``$FRONTDESK_HOME`` as a path, or None when it is unset or empty."""
    value = (os.environ if env is None else env).get(HOME_ENV, "").strip()
    return Path(value).expanduser() if value else None


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory of ``config.toml``: the platform's config dir, or ``$FRONTDESK_HOME/config``."""
    home = _home(env)
    if home is not None:
        return home / "config"
    return platformdirs.user_config_path(APP_NAME, appauthor=False)


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory of the local cache database, drafts and outbox (``$FRONTDESK_HOME/data``)."""
    home = _home(env)
    if home is not None:
        return home / "data"
    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def log_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory of log files (``$FRONTDESK_HOME/logs``)."""
    home = _home(env)
    if home is not None:
        return home / "logs"
    return platformdirs.user_log_path(APP_NAME, appauthor=False)


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Directory of disposable cached files (``$FRONTDESK_HOME/cache``)."""
    home = _home(env)
    if home is not None:
        return home / "cache"
    return platformdirs.user_cache_path(APP_NAME, appauthor=False)


def settings_path(env: Mapping[str, str] | None = None) -> Path:
    """Path of the settings file, ``config_dir()/config.toml``."""
    return config_dir(env) / SETTINGS_FILE


def locations(env: Mapping[str, str] | None = None) -> dict[str, Path]:
    """Every place frontdesk keeps files, for ``frontdesk locate``; nothing is created."""
    return {
        "config": config_dir(env),
        "settings": settings_path(env),
        "data": data_dir(env),
        "logs": log_dir(env),
        "cache": cache_dir(env),
    }


# --------------------------------------------------------------------------- settings models
#
# Plain frozen dataclasses, checked in ``__post_init__`` by the small functions below. The
# settings are read before the console's first frame, so they must not pay for pydantic
# (about 100 ms to import and build the models); the rules are few and clearer written out.

_PROFILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_KEY_SOURCES = ("keyring", "env", "file")


@dataclass(frozen=True)
class SettingsProblem:
    """One broken rule: where it is (field names from the top, e.g. ``poll.thread``), and
    what is wrong. The message never repeats the value, which could be a misplaced key."""

    loc: tuple[str, ...]
    message: str

    @property
    def where(self) -> str:
        """The dotted field path, or ``(top level)`` for a rule about the whole section."""
        return ".".join(self.loc) or "(top level)"

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class SettingsError(ConfigError, ValueError):
    """Settings that break the rules; :attr:`problems` lists every problem found, by field.

    A :class:`ValueError` too, so callers that build settings from user input can treat it
    like any other bad value.
    """

    def __init__(self, problems: Iterable[SettingsProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))

    def within(self, *prefix: str) -> list[SettingsProblem]:
        """The problems with ``prefix`` put before their paths (for a nested section)."""
        return [SettingsProblem((*prefix, *p.loc), p.message) for p in self.problems]


_Check = Callable[[object], object]


def _http_url(value: object) -> str:
    """Check that ``value`` is an absolute http(s) URL with a host; strip trailing slashes."""
    text = _string(value).strip()
    try:
        parts = urlsplit(text)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise ValueError(f"not a valid URL: {exc}") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError("must start with http:// or https://")
    if not host:
        raise ValueError("must name a host, e.g. https://support.example.com")
    if parts.query or parts.fragment:
        raise ValueError("must not contain a query or a fragment")
    return text.rstrip("/")


def _string(value: object) -> str:
    """A text value."""
    if not isinstance(value, str):
        raise ValueError("Input should be a valid string")
    return value


def _optional(check: Callable[[object], _T]) -> Callable[[object], _T | None]:
    """``check``, letting None (the field's default: not set) through."""

    def optional(value: object) -> _T | None:
        return None if value is None else check(value)

    return optional


def _number(value: object) -> float:
    """A real number: an int, a float, or a string holding one (as the pydantic models took).
    ``true``/``false`` are not numbers here."""
    if isinstance(value, bool):
        raise ValueError("Input should be a valid number")
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            raise ValueError(
                "Input should be a valid number, unable to parse string as a number"
            ) from None
    if isinstance(value, int):
        try:
            return float(value)
        except OverflowError:
            raise ValueError("Input should be a finite number") from None
    if isinstance(value, float):
        return value
    raise ValueError("Input should be a valid number")


def _positive_finite(value: object) -> float:
    """A number above zero that is neither infinite nor NaN (an interval or a rate)."""
    number = _number(value)
    if not math.isfinite(number):
        raise ValueError("Input should be a finite number")
    if not number > 0:
        raise ValueError("Input should be greater than 0")
    return number


def _at_least_one(value: object) -> int:
    """A whole number of at least 1; ``4.0`` and ``"4"`` count as 4, ``4.5`` does not."""
    number: int
    if isinstance(value, bool):
        raise ValueError("Input should be a valid integer")
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("Input should be a finite number")
        if not value.is_integer():
            raise ValueError("Input should be a valid integer, got a number with a fractional part")
        number = int(value)
    elif isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            raise ValueError(
                "Input should be a valid integer, unable to parse string as an integer"
            ) from None
    else:
        raise ValueError("Input should be a valid integer")
    if number < 1:
        raise ValueError("Input should be greater than or equal to 1")
    return number


def _profile_name(value: object) -> str:
    """Keep names short and plain: they are keyring user names and command-line words."""
    name = _string(value)
    if not _PROFILE_NAME.fullmatch(name):
        raise ValueError(
            "must be 1-64 letters, digits, '_', '-' or '.', starting with a letter or digit"
        )
    return name


def _email(value: object) -> str:
    """A light check only: the service is the judge of who exists."""
    text = _string(value).strip()
    local, at, domain = text.partition("@")
    if not (local and at and domain) or any(c.isspace() for c in text):
        raise ValueError("must be an email address like agent@example.com")
    return text


def _agent_id(value: object) -> str:
    """Agent ids are UUIDs; store them in canonical lower-case form."""
    text = _string(value)
    try:
        return str(uuid.UUID(text.strip()))
    except ValueError:
        raise ValueError("must be a UUID like 3f2b6c1e-8a4d-4e59-9d0a-2c7e5b1f4a93") from None


def _key_source(value: object) -> str:
    """One of the three places an API key can come from."""
    if not isinstance(value, str) or value not in _KEY_SOURCES:
        raise ValueError("Input should be 'keyring', 'env' or 'file'")
    return value


def _check_fields(
    checks: Mapping[str, _Check], values: Mapping[str, object]
) -> tuple[dict[str, object], list[SettingsProblem]]:
    """Run each value's check: the checked values, and every problem found, by field."""
    checked: dict[str, object] = {}
    problems: list[SettingsProblem] = []
    for name, value in values.items():
        try:
            checked[name] = checks[name](value)
        except SettingsError as error:  # a nested section: its paths go under this field
            problems.extend(error.within(name))
        except ValueError as error:
            problems.append(SettingsProblem((name,), str(error)))
    return checked, problems


class _Section:
    """What every settings dataclass shares: field checks on construction, strict building
    from plain data (unknown keys are errors, so typos do not pass silently), plain data out.

    Each subclass lists one check per field in ``_CHECKS``; a check returns the value to keep
    (normalised) or raises :class:`ValueError` with a message for people. Rules about several
    fields go in :meth:`_check_whole`, which runs once every field is valid.
    """

    _CHECKS: ClassVar[Mapping[str, _Check]]
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __post_init__(self) -> None:
        checked, problems = _check_fields(
            self._CHECKS, {name: getattr(self, name) for name in self._CHECKS}
        )
        if problems:
            raise SettingsError(problems)
        for name, value in checked.items():
            object.__setattr__(self, name, value)  # frozen: set once, here, normalised
        try:
            self._check_whole()
        except SettingsError:
            raise
        except ValueError as error:
            raise SettingsError([SettingsProblem((), str(error))]) from None

    def _check_whole(self) -> None:
        """Rules about several fields together; raise :class:`ValueError` when one breaks."""

    @classmethod
    def from_mapping(cls, data: object) -> Self:
        """Build from plain data such as a parsed TOML table, reporting every problem.

        Raises :class:`SettingsError`: unknown keys and missing required keys are errors too.
        """
        if not isinstance(data, Mapping):
            raise SettingsError([SettingsProblem(
                (), f"Input should be a valid dictionary or instance of {cls.__name__}")])
        known = {key: value for key, value in data.items() if key in cls._CHECKS}
        missing = [
            SettingsProblem((spec.name,), "Field required")
            for spec in dataclasses.fields(cls)
            if spec.name not in data
            and spec.default is dataclasses.MISSING
            and spec.default_factory is dataclasses.MISSING
        ]
        extra = [
            SettingsProblem((str(key),), "Extra inputs are not permitted")
            for key in data
            if key not in cls._CHECKS
        ]
        if missing or extra:
            _, problems = _check_fields(cls._CHECKS, known)
            raise SettingsError([*problems, *missing, *extra])
        make: Callable[..., Self] = cls
        return make(**known)

    def to_mapping(self) -> dict[str, Any]:
        """The settings as plain nested dicts (None where unset), ready for
        :meth:`from_mapping` or :func:`dumps_toml`."""
        return dataclasses.asdict(self)


def _section(cls: type[_S]) -> Callable[[object], _S]:
    """Check for a nested section: an instance of ``cls`` (already valid), or its table."""

    def check(value: object) -> _S:
        return value if isinstance(value, cls) else cls.from_mapping(value)

    return check


@dataclass(frozen=True, kw_only=True)
class Profile(_Section):
    """One service the console can connect to: its URLs, who you are there, where the key is."""

    name: str
    """Profile name; also the keyring user name for its API key."""
    base_url: str
    """Base URL of the Customer Conversation Service API v1."""
    integrations_url: str | None = None
    """Base URL of the integrations listing, when it lives elsewhere."""
    agent_email: str | None = None
    """Email of the agent you work as."""
    agent_id: str | None = None
    """Id (UUID) of the agent you work as."""
    key_source: Literal["keyring", "env", "file"] = "keyring"
    """Where the API key comes from: the system keyring, the FRONTDESK_API_KEY environment
    variable, or key_file (a file only you can read)."""
    key_file: str | None = None
    """Path of the key file, used when key_source is 'file'."""

    _CHECKS: ClassVar[Mapping[str, _Check]] = {
        "name": _profile_name,
        "base_url": _http_url,  # only http(s) URLs, normalised without a trailing slash
        "integrations_url": _optional(_http_url),  # same rule as base_url, when given
        "agent_email": _optional(_email),
        "agent_id": _optional(_agent_id),
        "key_source": _key_source,
        "key_file": _optional(_string),
    }

    def _check_whole(self) -> None:
        """A profile that reads its key from a file must say which file."""
        if self.key_source == "file" and not self.key_file:
            raise ValueError("key_source = 'file' needs key_file = PATH")


@dataclass(frozen=True, kw_only=True)
class PollSettings(_Section):
    """How often (in seconds) the console asks the service for changes."""

    thread: float = 3.0
    """The open conversation's messages."""
    conversations: float = 5.0
    """The inbox list."""
    presence: float = 5.0
    """Agents' presence."""
    queues: float = 10.0
    """Queue sizes."""
    business_hours: float = 60.0
    """Whether the business is open."""

    _CHECKS: ClassVar[Mapping[str, _Check]] = {
        "thread": _positive_finite,
        "conversations": _positive_finite,
        "presence": _positive_finite,
        "queues": _positive_finite,
        "business_hours": _positive_finite,
    }


@dataclass(frozen=True, kw_only=True)
class RateSettings(_Section):
    """Client-side pacing, kept under the service's budget of 10 requests per second."""

    rate: float = 10.0
    """Sustained requests per second."""
    burst: int = 4
    """Requests allowed at once before pacing starts."""

    _CHECKS: ClassVar[Mapping[str, _Check]] = {
        "rate": _positive_finite,
        "burst": _at_least_one,
    }


@dataclass(frozen=True, kw_only=True)
class UISettings(_Section):
    """Look of the console."""

    theme: str = "textual-dark"
    """Name of a Textual theme."""
    business_hours_schedule: str | None = None
    """Id of the business-hours schedule shown in the header, when there are several."""

    _CHECKS: ClassVar[Mapping[str, _Check]] = {
        "theme": _string,
        "business_hours_schedule": _optional(_string),
    }


def _profiles(value: object) -> dict[str, Profile]:
    """Profiles by name; ``[profiles.work]`` may omit ``name = "work"``: the table key is the
    name."""
    if not isinstance(value, Mapping):
        raise ValueError("Input should be a valid dictionary")
    profiles: dict[str, Profile] = {}
    problems: list[SettingsProblem] = []
    for key, item in value.items():
        if not isinstance(key, str):
            problems.append(SettingsProblem((str(key), "[key]"), "Input should be a valid string"))
            continue
        if isinstance(item, Mapping) and "name" not in item:
            item = {"name": key, **item}
        try:
            profiles[key] = _section(Profile)(item)
        except SettingsError as error:
            problems.extend(error.within(key))
    if problems:
        raise SettingsError(problems)
    return profiles


def _keys(value: object) -> dict[str, str]:
    """Remapped bindings: binding ids and keys must be non-empty strings."""
    if not isinstance(value, Mapping):
        raise ValueError("Input should be a valid dictionary")
    problems: list[SettingsProblem] = []
    for binding, key in value.items():
        if not isinstance(binding, str):
            problems.append(
                SettingsProblem((str(binding), "[key]"), "Input should be a valid string"))
        if not isinstance(key, str):
            problems.append(SettingsProblem((str(binding),), "Input should be a valid string"))
    if problems:
        raise SettingsError(problems)
    keys: dict[str, str] = dict(value)
    for binding, key in keys.items():
        if not binding.strip() or not key.strip():
            raise ValueError(f"binding {binding!r} needs a non-empty id and key")
    return keys


@dataclass(frozen=True, kw_only=True)
class Settings(_Section):
    """Everything in ``config.toml``. Never holds an API key: see :class:`SecretStore`."""

    default_profile: str | None = None
    """Profile used when none is named on the command line."""
    profiles: dict[str, Profile] = field(default_factory=dict)
    """Services you can connect to, by name."""
    poll: PollSettings = field(default_factory=PollSettings)
    """Polling intervals."""
    rate: RateSettings = field(default_factory=RateSettings)
    """Request pacing."""
    keys: dict[str, str] = field(default_factory=dict)
    """Remapped key bindings: binding id to key, e.g. ``"inbox.claim" = "c"``."""
    ui: UISettings = field(default_factory=UISettings)
    """Appearance."""

    _CHECKS: ClassVar[Mapping[str, _Check]] = {
        "default_profile": _optional(_string),
        "profiles": _profiles,
        "poll": _section(PollSettings),
        "rate": _section(RateSettings),
        "keys": _keys,
        "ui": _section(UISettings),
    }

    def _check_whole(self) -> None:
        """Table keys and profile names agree, and the default profile exists."""
        for key, profile in self.profiles.items():
            if profile.name != key:
                raise ValueError(f"profile [profiles.{key}] has name = {profile.name!r}")
        if self.default_profile is not None and self.default_profile not in self.profiles:
            raise ValueError(f"default_profile {self.default_profile!r} is not a profile")


# --------------------------------------------------------------------------- reading and writing


def _describe_problems(error: SettingsError) -> str:
    """List what is wrong, by field, without echoing values (one of them could be a secret)."""
    return "\n".join(f"  {problem}" for problem in error.problems)


def load_settings(path: Path | None = None) -> Settings:
    """Read and validate the settings; a missing file means defaults.

    Raises :class:`ConfigError` naming the file (and the line, for TOML syntax errors) when the
    file cannot be read, is not TOML, or holds invalid settings.
    """
    path = settings_path() if path is None else path
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        raise ConfigError(f"Cannot read the settings file {path}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ConfigError(
            f"The settings file {path} nests tables or arrays too deeply to be read."
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"The settings file {path} is not UTF-8 text (byte {exc.start})."
        ) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if found:
            reason = message[: found.start()]
            where = f"{path}, line {found.group(1)}, column {found.group(2)}"
        else:
            reason, where = message, str(path)
        raise ConfigError(f"The settings file {where} is not valid TOML: {reason}.") from None
    try:
        return Settings.from_mapping(data)
    except SettingsError as exc:
        raise ConfigError(
            f"The settings file {path} has invalid settings:\n{_describe_problems(exc)}"
        ) from None
    except RecursionError:
        raise ConfigError(
            f"The settings file {path} nests tables or arrays too deeply to be read."
        ) from None


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings to ``config.toml`` atomically with mode 0600.

    Written to a temporary file in the same directory and moved into place with
    :func:`os.replace`, so a crash leaves the old file or the new one, never half of one.
    A hand-edited file keeps its comments, order and layout: only the values that changed are
    rewritten, new ones added and removed ones dropped (:func:`merge_toml`).
    """
    path = settings_path() if path is None else path
    try:
        checked = Settings.from_mapping(settings.to_mapping())  # dicts may have been changed
    except SettingsError as exc:
        raise ConfigError(
            f"Refusing to save invalid settings:\n{_describe_problems(exc)}"
        ) from None
    data = checked.to_mapping()  # unset (None) values are left out
    try:
        current = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        current = ""
    text = merge_toml(current, data) if current.strip() else dumps_toml(data)
    _atomic_write(path, text.encode("utf-8"))


def _atomic_write(path: Path, content: bytes) -> None:
    """Replace ``path`` with ``content`` via a 0600 temporary file in the same directory."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), 0o600)
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    """Make a rename durable where the platform allows it; best effort."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- TOML writer

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _toml_string(value: str) -> str:
    """A TOML basic string: quotes, backslashes, control and format characters escaped."""
    out = ['"']
    for char in value:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif unicodedata.category(char) in ("Cc", "Cf"):
            # Control and invisible format characters (bidi overrides too) stay visible.
            code = ord(char)
            out.append(f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _toml_key(key: str) -> str:
    """A key written bare when TOML allows it, quoted otherwise (e.g. ``"inbox.claim"``)."""
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def _toml_value(value: object) -> str:
    """A scalar or a list of scalars as TOML text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"cannot write a {type(value).__name__} to TOML")


def dumps_toml(data: Mapping[str, object]) -> str:
    """Serialise nested mappings of strings, numbers, booleans and lists of those to TOML.

    Enough for :class:`Settings`; ``None`` values are skipped (TOML has no null). Sub-mappings
    become ``[table]`` sections after the plain values of their parent.
    """
    lines: list[str] = []
    _write_table(lines, (), data)
    return "\n".join(lines).lstrip("\n") + "\n"


def merge_toml(current: str, data: Mapping[str, object]) -> str:
    """``current`` TOML text changed to hold exactly ``data``, keeping its comments and layout.

    Values equal to what the text holds are left as written; changed ones are written as
    :func:`dumps_toml` would (the same escaping) in place, keeping their comment. Text that is
    not valid TOML is replaced by :func:`dumps_toml` of ``data``.
    """
    import tomlkit  # only when saving: not on the way to the first frame
    from tomlkit.exceptions import TOMLKitError

    try:
        document = tomlkit.parse(current)
    except TOMLKitError:
        return dumps_toml(data)
    _merge_table(document, data)
    return _space_tables(tomlkit.dumps(document))


_TABLE_HEADER = re.compile(r"^\[[^\]=,]+\]\s*(#.*)?$")


def _space_tables(text: str) -> str:
    """A blank line before each table header that directly follows a value (tomlkit adds
    keys and tables without one); a header under its own comment stays under it."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        if (_TABLE_HEADER.match(line) and out and out[-1].strip()
                and not out[-1].lstrip().startswith("#")):
            out.append("")
        out.append(line)
    return "\n".join(out)


def _merge_table(table: Any, data: Mapping[str, object]) -> None:
    """Make a tomlkit table (or the document) hold ``data``; see :func:`merge_toml`."""
    import tomlkit

    for key in list(table.keys()):
        if data.get(key) is None:
            del table[key]
    for key, value in data.items():
        if not isinstance(key, str):
            raise TypeError(f"TOML keys must be strings, not {type(key).__name__}")
        if value is None:
            continue
        existing = table.get(key)
        if isinstance(value, Mapping):
            if not isinstance(existing, Mapping):
                existing = tomlkit.table(
                    is_super_table=bool(value) and all(isinstance(v, Mapping)
                                                       for v in value.values()))
                _merge_table(existing, value)
                table[key] = existing
            else:
                _merge_table(existing, value)
            continue
        item = tomlkit.parse(f"value = {_toml_value(value)}")["value"]
        if existing is None or _plain(existing) != _plain(item):
            table[key] = item


def _plain(item: Any) -> Any:
    """A tomlkit item as plain Python values (for comparing what a file holds)."""
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if unwrap is not None else item


def _write_table(lines: list[str], prefix: tuple[str, ...], table: Mapping[str, object]) -> None:
    """Append one table's plain values (under its header) and then its sub-tables."""
    scalars = [(k, v) for k, v in table.items() if v is not None and not isinstance(v, Mapping)]
    tables = [(k, v) for k, v in table.items() if isinstance(v, Mapping)]
    for key, _ in table.items():
        if not isinstance(key, str):
            raise TypeError(f"TOML keys must be strings, not {type(key).__name__}")
    if prefix and (scalars or not tables):
        lines.append("")
        lines.append("[" + ".".join(_toml_key(part) for part in prefix) + "]")
    for key, value in scalars:
        lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, value in tables:
        _write_table(lines, (*prefix, key), value)


# --------------------------------------------------------------------------- key files


def read_key_file(path: str | os.PathLike[str]) -> str:
    """Read an API key from a file that only its owner can read.

    Refuses a file that group or others may read or write (it would leak the key), telling
    the ``chmod 600`` command that fixes it. Surrounding whitespace is stripped.
    """
    file = Path(path).expanduser()
    try:
        fd = os.open(file, os.O_RDONLY)
    except FileNotFoundError:
        raise KeyFileError(f"The key file {file} does not exist.") from None
    except OSError as exc:
        raise KeyFileError(f"Cannot open the key file {file}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KeyFileError(f"The key file {file} is not a regular file.")
        if os.name == "posix" and info.st_mode & 0o077:
            raise KeyFileError(
                f"The key file {file} can be read by other users "
                f"(mode {stat.S_IMODE(info.st_mode):04o}), so frontdesk will not use it. "
                f"Make it private with:  chmod 600 {shlex.quote(str(file))}"
            )
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read()
    except OSError as exc:
        raise KeyFileError(f"Cannot read the key file {file}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    try:
        key = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise KeyFileError(f"The key file {file} is not UTF-8 text.") from None
    if not key:
        raise KeyFileError(f"The key file {file} is empty.")
    return key


def write_key_file(path: str | os.PathLike[str], key: str) -> None:
    """Store an API key in a file created with mode 0600.

    A new file is created exclusively with 0600 from the start, so the key is never readable
    by others even for a moment; an existing file is replaced atomically by a 0600 one.
    """
    key = key.strip()
    if not key or "\n" in key or "\r" in key:
        raise KeyFileError("An API key must be one non-empty line.")
    file = Path(path).expanduser()
    content = (key + "\n").encode("utf-8")
    try:
        fd = os.open(file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        try:
            _atomic_write(file, content)
        except OSError as exc:
            raise KeyFileError(f"Cannot write the key file {file}: {exc.strerror or exc}") from None
        return
    except OSError as exc:
        raise KeyFileError(f"Cannot create the key file {file}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        file.unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------- keyring


def _backend_name(backend: object) -> str:
    """``module.Class`` of a keyring backend, for messages."""
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def _ensure_usable(backend: KeyringBackend) -> None:
    """Refuse keyring backends that are not a secure store (fail, null, or low priority)."""
    from keyring.backends import fail, null

    if isinstance(backend, fail.Keyring | null.Keyring):
        usable = False
    else:
        try:
            usable = float(backend.priority) >= 1
        except Exception:
            usable = False
    if not usable:
        raise KeyringUnavailable(
            f"No secure system keyring is available (found {_backend_name(backend)}).\n"
            + _ALTERNATIVES
        )


class SecretStore:
    """API keys per profile in the system keyring (service ``frontdesk``, user = profile name).

    Every keyring call runs on its own daemon thread and is abandoned after ``timeout``
    seconds, because a locked Secret Service can block forever; a daemon thread never keeps
    the program from exiting. While an abandoned call is still stuck, further calls fail at
    once instead of piling up threads.
    """

    def __init__(
        self,
        backend: KeyringBackend | None = None,
        *,
        timeout: float = DEFAULT_KEYRING_TIMEOUT,
        service: str = KEYRING_SERVICE,
    ) -> None:
        """Use ``backend``, or the process-wide ``keyring.get_keyring()`` when None."""
        self._backend = backend
        self.timeout = timeout
        self.service = service
        self._stuck: Future[Any] | None = None
        self._lock = threading.Lock()

    def get_key(self, profile: str) -> str | None:
        """The stored key of ``profile``, or None when there is none."""
        return self._call(lambda b: b.get_password(self.service, profile), what="read")

    def set_key(self, profile: str, key: str) -> None:
        """Store ``key`` for ``profile``, replacing any earlier one."""
        if not key.strip():
            raise ConfigError("An API key must not be empty.")
        self._call(lambda b: b.set_password(self.service, profile, key), what="store", secret=key)

    def delete_key(self, profile: str) -> None:
        """Forget the key of ``profile``; deleting a key that is not there is not an error."""
        from keyring.errors import PasswordDeleteError

        def delete(backend: KeyringBackend) -> None:
            # keyring reports "nothing stored" as PasswordDeleteError.
            with contextlib.suppress(PasswordDeleteError):
                backend.delete_password(self.service, profile)

        self._call(delete, what="delete")

    def _call(
        self, op: Callable[[KeyringBackend], _T], *, what: str, secret: str | None = None
    ) -> _T:
        """Run ``op`` on the backend in a daemon thread; translate hangs and failures."""
        with self._lock:
            if self._stuck is not None and not self._stuck.done():
                raise KeyringUnavailable(
                    "The system keyring is still not answering an earlier request "
                    "(it may be locked).\n" + _ALTERNATIVES
                )
            future: Future[_T] = Future()
            self._stuck = None

        def work() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                import keyring

                backend = self._backend if self._backend is not None else keyring.get_keyring()
                _ensure_usable(backend)
                future.set_result(op(backend))
            except BaseException as exc:
                future.set_exception(exc)

        threading.Thread(target=work, name="frontdesk-keyring", daemon=True).start()
        try:
            return future.result(timeout=self.timeout)
        except FutureTimeout:
            with self._lock:
                self._stuck = future
            raise KeyringUnavailable(
                f"The system keyring did not answer within {self.timeout:g} s "
                "(it may be locked or waiting for a password prompt).\n" + _ALTERNATIVES
            ) from None
        except KeyringUnavailable:
            raise
        except Exception as exc:
            detail = f"{type(exc).__name__}: {exc}"
            if secret:
                detail = detail.replace(secret, "***")
            error = KeyringUnavailable(
                f"The system keyring could not {what} the API key ({detail}).\n" + _ALTERNATIVES
            )
            if secret:
                raise error from None
            raise error from exc


# --------------------------------------------------------------------------- resolving the key


def scrub_secret_environment(env: dict[str, str] | None = None) -> list[str]:
    """Take every secret variable (:data:`SECRET_ENV`) out of ``env`` (the process's own
    environment by default), so that child processes never inherit them; call it once the key
    has been read. Returns the names removed."""
    target: Any = os.environ if env is None else env
    removed = [name for name in SECRET_ENV if name in target]
    for name in removed:
        del target[name]
    return removed



def resolve_key(
    profile: Profile,
    env: Mapping[str, str] = os.environ,
    *,
    store: SecretStore | None = None,
) -> str:
    """The API key for ``profile``.

    ``FRONTDESK_API_KEY`` wins when set (scripts and CI); otherwise the profile's
    ``key_source`` decides: the keyring (through ``store``, a default :class:`SecretStore`
    when None), the environment variable, or the 0600 key file.
    """
    from_env = env.get(API_KEY_ENV, "").strip()
    if from_env:
        return from_env
    if profile.key_source == "env":
        raise KeyNotFound(
            f"Profile {profile.name!r} takes its API key from the environment, "
            f"but {API_KEY_ENV} is not set."
        )
    if profile.key_source == "file":
        if not profile.key_file:
            raise KeyFileError(f"Profile {profile.name!r} has key_source = 'file' but no key_file.")
        return read_key_file(profile.key_file)
    key = (store or SecretStore()).get_key(profile.name)
    if not key:
        raise KeyNotFound(
            f"No API key for profile {profile.name!r} in the system keyring. "
            f"Run `frontdesk login` to store one, or set {API_KEY_ENV}."
        )
    return key
