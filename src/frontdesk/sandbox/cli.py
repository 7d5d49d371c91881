"""``frontdesk sandbox``: run the local sandbox of the service on its own, or reset it.

    frontdesk sandbox serve [--host H] [--port P] [--db PATH] [--api-key KEY]...
                            [--api-key-file PATH] [--seed N | --empty] [--scale small|large]
                            [--no-simulator] [--no-rate-limit] [--chaos] [--speed X]
    frontdesk sandbox reset [--db PATH]
    frontdesk sandbox listen [--host H] [--port P] [--secret-file PATH] [--tolerance S] [--body]

``serve`` runs in the foreground until Ctrl-C or SIGTERM and prints what a client needs: the
base URL, the integrations URL and the API key(s). The keys come from ``--api-key``,
``--api-key-file``, or ``FRONTDESK_SANDBOX_KEYS`` (the last two keep them out of ``ps``);
without any, the database's own key is used: made once and kept beside it
(``<db>.key``, mode 0600), so a restart keeps the key a saved profile holds. Exit codes: 0
done, 1 failed, 2 usage.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from .key_file import key_file_for, stable_key

if TYPE_CHECKING:
    from .server import SandboxServer

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
DEFAULT_SEED = 1
DEFAULT_LISTEN_PORT = 8766
#: The environment variable ``listen`` reads a subscription's secret from.
WEBHOOK_SECRET_ENV = "FRONTDESK_WEBHOOK_SECRET"


def default_db() -> Path:
    """Where the sandbox keeps its database unless told: the user's data directory."""
    from ..settings import data_dir

    return data_dir() / "sandbox.db"


def keys_from_text(text: str) -> list[str]:
    """Keys separated by commas, blanks or line breaks (the environment variable, a file)."""
    return [part for part in re.split(r"[\s,]+", text) if part]


