"""The entry point: the sandbox's own commands, the console, or one of the commands."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from .common import Fail
from .console import console_main
from .demo import demo_main
from .locate import locate_main
from .login import login_main
from .logout import logout_main
from .logs import log_file, log_unexpected
from .profiles import profiles_main


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command given by ``argv`` (default: the process's arguments); the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "sandbox":
        from ..sandbox.cli import main as sandbox_main

        return sandbox_main(args[1:])
    command = args[0] if args and args[0] in _COMMANDS else None
    try:
        if command is None:
            from ..startup import hold_gc

            hold_gc()  # until the console's first frame (frontdesk.startup says why)
            code = console_main(args)
        else:
            code = _COMMANDS[command](args[1:])
        sys.stdout.flush()  # here, so a reader that went away is met inside this try
        return code
    except BrokenPipeError:  # `frontdesk locate | head`: the reader has all it wanted
        _drop_stdout()
        return 141  # what a shell reports for a command ended by SIGPIPE
    except Fail as failure:
        if failure.message:
            _say(failure.message, command)
        return failure.code
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        _say("interrupted", command)
        return 130
    except Exception as exc:  # a bug: one line here, the details in the log file
        logged = log_unexpected(exc, command)
        where = f"; details are in {log_file()}" if logged else \
            f"; no details: the log file {log_file()} cannot be written"
        _say(f"unexpected error ({type(exc).__name__}){where}", command)
        return 1


def _drop_stdout() -> None:
    """Point standard output at the null device, so the interpreter's own flush on the way
    out does not meet the closed pipe again and print a traceback."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _say(message: str, command: str | None) -> None:
    """Print an error for people: ``frontdesk[ command]: message`` on stderr, on one line."""
    prefix = "frontdesk" + (f" {command}" if command else "")
    text = " ".join(part.strip() for part in message.splitlines() if part.strip())
    print(f"{prefix}: {text}", file=sys.stderr)


_COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "demo": demo_main,
    "login": login_main,
    "logout": logout_main,
    "profiles": profiles_main,
    "locate": locate_main,
}
