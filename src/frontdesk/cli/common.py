"""What every command shares: failing with a message and an exit code, parsing arguments,
the keyring with a timeout, and the messages that say how to fix a settings or key problem."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..settings import ConfigError, SecretStore

#: Seconds a keyring call may take before frontdesk gives up on it (tests lower it).
KEYRING_TIMEOUT = 3.0

COMMANDS_HELP = """commands:
  (none)              open the console on the default profile (first run: connect or demo)
  demo                the console on a local sandbox with a lively demo organisation (kept
                      between runs and on the same port; 'demo --reset' starts afresh)
  login               connect to a service: check the key and keep it in the system keyring
  logout              forget a profile and its key
  profiles            list the profiles ('*' marks the default)
  locate              show where config, settings, data, logs and cache live, and the
                      running demo's address and API key
  gateway             the team gateway: serve, add-member, members, revoke, rotate, audit,
                      unsubscribe
  web                 the console in a browser tab on this machine (the web extra)
  sandbox             run the local sandbox alone ('frontdesk sandbox --help')

Run 'frontdesk COMMAND --help' for a command's options.

Scripts and CI without a stored profile:
  FRONTDESK_API_KEY=... frontdesk --base-url URL --as EMAIL_OR_AGENT_ID

Environment: FRONTDESK_API_KEY (the key; wins over the keyring), FRONTDESK_HOME (keep every
file under one folder), FRONTDESK_LOG (log level of the log file; default WARNING).
Exit codes: 0 done, 1 failed, 2 usage.
"""


class Fail(Exception):
    """A failure to report as ``frontdesk: <message>`` with exit ``code``."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``argv``; ``--help`` ends with 0 and a usage error with 2 (argparse printed it)."""
    try:
        return parser.parse_args(list(argv))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
        raise _Exit(code) from None


class _Exit(Fail):
    """argparse already said everything; just end with ``code``."""

    def __init__(self, code: int) -> None:
        super().__init__(code, "")


def interactive() -> bool:
    """Whether a person is at the terminal (stdin and stdout are TTYs)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def secret_store() -> SecretStore:
    """The system keyring, with frontdesk's timeout."""
    from ..settings import SecretStore

    return SecretStore(timeout=KEYRING_TIMEOUT)


def clean_text(text: str) -> str:
    """Text from the service or a file, made inert for the terminal (no escapes)."""
    from ..text import clean

    return clean(text, multiline=False)


def validation_text(error: Exception) -> str:
    """The problems of invalid settings, by option, without the value (it could be a key)."""
    from ..settings import SettingsError

    if not isinstance(error, SettingsError):
        return str(error)
    names = {"base_url": "--base-url", "integrations_url": "--integrations-url",
             "agent_email": "--as", "agent_id": "--as", "name": "--profile",
             "key_file": "--key-file"}
    parts = []
    for problem in error.problems:
        where = ".".join(problem.loc)
        option = names.get(where, where)
        parts.append(f"{option} {problem.message}" if option else problem.message)
    return "; ".join(parts)


def with_fix(error: ConfigError, profile: str | None = None) -> str:
    """One line for a key or settings problem, naming what fixes it."""
    from ..settings import API_KEY_ENV, KeyFileError, KeyNotFound, KeyringUnavailable

    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    login = f"frontdesk login --profile {profile}" if profile else "frontdesk login"
    if isinstance(error, KeyringUnavailable):
        return (f"{first} Set {API_KEY_ENV}, pass --key-file PATH (a file only you can "
                f"read), or run `{login}` once the keyring works.")
    if isinstance(error, KeyFileError):
        return (f"{first} Fix the file, set {API_KEY_ENV}, or run "
                f"`{login} --key-file PATH` to write a new one.")
    if isinstance(error, KeyNotFound):
        if "login" in first:  # the keyring holds no key: the message names login already
            return f"{first} You can also pass --key-file PATH."
        return f"{first} Set it, pass --key-file PATH, or run `{login}`."
    return str(error).strip()
