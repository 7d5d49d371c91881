"""How other programs (curl, scripts) reach the running demo's sandbox: its URLs and key.

A module of its own so that a console on any other service never loads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["DemoAccess"]


@dataclass(frozen=True)
class DemoAccess:
    """How to reach the running demo sandbox from other programs (curl, scripts)."""

    base_url: str
    integrations_url: str
    key: str = field(repr=False)

    def describe(self) -> str:
        """Lines for people: the URLs, the key and a command to try."""
        return (f"base URL          {self.base_url}\n"
                f"integrations URL  {self.integrations_url}\n"
                f"API key           {self.key}\n"
                f'try: curl -H "Authorization: {self.key}" {self.base_url}/v1/tags')
