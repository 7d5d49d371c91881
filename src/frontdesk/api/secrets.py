"""The API key, held so that it cannot leak by accident.

The key is a secret of the user's organisation. It must never show up in a log line, a
traceback (including one that prints locals), a crash screen, a config file or the screen.
:class:`ApiKey` wraps it: every way Python turns an object into text shows ``****``, it cannot
be pickled (so it is not written anywhere by a cache or a multiprocessing queue), and the value
comes out only through an explicit :meth:`ApiKey.reveal` call, which is easy to audit.
"""

from __future__ import annotations

from typing import Any, NoReturn
from urllib.parse import quote, quote_plus

__all__ = ["MASK", "ApiKey", "redact"]

#: What is shown in place of the secret.
MASK = "****"


class ApiKey:
    """An API key whose text forms never show the value (not even a prefix).

    ``repr()`` is ``ApiKey('****')``, ``str()`` and ``format()`` are ``****``. Two keys are
    equal when their values are (compared in constant time). Immutable and not picklable.
    """

    __slots__ = ("_value",)

    _value: str

    def __init__(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError("an API key must be a str")
        if not value.strip():
            raise ValueError("the API key is empty")
        if any(ch in value for ch in "\r\n\x00"):
            # It goes into an HTTP header; a line break there would inject other headers.
            raise ValueError("the API key contains a line break or NUL character")
        object.__setattr__(self, "_value", value)

    def reveal(self) -> str:
        """The secret itself; call only where it is put on the wire or into the keyring."""
        return self._value

    def __repr__(self) -> str:
        return f"ApiKey('{MASK}')"

    def __str__(self) -> str:
        return MASK

    def __format__(self, format_spec: str) -> str:
        return format(MASK, format_spec)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ApiKey):
            return NotImplemented
        import hmac  # here: it loads OpenSSL, which a start-up that only checks a key skips

        return hmac.compare_digest(self._value.encode(), other._value.encode())

    def __hash__(self) -> int:
        return hash((ApiKey, self._value))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("ApiKey is immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("ApiKey is immutable")

    def __reduce__(self) -> NoReturn:
        raise TypeError("an ApiKey cannot be pickled; store it in the keyring")

    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        raise TypeError("an ApiKey cannot be pickled; store it in the keyring")

    def __copy__(self) -> ApiKey:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> ApiKey:
        return self


def redact(text: str, key: ApiKey) -> str:
    """``text`` with the key's value (raw or URL-encoded) replaced by ``****`` everywhere."""
    secret = key.reveal()
    text = text.replace(secret, MASK)
    for encoded in {quote(secret, safe=""), quote(secret), quote_plus(secret)}:
        if encoded != secret:
            text = text.replace(encoded, MASK)
    return text
