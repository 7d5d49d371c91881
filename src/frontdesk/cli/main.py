"""The entry point: the sandbox's own commands, the console, or one of the commands."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from importlib import import_module

from .common import Fail
from .console import console_main
from .logs import log_file, log_unexpected


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
            code = _command(command)(args[1:])
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


#: the commands besides the console, each in the module of its name (loaded when it runs:
#: the console's start-up loads none of them)
_COMMANDS = ("demo", "login", "logout", "profiles", "locate", "gateway", "web")


def _command(name: str) -> Callable[[Sequence[str]], int]:
    """The ``*_main`` function of a command."""
    main_function: Callable[[Sequence[str]], int] = getattr(
        import_module(f"{__package__}.{name}"), f"{name}_main")
    return main_function
