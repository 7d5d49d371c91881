"""What goes wrong with settings, key files and the keyring; every message is meant for
people."""

from __future__ import annotations


class ConfigError(Exception):
    """The configuration or the key could not be used; the message is meant for people."""


class KeyringUnavailable(ConfigError):
    """No secure system keyring can be used right now (absent, refusing, or not answering)."""


class KeyFileError(ConfigError):
    """A key file is missing, unreadable, empty, or readable by other users."""


class KeyNotFound(ConfigError):
    """The configured place for the API key holds no key for this profile."""
