"""The ``frontdesk`` command: the console, its demo, signing in and out, and the sandbox.

    frontdesk [--profile NAME] [--key-file PATH]        the console on a stored profile
    frontdesk --base-url URL [--integrations-url URL] --as EMAIL_OR_ID
                                                        the console for scripts/CI (key in
                                                        FRONTDESK_API_KEY or --key-file)
    frontdesk demo [--reset] [--chaos] [--seed N]       the console on a local demo sandbox
    frontdesk login / logout / profiles / locate        profiles, keys, where files live
    frontdesk sandbox serve|reset …                     the sandbox alone (sandbox/cli.py)

Errors are printed for people, one line with the fix, never a traceback; exit codes are for
scripts: 0 done, 1 failed, 2 usage. The API key is never printed or logged: logs go to a
rotating file whose formatter masks every key the process uses, and while the console runs
nothing at all is written to the terminal but the console itself.

Importing this module stays cheap (no Textual, FastAPI, uvicorn or httpx): every command
imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__

if TYPE_CHECKING:
    from .api.secrets import ApiKey
    from .config import ConfigError, Profile, SecretStore, Settings
    from .keycheck import KeyCheck
    from .launch import Target
    from .store.signin import KeySource
    from .tui.screens.first_run import FirstRunResult

log = logging.getLogger("frontdesk.cli")

#: Seconds a keyring call may take before frontdesk gives up on it (tests lower it).
KEYRING_TIMEOUT = 3.0
#: Seconds the key check before the console may wait for the service per request.
_CHECK_TIMEOUT = 5.0
#: Environment variable with the log level (DEBUG, INFO, WARNING, ERROR); default WARNING.
LOG_ENV = "FRONTDESK_LOG"
LOG_FILE = "frontdesk.log"
_LOG_BYTES = 1_000_000
_LOG_BACKUPS = 3

COMMANDS_HELP = """commands:
  (none)              open the console on the default profile (first run: connect or demo)
  demo                the console on a fresh local sandbox with a lively demo organisation
  login               connect to a service: check the key and keep it in the system keyring
  logout              forget a profile and its key
  profiles            list the profiles ('*' marks the default)
  locate              show where config, settings, data, logs and cache live
  sandbox             run the local sandbox alone ('frontdesk sandbox --help')

Run 'frontdesk COMMAND --help' for a command's options.

Scripts and CI without a stored profile:
  FRONTDESK_API_KEY=... frontdesk --base-url URL --as EMAIL_OR_AGENT_ID

Environment: FRONTDESK_API_KEY (the key; wins over the keyring), FRONTDESK_HOME (keep every
file under one folder), FRONTDESK_LOG (log level of the log file; default WARNING).
Exit codes: 0 done, 1 failed, 2 usage.
"""


class _Fail(Exception):
    """A failure to report as ``frontdesk: <message>`` with exit ``code``."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --------------------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command given by ``argv`` (default: the process's arguments); the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "sandbox":
        from .sandbox.cli import main as sandbox_main

        return sandbox_main(args[1:])
    command = args[0] if args and args[0] in _COMMANDS else None
    try:
        if command is None:
            from .startup import hold_gc

            hold_gc()  # until the console's first frame (frontdesk.startup says why)
            return _console(args)
        return _COMMANDS[command](args[1:])
    except _Fail as failure:
        if failure.message:
            _say(failure.message, command)
        return failure.code
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        _say("interrupted", command)
        return 130
    except Exception as exc:  # a bug: one line here, the details in the log file
        logged = _log_unexpected(exc, command)
        where = f"; details are in {_log_file()}" if logged else \
            f"; no details: the log file {_log_file()} cannot be written"
        _say(f"unexpected error ({type(exc).__name__}){where}", command)
        return 1


def _say(message: str, command: str | None) -> None:
    """Print an error for people: ``frontdesk[ command]: message`` on stderr, on one line."""
    prefix = "frontdesk" + (f" {command}" if command else "")
    text = " ".join(part.strip() for part in message.splitlines() if part.strip())
    print(f"{prefix}: {text}", file=sys.stderr)


