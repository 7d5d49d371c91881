"""Where the API key may go: the service's two origins, and the one code that attaches the key
to a request, checking its origin at the moment it leaves.
"""

from __future__ import annotations

from collections.abc import Generator

import httpx2

from .errors import InvalidRequest
from .secrets import ApiKey

__all__ = ["KeyAuth", "Origin", "checked_base", "origin_of"]

Origin = tuple[str, str, int]
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: httpx2.URL | str) -> Origin:
    """``(scheme, host, port)`` of a URL, with the scheme's default port filled in."""
    url = httpx2.URL(url)
    scheme = url.scheme.lower()
    port = url.port if url.port is not None else _DEFAULT_PORTS.get(scheme, -1)
    return (scheme, url.host.lower(), port)


class KeyAuth(httpx2.Auth):
    """Puts the API key in the ``Authorization`` header, and only for the allowed origins.

    This is the only code that reveals the key, at the moment a request leaves; a request for
    any other origin is refused here even if something upstream let it through.
    """

    def __init__(self, key: ApiKey, origins: frozenset[Origin]) -> None:
        self._key = key
        self._origins = origins

    def auth_flow(self, request: httpx2.Request
                  ) -> Generator[httpx2.Request, httpx2.Response, None]:
        """Attach the key to ``request`` after checking where it goes."""
        if origin_of(request.url) not in self._origins:
            raise InvalidRequest(
                "Refusing to send the API key to an address that is not the configured service"
            )
        request.headers["Authorization"] = self._key.reveal()
        yield request

    def __repr__(self) -> str:
        return "KeyAuth(****)"


def checked_base(url: str) -> httpx2.URL:
    """A base URL, checked: http(s) with a host; its path is kept (no trailing slash)."""
    parsed = httpx2.URL(url)
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValueError("the service address must be an http:// or https:// URL with a host")
    return parsed

