"""The ``frontdesk`` command: the entry point of the console and of the local sandbox.

Only ``frontdesk sandbox …`` exists so far; it is dispatched to ``frontdesk.sandbox.cli``,
imported on demand so that nothing heavy (FastAPI, uvicorn) is loaded for other commands.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: frontdesk sandbox {serve,reset} [options]

  frontdesk sandbox serve   run the local sandbox of the service in the foreground
  frontdesk sandbox reset   delete the sandbox's database

Run 'frontdesk sandbox --help' for the options.
"""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command given by ``argv`` (default: the process's arguments); the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "sandbox":
        from .sandbox.cli import main as sandbox_main

        return sandbox_main(args[1:])
    if args and args[0] in ("-h", "--help"):
        print(USAGE, end="")
        return 0
    print("the console is not built yet", file=sys.stderr)
    print(USAGE, end="", file=sys.stderr)
    return 1
