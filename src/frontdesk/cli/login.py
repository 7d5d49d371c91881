"""``frontdesk login``: check a key and an identity with the service, then keep the profile
and the key (the keyring, or a 0600 key file when there is no keyring)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .common import Fail, clean_text, parse, secret_store, validation_text
from .logs import Logs, file_logging

if TYPE_CHECKING:
    from ..api.secrets import ApiKey
    from ..settings import Profile, Settings
    from ..store.signin import KeySource


def _ask(question: str, flag: str, *, optional: bool = False) -> str | None:
    """Ask a person for a missing value; without a terminal, a usage error naming ``flag``."""
    if not sys.stdin.isatty():
        if optional:
            return None
        raise Fail(2, f"missing {flag} (no terminal to ask in)")
    while True:
        try:
            answer = input(question).strip()
        except EOFError:
            raise Fail(2, f"missing {flag}") from None
        if answer or optional:
            return answer or None


def _read_login_key(key_file: str | None, what: str = "API key") -> ApiKey:
    """The key to sign in with: ``FRONTDESK_API_KEY``, an existing ``--key-file``, a hidden
    prompt (asking for ``what``), or (without a terminal) one line of standard input."""
    import getpass

    from ..api.secrets import ApiKey
    from ..settings import API_KEY_ENV, KeyFileError, read_key_file

    from_env = os.environ.get(API_KEY_ENV, "").strip()
    try:
        if from_env:
            return ApiKey(from_env)
        if key_file and Path(key_file).expanduser().exists():
            try:
                return ApiKey(read_key_file(key_file))
            except KeyFileError as error:
                raise Fail(1, str(error).splitlines()[0]) from None
        if sys.stdin.isatty():
            return ApiKey(getpass.getpass(f"{what} (not shown): ").strip())
        return ApiKey(sys.stdin.readline().strip())
    except ValueError:
        raise Fail(2, f"no {what} given: type it when asked, or set {API_KEY_ENV}, "
                    "or pipe it on standard input") from None
    except EOFError:
        raise Fail(2, f"no {what} given: set {API_KEY_ENV} or pipe it on standard "
                    "input") from None


def _login_profile_name(settings: Settings, args: argparse.Namespace) -> str:
    """Which profile ``login`` writes: the one named, the default one when it is the same
    service (signing in again), ``default`` for the first one, else ask."""
    if args.profile:
        return str(args.profile)
    if not settings.profiles:
        return "default"
    default = settings.default_profile
    if default is not None and (
        args.base_url is None
        or settings.profiles[default].base_url == args.base_url.strip().rstrip("/")
    ):
        return default
    known = ", ".join(sorted(settings.profiles))
    name = _ask(f"Name of the new profile (existing: {known}): ", "--profile NAME")
    return name or "default"


def _keyring_fallback(args: argparse.Namespace, name: str,
                      why: str) -> tuple[KeySource, Path | None]:
    """The keyring cannot keep the key: say why and let the person choose, explicitly, the
    environment variable or a 0600 key file. Never writes a file without that choice."""
    from ..settings import API_KEY_ENV
    from ..store.signin import default_key_file

    path = default_key_file(name)
    print(why.strip(), file=sys.stderr)
    if args.yes:
        print(f"--yes: saving the key to {path} (readable only by you, mode 0600).",
              file=sys.stderr)
        return "file", path
    if not sys.stdin.isatty():
        raise Fail(1, f"the key was not saved. Run again with --key-file PATH to keep it in "
                    f"a file only you can read (--yes writes {path}), or set {API_KEY_ENV} "
                    "each time you run frontdesk")
    print(f"\nWhere should frontdesk take the key from?\n"
          f"  1) the environment variable {API_KEY_ENV} (nothing is stored; set it each "
          "time)\n"
          f"  2) a key file only you can read (mode 0600): {path}\n"
          "  q) cancel: keep nothing", file=sys.stderr)
    while True:
        answer = (_ask("Choice [1/2/q]: ", "a choice") or "").lower()
        if answer == "1":
            return "env", None
        if answer == "2":
            return "file", path
        if answer in ("q", "quit", "n", "no"):
            raise Fail(1, "cancelled: nothing was saved")


def login_main(argv: Sequence[str]) -> int:
    """``frontdesk login``: check a key and an identity with the service, keep both."""
    parser = argparse.ArgumentParser(
        prog="frontdesk login",
        description="Connect to a service: checks the API key and who you are with the "
        "service, then saves the profile (config.toml, never the key) and the key (the "
        "system keyring, or a 0600 key file you choose). Asks for what is missing. The key "
        "is read from FRONTDESK_API_KEY when set, otherwise asked for without echo (or read "
        "from standard input when it is not a terminal).")
    parser.add_argument("--profile", metavar="NAME",
                        help="profile name (default: the default profile, or 'default')")
    parser.add_argument("--base-url", metavar="URL", help="base URL of the service")
    parser.add_argument("--gateway", metavar="URL",
                        help="sign in through your team's gateway at URL with your personal "
                        "key: the gateway says who you are and your role (no --as)")
    parser.add_argument("--integrations-url", metavar="URL",
                        help="base URL of the integrations listing (optional)")
    parser.add_argument("--as", dest="identity", metavar="EMAIL_OR_AGENT_ID",
                        help="who you are: your agent email or agent id")
    parser.add_argument("--key-file", metavar="PATH",
                        help="keep the key in this file (mode 0600) instead of the keyring; "
                        "an existing file is read as the key")
    parser.add_argument("-y", "--yes", action="store_true",
                        help="do not ask: when the keyring is unavailable, write the key to "
                        "a 0600 file in the config directory")
    args = parse(parser, argv)
    if args.gateway is not None:
        if args.base_url is not None or args.identity is not None \
                or args.integrations_url is not None:
            raise Fail(2, "--gateway takes the place of --base-url, --integrations-url and "
                        "--as: the gateway says who you are")
        args.base_url = args.gateway
    import asyncio

    from ..settings import (
        ConfigError,
        Profile,
        SettingsError,
        load_settings,
    )
    from ..store import signin
    from ..store.errors import Refused

    try:
        settings = load_settings()
    except ConfigError as error:
        raise Fail(1, str(error)) from None
    with file_logging() as logs:
        name = _login_profile_name(settings, args)
        if args.gateway is not None:
            return _login_gateway(args, name, logs)
        existing = settings.profiles.get(name)
        base_url = args.base_url or (existing.base_url if existing else None)
        asked_url = base_url is None
        if base_url is None:
            base_url = _ask("Base URL of the service (https://…): ", "--base-url URL")
        integrations_url = args.integrations_url
        if integrations_url is None and existing and existing.base_url == base_url:
            integrations_url = existing.integrations_url
        if integrations_url is None and asked_url:
            integrations_url = _ask("Integrations URL (optional, Enter to skip): ",
                                    "--integrations-url URL", optional=True)
        identity = args.identity or (
            (existing.agent_email or existing.agent_id) if existing else None)
        if identity is None:
            identity = _ask("Your agent email or agent id: ", "--as EMAIL_OR_AGENT_ID")
        assert base_url is not None and identity is not None
        try:
            email, agent_id = signin.identity_fields(identity)
            profile = Profile(name=name, base_url=base_url, integrations_url=integrations_url,
                              agent_email=email, agent_id=agent_id)
        except SettingsError as error:
            raise Fail(2, validation_text(error)) from None
        except ValueError as error:
            raise Fail(2, f"--as: {error}") from None

        key = _read_login_key(args.key_file)
        logs.protect(key)
        try:
            agent = asyncio.run(signin.verify(profile.base_url, profile.integrations_url, key,
                                              identity))
        except Refused as refusal:
            raise Fail(1, clean_text(refusal.reason)) from None

        saved_line = _keep(args, profile, key)
        who = clean_text(f"{agent.display_name} <{agent.email}>")
        print(f"Signed in to {profile.base_url} as {who}. {saved_line}")
        return 0


def _login_gateway(args: argparse.Namespace, name: str, logs: Logs) -> int:
    """``frontdesk login --gateway URL``: ask the team gateway whose personal key it is,
    then keep the key like any other and the profile marked as a gateway's (acting as the
    member's agent: the console asks the gateway again at every start)."""
    import asyncio

    from ..settings import SettingsError
    from ..store import signin
    from ..store.errors import Refused

    try:
        profile = signin.gateway_profile(name, args.gateway)
    except SettingsError as error:
        raise Fail(2, validation_text(error)) from None
    key = _read_login_key(args.key_file, "Personal key")
    logs.protect(key)
    try:
        member = asyncio.run(signin.verify_member(profile.base_url, key))
    except Refused as refusal:
        raise Fail(1, clean_text(refusal.reason)) from None
    try:
        profile = signin.gateway_profile(name, profile.base_url, member.agent_id)
    except SettingsError as error:
        raise Fail(1, f"the gateway named an agent id this console cannot use: "
                    f"{validation_text(error)}") from None
    saved_line = _keep(args, profile, key)
    who = clean_text(f"{member.email} ({member.role})")
    print(f"Signed in to {profile.base_url} as {who}. {saved_line}")
    return 0


