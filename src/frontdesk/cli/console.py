"""The console: on a stored profile, on a base URL for scripts and CI, or after the
first-run screen; a key given here (environment, key file) checked with the service once the
console is on screen."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .. import __version__
from .common import (
    COMMANDS_HELP,
    Fail,
    interactive,
    parse,
    secret_store,
    validation_text,
    with_fix,
)
from .demo import run_demo
from .logs import Logs, file_logging
from .run import run_console

if TYPE_CHECKING:
    from ..launch import Target
    from ..settings import Profile, Settings
    from ..tui.screens.first_run import FirstRunResult

#: Seconds the key check before the console may wait for the service per request.
_CHECK_TIMEOUT = 5.0


def _console_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="frontdesk",
        description="A keyboard-driven terminal console for the Customer Conversation "
        "Service API v1. With no profile yet, it offers to connect to a service or to try "
        "the demo.",
        epilog=COMMANDS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--profile", metavar="NAME",
                        help="the profile to open (default: the default profile)")
    parser.add_argument("--base-url", metavar="URL",
                        help="connect without a stored profile (scripts/CI); the key comes "
                        "from FRONTDESK_API_KEY or --key-file")
    parser.add_argument("--integrations-url", metavar="URL",
                        help="with --base-url: base URL of the integrations listing")
    parser.add_argument("--as", dest="identity", metavar="EMAIL_OR_AGENT_ID",
                        help="with --base-url: who you are (an agent email or agent id)")
    parser.add_argument("--key-file", metavar="PATH",
                        help="read the API key from PATH (a file only you can read, mode 600)")
    parser.add_argument("--version", action="version", version=f"frontdesk {__version__}")
    return parser


def console_main(argv: Sequence[str]) -> int:
    """``frontdesk [options]``: the console on a profile, on the script flags, or first run."""
    args = parse(_console_parser(), argv)
    if args.base_url is None and (args.identity or args.integrations_url):
        raise Fail(2, "--as and --integrations-url go with --base-url URL")
    if args.base_url is not None and args.profile is not None:
        raise Fail(2, "give either --profile NAME or --base-url URL, not both")
    from ..settings import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        raise Fail(1, str(error)) from None
    with file_logging() as logs:
        if args.base_url is not None:
            target = _script_target(args)
        else:
            profile = pick_profile(settings, args.profile)
            if profile is None:
                return _first_run_then_console(settings, logs)
            target = _profile_target(profile, args.key_file)
        if target.key is not None:
            _check_key_text(target.key)
            logs.protect(target.key)
            target.check = _service_check(target)
        elif target.read_key is not None:
            target.read_key = _protected(target.read_key, logs)
        if target.reread is not None:
            target.reread = _protected(target.reread, logs)
        return run_console(target, settings)


def _check_key_text(key: str) -> None:
    """A key that cannot go into an HTTP header (a line break, a NUL) ends here, in one
    line, without showing it."""
    from ..api.secrets import ApiKey

    try:
        ApiKey(key)
    except ValueError as error:
        raise Fail(1, f"the API key cannot be used: {error}") from None


def _service_check(target: Target) -> Callable[[], str | None]:
    """Asking the service who the target's identity is with the target's key, which the
    console does once its first frame is on screen: a refused key or an unknown identity
    ends it, and the command says so in one line. A service that cannot be reached is no
    reason to stop: the console goes on with its cached data."""
    key = target.key
    assert key is not None

    def check() -> str | None:
        from ..keycheck import check_key

        try:
            return check_key(target.base_url, key, target.identity, _CHECK_TIMEOUT)
        except Exception:  # a check that breaks is no answer; the console's sign-in tells
            return None

    return check


def _protected(read_key: Callable[[], str], logs: Logs) -> Callable[[], str]:
    """``read_key``, masking the key in the logs as soon as it is read (a key that cannot be
    masked, with a line break, cannot be used either: refused here, without showing it)."""
    from ..settings import ConfigError

    def read() -> str:
        key = read_key()
        try:
            logs.protect(key)
        except ValueError as error:
            raise ConfigError(f"The API key cannot be used: {error}.") from None
        return key

    return read


def script_profile_name(base_url: str) -> str:
    """A profile name for ``--base-url`` runs: the host and port, so that the console's local
    cache of one service is never mixed with another's."""
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    where = f"{parts.hostname or 'service'}-{parts.port}" if parts.port else parts.hostname
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in where or "service")
    return ("url-" + safe)[:64]


