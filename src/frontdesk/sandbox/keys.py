"""A sandbox's API keys, made without loading the server (``frontdesk demo`` makes its key
before the console's first frame; the server loads after it)."""

from __future__ import annotations

import secrets

__all__ = ["new_key"]


def new_key() -> str:
    """A fresh API key for a sandbox started without one."""
    return "sbx_" + secrets.token_urlsafe(24)
