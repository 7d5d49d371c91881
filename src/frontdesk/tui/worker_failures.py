"""The one place a console worker's unexpected failure goes.

Workers run with ``exit_on_error=False`` so that a failure never ends the console; Textual
then keeps the error to itself (its devtools log). :class:`ReportingWorkers` is the app's
worker manager: every such worker that ends in error is handed to one callback, which writes
the traceback to the log file and tells the user, in one line, what did not happen.
Expected refusals are handled inside the workers; what arrives here is a bug or a surprise.
Code outside a worker that must not fail (a message handler) says its failures the same way
with :func:`failure_said` (a screen's handler of store changes has it done for it:
``tui/store_changed.py``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.worker import Worker, WorkerState
from textual.worker_manager import WorkerManager

from ..text import one_line

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger("frontdesk.tui.workers")

#: how much of the error's own text the one line keeps
_REASON_WIDTH = 120

Failed = Callable[[Worker[Any]], None]


class ReportingWorkers(WorkerManager):
    """Textual's worker manager, handing each worker that failed (and was told not to end
    the app) to ``on_failure``."""

    def __init__(self, app: App[Any], on_failure: Failed) -> None:
        super().__init__(app)
        self._on_failure = on_failure

    def _remove_worker(self, worker: Worker[Any]) -> None:
        # Textual calls this once, when the worker's task is done, whatever its end.
        super()._remove_worker(worker)
        if worker.state is WorkerState.ERROR and not worker.exit_on_error:
            try:
                self._on_failure(worker)
            except Exception:  # reporting must never take the console down
                log.exception("could not report a failed worker")


def what_failed(worker: Worker[Any]) -> str:
    """What the worker was doing, in a few words: its description when the code gave one
    (``@work(description="load the tags")``), else its method's name and where it runs
    ("load (Admin)")."""
    description = worker.description
    if description and not description.startswith("<"):  # Textual's default is a repr
        return description
    words = re.sub(r"[_\s]+", " ", worker.name).strip() or "finish a task"
    place = place_of(worker.node)
    return f"{words} ({place})" if place else words


def failure_line(worker: Worker[Any]) -> str:
    """``Could not load (Admin): KeyError: 'id' — the details are in the log``."""
    return _line(what_failed(worker), worker.error)


def log_failure(worker: Worker[Any]) -> None:
    """Write the worker's failure, with its traceback, to the log file."""
    error = worker.error
    log.error("worker %s failed: %s", what_failed(worker), error,
              exc_info=(type(error), error, error.__traceback__)
              if isinstance(error, BaseException) else None)


def failure_said(what: str, error: BaseException) -> str:
    """The same for a failure caught at a boundary outside a worker (a message handler,
    where an exception would end the console): logged with its traceback; returns the one
    line to show (``Could not save the draft: OSError: … — the details are in the log.``).
    ``what`` is what did not happen, in a few words."""
    log.error("could not %s: %s", what, error,
              exc_info=(type(error), error, error.__traceback__))
    return _line(what, error)


def _line(what: str, error: object) -> str:
    kind = type(error).__name__ if error is not None else "error"
    text = one_line(str(error), _REASON_WIDTH) if error is not None else ""
    reason = f"{kind}: {text}" if text else kind
    return f"Could not {what}: {reason} — the details are in the log."


def place_of(node: Any) -> str:
    """The name the help gives a widget or the screen it is on (``HELP_NAME``), if any: where
    a failure happened (the worker's node; the screen whose message handler failed)."""
    while node is not None:
        name = getattr(node, "HELP_NAME", "")
        if isinstance(name, str) and name and name != "Everywhere":
            return name
        node = getattr(node, "parent", None)
    return ""