def _script_target(args: argparse.Namespace) -> Target:
    """The target of ``frontdesk --base-url URL --as WHO`` with the key from the environment."""
    from ..keycheck import identity_fields
    from ..launch import Target
    from ..settings import API_KEY_ENV, KeyFileError, Profile, SettingsError, read_key_file

    if not args.identity:
        raise Fail(2, "--base-url needs --as EMAIL_OR_AGENT_ID (who you are at the service)")
    try:
        email, agent_id = identity_fields(args.identity)
        profile = Profile(name=script_profile_name(args.base_url.strip()),
                          base_url=args.base_url, integrations_url=args.integrations_url,
                          agent_email=email, agent_id=agent_id, key_source="env")
    except SettingsError as error:
        raise Fail(2, validation_text(error)) from None
    except ValueError as error:
        raise Fail(2, f"--as: {error}") from None
    reread = None
    if args.key_file:
        try:
            key = read_key_file(args.key_file)
        except KeyFileError as error:
            raise Fail(1, str(error).splitlines()[0]) from None
        path = args.key_file

        def reread() -> str:
            return read_key_file(path)
    else:
        key = os.environ.get(API_KEY_ENV, "").strip()
        if not key:
            raise Fail(2, f"{API_KEY_ENV} is not set: with --base-url, frontdesk reads the "
                        f"API key from {API_KEY_ENV} (or from --key-file PATH).")
    identity = profile.agent_email or profile.agent_id or ""
    return Target(profile.name, profile.base_url, profile.integrations_url, key, identity,
                  reread=reread)


def pick_profile(settings: Settings, name: str | None) -> Profile | None:
    """The profile named, or the default one, or the only one; None when there are none."""
    if name is not None:
        profile = settings.profiles.get(name)
        if profile is None:
            known = ", ".join(sorted(settings.profiles)) or "none yet"
            raise Fail(2, f"no profile named {name!r} (profiles: {known}); create it with "
                        f"`frontdesk login --profile {name}`")
        return profile
    if not settings.profiles:
        return None
    if settings.default_profile is not None:
        return settings.profiles[settings.default_profile]
    if len(settings.profiles) == 1:
        return next(iter(settings.profiles.values()))
    raise Fail(2, "there are several profiles and none is the default: pick one with "
                "--profile NAME (see `frontdesk profiles`)")


def _profile_target(profile: Profile, key_file: str | None) -> Target:
    """The profile's target, with its key (``FRONTDESK_API_KEY`` first, or ``key_file``,
    or the profile's own source). A key from the environment or a file is read now (a
    problem ends in one line naming the fix); a key in the keyring is read when the console
    connects, after its first frame (the keyring is slow to load and may wait to be
    unlocked), and a problem with it is shown in the console with the same fix."""
    from ..config.api_key import resolve_key
    from ..launch import Target
    from ..settings import API_KEY_ENV, ConfigError, read_key_file

    identity = profile.agent_email or profile.agent_id
    if not identity:
        raise Fail(1, f"profile {profile.name!r} does not say who you are; run "
                    f"`frontdesk login --profile {profile.name}`")
    if not key_file and profile.key_source == "keyring" \
            and not os.environ.get(API_KEY_ENV, "").strip():

        def from_keyring() -> str:
            try:
                return resolve_key(profile, os.environ, store=secret_store())
            except ConfigError as error:
                raise type(error)(with_fix(error, profile.name)) from None

        return Target(profile.name, profile.base_url, profile.integrations_url, None,
                      identity, read_key=from_keyring, gateway=bool(profile.gateway))
    try:
        key = read_key_file(key_file) if key_file else resolve_key(profile, os.environ)
    except ConfigError as error:
        raise Fail(1, with_fix(error, profile.name)) from None
    path = key_file or (profile.key_file if profile.key_source == "file"
                        and not os.environ.get(API_KEY_ENV, "").strip() else None)
    reread = (lambda: read_key_file(path)) if path else None
    return Target(profile.name, profile.base_url, profile.integrations_url, key, identity,
                  reread=reread, gateway=bool(profile.gateway))


def _first_run_then_console(settings: Settings, logs: Logs) -> int:
    """No profile yet: the first-run screen, then the console it chose (or nothing)."""
    if not interactive():
        raise Fail(1, "no profile yet: run `frontdesk login` to connect to a service, "
                    "or `frontdesk demo` to try the console on a local demo")
    result = run_first_run(settings)
    if result is None:
        return 0
    if result.choice == "demo":
        return run_demo(settings, logs)
    from ..launch import Target
    from ..settings import load_settings

    profile, key = result.profile, result.key
    if profile is None or key is None:
        return 0
    logs.protect(key)
    identity = profile.agent_email or profile.agent_id or ""
    target = Target(profile.name, profile.base_url, profile.integrations_url, key.reveal(),
                    identity, gateway=bool(profile.gateway))
    return run_console(target, load_settings())


def run_first_run(settings: Settings) -> FirstRunResult | None:
    """Show the first-run app; what the person chose (None: they quit)."""
    from ..tui.screens.first_run import FirstRunApp

    app = FirstRunApp(secret_store=secret_store(), theme=settings.ui.theme)
    return app.run()