def _log_unexpected(exc: BaseException, command: str | None) -> bool:
    """Write ``exc`` and its traceback to the log file (never to the terminal); whether it
    is there to read now."""
    if getattr(exc, "_frontdesk_logged", False):
        return _log_has_text()
    logger = logging.getLogger("frontdesk.cli")
    handler = _file_handler()
    if handler is None:
        return False
    handler.setFormatter(_KeyMaskingFormatter())
    try:
        record = logger.makeRecord(logger.name, logging.ERROR, __file__, 0,
                                   "unexpected error in frontdesk %s", (command or "",),
                                   (type(exc), exc, exc.__traceback__))
        handler.handle(record)
    finally:
        handler.close()
    return _log_has_text()


def _log_has_text() -> bool:
    """Whether the log file exists and holds something (a message may point to it)."""
    try:
        return _log_file().stat().st_size > 0
    except OSError:
        return False


def _file_handler() -> logging.Handler | None:
    """The rotating log file's handler (mode 0600, in a 0700 directory), or None when the
    file cannot be opened for writing."""
    from logging.handlers import RotatingFileHandler

    path = _log_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        if not os.access(path, os.W_OK):
            return None
        return RotatingFileHandler(path, maxBytes=_LOG_BYTES, backupCount=_LOG_BACKUPS,
                                   encoding="utf-8")
    except OSError:
        return None


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``argv``; ``--help`` ends with 0 and a usage error with 2 (argparse printed it)."""
    try:
        return parser.parse_args(list(argv))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
        raise _Exit(code) from None


class _Exit(_Fail):
    """argparse already said everything; just end with ``code``."""

    def __init__(self, code: int) -> None:
        super().__init__(code, "")


def _interactive() -> bool:
    """Whether a person is at the terminal (stdin and stdout are TTYs)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _secret_store() -> SecretStore:
    """The system keyring, with frontdesk's timeout."""
    from .config import SecretStore

    return SecretStore(timeout=KEYRING_TIMEOUT)


def _clean(text: str) -> str:
    """Text from the service or a file, made inert for the terminal (no escapes)."""
    from .text import clean

    return clean(text, multiline=False)


# --------------------------------------------------------------------------- logging


def _log_file() -> Path:
    from .config import log_dir

    return log_dir() / LOG_FILE


def _log_level(env: Mapping[str, str]) -> int:
    """The level named by ``FRONTDESK_LOG`` (a name or a number); WARNING when unset or odd."""
    value = env.get(LOG_ENV, "").strip().upper()
    if value.isdigit():
        return int(value)
    return logging.getLevelNamesMapping().get(value, logging.WARNING)