def _positive(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not number > 0:
        raise argparse.ArgumentTypeError("must be greater than 0")
    return number


def _port(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError("must be 0 to 65535 (0: any free port)")
    return number


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``frontdesk sandbox``."""
    top = argparse.ArgumentParser(
        prog="frontdesk sandbox",
        description="A complete local sandbox of the Customer Conversation Service API v1 "
        "(SQLite on disk), with a lively demo organisation.")
    commands = top.add_subparsers(dest="command", metavar="{serve,reset,listen}")
    serve = commands.add_parser(
        "serve", help="run the sandbox in the foreground until Ctrl-C",
        description="Run the sandbox in the foreground until Ctrl-C or SIGTERM. A new "
        "database is seeded with the demo organisation; an existing one is used as it is.")
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"address to listen on (default {DEFAULT_HOST})")
    serve.add_argument("--port", type=_port, default=DEFAULT_PORT,
                       help=f"port to listen on, 0 for any free port (default {DEFAULT_PORT})")
    serve.add_argument("--db", type=Path, default=None,
                       help="database file (default: sandbox.db in the user data directory)")
    serve.add_argument("--api-key", dest="api_keys", action="append", default=None,
                       metavar="KEY", help="an API key to accept (repeatable; shows in `ps`: "
                       "prefer --api-key-file or FRONTDESK_SANDBOX_KEYS). Default: the "
                       "database's own key, made once and kept in <db>.key (mode 0600)")
    serve.add_argument("--api-key-file", metavar="PATH", default=None,
                       help="read the API keys to accept from PATH (one per line; a file "
                       "only you can read, mode 0600)")
    seeding = serve.add_mutually_exclusive_group()
    # default None, not 1: argparse sees "--seed 1 --empty" as no conflict when 1 is the default
    seeding.add_argument("--seed", type=int, default=None, metavar="N",
                         help=f"seed of the demo organisation (default {DEFAULT_SEED})")
    seeding.add_argument("--empty", action="store_true",
                         help="an organisation with only endpoints, attributes and schedules")
    serve.add_argument("--scale", choices=("small", "large"), default="small",
                       help="small: 1,000 conversations; large: 100,000 more and a "
                       "10,000-message thread (default small)")
    serve.add_argument("--no-simulator", dest="simulator", action="store_false",
                       help="no simulated customers and agents")
    serve.add_argument("--no-rate-limit", dest="rate_limit", action="store_false",
                       help="do not enforce the service's budget of 10 requests/s, burst 4")
    serve.add_argument("--chaos", action="store_true",
                       help="inject latency, 503s, 429s and dropped responses at random")
    serve.add_argument("--speed", type=_positive, default=1.0, metavar="X",
                       help="simulator speed: X times the normal pace (default 1)")
    serve.add_argument("--webhooks-anywhere", action="store_true",
                       help="deliver webhooks to any host (default: loopback addresses only)")
    reset = commands.add_parser(
        "reset", help="delete the database 'serve' uses (the demo's: 'frontdesk demo --reset')",
        description="Delete the database 'sandbox serve' uses (and its -wal and -shm files); "
        "the next 'serve' seeds a new one. The demo keeps its own: 'frontdesk demo --reset' "
        "starts it afresh.")
    reset.add_argument("--db", type=Path, default=None,
                       help="database file (default: sandbox.db in the user data directory)")
    listen = commands.add_parser(
        "listen", help="receive webhook deliveries and print each event",
        description="A webhook receiver: subscribe its URL (POST /v1/webhooks) and each "
        "event the sandbox delivers is printed, with its signature checked (as the service's "
        "vendor documents it) when --secret-file or FRONTDESK_WEBHOOK_SECRET gives the "
        "subscription's secretKey.")
    listen.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST})")
    listen.add_argument("--port", type=_port, default=DEFAULT_LISTEN_PORT,
                        help=f"port to listen on (default {DEFAULT_LISTEN_PORT})")
    listen.add_argument("--secret-file", default=None, metavar="PATH",
                        help="a file only you can read (mode 600) holding the subscription's "
                        f"secretKey, to check each signature (or {WEBHOOK_SECRET_ENV})")
    listen.add_argument("--tolerance", type=_seconds, default=300.0, metavar="SECONDS",
                        help="how old a signature may be (default 300: five minutes)")
    listen.add_argument("--secret", default=None, help=argparse.SUPPRESS)
    listen.add_argument("--body", action="store_true", help="print each event's JSON too")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``frontdesk sandbox …``; the exit code (0 done, 1 failed, 2 usage)."""
    top = parser()
    try:
        args = top.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exit_:  # --help (0) or a usage error (2)
        return exit_.code if isinstance(exit_.code, int) else 2
    if args.command == "serve":
        try:
            return serve(args)
        except _Refused as refused:
            print(f"frontdesk sandbox: {refused}", file=sys.stderr)
            return refused.code
    if args.command == "reset":
        return reset(args.db or default_db())
    if args.command == "listen":
        return listen(args)
    top.print_help(sys.stderr)
    return 2


class _Refused(Exception):
    """``serve`` cannot start: one line for people, and the exit code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _keys(args: argparse.Namespace, db: Path) -> list[str]:
    """The keys to accept: ``--api-key``, ``--api-key-file``, ``FRONTDESK_SANDBOX_KEYS``, or
    the database's own. The environment variable is taken out of the environment once read."""
    from ..config.api_key import scrub_secret_environment
    from ..settings import SANDBOX_KEYS_ENV, ConfigError, read_key_file

    from_env = os.environ.get(SANDBOX_KEYS_ENV, "")
    scrub_secret_environment()
    if args.api_keys:
        keys = [key.strip() for key in args.api_keys]
        if any(not key or any(ch in key for ch in "\r\n\x00") for key in keys):
            raise _Refused(2, "--api-key: a key must be one line of text")
        return keys
    try:
        if args.api_key_file:
            keys = keys_from_text(read_key_file(args.api_key_file))
        elif from_env.strip():
            keys = keys_from_text(from_env)
        else:
            return [stable_key(db)]
    except ConfigError as error:
        raise _Refused(1, str(error).splitlines()[0]) from None
    except OSError as error:
        raise _Refused(1, f"cannot keep the key beside {db}: {error.strerror or error}") \
            from None
    if not keys:
        raise _Refused(2, "no API key given")
    return keys


def reset(db: Path, out: TextIO | None = None) -> int:
    """Delete the database at ``db`` with its -wal and -shm files and its own key."""
    stream = out or sys.stdout
    removed = []
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"),
                 key_file_for(db)):
        if path.exists():
            path.unlink()
            removed.append(path)
    if removed:
        for path in removed:
            print(f"removed {path}", file=stream)
    else:
        print(f"nothing to remove: {db} does not exist", file=stream)
    return 0


def serve(args: argparse.Namespace) -> int:
    """Run the sandbox in the foreground until SIGINT or SIGTERM."""
    from .server import SandboxServer

    db: Path = args.db or default_db()
    seed: int = DEFAULT_SEED if args.seed is None else args.seed
    keys = _keys(args, db)
    fresh = not db.exists()
    server = SandboxServer(
        db, keys=keys, seed=None if args.empty else seed, empty=args.empty,
        scale=args.scale, simulator=args.simulator, simulator_speed=args.speed,
        rate_limit=args.rate_limit, host=args.host, port=args.port)
    if args.chaos:
        server.faults.chaos()
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        if fresh:
            what = "an empty organisation" if args.empty else \
                f"the demo organisation (seed {seed}, {args.scale})"
            print(f"seeding {what} into {db} …", file=sys.stderr, flush=True)
        try:
            server.start()
        except (OSError, RuntimeError) as exc:
            print(f"frontdesk sandbox: could not start: {exc}", file=sys.stderr)
            return 1
        server.ctx.webhooks_anywhere = args.webhooks_anywhere
        try:
            seeded = server.call(lambda ctx: ctx.db.get_meta("seeded"))
            _banner(server, db, seeded, args)
            while not stop.wait(0.5):
                pass
        finally:
            server.stop()
        print("sandbox stopped", file=sys.stderr, flush=True)
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def listen(args: argparse.Namespace) -> int:
    """Receive webhook deliveries in the foreground until SIGINT or SIGTERM."""
    from .listen import run

    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    try:
        secret = _listen_secret(args)
    except _Refused as refusal:
        print(f"frontdesk sandbox listen: {refusal.message}", file=sys.stderr)
        return refusal.code
    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        run(args.host, args.port, secret, show_body=args.body, out=sys.stdout, stop=stop,
            tolerance=args.tolerance)
    except OSError as exc:
        print(f"frontdesk sandbox: could not listen: {exc}", file=sys.stderr)
        return 1
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0


def _listen_secret(args: argparse.Namespace) -> str | None:
    """The subscription's secret ``listen`` checks signatures with: from ``--secret-file``
    (a file only its owner can read) or the environment, never the command line, where
    every user of the machine can read it in ``ps``."""
    from ..settings import ConfigError, read_key_file

    if args.secret is not None:
        raise _Refused(2, f"--secret would show in ps: give --secret-file PATH (mode 600) "
                          f"or set {WEBHOOK_SECRET_ENV}")
    from_env = os.environ.pop(WEBHOOK_SECRET_ENV, "").strip()
    if args.secret_file:
        try:
            return read_key_file(args.secret_file)
        except ConfigError as error:
            raise _Refused(1, str(error).splitlines()[0].replace("key file", "secret file")) \
                from None
    return from_env or None


def _seconds(text: str) -> float:
    """A positive, finite number of seconds (argparse's type for ``--tolerance``)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


def _own_key(server: SandboxServer, db: Path) -> bool:
    """Whether the sandbox uses the database's own key (kept beside it)."""
    try:
        return server.keys == [stable_key(db)] if key_file_for(db).exists() else False
    except Exception:
        return False


def _banner(server: SandboxServer, db: Path, seeded: str | None,
            args: argparse.Namespace) -> None:
    """What a client needs to talk to the sandbox, and a command to try."""
    organisation = "empty organisation" if seeded in (None, "empty") else f"seed {seeded}"
    lines = [
        "frontdesk sandbox is running",
        f"  base URL          {server.base_url}",
        f"  integrations URL  {server.integrations_url}",
        *(f"  API key           {key}" for key in server.keys),
        *([f"  key kept in       {key_file_for(db)}"] if _own_key(server, db) else []),
        f"  database          {db} ({organisation})",
        "  simulator         " + (f"on (speed {args.speed:g})" if args.simulator else "off"),
        "  rate limit        " + ("10 requests/s, burst 4" if args.rate_limit else "off"),
        "  webhooks          delivered to " + (
            "any host" if args.webhooks_anywhere else "loopback addresses only")
        + " (frontdesk sandbox listen prints them)",
    ]
    if args.chaos:
        lines.append("  chaos             on (latency, 503, 429, dropped responses)")
    from .seed.names import DEMO_AGENT_EMAIL  # loaded with the server already

    demo = seeded not in (None, "empty")
    if demo:
        lines.append(f"  sign in as        {DEMO_AGENT_EMAIL} (the demo agent; any seeded "
                     "agent's email will do)")
    lines += [
        "",
        "Try it:",
        f'  curl -H "Authorization: {server.key}" {server.base_url}/v1/tags',
        *([f"  frontdesk login --base-url {server.base_url} --as {DEMO_AGENT_EMAIL}"
           "   (asks for the API key)"] if demo else []),
        "",
        "Press Ctrl-C to stop.",
    ]
    print("\n".join(lines), flush=True)
