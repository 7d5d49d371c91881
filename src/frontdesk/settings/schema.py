"""The settings: profiles (one per service), polling, rate and console sections, as frozen
dataclasses checked on construction. Each field's docstring is its documentation."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self, TypeVar, dataclass_transform

from .checks import (
    Check,
    SettingsError,
    SettingsProblem,
    check_agent_id,
    check_at_least_one,
    check_desktop,
    check_email,
    check_fields,
    check_flag,
    check_http_url,
    check_key_source,
    check_optional,
    check_positive_finite,
    check_profile_name,
    check_text,
    check_undo_seconds,
)

_S = TypeVar("_S", bound="_Section")


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
class _Section:
    """What every settings dataclass shares: field checks on construction, strict building
    from plain data (unknown keys are errors, so typos do not pass silently), plain data out.

    Each subclass lists one check per field in ``_CHECKS``; a check returns the value to keep
    (normalised) or raises :class:`ValueError` with a message for people. Rules about several
    fields go in :meth:`_check_whole`, which runs once every field is valid.

    A subclass is made a dataclass as it is defined (its fields, ``dataclasses.fields``,
    ``replace`` and ``asdict`` as usual), frozen and keyword-only, with the constructor,
    equality, hash and repr written once here: a dataclass generates those for each class
    by compiling their source, about 4 M instructions a section, and the settings load
    before the console's first frame.
    """

    _CHECKS: ClassVar[Mapping[str, Check]]
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(init=False, repr=False, eq=False)(cls)

    def __init__(self, **values: Any) -> None:
        for spec in dataclasses.fields(self):
            if spec.name in values:
                value = values.pop(spec.name)
            elif spec.default is not dataclasses.MISSING:
                value = spec.default
            elif spec.default_factory is not dataclasses.MISSING:
                value = spec.default_factory()
            else:
                raise TypeError(f"{type(self).__name__}() missing the keyword argument "
                                f"{spec.name!r}")
            object.__setattr__(self, spec.name, value)
        if values:
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                            f"{next(iter(values))!r}")
        self.__post_init__()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, spec.name) for spec in dataclasses.fields(self))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, _Section)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{spec.name}={getattr(self, spec.name)!r}"
                          for spec in dataclasses.fields(self))
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __post_init__(self) -> None:
        checked, problems = check_fields(
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
            _, problems = check_fields(cls._CHECKS, known)
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
    gateway: bool | None = None
    """true when base_url is your team's gateway (``frontdesk login --gateway URL``): the key
    is your personal key, and who you are and your role come from the gateway."""

    _CHECKS: ClassVar[Mapping[str, Check]] = {
        "name": check_profile_name,
        "base_url": check_http_url,  # only http(s) URLs, normalised without a trailing slash
        "integrations_url": check_optional(check_http_url),  # same rule as base_url, when given
        "agent_email": check_optional(check_email),
        "agent_id": check_optional(check_agent_id),
        "key_source": check_key_source,
        "key_file": check_optional(check_text),
        "gateway": check_optional(check_flag),
    }

    def _check_whole(self) -> None:
        """A profile that reads its key from a file must say which file."""
        if self.key_source == "file" and not self.key_file:
            raise ValueError("key_source = 'file' needs key_file = PATH")


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

    _CHECKS: ClassVar[Mapping[str, Check]] = {
        "thread": check_positive_finite,
        "conversations": check_positive_finite,
        "presence": check_positive_finite,
        "queues": check_positive_finite,
        "business_hours": check_positive_finite,
    }


class RateSettings(_Section):
    """Client-side pacing, kept under the service's budget of 10 requests per second."""

    rate: float = 10.0
    """Sustained requests per second."""
    burst: int = 4
    """Requests allowed at once before pacing starts."""

    _CHECKS: ClassVar[Mapping[str, Check]] = {
        "rate": check_positive_finite,
        "burst": check_at_least_one,
    }


class UISettings(_Section):
    """Look of the console."""

    theme: str = "textual-dark"
    """Name of a Textual theme."""
    business_hours_schedule: str | None = None
    """Id of the business-hours schedule shown in the header, when there are several."""

    _CHECKS: ClassVar[Mapping[str, Check]] = {
        "theme": check_text,
        "business_hours_schedule": check_optional(check_text),
    }


class AlertSettings(_Section):
    """When work arrives: which arrivals alert, and how."""

    assigned: bool = True
    """A conversation newly assigned to me."""
    reply: bool = True
    """A customer's reply in one of my conversations."""
    queue: bool = True
    """A new conversation in one of my queues, while I am available (Working)."""
    bell: bool = True
    """Ring the terminal's bell with each alert."""
    desktop: str = "auto"
    """A desktop notification: "auto" (where the terminal is known to show one), "osc9",
    "osc777" or "off"."""
    every: float = 5.0
    """Seconds between two alerts at least (what arrives meanwhile joins the next one)."""

    _CHECKS: ClassVar[Mapping[str, Check]] = {
        "assigned": check_flag,
        "reply": check_flag,
        "queue": check_flag,
        "bell": check_flag,
        "desktop": check_desktop,
        "every": check_positive_finite,
    }

    def wants(self, kind: str) -> bool:
        """Whether arrivals of ``kind`` ("assigned", "reply", "queue") alert."""
        return bool(getattr(self, kind, False))


class ComposeSettings(_Section):
    """Writing and sending replies and notes."""

    undo_seconds: float = 5.0
    """Seconds a reply or note waits in the outbox before it leaves, so that ``ctrl+z`` can
    take it back (0: sent at once, no undo)."""

    _CHECKS: ClassVar[Mapping[str, Check]] = {
        "undo_seconds": check_undo_seconds,
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
    alerts: AlertSettings = field(default_factory=AlertSettings)
    """Alerts when work arrives."""
    compose: ComposeSettings = field(default_factory=ComposeSettings)
    """Writing and sending."""

    _CHECKS: ClassVar[Mapping[str, Check]] = {
        "default_profile": check_optional(check_text),
        "profiles": _profiles,
        "poll": _section(PollSettings),
        "rate": _section(RateSettings),
        "keys": _keys,
        "ui": _section(UISettings),
        "alerts": _section(AlertSettings),
        "compose": _section(ComposeSettings),
    }

    def _check_whole(self) -> None:
        """Table keys and profile names agree, and the default profile exists."""
        for key, profile in self.profiles.items():
            if profile.name != key:
                raise ValueError(f"profile [profiles.{key}] has name = {profile.name!r}")
        if self.default_profile is not None and self.default_profile not in self.profiles:
            raise ValueError(f"default_profile {self.default_profile!r} is not a profile")