class _KeyMaskingFormatter(logging.Formatter):
    """Formats log records and masks every API key this process uses, wherever it appears
    (message, arguments, traceback text): the last line of defence behind ``ApiKey``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.keys: list[ApiKey] = []

    def format(self, record: logging.LogRecord) -> str:
        from .api.secrets import redact

        text = super().format(record)
        for key in self.keys:
            text = redact(text, key)
        return text


class _Logs:
    """The log file set up for one command; ``protect`` adds a key to mask."""

    def __init__(self, handler: logging.Handler, formatter: _KeyMaskingFormatter) -> None:
        self.handler = handler
        self.formatter = formatter

    def protect(self, key: str | ApiKey) -> None:
        """Mask ``key`` in everything logged from now on."""
        from .api.secrets import ApiKey

        secret = key if isinstance(key, ApiKey) else ApiKey(key)
        if secret not in self.formatter.keys:
            self.formatter.keys.append(secret)


@contextlib.contextmanager
def _logging() -> Iterator[_Logs]:
    """Send every log record (and warnings) to ``log_dir()/frontdesk.log``, never the terminal.

    A rotating file (1 MB, 3 backups, mode 0600); the level comes from ``FRONTDESK_LOG``. If
    the file cannot be opened, records are dropped rather than shown on the terminal.
    Everything is put back as it was afterwards (tests run commands in one process).
    """
    root = logging.getLogger()
    level = _log_level(os.environ)
    formatter = _KeyMaskingFormatter()
    handler: logging.Handler = _file_handler() or logging.NullHandler()
    handler.setFormatter(formatter)
    handler.setLevel(level)
    previous_level = root.level
    httpcore = logging.getLogger("httpcore")
    previous_httpcore = httpcore.level
    httpx_log = logging.getLogger("httpx")
    previous_httpx = httpx_log.level
    root.addHandler(handler)
    root.setLevel(level)
    httpcore.setLevel(max(level, logging.INFO))  # its DEBUG lines are about sockets, noise
    # httpx logs every request's full URL at INFO, query string included (a searched email
    # address, a customer's name): our own DEBUG line names the path template instead.
    httpx_log.setLevel(logging.WARNING)
    logging.captureWarnings(True)
    try:
        yield _Logs(handler, formatter)
    except Exception as exc:  # a bug: logged while the key is still masked, then reported
        if not isinstance(exc, _Fail) and not isinstance(handler, logging.NullHandler):
            logging.getLogger("frontdesk.cli").error(
                "unexpected error", exc_info=(type(exc), exc, exc.__traceback__))
            with contextlib.suppress(AttributeError):
                exc._frontdesk_logged = True  # type: ignore[attr-defined]
        raise
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
        root.setLevel(previous_level)
        httpcore.setLevel(previous_httpcore)
        httpx_log.setLevel(previous_httpx)
        handler.close()


# --------------------------------------------------------------------------- messages


def _validation_text(error: Exception) -> str:
    """The problems of invalid settings, by option, without the value (it could be a key)."""
    from .config import SettingsError

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


def _with_fix(error: ConfigError, profile: str | None = None) -> str:
    """One line for a key or settings problem, naming what fixes it."""
    from .config import API_KEY_ENV, KeyFileError, KeyNotFound, KeyringUnavailable

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


# --------------------------------------------------------------------------- the console


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


def _console(argv: Sequence[str]) -> int:
    """``frontdesk [options]``: the console on a profile, on the script flags, or first run."""
    args = _parse(_console_parser(), argv)
    if args.base_url is None and (args.identity or args.integrations_url):
        raise _Fail(2, "--as and --integrations-url go with --base-url URL")
    if args.base_url is not None and args.profile is not None:
        raise _Fail(2, "give either --profile NAME or --base-url URL, not both")
    from .config import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        raise _Fail(1, str(error)) from None
    with _logging() as logs:
        if args.base_url is not None:
            target = _script_target(args)
        else:
            profile = _pick_profile(settings, args.profile)
            if profile is None:
                return _first_run_then_console(settings, logs)
            target = _profile_target(profile, args.key_file)
        check = None
        if target.key is not None:
            _check_key_text(target.key)
            logs.protect(target.key)
            check = _check_with_the_service(target)
        elif target.read_key is not None:
            target.read_key = _protected(target.read_key, logs)
        if target.reread is not None:
            target.reread = _protected(target.reread, logs)
        if check is not None:
            _load_console()  # while the service answers the check
            refusal = check.result()
            if refusal is not None:
                raise _Fail(1, _clean(refusal))
        return _run(target, settings)


def _check_key_text(key: str) -> None:
    """A key that cannot go into an HTTP header (a line break, a NUL) ends here, in one
    line, without showing it."""
    from .api.secrets import ApiKey

    try:
        ApiKey(key)
    except ValueError as error:
        raise _Fail(1, f"the API key cannot be used: {error}") from None


def _check_with_the_service(target: Target) -> KeyCheck:
    """Start asking the service who the target's identity is with the target's key (on a
    thread, while the console loads): before the console opens, a refused key or an unknown
    identity ends the command in one line. A service that cannot be reached is no reason to
    stop: the console opens on its cached data."""
    from .keycheck import KeyCheck

    assert target.key is not None
    return KeyCheck(target.base_url, target.key, target.identity, _CHECK_TIMEOUT)


def _load_console() -> None:
    """Import what the console's first frame needs (what ``launch.run_console`` loads)."""
    from . import launch  # noqa: F401
    from .store import local, session  # noqa: F401
    from .tui import app  # noqa: F401


def _protected(read_key: Callable[[], str], logs: _Logs) -> Callable[[], str]:
    """``read_key``, masking the key in the logs as soon as it is read (a key that cannot be
    masked, with a line break, cannot be used either: refused here, without showing it)."""
    from .config import ConfigError

    def read() -> str:
        key = read_key()
        try:
            logs.protect(key)
        except ValueError as error:
            raise ConfigError(f"The API key cannot be used: {error}.") from None
        return key

    return read


