"""How other programs (curl, scripts) reach the running demo's sandbox: its URLs and key.

A module of its own so that a console on any other service never loads it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DemoAccess"]


class DemoAccess:
    """How to reach the running demo sandbox from other programs (curl, scripts).

    Read-only once made, equal by value, its key left out of ``repr``: a plain class, as
    it is made before the console's first frame (a dataclass' generated code costs more).
    """

    __slots__ = ("base_url", "integrations_url", "key")

    base_url: str
    integrations_url: str
    key: str

    def __init__(self, base_url: str, integrations_url: str, key: str) -> None:
        object.__setattr__(self, "base_url", base_url)
        object.__setattr__(self, "integrations_url", integrations_url)
        object.__setattr__(self, "key", key)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, DemoAccess)
        return (self.base_url, self.integrations_url, self.key) == \
            (other.base_url, other.integrations_url, other.key)

    def __hash__(self) -> int:
        return hash((self.base_url, self.integrations_url, self.key))

    def __repr__(self) -> str:
        return (f"DemoAccess(base_url={self.base_url!r}, "
                f"integrations_url={self.integrations_url!r})")

    def describe(self) -> str:
        """Lines for people: the URLs, the key and a command to try."""
        return (f"base URL          {self.base_url}\n"
                f"integrations URL  {self.integrations_url}\n"
                f"API key           {self.key}\n"
                f'try: curl -H "Authorization: {self.key}" {self.base_url}/v1/tags')
