"""The rules settings fields are checked by, and the error that lists every broken rule."""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple, TypeVar
from urllib.parse import urlsplit

from .errors import ConfigError

_T = TypeVar("_T")

#
# Plain frozen dataclasses, checked in ``__post_init__`` by the small functions below. The
# settings are read before the console's first frame, so they must not pay for pydantic
# (about 100 ms to import and build the models); the rules are few and clearer written out.

#: what a profile name may hold besides ASCII letters and digits (it starts with one of those)
PROFILE_NAME_MARKS = frozenset("_.-")
KEY_SOURCES = ("keyring", "env", "file")


class SettingsProblem(NamedTuple):
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


Check = Callable[[object], object]


def check_http_url(value: object) -> str:
    """Check that ``value`` is an absolute http(s) URL with a host; strip trailing slashes."""
    text = check_text(value).strip()
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


def check_text(value: object) -> str:
    """A text value."""
    if not isinstance(value, str):
        raise ValueError("Input should be a valid string")
    return value


def check_optional(check: Callable[[object], _T]) -> Callable[[object], _T | None]:
    """``check``, letting None (the field's default: not set) through."""

    def optional(value: object) -> _T | None:
        return None if value is None else check(value)

    return optional


def check_number(value: object) -> float:
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


def check_positive_finite(value: object) -> float:
    """A number above zero that is neither infinite nor NaN (an interval or a rate)."""
    number = check_number(value)
    if not math.isfinite(number):
        raise ValueError("Input should be a finite number")
    if not number > 0:
        raise ValueError("Input should be greater than 0")
    return number


#: The longest hold before a reply leaves (a minute: longer is a scheduled send, not an undo).
MAX_UNDO_SECONDS = 60.0


def check_undo_seconds(value: object) -> float:
    """Seconds to hold a reply for undo: 0 (off) up to :data:`MAX_UNDO_SECONDS`."""
    number = check_number(value)
    if not math.isfinite(number) or not 0 <= number <= MAX_UNDO_SECONDS:
        raise ValueError(f"Input should be a number of seconds from 0 to {MAX_UNDO_SECONDS:g}")
    return number


def check_at_least_one(value: object) -> int:
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


def check_profile_name(value: object) -> str:
    """Keep names short and plain: they are keyring user names and command-line words."""
    name = check_text(value)
    # ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$, without compiling a pattern before the first frame
    if not (0 < len(name) <= 64 and name.isascii() and name[0].isalnum()
            and all(ch.isalnum() or ch in PROFILE_NAME_MARKS for ch in name)):
        raise ValueError(
            "must be 1-64 letters, digits, '_', '-' or '.', starting with a letter or digit"
        )
    return name


def check_email(value: object) -> str:
    """A light check only: the service is the judge of who exists."""
    text = check_text(value).strip()
    local, at, domain = text.partition("@")
    if not (local and at and domain) or any(c.isspace() for c in text):
        raise ValueError("must be an email address like agent@example.com")
    return text


def check_agent_id(value: object) -> str:
    """Agent ids are UUIDs; store them in canonical lower-case form."""
    text = check_text(value)
    try:
        return str(uuid.UUID(text.strip()))
    except ValueError:
        raise ValueError("must be a UUID like 3f2b6c1e-8a4d-4e59-9d0a-2c7e5b1f4a93") from None


def check_flag(value: object) -> bool:
    """A yes or no: TOML's ``true`` or ``false`` (not a word or a number that means one)."""
    if not isinstance(value, bool):
        raise ValueError("Input should be true or false")
    return value


#: where the console may show a desktop notification (``[alerts] desktop``)
DESKTOP_CHOICES = ("auto", "osc9", "osc777", "off")


def check_desktop(value: object) -> str:
    """How alerts reach the desktop: one of :data:`DESKTOP_CHOICES`."""
    if value not in DESKTOP_CHOICES:
        raise ValueError("Input should be one of " + ", ".join(map(repr, DESKTOP_CHOICES)))
    return str(value)


def check_key_source(value: object) -> str:
    """One of the three places an API key can come from."""
    if not isinstance(value, str) or value not in KEY_SOURCES:
        raise ValueError("Input should be 'keyring', 'env' or 'file'")
    return value


def check_fields(
    checks: Mapping[str, Check], values: Mapping[str, object]
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