def _run(target: Target, settings: Settings) -> int:
    """Open the console on ``target`` (the Textual app owns the terminal until it quits)."""
    from . import launch
    from .store.local import LocalStoreError

    try:
        return launch.run_console(target, settings)
    except LocalStoreError as error:
        raise _Fail(1, _clean(str(error))) from None


def _script_profile_name(base_url: str) -> str:
    """A profile name for ``--base-url`` runs: the host and port, so that the console's local
    cache of one service is never mixed with another's."""
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    where = f"{parts.hostname or 'service'}-{parts.port}" if parts.port else parts.hostname
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in where or "service")
    return ("url-" + safe)[:64]


def _script_target(args: argparse.Namespace) -> Target:
    """The target of ``frontdesk --base-url URL --as WHO`` with the key from the environment."""
    from .config import API_KEY_ENV, KeyFileError, Profile, SettingsError, read_key_file
    from .keycheck import identity_fields
    from .launch import Target

    if not args.identity:
        raise _Fail(2, "--base-url needs --as EMAIL_OR_AGENT_ID (who you are at the service)")
    try:
        email, agent_id = identity_fields(args.identity)
        profile = Profile(name=_script_profile_name(args.base_url.strip()),
                          base_url=args.base_url, integrations_url=args.integrations_url,
                          agent_email=email, agent_id=agent_id, key_source="env")
    except SettingsError as error:
        raise _Fail(2, _validation_text(error)) from None
    except ValueError as error:
        raise _Fail(2, f"--as: {error}") from None
    reread = None
    if args.key_file:
        try:
            key = read_key_file(args.key_file)
        except KeyFileError as error:
            raise _Fail(1, str(error).splitlines()[0]) from None
        path = args.key_file

        def reread() -> str:
            return read_key_file(path)
    else:
        key = os.environ.get(API_KEY_ENV, "").strip()
        if not key:
            raise _Fail(2, f"{API_KEY_ENV} is not set: with --base-url, frontdesk reads the "
                        f"API key from {API_KEY_ENV} (or from --key-file PATH).")
    identity = profile.agent_email or profile.agent_id or ""
    return Target(profile.name, profile.base_url, profile.integrations_url, key, identity,
                  reread=reread)


def _pick_profile(settings: Settings, name: str | None) -> Profile | None:
    """The profile named, or the default one, or the only one; None when there are none."""
    if name is not None:
        profile = settings.profiles.get(name)
        if profile is None:
            known = ", ".join(sorted(settings.profiles)) or "none yet"
            raise _Fail(2, f"no profile named {name!r} (profiles: {known}); create it with "
                        f"`frontdesk login --profile {name}`")
        return profile
    if not settings.profiles:
        return None
    if settings.default_profile is not None:
        return settings.profiles[settings.default_profile]
    if len(settings.profiles) == 1:
        return next(iter(settings.profiles.values()))
    raise _Fail(2, "there are several profiles and none is the default: pick one with "
                "--profile NAME (see `frontdesk profiles`)")


def _profile_target(profile: Profile, key_file: str | None) -> Target:
    """The profile's target, with its key (``FRONTDESK_API_KEY`` first, or ``key_file``,
    or the profile's own source). A key from the environment or a file is read now (a
    problem ends in one line naming the fix); a key in the keyring is read when the console
    connects, after its first frame (the keyring is slow to load and may wait to be
    unlocked), and a problem with it is shown in the console with the same fix."""
    from .config import API_KEY_ENV, ConfigError, read_key_file, resolve_key
    from .launch import Target

    identity = profile.agent_email or profile.agent_id
    if not identity:
        raise _Fail(1, f"profile {profile.name!r} does not say who you are; run "
                    f"`frontdesk login --profile {profile.name}`")
    if not key_file and profile.key_source == "keyring" \
            and not os.environ.get(API_KEY_ENV, "").strip():

        def from_keyring() -> str:
            try:
                return resolve_key(profile, os.environ, store=_secret_store())
            except ConfigError as error:
                raise type(error)(_with_fix(error, profile.name)) from None

        return Target(profile.name, profile.base_url, profile.integrations_url, None,
                      identity, read_key=from_keyring)
    try:
        key = read_key_file(key_file) if key_file else resolve_key(profile, os.environ)
    except ConfigError as error:
        raise _Fail(1, _with_fix(error, profile.name)) from None
    path = key_file or (profile.key_file if profile.key_source == "file"
                        and not os.environ.get(API_KEY_ENV, "").strip() else None)
    reread = (lambda: read_key_file(path)) if path else None
    return Target(profile.name, profile.base_url, profile.integrations_url, key, identity,
                  reread=reread)


