"""The ``frontdesk`` command: the console, its demo, signing in and out, and the sandbox.

    frontdesk [--profile NAME] [--key-file PATH]        the console on a stored profile
    frontdesk --base-url URL [--integrations-url URL] --as EMAIL_OR_ID
                                                        the console for scripts/CI (key in
                                                        FRONTDESK_API_KEY or --key-file)
    frontdesk demo [--reset] [--chaos] [--seed N]       the console on a local demo sandbox
    frontdesk login / logout / profiles / locate        profiles, keys, where files live
    frontdesk web [--port P] [-- CONSOLE OPTIONS]       the console in a browser tab (web.py)
    frontdesk sandbox serve|reset …                     the sandbox alone (sandbox/cli.py)

Errors are printed for people, one line with the fix, never a traceback; exit codes are for
scripts: 0 done, 1 failed, 2 usage. The API key is never printed or logged: logs go to a
rotating file whose formatter masks every key the process uses, and while the console runs
nothing at all is written to the terminal but the console itself.

One module per command (``console``, ``demo``, ``login``, ``logout``, ``profiles``,
``locate``, ``web``), the entry point in ``main``, the log file in ``logs`` and what they share in
``common``. Importing the package stays cheap (no Textual, FastAPI, uvicorn or httpx2): every
command imports what it needs when it runs.
"""

from __future__ import annotations

from .logs import LOG_ENV, LOG_FILE
from .main import main

__all__ = ["LOG_ENV", "LOG_FILE", "main"]
