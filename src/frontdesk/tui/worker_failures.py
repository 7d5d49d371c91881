"""The one place a console worker's unexpected failure goes.

Workers run with ``exit_on_error=False`` so that a failure never ends the console; Textual
then keeps the error to itself (its devtools log). What it does say, through its public API,
is each worker's change of state: a ``Worker.StateChanged`` message posted to the node the
worker runs on (the app, a screen, a widget). That message does not bubble (Textual declares
it ``bubble=False``), so the app never sees the workers of its screens and widgets: every
class that runs workers (``@work``, ``run_worker``) takes the mix-in
:class:`ReportsFailedWorkers`, whose handler hands each worker that ended in error to the
app's :meth:`FailureReporter.worker_failed`, once; it writes the traceback to the log file
and tells the user, in one line, what did not happen. A worker run on a node handed to a
helper (``asker.run_worker``) reports through that node's class, which takes the mix-in too
(``tests/tui/test_worker_failures.py`` checks that every class running workers has it).
Expected refusals are handled inside the workers; what arrives here is a bug or a surprise.
Code outside a worker that must not fail (a message handler) says its failures the same way
with :func:`failure_said` (a screen's handler of store changes has it done for it:
``tui/store_changed.py``).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, runtime_checkable
from weakref import WeakSet

from textual.worker import Worker, WorkerState

from ..text import one_line

log = logging.getLogger("frontdesk.tui.workers")

#: how much of the error's own text the one line keeps
_REASON_WIDTH = 120

#: the failed workers already handed on: each is reported once, however many of its nodes'
#: classes handle the message (and should Textual ever let it bubble)
_reported: WeakSet[Worker[Any]] = WeakSet()


@runtime_checkable
class FailureReporter(Protocol):
    """The app, as the one place failed workers go (``FrontdeskApp.worker_failed``)."""

    def worker_failed(self, worker: Worker[Any]) -> None:
        """Log the worker's failure and say it in one line."""
        ...


class ReportsFailedWorkers:
    """A mix-in for the app and every screen or widget that runs workers: each of its
    workers that failed (and was told not to end the app) is handed to the app's
    :meth:`FailureReporter.worker_failed`. It goes last among a class's bases, so the order
    in which Textual merges the bindings of the classes (the footer's keys) stays as it was.
    A subclass that handles ``Worker.StateChanged`` itself must not call
    ``prevent_default()`` on it, which would skip this handler."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_if_failed(event.worker)


def report_if_failed(worker: Worker[Any]) -> None:
    """Hand ``worker`` to the app's reporter if it ended in error with ``exit_on_error``
    off and was not handed on before; under an app that is no reporter (a test's bare app),
    the failure is logged. Reporting never raises: it must not take the console down."""
    if (worker.state is not WorkerState.ERROR or worker.exit_on_error
            or worker in _reported):
        return
    _reported.add(worker)
    try:
        app = worker.node.app
        if isinstance(app, FailureReporter):
            app.worker_failed(worker)
        else:
            log_failure(worker)
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