def _first_run_then_console(settings: Settings, logs: _Logs) -> int:
    """No profile yet: the first-run screen, then the console it chose (or nothing)."""
    if not _interactive():
        raise _Fail(1, "no profile yet: run `frontdesk login` to connect to a service, "
                    "or `frontdesk demo` to try the console on a local demo")
    result = _run_first_run(settings)
    if result is None:
        return 0
    if result.choice == "demo":
        return _run_demo(settings, logs)
    from .config import load_settings
    from .launch import Target

    profile, key = result.profile, result.key
    if profile is None or key is None:
        return 0
    logs.protect(key)
    identity = profile.agent_email or profile.agent_id or ""
    target = Target(profile.name, profile.base_url, profile.integrations_url, key.reveal(),
                    identity)
    return _run(target, load_settings())


def _run_first_run(settings: Settings) -> FirstRunResult | None:
    """Show the first-run app; what the person chose (None: they quit)."""
    from .tui.screens.first_run import FirstRunApp

    app = FirstRunApp(secret_store=_secret_store(), theme=settings.ui.theme)
    return app.run()


# --------------------------------------------------------------------------- demo


def _seed(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


def _demo(argv: Sequence[str]) -> int:
    """``frontdesk demo``: the console on a seeded local sandbox; prints nothing unless it
    fails."""
    parser = argparse.ArgumentParser(
        prog="frontdesk demo",
        description="Open the console on a local sandbox of the service with a lively demo "
        "organisation (simulated customers and colleagues). Its data is kept between runs "
        "in the data directory ('frontdesk locate').")
    parser.add_argument("--reset", action="store_true",
                        help="start from a fresh demo organisation (forget the previous one)")
    parser.add_argument("--chaos", action="store_true",
                        help="make the sandbox misbehave: latency, 503s, 429s, lost answers")
    parser.add_argument("--seed", type=_seed, default=1, metavar="N",
                        help="seed of a new demo organisation (default 1)")
    args = _parse(parser, argv)
    from .config import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        raise _Fail(1, str(error)) from None
    with _logging() as logs:
        return _run_demo(settings, logs, reset=args.reset, chaos=args.chaos, seed=args.seed)


def _run_demo(settings: Settings, logs: _Logs, *, reset: bool = False, chaos: bool = False,
              seed: int = 1) -> int:
    """Start the demo sandbox in the background and the console on it."""
    from . import launch

    if reset:
        launch.reset_demo()
    with launch.demo_sandbox(chaos=chaos, seed=seed) as target:
        logs.protect(target.api_key())
        return _run(target, settings)


# --------------------------------------------------------------------------- login


def _ask(question: str, flag: str, *, optional: bool = False) -> str | None:
    """Ask a person for a missing value; without a terminal, a usage error naming ``flag``."""
    if not sys.stdin.isatty():
        if optional:
            return None
        raise _Fail(2, f"missing {flag} (no terminal to ask in)")
    while True:
        try:
            answer = input(question).strip()
        except EOFError:
            raise _Fail(2, f"missing {flag}") from None
        if answer or optional:
            return answer or None


def _read_login_key(key_file: str | None) -> ApiKey:
    """The key to sign in with: ``FRONTDESK_API_KEY``, an existing ``--key-file``, a hidden
    prompt, or (without a terminal) one line of standard input."""
    import getpass

    from .api.secrets import ApiKey
    from .config import API_KEY_ENV, KeyFileError, read_key_file

    from_env = os.environ.get(API_KEY_ENV, "").strip()
    try:
        if from_env:
            return ApiKey(from_env)
        if key_file and Path(key_file).expanduser().exists():
            try:
                return ApiKey(read_key_file(key_file))
            except KeyFileError as error:
                raise _Fail(1, str(error).splitlines()[0]) from None
        if sys.stdin.isatty():
            return ApiKey(getpass.getpass("API key (not shown): ").strip())
        return ApiKey(sys.stdin.readline().strip())
    except ValueError:
        raise _Fail(2, f"no API key given: type it when asked, or set {API_KEY_ENV}, "
                    "or pipe it on standard input") from None
    except EOFError:
        raise _Fail(2, f"no API key given: set {API_KEY_ENV} or pipe it on standard "
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
    from .config import API_KEY_ENV
    from .store.signin import default_key_file

    path = default_key_file(name)
    print(why.strip(), file=sys.stderr)
    if args.yes:
        print(f"--yes: saving the key to {path} (readable only by you, mode 0600).",
              file=sys.stderr)
        return "file", path
    if not sys.stdin.isatty():
        raise _Fail(1, f"the key was not saved. Run again with --key-file PATH to keep it in "
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
            raise _Fail(1, "cancelled: nothing was saved")


def _login(argv: Sequence[str]) -> int:
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
    args = _parse(parser, argv)
    import asyncio
    import dataclasses

    from .config import (
        ConfigError,
        KeyFileError,
        KeyringUnavailable,
        Profile,
        SettingsError,
        load_settings,
    )
    from .store import signin

    try:
        settings = load_settings()
    except ConfigError as error:
        raise _Fail(1, str(error)) from None
    with _logging() as logs:
        name = _login_profile_name(settings, args)
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
            raise _Fail(2, _validation_text(error)) from None
        except ValueError as error:
            raise _Fail(2, f"--as: {error}") from None

        key = _read_login_key(args.key_file)
        logs.protect(key)
        outcome = asyncio.run(signin.verify(profile.base_url, profile.integrations_url, key,
                                            identity))
        if isinstance(outcome, str):
            raise _Fail(1, _clean(outcome))

        source: KeySource = "keyring"
        key_file: Path | None = Path(args.key_file).expanduser().absolute() \
            if args.key_file else None
        try:
            if key_file is not None:
                source = "file"
                signin.keep_key(name, key, "file", key_file=key_file)
            else:
                try:
                    signin.keep_key(name, key, "keyring", store=_secret_store())
                except KeyringUnavailable as error:
                    source, key_file = _keyring_fallback(args, name, str(error))
                    if source == "file":
                        signin.keep_key(name, key, "file", key_file=key_file)
        except KeyFileError as error:
            raise _Fail(1, str(error).splitlines()[0]) from None
        try:
            profile = dataclasses.replace(
                profile, key_source=source, key_file=str(key_file) if key_file else None)
            saved = signin.save_profile(profile)
        except ConfigError as error:
            raise _Fail(1, str(error)) from None
        where = {"keyring": "the key is in the system keyring",
                 "file": f"the key is in {key_file} (mode 0600)",
                 "env": "the key is not stored: set FRONTDESK_API_KEY before starting "
                        "frontdesk"}[source]
        default = " (the default profile)" if saved.default_profile == name else ""
        who = _clean(f"{outcome.display_name} <{outcome.email}>")
        print(f"Signed in to {profile.base_url} as {who}. Profile '{name}'{default} saved; "
              f"{where}.")
        return 0


# --------------------------------------------------------------------------- logout


def _confirm(question: str, assume_yes: bool) -> bool:
    """A yes/no question; ``--yes`` answers yes, no terminal answers no."""
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        return False
    try:
        return input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return False


def _logout(argv: Sequence[str]) -> int:
    """``frontdesk logout``: delete a profile's key (keyring, or a key file we made) and the
    profile."""
    parser = argparse.ArgumentParser(
        prog="frontdesk logout",
        description="Forget a profile: deletes its key from the system keyring (and a key "
        "file frontdesk wrote, after asking) and removes the profile from the settings.")
    parser.add_argument("--profile", metavar="NAME",
                        help="the profile to forget (default: the default profile)")
    parser.add_argument("-y", "--yes", action="store_true",
                        help="do not ask before deleting a key file frontdesk wrote")
    args = _parse(parser, argv)
    from .config import ConfigError, KeyringUnavailable, load_settings
    from .store import signin

    try:
        settings = load_settings()
    except ConfigError as error:
        raise _Fail(1, str(error)) from None
    with _logging():
        profile = _pick_profile(settings, args.profile)
        if profile is None:
            print("No profiles: nothing to sign out of.")
            return 0
        name = profile.name
        problem = None
        notes = []
        if profile.key_source == "keyring":
            try:
                _secret_store().delete_key(name)
            except KeyringUnavailable as error:
                problem = str(error).strip().splitlines()[0]
        elif profile.key_source == "file" and profile.key_file:
            path = Path(profile.key_file).expanduser()
            if not path.exists():
                signin.forget_made_key_file(path)
            elif signin.made_key_file(path):
                if _confirm(f"Delete the key file {path}? [y/N] ", args.yes):
                    path.unlink(missing_ok=True)
                    signin.forget_made_key_file(path)
                    notes.append(f"deleted the key file {path}")
                else:
                    notes.append(f"kept the key file {path} (delete it yourself)")
            else:
                notes.append(f"left your key file {path} in place")
        try:
            signin.remove_profile(name)
        except ConfigError as error:
            raise _Fail(1, str(error)) from None
        print(f"Signed out: profile '{name}' removed" + "".join(f"; {n}" for n in notes) + ".")
        if problem:
            raise _Fail(1, f"the key could not be deleted from the keyring: {problem}")
        return 0


# --------------------------------------------------------------------------- profiles, locate


def _profiles(argv: Sequence[str]) -> int:
    """``frontdesk profiles``: name, base URL, who you are, where the key is; never the key."""
    parser = argparse.ArgumentParser(
        prog="frontdesk profiles",
        description="List the profiles: name, base URL, who you are, where the key comes from "
        "(never the key). '*' marks the default profile.")
    _parse(parser, argv)
    from .config import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        raise _Fail(1, str(error)) from None
    if not settings.profiles:
        print("No profiles yet: run `frontdesk login` to connect to a service, or "
              "`frontdesk demo` to try the console.")
        return 0
    rows = [("", "NAME", "BASE URL", "AS", "KEY")]
    for name in sorted(settings.profiles):
        profile = settings.profiles[name]
        key: str = profile.key_source
        if profile.key_source == "file" and profile.key_file:
            key = f"file {profile.key_file}"
        rows.append(("*" if name == settings.default_profile else "", name, profile.base_url,
                     profile.agent_email or profile.agent_id or "?", key))
    widths = [max(len(_clean(row[i])) for row in rows) for i in range(4)]
    for row in rows:
        cells = [_clean(cell).ljust(width) for cell, width in zip(row, widths, strict=False)]
        print(" ".join([*cells, _clean(row[4])]).rstrip())
    return 0


def _locate(argv: Sequence[str]) -> int:
    """``frontdesk locate``: where config, settings, data, logs and cache live."""
    parser = argparse.ArgumentParser(
        prog="frontdesk locate",
        description="Show where frontdesk keeps its files (set FRONTDESK_HOME to keep them "
        "all under one folder). Nothing is created.")
    _parse(parser, argv)
    from .config import KEYRING_SERVICE, locations
    from .launch import demo_paths, running_demo
    from .sandbox.cli import key_file_for

    places: dict[str, object] = dict(locations())
    places["log file"] = locations()["logs"] / LOG_FILE
    places["keys"] = f"system keyring, service '{KEYRING_SERVICE}' (user = profile name)"
    demo = running_demo()
    if demo is None:
        places["demo sandbox"] = "not running (`frontdesk demo` starts it)"
    else:
        places["demo sandbox"] = f"{demo.base_url} (integrations: {demo.integrations_url})"
        places["demo API key"] = demo.key
    places["demo key file"] = key_file_for(demo_paths()[0])
    width = max(len(name) for name in places)
    for name, value in places.items():
        print(f"{name.ljust(width)}  {value}")
    return 0


_COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "demo": _demo,
    "login": _login,
    "logout": _logout,
    "profiles": _profiles,
    "locate": _locate,
}