def _keep(args: argparse.Namespace, profile: Profile, key: ApiKey) -> str:
    """Keep the key (the keyring, or the file chosen) and save the profile with where the
    key is; one sentence saying what was saved where."""
    import dataclasses

    from ..settings import ConfigError, KeyFileError, KeyringUnavailable
    from ..store import signin

    name = profile.name
    source: KeySource = "keyring"
    key_file: Path | None = Path(args.key_file).expanduser().absolute() \
        if args.key_file else None
    try:
        if key_file is not None:
            source = "file"
            signin.keep_key(name, key, "file", key_file=key_file)
        else:
            try:
                signin.keep_key(name, key, "keyring", store=secret_store())
            except KeyringUnavailable as error:
                source, key_file = _keyring_fallback(args, name, str(error))
                if source == "file":
                    signin.keep_key(name, key, "file", key_file=key_file)
    except KeyFileError as error:
        raise Fail(1, str(error).splitlines()[0]) from None
    try:
        profile = dataclasses.replace(
            profile, key_source=source, key_file=str(key_file) if key_file else None)
        saved = signin.save_profile(profile)
    except ConfigError as error:
        raise Fail(1, str(error)) from None
    where = {"keyring": "the key is in the system keyring",
             "file": f"the key is in {key_file} (mode 0600)",
             "env": "the key is not stored: set FRONTDESK_API_KEY before starting "
                    "frontdesk"}[source]
    default = " (the default profile)" if saved.default_profile == name else ""
    return f"Profile '{name}'{default} saved; {where}."
