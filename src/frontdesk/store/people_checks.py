"""What a person types for an end user or an agent, checked before anything is sent: an
email address and a phone number that can be ones, and a model's refusal in one line."""

from __future__ import annotations

import re

from pydantic import ValidationError

from .errors import Refused

__all__ = ["EMAIL", "PHONE", "check_email", "check_phone", "invalid_reason", "text_of"]

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
PHONE = re.compile(r"^\+?[0-9 ()\-]{5,20}$")


def text_of(value: object) -> str:
    """A form field's text, stripped ("" for what is not text)."""
    return value.strip() if isinstance(value, str) else ""


def check_email(value: str, what: str = "email address") -> None:
    """Refuse an email address that cannot be one."""
    if value and not EMAIL.match(value):
        raise Refused(f"The {what} does not look like an email address (name@example.com)")


def check_phone(value: str) -> None:
    """Refuse a phone number that cannot be one."""
    if value and not PHONE.match(value):
        raise Refused("The phone number may hold only digits, spaces, ( ) - and a leading +")


def invalid_reason(exc: ValidationError) -> str:
    """The first thing a model refused, as "field: why"."""
    errors = exc.errors()
    if not errors:
        return "invalid"
    where = ".".join(str(p) for p in errors[0]["loc"])
    message = errors[0]["msg"]
    return f"{where.replace('_', ' ')}: {message}" if where else message

